/**
 * The six OpenAPI documents: valid for a real validator (@apidevtools/swagger-parser), every
 * operation answering with described statuses and bodies, request bodies as JSON only, no
 * operation the host refuses, and the webhook events of each product that sends them.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import SwaggerParser from "@apidevtools/swagger-parser";
import { PRODUCT_IDS } from "../../api/shared/products.ts";
import { isWebhookProduct, WEBHOOK_PRODUCTS } from "../../api/webhooks/catalogue.ts";
import { eventTypes } from "../../common/events/catalogue.ts";
import { makePlatform, type TestPlatform } from "../helpers/platform.ts";

type Operation = {
  requestBody?: { content: Record<string, unknown> };
  responses: Record<string, { description?: string; content?: Record<string, { schema?: unknown }> }>;
  parameters?: Array<{ name: string; in: string }>;
};
type Doc = { openapi: string; paths: Record<string, Record<string, Operation>> };

let p: TestPlatform;
beforeAll(async () => {
  p = await makePlatform();
});
afterAll(() => p.close());

const documentOf = async (product: (typeof PRODUCT_IDS)[number], path = "/docs/json") => {
  const res = await p.call(product, path);
  expect(res.status).toBe(200);
  return (await res.json()) as Doc;
};

const operations = (doc: Doc) =>
  Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({ where: `${method.toUpperCase()} ${path}`, op })),
  );

/** The operations that read nothing that can be away (no storage, workers or carrier): no 503. */
const NOTHING_AWAY = new Set([
  "GET /healthz",
  "GET /track",
  "GET /map",
  "GET /public/v1/awb-prefixes/{reference}",
]);

describe.each(PRODUCT_IDS)("%s OpenAPI document", (product) => {
  test("passes swagger-parser's validation, and /swagger/json is the same document", async () => {
    const doc = await documentOf(product);
    expect(doc.openapi).toBe("3.1.0");
    await SwaggerParser.validate(structuredClone(doc) as never);
    expect(await documentOf(product, "/swagger/json")).toEqual(doc);
  });

  test("every operation answers a success and its errors, each described, JSON bodies with a schema", async () => {
    for (const { where, op } of operations(await documentOf(product))) {
      const statuses = Object.keys(op.responses);
      expect(
        statuses.some((s) => /^2/.test(s)),
        where,
      ).toBe(true);
      expect(statuses, where).toEqual(expect.arrayContaining(["400", "500"]));
      expect(statuses.includes("503"), where).toBe(!NOTHING_AWAY.has(where));
      for (const [status, r] of Object.entries(op.responses)) {
        expect(r.description, `${where} ${status}`).toBeTruthy();
        for (const [type, media] of Object.entries(r.content ?? {})) {
          expect(["application/json", "image/svg+xml", "text/html"], `${where} ${status}`).toContain(type);
          expect(media.schema, `${where} ${status}`).toBeDefined();
        }
      }
      if (op.requestBody) expect(Object.keys(op.requestBody.content), where).toEqual(["application/json"]);
    }
  });
});

test("rates documents no write on its GET-only paths (they answer 405)", async () => {
  const doc = await documentOf("rates");
  expect(Object.keys(doc.paths["/v1/account/keys"]!)).toEqual(["get"]);
  expect(doc.paths["/v1/account/keys/{id}"]).toBeUndefined();
  expect(Object.keys(doc.paths["/v1/webhooks"]!).sort()).toEqual(["get", "post"]);
});

test("the compat surface documents its query key and parameters, not bearer auth; /v2/events its cursor", async () => {
  const doc = (await documentOf("ocean")) as Doc & {
    paths: Record<string, Record<string, Operation & { security?: unknown[] }>>;
  };
  for (const path of ["/compat/vendor/tracking", "/compat/vendor/container", "/compat/vendor/reference"]) {
    const op = doc.paths[path]!.get!;
    expect(op.security, path).toEqual([]);
    const names = op.parameters!.filter((x) => x.in === "query").map((x) => x.name);
    expect(names, path).toEqual(expect.arrayContaining(["api_key", "number", "type"]));
    expect(Object.keys(op.responses), path).toEqual(
      expect.arrayContaining(["200", "400", "401", "403", "429"]),
    );
  }
  const feed = doc.paths["/v2/events"]!.get!;
  expect(feed.parameters!.map((x) => x.name)).toEqual(expect.arrayContaining(["cursor", "limit"]));
  expect(Object.keys((feed.responses["200"] as { headers: object }).headers)).toEqual(
    expect.arrayContaining(["Next-Page", "Next-Page-Cursor", "Current-Page", "API-Version"]),
  );
});

test("each product that sends webhooks lists every event of its catalogue and ping, signed, with its exact body", async () => {
  for (const product of PRODUCT_IDS) {
    const doc = (await documentOf(product)) as Doc & {
      webhooks?: Record<string, { post: { parameters: Array<{ name: string }>; requestBody: unknown } }>;
      components: { schemas: Record<string, { required?: string[]; additionalProperties?: boolean }> };
    };
    if (!isWebhookProduct(product)) {
      expect(doc.webhooks, product).toBeUndefined();
      continue;
    }
    expect(Object.keys(doc.webhooks ?? {}), product).toEqual([...eventTypes(product), "ping"]);
    const tag = WEBHOOK_PRODUCTS[product].tag;
    for (const [type, hook] of Object.entries(doc.webhooks!)) {
      expect(hook.post.parameters.map((h) => h.name)).toEqual([
        "User-Agent",
        `X-${tag}-Event`,
        `X-${tag}-Delivery`,
        `X-${tag}-Signature`,
      ]);
      const ref = (hook.post.requestBody as { content: Record<string, { schema: { $ref: string } }> })
        .content["application/json"]!.schema.$ref;
      const body = doc.components.schemas[ref.split("/").pop()!]!;
      expect(body.required, `${product} ${type}`).toEqual(["id", "type", "occurred_at", "data"]);
      expect(body.additionalProperties).toBe(false);
    }
  }
});
