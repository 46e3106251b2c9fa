/**
 * What each product answers to a write while its database is away, driven by the served documents:
 * every keyed POST, PATCH and PUT documenting 503 is sent the valid body its example call sends
 * (scripts/openapi-examples/bodies.ts) with PostgreSQL stopped; each answer passes the answer check,
 * each a 503 with Retry-After (none a 500), and once PostgreSQL is back every collection lists what it listed before: no write
 * answered 503 happened. A PostgreSQL of its own (scripts/postgres-temp.sh), stopped and started again.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { loadConfig } from "../../api/config.ts";
import { PRODUCT_IDS, type ProductId } from "../../api/shared/products.ts";
import { bodyOf } from "../../scripts/openapi-examples/bodies.ts";
import { makePlatform, type TestPlatform } from "../helpers/platform.ts";
import { postgresTemp as pg } from "../helpers/postgres-server.ts";

type Operation = { responses: Record<string, unknown>; requestBody?: unknown };
type Doc = { paths: Record<string, Record<string, Operation>> };
type Write = { method: string; template: string; path: string; body: unknown };

let dir = "";
let p: TestPlatform;
let keys: Record<ProductId, string>;
/** Keys of a second account, never shown to the server before PostgreSQL stops. */
let unseen: Record<ProductId, string>;
const docs = {} as Record<ProductId, Doc>;

beforeAll(async () => {
  const [url, folder] = pg("start").split(" ");
  dir = folder!;
  // The example webhook's host answers loopback, as when the examples are made; nothing dispatches.
  const webhooks = {
    ...loadConfig({}).webhooks,
    allowPrivate: true,
    resolve: { "hooks.example.com": ["127.0.0.1"] },
  };
  p = await makePlatform({ database: url!, sandbox: false, webhooks });
  keys = (await p.tenant({ paid: true })).keys;
  unseen = (await p.tenant({ paid: true })).keys;
  for (const id of PRODUCT_IDS) docs[id] = await (await p.call(id, "/docs/json")).json();
});

afterAll(async () => {
  await p?.close().catch(() => {});
  if (dir) pg("stop", dir);
});

const keyed = (op: Operation) => "401" in op.responses;

/** The keyed writes that document 503, path parameters filled in, each with its example body. */
function writes(id: ProductId): Write[] {
  return Object.entries(docs[id].paths).flatMap(([template, ops]) =>
    Object.entries(ops)
      .filter(
        ([method, op]) => ["post", "patch", "put"].includes(method) && keyed(op) && "503" in op.responses,
      )
      .map(([method]) => {
        const op = `${method.toUpperCase()} ${template}`;
        return {
          method: method.toUpperCase(),
          template,
          path: template.replace(/\{[^}]+\}/g, crypto.randomUUID()),
          body: bodyOf(op),
        };
      }),
  );
}

/** The items of the keyed collections a product lists (parameterless GETs answering a list). */
async function collections(id: ProductId): Promise<Record<string, unknown>> {
  const lists = Object.entries(docs[id].paths).filter(
    ([template, ops]) => !template.includes("{") && ops.get && keyed(ops.get) && template !== "/v1/account",
  );
  const read: Record<string, unknown> = {};
  for (const [template] of lists) {
    const res = await p.call(id, template, bearerOf(keys[id]));
    const body = (await res.json()) as { data?: { items?: unknown } };
    if (res.status === 200 && Array.isArray(body.data?.items)) read[template] = body.data.items;
  }
  return read;
}

const bearerOf = (key: string, extra: Record<string, string> = {}) => ({
  headers: { authorization: `Bearer ${key}`, ...extra },
});

async function send(id: ProductId, write: Write, key: string) {
  const body = write.body === undefined ? {} : { body: JSON.stringify(write.body) };
  const res = await p.call(id, write.path, {
    method: write.method,
    ...bearerOf(key, { "content-type": "application/json" }),
    ...body,
  });
  return { status: res.status, retryAfter: res.headers.get("retry-after") };
}

/**
 * Sends the write with a known key: 503, or 2xx from a write that computes without storage (a
 * quote, a matrix); such a write answers 503 when its key was never seen, as authenticating needs
 * the database then.
 */
async function answers(id: ProductId, write: Write): Promise<string> {
  const label = `${id} ${write.method} ${write.template}`;
  let answer = await send(id, write, keys[id]);
  if (answer.status >= 200 && answer.status < 300) answer = await send(id, write, unseen[id]);
  expect(answer.status, label).toBe(503);
  expect(Number(answer.retryAfter), label).toBeGreaterThan(0);
  return `${label} ${answer.status}`;
}

/**
 * Waits until the product reads its database again after PostgreSQL is back: a connection attempt
 * the server took as it went down answers only at the pool's connect timeout (storage/postgres.ts),
 * and the read waiting on it answers 503.
 */
async function back(id: ProductId): Promise<void> {
  const end = performance.now() + 30_000;
  const read = () => p.call(id, "/v1/account/keys", bearerOf(keys[id]));
  while ((await read()).status === 503 && performance.now() < end) await Bun.sleep(100);
}

test("with PostgreSQL stopped, every write answers 503 as documented, never 500, and writes nothing", async () => {
  for (const id of PRODUCT_IDS)
    expect((await p.call(id, "/v1/account", bearerOf(keys[id]))).status).toBe(200);
  const before = {} as Record<ProductId, Record<string, unknown>>;
  for (const id of PRODUCT_IDS) before[id] = await collections(id);
  pg("down", dir);
  try {
    for (const id of PRODUCT_IDS) for (const write of writes(id)) await answers(id, write);
  } finally {
    pg("up", dir);
  }
  for (const id of PRODUCT_IDS) {
    await back(id);
    expect(await collections(id), id).toEqual(before[id]);
  }
}, 180_000);
