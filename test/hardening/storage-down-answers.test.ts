/**
 * What each product answers while its database is away, driven by the served documents: every
 * keyed read and delete (the compat surface's included) is sent with PostgreSQL
 * stopped; each answer passes the answer check (its status documented, the 503 body in the
 * product's envelope with Retry-After), none is a 500, and every product answers 503 to at least
 * one. A PostgreSQL of its own (scripts/postgres-temp.sh), stopped and started again.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { PRODUCT_IDS, type ProductId } from "../../api/shared/products.ts";
import { makePlatform, type TestPlatform } from "../helpers/platform.ts";
import { postgresTemp as pg } from "../helpers/postgres-server.ts";

type Operation = { responses: Record<string, unknown>; parameters?: { name: string; in: string }[] };
type Doc = { paths: Record<string, Record<string, Operation>> };

let dir = "";
let p: TestPlatform;
let keys: Record<ProductId, string>;
const docs = {} as Record<ProductId, Doc>;

beforeAll(async () => {
  const [url, folder] = pg("start").split(" ");
  dir = folder!;
  p = await makePlatform({ database: url!, sandbox: false });
  keys = (await p.tenant({ paid: true })).keys;
  for (const id of PRODUCT_IDS) docs[id] = await (await p.call(id, "/docs/json")).json();
});

afterAll(async () => {
  await p?.close().catch(() => {});
  if (dir) pg("stop", dir);
});

type Read = { method: string; template: string; path: string; keyInQuery: boolean };

/** The keyed reads and deletes that document 503, their path parameters filled in, and how each takes its key. */
function reads(id: ProductId): Read[] {
  return Object.entries(docs[id].paths).flatMap(([template, ops]) =>
    Object.entries(ops)
      .filter(([method, op]) => (method === "get" || method === "delete") && "401" in op.responses)
      .filter(([, op]) => "503" in op.responses)
      .map(([method, op]) => ({
        method: method.toUpperCase(),
        template,
        path: template.replace(/\{[^}]+\}/g, crypto.randomUUID()),
        keyInQuery: (op.parameters ?? []).some((q) => q.in === "query" && q.name === "api_key"),
      })),
  );
}

const bearerOf = (id: ProductId) => ({ headers: { authorization: `Bearer ${keys[id]}` } });

async function send(id: ProductId, read: Read) {
  const path = read.keyInQuery ? `${read.path}?api_key=${keys[id]}&number=MSCU2375717` : read.path;
  const res = await p.call(id, path, { method: read.method, ...(read.keyInQuery ? {} : bearerOf(id)) });
  return { status: res.status, retryAfter: res.headers.get("retry-after") };
}

test("with PostgreSQL stopped, each product answers 503 as documented and never 500", async () => {
  // Each key is authenticated once while the database is up, as a running client's would be.
  for (const id of PRODUCT_IDS) expect((await p.call(id, "/v1/account", bearerOf(id))).status).toBe(200);
  pg("down", dir);
  const seen: Record<string, string[]> = {};
  try {
    for (const id of PRODUCT_IDS) {
      const list = reads(id);
      expect(list.length).toBeGreaterThan(0);
      seen[id] = [];
      for (const read of list) {
        const answer = await send(id, read);
        seen[id].push(`${read.method} ${read.template} ${answer.status}`);
        expect(answer.status, `${id} ${read.method} ${read.template}`).not.toBe(500);
        if (answer.status === 503) expect(Number(answer.retryAfter)).toBeGreaterThan(0);
      }
    }
  } finally {
    pg("up", dir);
  }
  for (const id of PRODUCT_IDS) {
    expect(
      seen[id]!.some((line) => line.endsWith(" 503")),
      `${id}: ${seen[id]!.join(", ")}`,
    ).toBe(true);
  }
}, 120_000);
