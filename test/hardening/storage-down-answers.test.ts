/**
 * What each product answers while its database is away, driven by the served documents: every
 * keyed read without path parameters (the compat surface's included) is sent with PostgreSQL
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

/** The keyed GET operations without path parameters that document 503, and how each takes its key. */
function reads(id: ProductId): { path: string; keyInQuery: boolean }[] {
  return Object.entries(docs[id].paths)
    .filter(([path, ops]) => !path.includes("{") && ops.get && "401" in ops.get.responses)
    .filter(([, ops]) => "503" in ops.get!.responses)
    .map(([path, ops]) => ({
      path,
      keyInQuery: (ops.get!.parameters ?? []).some((q) => q.in === "query" && q.name === "api_key"),
    }));
}

const bearerOf = (id: ProductId) => ({ headers: { authorization: `Bearer ${keys[id]}` } });

async function send(id: ProductId, read: { path: string; keyInQuery: boolean }) {
  const key = keys[id];
  const path = read.keyInQuery ? `${read.path}?api_key=${key}&number=MSCU2375717` : read.path;
  const res = await p.call(id, path, read.keyInQuery ? {} : bearerOf(id));
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
        seen[id].push(`${read.path} ${answer.status}`);
        expect(answer.status, `${id} ${read.path}`).not.toBe(500);
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
