/**
 * Webhook management through app.handle on the five products: envelopes, the secret shown once,
 * catalogue filtering, PATCH and DELETE rules, 404 isolation between accounts, entitlement on writes
 * only, and the address checks at registration.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { loadConfig } from "../../api/config.ts";
import { WEBHOOK_PRODUCTS, type WebhookProduct } from "../../api/webhooks/catalogue.ts";
import { errorCode, errorProblems, successProblems } from "../helpers/envelopes.ts";
import { bearer, makePlatform, type TestPlatform } from "../helpers/platform.ts";

type Obj = Record<string, unknown>;
type Json = Obj & { data: Obj & { items?: Obj[] } };

const PRODUCTS = Object.keys(WEBHOOK_PRODUCTS) as WebhookProduct[];
const UPPER = (p: WebhookProduct) => p === "ocean" || p === "schedules" || p === "loading";
const code = (p: WebhookProduct, c: string) => (UPPER(p) ? c : c.toLowerCase());

let p: TestPlatform;
let a: Awaited<ReturnType<TestPlatform["tenant"]>>;
let b: Awaited<ReturnType<TestPlatform["tenant"]>>;

beforeAll(async () => {
  // Public answers for the names used here, so no test depends on the machine's DNS.
  const webhooks = {
    ...loadConfig({}).webhooks,
    resolve: { "hooks.example.com": ["93.184.216.34"], "other.example.com": ["2606:2800:220:1::1"] },
  };
  p = await makePlatform({ webhooks, rateWindowMs: 60_000 });
  a = await p.tenant({ paid: true });
  b = await p.tenant({ paid: true });
  for (const t of [a, b]) await p.accounts.setPlan(t.orgId, { rateLimit: 100_000 });
});
afterAll(() => p.close());

async function call(product: WebhookProduct, method: string, path: string, key: string, body?: unknown) {
  const res = await p.call(product, path, {
    method,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    ...bearer(key, body === undefined ? {} : { "content-type": "application/json" }),
  });
  return { status: res.status, body: (await res.json()) as Json };
}

const register = (product: WebhookProduct, key: string, body: unknown) =>
  call(product, "POST", "/v1/webhooks", key, body);

describe.each(PRODUCTS)("%s", (product) => {
  test("register, list, detail, patch, test, delete in the product's envelope", async () => {
    const key = a.keys[product];
    const events = WEBHOOK_PRODUCTS[product].events;
    const created = await register(product, key, {
      url: "https://hooks.example.com/in",
      event_types: [events[0], "no_such_event", events[0]],
      description: "ops",
    });
    expect(created.status).toBe(201);
    expect(successProblems(product, created.body)).toEqual([]);
    const ep = created.body.data;
    expect(Object.keys(ep).sort()).toEqual(
      ["active", "created_at", "description", "event_types", "id", "secret", "url"].sort(),
    );
    expect(ep).toMatchObject({ url: "https://hooks.example.com/in", event_types: [events[0]], active: true });
    expect(ep.secret).toMatch(/^whsec_[0-9a-f]{64}$/);
    expect(ep.created_at).toMatch(/Z$/);

    const second = await register(product, key, { url: "https://other.example.com/" });
    expect(second.body.data.event_types).toEqual([]);

    const list = await call(product, "GET", "/v1/webhooks", key);
    expect(successProblems(product, list.body)).toEqual([]);
    const items = list.body.data.items!;
    expect(items.map((i) => i.id)).toEqual([second.body.data.id, ep.id]); // newest first
    expect(items[0]).toEqual({
      id: second.body.data.id,
      url: "https://other.example.com/",
      event_types: [],
      description: "",
      active: true,
      failure_count: 0,
      last_delivery_at: null,
      created_at: second.body.data.created_at,
    });
    expect(JSON.stringify(list.body)).not.toContain("whsec_");

    const tested = await call(product, "POST", `/v1/webhooks/${ep.id}/test`, key);
    expect(tested.status).toBe(200);
    expect(tested.body.data).toEqual({ id: ep.id, test_queued: true });

    const detail = await call(product, "GET", `/v1/webhooks/${ep.id}`, key);
    expect(successProblems(product, detail.body)).toEqual([]);
    expect(JSON.stringify(detail.body)).not.toContain("whsec_");
    const recent = detail.body.data.recent_deliveries as Obj[];
    expect(recent).toHaveLength(1);
    expect(recent[0]).toEqual({
      id: expect.any(String),
      event_type: "ping",
      status: "pending",
      attempt_count: 0,
      last_status_code: null,
      last_error: null,
      created_at: expect.stringMatching(/Z$/),
      delivered_at: null,
    });

    const patched = await call(product, "PATCH", `/v1/webhooks/${ep.id}`, key, {
      url: "http://plain.example.com/", // not https: ignored without an error
      event_types: [events[1] ?? events[0], "bogus"],
      active: false,
    });
    expect(patched.status).toBe(200);
    expect(successProblems(product, patched.body)).toEqual([]);
    expect(patched.body.data).toEqual({
      id: ep.id,
      url: "https://hooks.example.com/in",
      event_types: [events[1] ?? events[0]],
      description: "ops",
      active: false,
    });
    const moved = await call(product, "PATCH", `/v1/webhooks/${ep.id}`, key, {
      url: "https://other.example.com/new",
    });
    expect(moved.body.data).toMatchObject({ url: "https://other.example.com/new", active: false });

    const deleted = await call(product, "DELETE", `/v1/webhooks/${ep.id}`, key);
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toEqual({ id: ep.id, deleted: true });
    const gone = await call(product, "GET", `/v1/webhooks/${ep.id}`, key);
    expect(gone.status).toBe(404);
    expect(errorCode(gone.body)).toBe(code(product, "NOT_FOUND"));
  });

  test("another account's endpoint answers 404 on every route", async () => {
    const mine = await register(product, a.keys[product], { url: "https://hooks.example.com/a" });
    const id = mine.body.data.id as string;
    const theirs = b.keys[product];
    for (const [method, path, body] of [
      ["GET", `/v1/webhooks/${id}`],
      ["PATCH", `/v1/webhooks/${id}`, { active: false }],
      ["POST", `/v1/webhooks/${id}/test`],
      ...(product === "ocean" ? [] : [["DELETE", `/v1/webhooks/${id}`]]),
    ] as Array<[string, string, unknown?]>) {
      const res = await call(product, method, path, theirs, body);
      expect(res.status).toBe(404);
      expect(errorProblems(product, res.body)).toEqual([]);
      expect(errorCode(res.body)).toBe(code(product, "NOT_FOUND"));
    }
    const list = await call(product, "GET", "/v1/webhooks", theirs);
    expect(list.body.data.items!.map((i) => i.id)).not.toContain(id);
    // Still there and untouched for its owner.
    const own = await call(product, "GET", `/v1/webhooks/${id}`, a.keys[product]);
    expect(own.body.data.active).toBe(true);
  });

  test("url missing, not https, or unparseable: INVALID_URL", async () => {
    for (const body of [
      {},
      { url: "http://hooks.example.com/" },
      { url: "https://" },
      { url: 42 },
      { url: "ftp://x" },
    ]) {
      const res = await register(product, a.keys[product], body);
      expect(res.status).toBe(400);
      expect(errorProblems(product, res.body)).toEqual([]);
      expect(errorCode(res.body)).toBe(code(product, "INVALID_URL"));
    }
  });

  test("register and test need the entitlement; reads, patch and delete need only a key", async () => {
    const key = a.keys[product];
    const ep = await register(product, key, { url: "https://hooks.example.com/e" });
    await p.accounts.removeEntitlement(a.orgId, product);
    try {
      for (const [path] of [["/v1/webhooks"], [`/v1/webhooks/${ep.body.data.id}/test`]]) {
        const res = await call(
          product,
          "POST",
          path!,
          key,
          path === "/v1/webhooks" ? { url: "https://hooks.example.com/" } : undefined,
        );
        expect(res.status).toBe(403);
        expect(errorCode(res.body)).toBe(code(product, "FORBIDDEN"));
      }
      expect((await call(product, "GET", "/v1/webhooks", key)).status).toBe(200);
      expect((await call(product, "GET", `/v1/webhooks/${ep.body.data.id}`, key)).status).toBe(200);
      expect(
        (await call(product, "PATCH", `/v1/webhooks/${ep.body.data.id}`, key, { active: false })).status,
      ).toBe(200);
      expect((await call(product, "DELETE", `/v1/webhooks/${ep.body.data.id}`, key)).status).toBe(200);
    } finally {
      await p.accounts.setEntitlement(a.orgId, product, null);
    }
  });

  test("a missing key answers 401 in the product's envelope", async () => {
    const res = await p.call(product, "/v1/webhooks");
    expect(res.status).toBe(401);
    expect(errorProblems(product, (await res.json()) as Json)).toEqual([]);
  });
});

test("DELETE of an unknown id: idempotent deleted:true on ocean, 404 elsewhere, as each document says", async () => {
  const id = crypto.randomUUID();
  const ocean = await call("ocean", "DELETE", `/v1/webhooks/${id}`, a.keys.ocean);
  expect(ocean.status).toBe(200);
  expect(ocean.body).toMatchObject({ ok: true, data: { id, deleted: true } });
  expect(await deleteDocuments404("ocean")).toBe(false);
  for (const product of PRODUCTS.filter((x) => x !== "ocean")) {
    const res = await call(product, "DELETE", `/v1/webhooks/${id}`, a.keys[product]);
    expect(res.status).toBe(404);
    expect(await deleteDocuments404(product), product).toBe(true);
  }
});

/** Whether the product's document lists 404 among the webhook delete's answers. */
async function deleteDocuments404(product: WebhookProduct): Promise<boolean> {
  const doc = (await (await p.call(product, "/docs/json")).json()) as {
    paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
  };
  return "404" in doc.paths["/v1/webhooks/{id}"]!.delete!.responses;
}

test("ocean DELETE of another account's endpoint answers as for an unknown id and removes nothing", async () => {
  const mine = await register("ocean", a.keys.ocean, { url: "https://hooks.example.com/kept" });
  const id = mine.body.data.id as string;
  const theirs = await call("ocean", "DELETE", `/v1/webhooks/${id}`, b.keys.ocean);
  const unknown = crypto.randomUUID();
  const never = await call("ocean", "DELETE", `/v1/webhooks/${unknown}`, b.keys.ocean);
  expect([theirs.status, theirs.body.data]).toEqual([never.status, { id, deleted: true }]);
  const own = await call("ocean", "GET", `/v1/webhooks/${id}`, a.keys.ocean);
  expect([own.status, own.body.data.url]).toEqual([200, "https://hooks.example.com/kept"]);
});

test("air cargo writes lower-case codes; the ocean family key works there too", async () => {
  const bad = await register("air", a.keys.air, { url: "http://x.example.com" });
  expect(bad.body as unknown).toEqual({
    error: { code: "invalid_url", message: expect.any(String), request_id: expect.any(String) },
  });
  const missing = await call("air", "GET", `/v1/webhooks/${crypto.randomUUID()}`, a.keys.air);
  expect(missing.body as unknown).toEqual({
    error: { code: "not_found", message: expect.any(String), request_id: expect.any(String) },
  });
  const viaOcean = await register("air", a.keys.ocean, { url: "https://hooks.example.com/air" });
  expect(viaOcean.status).toBe(201);
  expect(Object.keys(viaOcean.body)).toEqual(["data"]);
  // An air endpoint is not an ocean endpoint.
  const onOcean = await call("ocean", "GET", `/v1/webhooks/${viaOcean.body.data.id}`, a.keys.ocean);
  expect(onOcean.status).toBe(404);
});

test("rates answers 405 to non-GET everywhere but /v1/webhooks", async () => {
  const res = await call("rates", "POST", "/v1/account/keys", a.keys.rates, {});
  expect(res.status).toBe(405);
  expect((await register("rates", a.keys.rates, { url: "https://hooks.example.com/r" })).status).toBe(201);
});

test("PATCH active=true resets failure_count; unknown id is 404", async () => {
  const ep = await register("schedules", a.keys.schedules, { url: "https://hooks.example.com/s" });
  const id = ep.body.data.id as string;
  const { webhookEndpoints } = p.storage.t;
  await p.storage.db
    .update(webhookEndpoints)
    .set({ failureCount: 7, active: false })
    .where(eq(webhookEndpoints.id, id));
  const res = await call("schedules", "PATCH", `/v1/webhooks/${id}`, a.keys.schedules, { active: true });
  expect(res.body.data.active).toBe(true);
  const detail = await call("schedules", "GET", `/v1/webhooks/${id}`, a.keys.schedules);
  expect(detail.body.data.failure_count).toBe(0);
  const unknown = await call(
    "schedules",
    "PATCH",
    `/v1/webhooks/${crypto.randomUUID()}`,
    a.keys.schedules,
    {},
  );
  expect(unknown.status).toBe(404);
});

describe("address checks at registration (PORTOLAN_WEBHOOK_ALLOW_PRIVATE unset)", () => {
  test.each([
    "https://127.0.0.1/",
    "https://10.0.0.1/",
    "https://[::1]/",
    "https://169.254.169.254/latest/meta-data/",
    "https://[::ffff:169.254.169.254]/",
    "https://100.64.0.1/",
    "https://[fd00:ec2::254]/",
    "https://192.168.1.10:8443/",
    "https://localhost/",
  ])("%s is refused with INVALID_URL", async (url) => {
    for (const product of ["ocean", "air"] as const) {
      const res = await register(product, a.keys[product], { url });
      expect(res.status).toBe(400);
      expect(errorCode(res.body)).toBe(code(product, "INVALID_URL"));
      expect(String((res.body.error as Obj).message)).toContain("refused");
    }
  });

  test("a PATCH to a private https target is refused too; the endpoint keeps its url", async () => {
    const ep = await register("ocean", a.keys.ocean, { url: "https://hooks.example.com/p" });
    const res = await call("ocean", "PATCH", `/v1/webhooks/${ep.body.data.id}`, a.keys.ocean, {
      url: "https://10.1.2.3/",
    });
    expect(errorCode(res.body)).toBe("INVALID_URL");
    const detail = await call("ocean", "GET", `/v1/webhooks/${ep.body.data.id}`, a.keys.ocean);
    expect(detail.body.data.url).toBe("https://hooks.example.com/p");
  });
});

test("distance has no webhook routes", async () => {
  const res = await p.call("distance", "/v1/webhooks", bearer(a.keys.distance));
  expect(res.status).toBe(404);
});
