/**
 * What each product answers while its database is away, driven by the served documents: every
 * read and delete documenting 503 (the compat surface's and the open ones included) is sent with
 * PostgreSQL stopped, with the path values and query its example call sends
 * (scripts/openapi-examples/bodies.ts); each answers 503 with Retry-After, in the product's
 * envelope (the answer check), never a 500. A read that computes without storage (a route, the
 * account a known key names) answers 503 when its key was never seen, as authenticating needs the
 * database then. A PostgreSQL of its own (scripts/postgres-temp.sh), stopped and started again.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { PRODUCT_IDS, type ProductId } from "../../api/shared/products.ts";
import { readArgsOf } from "../../scripts/openapi-examples/bodies.ts";
import { makePlatform, type TestPlatform } from "../helpers/platform.ts";
import { postgresTemp as pg } from "../helpers/postgres-server.ts";

type Operation = { responses: Record<string, unknown>; parameters?: { name: string; in: string }[] };
type Doc = { paths: Record<string, Record<string, Operation>> };

let dir = "";
let p: TestPlatform;
let keys: Record<ProductId, string>;
/** Keys of a second account, never shown to the server before PostgreSQL stops. */
let unseen: Record<ProductId, string>;
const docs = {} as Record<ProductId, Doc>;

beforeAll(async () => {
  const [url, folder] = pg("start").split(" ");
  dir = folder!;
  p = await makePlatform({ database: url!, sandbox: false });
  keys = (await p.tenant({ paid: true })).keys;
  unseen = (await p.tenant({ paid: true })).keys;
  for (const id of PRODUCT_IDS) docs[id] = await (await p.call(id, "/docs/json")).json();
});

afterAll(async () => {
  await p?.close().catch(() => {});
  if (dir) pg("stop", dir);
});

/**
 * Reads whose 503 is another dependency's: the open lookup asks the carrier live and keeps nothing
 * (its 503 is test/tracking/public-lookup-carrier-down.test.ts's).
 */
const NOT_STORED = new Set(["ocean GET /public/v1/lookup/{number}"]);

type Read = {
  method: string;
  template: string;
  path: string;
  query?: string;
  keyed: boolean;
  keyInQuery: boolean;
};

/** The reads and deletes that document 503, path values and query as their example call sends them, and how each takes its key. */
function reads(id: ProductId): Read[] {
  return Object.entries(docs[id].paths).flatMap(([template, ops]) =>
    Object.entries(ops)
      .filter(([method, op]) => (method === "get" || method === "delete") && "503" in op.responses)
      .filter(([method]) => !NOT_STORED.has(`${id} ${method.toUpperCase()} ${template}`))
      .map(([method, op]) => {
        const args = readArgsOf(`${method.toUpperCase()} ${template}`);
        return {
          method: method.toUpperCase(),
          template,
          path: template.replace(/\{(\w+)\}/g, (_m, name: string) => args.at?.[name] ?? crypto.randomUUID()),
          query: args.query,
          keyed: "401" in op.responses,
          keyInQuery: (op.parameters ?? []).some((q) => q.in === "query" && q.name === "api_key"),
        };
      }),
  );
}

const bearerOf = (key: string) => ({ headers: { authorization: `Bearer ${key}` } });

async function send(id: ProductId, read: Read, key: string) {
  const query = read.keyInQuery ? `api_key=${key}&number=MSCU2375717` : read.query;
  const path = query ? `${read.path}?${query}` : read.path;
  const auth = read.keyed && !read.keyInQuery ? bearerOf(key) : {};
  const res = await p.call(id, path, { method: read.method, ...auth });
  return { status: res.status, retryAfter: res.headers.get("retry-after") };
}

/** Sends the read with a known key, and again with a key never seen when that one answered 2xx. */
async function answers(id: ProductId, read: Read): Promise<string> {
  const label = `${id} ${read.method} ${read.template}`;
  let answer = await send(id, read, keys[id]);
  if (read.keyed && answer.status >= 200 && answer.status < 300) answer = await send(id, read, unseen[id]);
  if (answer.status === 503) expect(Number(answer.retryAfter), label).toBeGreaterThan(0);
  return `${label} ${answer.status}`;
}

test("with PostgreSQL stopped, every read documenting 503 answers it, never 500", async () => {
  // Each key is authenticated once while the database is up, as a running client's would be.
  for (const id of PRODUCT_IDS)
    expect((await p.call(id, "/v1/account", bearerOf(keys[id]))).status).toBe(200);
  pg("down", dir);
  const seen: string[] = [];
  const expected: string[] = [];
  try {
    for (const id of PRODUCT_IDS) {
      const list = reads(id);
      expect(list.length).toBeGreaterThan(0);
      for (const read of list) {
        seen.push(await answers(id, read));
        expected.push(`${id} ${read.method} ${read.template} 503`);
      }
    }
  } finally {
    pg("up", dir);
  }
  expect(seen).toEqual(expected);
}, 120_000);
