/**
 * The graph payload version has one definition, router-wasm/src/graph.version: the Rust reader
 * includes it at compile time, the TypeScript writer and binding import it as text. No module may
 * write the number down again.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { GRAPH_FORMAT_VERSION } from "../../router-wasm/binding/formats.ts";
import { GRAPH_FORMAT_VERSION as BINDING_VERSION } from "../../router-wasm/binding/router.ts";
import { ROOT, sources } from "./source-files.ts";

test("no TypeScript module defines GRAPH_FORMAT_VERSION but router-wasm/binding/formats.ts", () => {
  const definers = ["api", "engine", "ingest", "data-build", "storage", "common", "router-wasm", "bench"]
    .flatMap((dir) => sources(dir))
    .filter((file) => /\bconst\s+GRAPH_FORMAT_VERSION\b/.test(readFileSync(join(ROOT, file), "utf8")));
  expect(definers).toEqual(["router-wasm/binding/formats.ts"]);
});

test("graph.rs takes FORMAT_VERSION from graph.version at compile time", () => {
  const graphRs = readFileSync(join(ROOT, "router-wasm/src/graph.rs"), "utf8");
  expect(graphRs).toContain(
    'pub const FORMAT_VERSION: u32 = container::version_from_text(include_str!("graph.version"));',
  );
});

test("the version file holds the number the writer and the binding use", () => {
  const text = readFileSync(join(ROOT, "router-wasm/src/graph.version"), "utf8");
  expect(GRAPH_FORMAT_VERSION).toBe(Number(text));
  expect(BINDING_VERSION).toBe(GRAPH_FORMAT_VERSION);
});
