/**
 * Example answers in the documents: real answer bodies recorded by scripts/openapi-examples.ts in
 * examples/<product>.json, keyed "METHOD /path status", each set as its response's
 * `content["application/json"].example`. A key the document does not list is left out here (the
 * product serves its document all the same); test/platform/openapi-examples.test.ts fails on it.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { ProductId } from "../products.ts";

type Json = Record<string, unknown>;
type Media = { example?: unknown };
type Paths = Record<
  string,
  Record<string, { responses?: Record<string, { content?: Record<string, Media> }> }>
>;

/** The recorded answers of one product, by "METHOD /path status". */
export function examplesOf(product: ProductId): Record<string, unknown> {
  const file = fileURLToPath(new URL(`./examples/${product}.json`, import.meta.url));
  return JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
}

/** Where an example goes in the document: its response's JSON media type, when it documents one. */
export function exampleMedia(doc: Json, key: string): Media | undefined {
  const [method, path, status] = key.split(" ") as [string, string, string];
  return (doc.paths as Paths)[path]?.[method.toLowerCase()]?.responses?.[status]?.content?.[
    "application/json"
  ];
}

/** The document with each recorded answer set as its response's example. */
export function withExamples(doc: Json, examples: Record<string, unknown>): Json {
  for (const [key, body] of Object.entries(examples)) {
    const media = exampleMedia(doc, key);
    if (media) media.example = body;
  }
  return doc;
}
