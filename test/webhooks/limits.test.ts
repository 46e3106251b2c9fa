/**
 * How many endpoints an organisation may hold and how the list of them pages, through app.handle:
 * the cap per organisation and product (default and configured) answers 409 in the product's
 * envelope and writes nothing; GET /v1/webhooks pages with limit and cursor like the other lists,
 * every endpoint exactly once, newest first. SQLite and, under PORTOLAN_TEST_DB, PostgreSQL.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { and, count, eq } from "drizzle-orm";
import { loadConfig } from "../../api/config.ts";
import type { WebhookProduct } from "../../api/webhooks/catalogue.ts";
import { webhookConfig } from "../../api/webhooks/config.ts";
import { errorCode, errorProblems, successProblems } from "../helpers/envelopes.ts";
import { bearer, makePlatform, type TestPlatform } from "../helpers/platform.ts";

type Obj = Record<string, unknown>;
type Json = Obj & { data: Obj & { items?: Obj[]; has_more?: boolean; next_cursor?: string | null } };

const DEFAULT_CAP = 50;
const CONFIGURED_CAP = 60;

/** The platforms of this file: the default cap, and one configured above the default page size. */
const made: TestPlatform[] = [];
afterAll(async () => {
  for (const p of made) await p.close();
});

async function platform(env: Record<string, string> = {}) {
  const webhooks = {
    ...loadConfig({}).webhooks,
    ...webhookConfig(env),
    resolve: { "hooks.example.com": ["93.184.216.34"] },
  };
  const p = await makePlatform({ webhooks, rateWindowMs: 60_000 });
  made.push(p);
  const tenant = async () => {
    const t = await p.tenant({ paid: true });
    await p.accounts.setPlan(t.orgId, { rateLimit: 1_000_000 });
    return t;
  };
  const call = async (product: WebhookProduct, method: string, path: string, key: string, body?: unknown) => {
    const res = await p.call(product, path, {
      method,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      ...bearer(key, body === undefined ? {} : { "content-type": "application/json" }),
    });
    return { status: res.status, body: (await res.json()) as Json };
  };
  const register = (product: WebhookProduct, key: string, n: number) =>
    call(product, "POST", "/v1/webhooks", key, { url: `https://hooks.example.com/${n}` });
  const stored = async (orgId: string, product: WebhookProduct) => {
    const e = p.storage.t.webhookEndpoints;
    const [row] = await p.storage.db
      .select({ n: count() })
      .from(e)
      .where(and(eq(e.orgId, orgId), eq(e.product, product)));
    return Number(row!.n);
  };
  return { p, tenant, call, register, stored };
}

let std: Awaited<ReturnType<typeof platform>>;
let big: Awaited<ReturnType<typeof platform>>;

beforeAll(async () => {
  std = await platform();
  big = await platform({ PORTOLAN_WEBHOOK_MAX_ENDPOINTS: String(CONFIGURED_CAP) });
}, 60_000);

test(`at most ${DEFAULT_CAP} endpoints per organisation and product: the next answers 409 and writes nothing`, async () => {
  const a = await std.tenant();
  const b = await std.tenant();
  for (let i = 0; i < DEFAULT_CAP; i++)
    expect((await std.register("ocean", a.keys.ocean, i)).status).toBe(201);

  const over = await std.register("ocean", a.keys.ocean, DEFAULT_CAP);
  expect(over.status).toBe(409);
  expect(errorProblems("ocean", over.body)).toEqual([]);
  expect(errorCode(over.body)).toBe("WEBHOOK_LIMIT_REACHED");
  expect(String((over.body.error as Obj).message)).toContain(String(DEFAULT_CAP));
  expect(await std.stored(a.orgId, "ocean")).toBe(DEFAULT_CAP);

  // The cap is per organisation and per product.
  expect((await std.register("loading", a.keys.loading, 0)).status).toBe(201);
  expect((await std.register("ocean", b.keys.ocean, 0)).status).toBe(201);
  // Deleting one makes room for one.
  const first = (await std.call("ocean", "GET", "/v1/webhooks?limit=1", a.keys.ocean)).body.data.items![0]!;
  expect((await std.call("ocean", "DELETE", `/v1/webhooks/${first.id}`, a.keys.ocean)).status).toBe(200);
  expect((await std.register("ocean", a.keys.ocean, DEFAULT_CAP)).status).toBe(201);
  expect((await std.register("ocean", a.keys.ocean, DEFAULT_CAP + 1)).status).toBe(409);
  expect(await std.stored(a.orgId, "ocean")).toBe(DEFAULT_CAP);
}, 60_000);

test("concurrent registrations never pass the cap", async () => {
  const a = await std.tenant();
  const answers = await Promise.all(
    Array.from({ length: DEFAULT_CAP + 10 }, (_, i) => std.register("schedules", a.keys.schedules, i)),
  );
  expect(answers.filter((r) => r.status === 201)).toHaveLength(DEFAULT_CAP);
  expect(answers.filter((r) => r.status === 409)).toHaveLength(10);
  expect(await std.stored(a.orgId, "schedules")).toBe(DEFAULT_CAP);
}, 60_000);

/** Every page of the list, following next_cursor from the first. */
async function walk(product: WebhookProduct, key: string, limit: number) {
  const pages: Obj[][] = [];
  let cursor: string | null = null;
  for (;;) {
    const q: string = `?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
    const res = await big.call(product, "GET", `/v1/webhooks${q}`, key);
    expect(res.status).toBe(200);
    expect(successProblems(product, res.body)).toEqual([]);
    const { items, has_more, next_cursor } = res.body.data;
    expect(items!.length).toBeLessThanOrEqual(limit);
    pages.push(items!);
    expect(has_more).toBe(next_cursor !== null);
    if (!has_more) return pages;
    cursor = next_cursor!;
  }
}

/** `n` endpoints registered one after the other on the configured platform; their ids, oldest first. */
async function registered(product: WebhookProduct, key: string, n: number) {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const r = await big.register(product, key, i);
    expect(r.status).toBe(201);
    ids.push(r.body.data.id as string);
  }
  return ids;
}

test(`a configured cap (${CONFIGURED_CAP}) answers in the lower-case envelopes too`, async () => {
  const a = await big.tenant();
  await registered("rates", a.keys.rates, CONFIGURED_CAP);
  const over = await big.register("rates", a.keys.rates, CONFIGURED_CAP);
  expect(over.status).toBe(409);
  expect(errorProblems("rates", over.body)).toEqual([]);
  expect(errorCode(over.body)).toBe("webhook_limit_reached");
  expect(await big.stored(a.orgId, "rates")).toBe(CONFIGURED_CAP);
}, 60_000);

test("the load plans host answers the cap in its ok envelope", async () => {
  const a = await std.tenant();
  for (let i = 0; i < DEFAULT_CAP; i++)
    expect((await std.register("loading", a.keys.loading, i)).status).toBe(201);
  const over = await std.register("loading", a.keys.loading, DEFAULT_CAP);
  expect(over.status).toBe(409);
  expect(errorProblems("loading", over.body)).toEqual([]);
  expect(errorCode(over.body)).toBe("WEBHOOK_LIMIT_REACHED");
  expect(await std.stored(a.orgId, "loading")).toBe(DEFAULT_CAP);
}, 60_000);

test("the list pages through every endpoint exactly once, newest first", async () => {
  const a = await big.tenant();
  const newestFirst = (await registered("air", a.keys.air, CONFIGURED_CAP)).reverse();
  // The cap holds here too, in the air envelope, and the list below is unchanged by the refusal.
  const over = await big.register("air", a.keys.air, CONFIGURED_CAP);
  expect(over.status).toBe(409);
  expect(errorCode(over.body)).toBe("webhook_limit_reached");
  // Default page: 50 of them, and a cursor to the rest.
  const first = await big.call("air", "GET", "/v1/webhooks", a.keys.air);
  expect(successProblems("air", first.body)).toEqual([]);
  expect(first.body.data.items!.map((i) => i.id)).toEqual(newestFirst.slice(0, 50));
  expect(first.body.data.has_more).toBe(true);
  expect(Object.keys(first.body.data.items![0]!).sort()).toEqual(
    [
      "active",
      "created_at",
      "description",
      "event_types",
      "failure_count",
      "id",
      "last_delivery_at",
      "url",
    ].sort(),
  );

  const pages = await walk("air", a.keys.air, 7);
  expect(pages).toHaveLength(Math.ceil(CONFIGURED_CAP / 7));
  expect(pages.flat().map((i) => i.id)).toEqual(newestFirst);
  const one = await walk("air", a.keys.air, 500);
  expect(one).toHaveLength(1);
  expect(one[0]!.map((i) => i.id)).toEqual(newestFirst);
}, 60_000);

test("bad limit or cursor: VALIDATION_ERROR in the product's envelope", async () => {
  const a = await big.tenant();
  for (const product of ["loading", "air"] as const) {
    for (const q of ["limit=0", "limit=501", "limit=2.5", "limit=x", "cursor=garbage", "cursor=e30"]) {
      const res = await big.call(product, "GET", `/v1/webhooks?${q}`, a.keys[product]);
      expect(res.status).toBe(400);
      expect(errorProblems(product, res.body)).toEqual([]);
      expect(errorCode(res.body)).toBe(product === "air" ? "invalid_request" : "VALIDATION_ERROR");
    }
  }
});

test("PORTOLAN_WEBHOOK_MAX_ENDPOINTS: 50 by default, at least 1", () => {
  expect(webhookConfig({}).maxEndpoints).toBe(DEFAULT_CAP);
  expect(webhookConfig({ PORTOLAN_WEBHOOK_MAX_ENDPOINTS: "5" }).maxEndpoints).toBe(5);
  expect(() => webhookConfig({ PORTOLAN_WEBHOOK_MAX_ENDPOINTS: "0" })).toThrow(
    "PORTOLAN_WEBHOOK_MAX_ENDPOINTS must be a number >= 1",
  );
});
