/**
 * What every keyed operation of the six documents answers to a request without a key: 401 in the
 * product's envelope (the compat surface's included); and which of them answer 403 to a caller
 * the server can refuse (no entitlement, or another product's accepted key). Driven by the served
 * documents, so an operation added later is held to the same; each answer passes the answer check
 * (status, envelope, headers). Last, every operation documenting 429 answers it once its window is
 * spent: a keyed one for an organisation limited to 1 request, an open one once its address has
 * spent what X-RateLimit-Remaining said was left.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { PRODUCT_IDS, type ProductId, product } from "../../api/shared/products.ts";
import { bodyOf } from "../../scripts/openapi-examples/bodies.ts";
import { bearer, makePlatform, type TestPlatform } from "../helpers/platform.ts";

let p: TestPlatform;
type Operation = { responses: Record<string, unknown>; parameters?: { name: string; in: string }[] };
type Doc = { paths: Record<string, Record<string, Operation>> };
const docs = {} as Record<ProductId, Doc>;
beforeAll(async () => {
  p = await makePlatform();
  for (const id of PRODUCT_IDS) docs[id] = await (await p.call(id, "/docs/json")).json();
});
afterAll(() => p.close());

type Op = { method: string; template: string; path: string; keyInQuery: boolean };

/** Each documented operation answering `status`, its path parameters filled in. */
function operations(id: ProductId, status: string): Op[] {
  return Object.entries(docs[id].paths).flatMap(([template, methods]) =>
    Object.entries(methods)
      .filter(([, op]) => status in op.responses)
      .map(([method, op]) => ({
        method: method.toUpperCase(),
        template,
        path: template.replace(/\{[^}]+\}/g, crypto.randomUUID()),
        keyInQuery: (op.parameters ?? []).some((q) => q.in === "query" && q.name === "api_key"),
      })),
  );
}

/** Sends `op`; a write carries `body` (by default an empty object). */
const send = (id: ProductId, op: Op, key?: string, body: unknown = {}) => {
  const path = key && op.keyInQuery ? `${op.path}?api_key=${key}` : op.path;
  return p.call(id, path, {
    method: op.method,
    headers: {
      "content-type": "application/json",
      ...(key && !op.keyInQuery ? { authorization: `Bearer ${key}` } : {}),
    },
    ...(op.method === "GET" || op.method === "DELETE" ? {} : { body: JSON.stringify(body) }),
  });
};

test.each(PRODUCT_IDS)("%s: every operation documenting 401 answers it without a key", async (id) => {
  const ops = operations(id, "401");
  expect(ops.length).toBeGreaterThan(0);
  const answered: string[] = [];
  for (const op of ops) answered.push(`${op.method} ${op.template} ${(await send(id, op)).status}`);
  expect(answered).toEqual(ops.map((op) => `${op.method} ${op.template} 401`));
});

/** Keys the server may refuse with 403: its own product's key of an organisation entitled to nothing, and keys of the products it also accepts. */
async function refusableKeys(id: ProductId): Promise<string[]> {
  const org = await p.accounts.createOrg(`unentitled ${id}`, { paid: false, plan: "free" });
  const ids = [id, ...product(id).alsoAccepts];
  return Promise.all(ids.map(async (k) => (await p.accounts.createKey(org.id, k)).key));
}

test.each(PRODUCT_IDS)("%s: a read documents 403 exactly when a refusable caller gets it", async (id) => {
  const keys = await refusableKeys(id);
  const reads = operations(id, "401").filter((op) => op.method === "GET" || op.method === "DELETE");
  expect(reads.length).toBeGreaterThan(0);
  const seen: string[] = [];
  const documented: string[] = [];
  for (const op of reads) {
    const statuses = [];
    for (const key of keys) statuses.push((await send(id, op, key)).status);
    const name = `${op.method} ${op.template}`;
    seen.push(`${name} ${statuses.includes(403) ? "403" : "-"}`);
    documented.push(
      `${name} ${"403" in docs[id].paths[op.template]![op.method.toLowerCase()]!.responses ? "403" : "-"}`,
    );
  }
  expect(seen).toEqual(documented);
});

test.each(PRODUCT_IDS)("%s: every write documenting 403 answers it to a refusable caller", async (id) => {
  const keys = await refusableKeys(id);
  const writes = operations(id, "403").filter((op) => op.method !== "GET" && op.method !== "DELETE");
  const refused: string[] = [];
  for (const op of writes) {
    // The example call's valid body: the refusal is the caller's, not the body's.
    const body = bodyOf(`${op.method} ${op.template}`) ?? {};
    const statuses = [];
    for (const key of keys) statuses.push((await send(id, op, key, body)).status);
    refused.push(`${op.method} ${op.template} ${statuses.includes(403) ? "403" : statuses.join(",")}`);
  }
  expect(refused).toEqual(writes.map((op) => `${op.method} ${op.template} 403`));
});

/** The statuses `ops` answer, in order, as "METHOD template status". */
async function answers(id: ProductId, ops: Op[], key?: string): Promise<string[]> {
  const out: string[] = [];
  for (const op of ops) {
    const res = await send(id, op, key);
    expect(res.headers.get("x-ratelimit-remaining"), `${op.method} ${op.template}`).toBe("0");
    expect(Number(res.headers.get("retry-after")), `${op.method} ${op.template}`).toBeGreaterThan(0);
    out.push(`${op.method} ${op.template} ${res.status}`);
  }
  return out;
}

test.each(PRODUCT_IDS)("%s: every operation documenting 429 answers it past its window", async (id) => {
  const limited = operations(id, "429");
  const keyed = new Set(operations(id, "401").map((op) => `${op.method} ${op.template}`));
  const [byKey, byAddress] = [
    limited.filter((op) => keyed.has(`${op.method} ${op.template}`)),
    limited.filter((op) => !keyed.has(`${op.method} ${op.template}`)),
  ];
  expect(byKey.length).toBeGreaterThan(0);
  const { orgId, keys } = await p.tenant({ name: `limited ${id}` });
  await p.accounts.setPlan(orgId, { rateLimit: 1 });
  expect((await p.call(id, "/v1/account", bearer(keys[id]))).status).toBe(200);
  expect(await answers(id, byKey, keys[id])).toEqual(byKey.map((op) => `${op.method} ${op.template} 429`));
  if (byAddress.length === 0) return;
  const first = await send(id, byAddress[0]!);
  for (let left = Number(first.headers.get("x-ratelimit-remaining")); left > 0; left--) {
    await send(id, byAddress[0]!);
  }
  expect(await answers(id, byAddress)).toEqual(byAddress.map((op) => `${op.method} ${op.template} 429`));
});
