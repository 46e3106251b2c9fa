/**
 * What every keyed operation of the six documents answers to a request without a key: 401 in the
 * product's envelope (the compat surface's included). Driven by the served documents, so an
 * operation added later is held to the same; each answer passes the answer check (status,
 * envelope, headers).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { PRODUCT_IDS, type ProductId } from "../../api/shared/products.ts";
import { makePlatform, type TestPlatform } from "../helpers/platform.ts";

let p: TestPlatform;
type Doc = { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
const docs = {} as Record<ProductId, Doc>;
beforeAll(async () => {
  p = await makePlatform();
  for (const id of PRODUCT_IDS) docs[id] = await (await p.call(id, "/docs/json")).json();
});
afterAll(() => p.close());

type Op = { method: string; template: string; path: string };

/** Each documented operation answering `status`, its path parameters filled in. */
function operations(id: ProductId, status: string): Op[] {
  return Object.entries(docs[id].paths).flatMap(([template, methods]) =>
    Object.entries(methods)
      .filter(([, op]) => status in op.responses)
      .map(([method]) => ({
        method: method.toUpperCase(),
        template,
        path: template.replace(/\{[^}]+\}/g, crypto.randomUUID()),
      })),
  );
}

const send = (id: ProductId, op: Op) =>
  p.call(id, op.path, {
    method: op.method,
    headers: { "content-type": "application/json" },
    ...(op.method === "GET" || op.method === "DELETE" ? {} : { body: "{}" }),
  });

test.each(PRODUCT_IDS)("%s: every operation documenting 401 answers it without a key", async (id) => {
  const ops = operations(id, "401");
  expect(ops.length).toBeGreaterThan(0);
  const answered: string[] = [];
  for (const op of ops) answered.push(`${op.method} ${op.template} ${(await send(id, op)).status}`);
  expect(answered).toEqual(ops.map((op) => `${op.method} ${op.template} 401`));
});
