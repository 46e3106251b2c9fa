/**
 * Every product served by one real Deno process (deno from npm, api/runtime/deno-main.ts as the
 * README starts it), called over sockets: the platform, ocean tracking at the sandbox carrier (a
 * Deno child process too), the compat surface, webhooks delivered to a local HTTPS receiver, air
 * cargo, schedules, load plans, rates and distance with its map page. On a SQLite file, or in the
 * suite's PostgreSQL pass on a schema of its own (PORTOLAN_TEST_DB), with rate limits in a real
 * redis-server (the npm Redis client under Deno).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "redis";
import { PAGE_CSP } from "../../api/shared/pages/serve.ts";
import { PRODUCTS, type ProductId } from "../../api/shared/products.ts";
import { verify } from "../../api/webhooks/verify.ts";
import { loadRuleStretches } from "../../engine/river/rule-stretches.ts";
import { openStorage } from "../../storage/open.ts";
import { sharedTestDatabase } from "../helpers/database.ts";
import { recordingFetch, testAccounts } from "../helpers/issued-secrets.ts";
import { type RedisProcess, startRedis } from "../helpers/redis-server.ts";
import { type ServerProcess, startServerProcess } from "../helpers/server-process.ts";
import { type Receiver, startReceiver } from "../webhooks/receiver.ts";

const root = join(import.meta.dir, "../..");
const dir = mkdtempSync(join(tmpdir(), "portolan-deno-"));
const database = sharedTestDatabase(join(dir, "portolan.sqlite"));
let server: ServerProcess;
let rx: Receiver;
let redis: RedisProcess;
const keys = {} as Record<ProductId, string>;

/** A paying organisation entitled to every product, with a key for each, made before the start. */
async function tenant(): Promise<void> {
  const storage = await openStorage(database);
  const accounts = testAccounts(storage);
  const org = await accounts.createOrg("Deno Freight", { paid: true, plan: "pro" });
  for (const p of PRODUCTS) {
    await accounts.setEntitlement(org.id, p.id, null);
    keys[p.id] = (await accounts.createKey(org.id, p.id)).key;
  }
  await storage.close();
}

beforeAll(async () => {
  await tenant();
  rx = await startReceiver();
  redis = await startRedis();
  server = await startServerProcess(
    {
      ...process.env,
      PORTOLAN_DB: database,
      REDIS_URL: redis.url,
      // The receiver is on loopback, its certificate signed by its own CA.
      PORTOLAN_WEBHOOK_CA_FILE: rx.caFile,
      PORTOLAN_WEBHOOK_RESOLVE: "hooks.test=127.0.0.1",
      PORTOLAN_WEBHOOK_ALLOW_PRIVATE: "1",
    },
    "deno",
  );
}, 120_000);
afterAll(async () => {
  await server?.stop();
  await rx?.close();
  await redis?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function call(product: ProductId, path: string, init: { method?: string; body?: unknown } = {}) {
  const json: Record<string, string> = init.body === undefined ? {} : { "content-type": "application/json" };
  const res = await recordingFetch(`${server.base[product]}${path}`, {
    method: init.method ?? "GET",
    headers: { authorization: `Bearer ${keys[product]}`, ...json },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  // biome-ignore lint/suspicious/noExplicitAny: answers of many shapes, each checked where read.
  return { status: res.status, body: (await res.json()) as any };
}

/** The first answer `done` accepts, asked again while the background roles catch up (bounded). */
async function eventually<T>(ask: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  for (let tries = 0; tries < 300; tries++) {
    const value = await ask();
    if (done(value)) return value;
    await Bun.sleep(100);
  }
  throw new Error(`${what}: never came`);
}

test("the platform: health, readiness with every check, keys and their errors", async () => {
  for (const p of PRODUCTS) {
    const health = await recordingFetch(`${server.base[p.id]}/healthz`);
    expect([p.id, health.status]).toEqual([p.id, 200]);
    expect(JSON.stringify(await health.json())).toContain(`"product":"${p.id}"`);
  }
  const ready = await recordingFetch(`${server.base.ocean}/readyz`);
  expect(ready.status).toBe(200);
  expect(await ready.json()).toMatchObject({
    status: "ready",
    checks: {
      database: { status: "up" },
      redis: { status: "up" },
      sandbox: { status: "up" },
      artifacts: { status: "up" },
    },
  });
  const account = await call("ocean", "/v1/account");
  expect(account.status).toBe(200);
  expect(account.body.data.entitlement).toBe("active");
  // The keyed call was counted in Redis by the Deno process.
  const client = await createClient({ url: redis.url }).connect();
  try {
    expect(await client.dbSize()).toBeGreaterThan(0);
  } finally {
    await client.quit();
  }
  const missing = await recordingFetch(`${server.base.distance}/v1/distance/route?from=NLRTM&to=USNYC`);
  expect(missing.status).toBe(401);
  expect(await missing.json()).toEqual({
    error: { code: "missing_key", message: expect.any(String), request_id: expect.any(String) },
  });
  // Another product's key is refused, in the product's envelope.
  const wrong = await recordingFetch(`${server.base.schedules}/v1/account`, {
    headers: { authorization: `Bearer ${keys.ocean}` },
  });
  expect(wrong.status).toBe(401);
  expect(await wrong.json()).toMatchObject({ ok: false });
});

test("ocean tracking at the sandbox carrier, and the same box on the compat surface", async () => {
  const tracked = await call("ocean", "/v1/containers", {
    method: "POST",
    body: { identifier: "MRKU0158387", identifier_type: "container_id" },
  });
  expect(tracked.status).toBe(201);
  const read = await call("ocean", "/v1/containers/lookup/MRKU0158387");
  expect(read.status).toBe(200);
  expect(read.body.data).toMatchObject({ carrier: "Maersk A/S", status: "in_transit" });
  expect(read.body.data.events.length).toBeGreaterThan(0);
  const compat = await recordingFetch(
    `${server.base.ocean}/compat/vendor/tracking?api_key=${keys.ocean}&number=MRKU0158387&route=true`,
  );
  const vendor = (await compat.json()) as {
    status: string;
    data: { containers: Array<{ events: unknown[] }> };
  };
  expect([compat.status, vendor.status]).toEqual([200, "success"]);
  expect(vendor.data.containers[0]!.events.length).toBeGreaterThan(0);
}, 60_000);

test("a webhook ping reaches the HTTPS receiver signed over its bytes", async () => {
  const made = await call("loading", "/v1/webhooks", {
    method: "POST",
    body: { url: rx.url("/ok/deno") },
  });
  expect(made.status).toBe(201);
  const { id, secret } = made.body.data as { id: string; secret: string };
  expect((await call("loading", `/v1/webhooks/${id}/test`, { method: "POST" })).status).toBe(200);
  const [got] = await rx.waitFor(1, (r) => r.path === "/ok/deno", 30_000);
  expect(JSON.parse(got!.raw.toString("utf8"))).toMatchObject({ type: "ping", data: { endpoint_id: id } });
  expect(await verify(got!.raw, got!.headers["x-portolan-loadplan-signature"]!, secret)).toBe(true);
}, 60_000);

test("air cargo: a demo waybill tracks at the sandbox airline", async () => {
  const made = await call("air", "/v1/awbs", { method: "POST", body: { awb: "160-18156574" } });
  expect(made.status).toBe(201);
  const listed = await call("air", "/v1/awbs?status=in_transit");
  expect(listed.status).toBe(200);
  expect(JSON.stringify(listed.body.data)).toContain("160-18156574");
}, 60_000);

test("schedules: sailings synced from the sandbox carrier answer a point-to-point search", async () => {
  const search = await eventually(
    () => call("schedules", "/v1/point-to-point?origin=CNSHA&destination=NLRTM"),
    (r) => r.status === 200 && JSON.stringify(r.body.data).includes('"carrier"'),
    "a sailing from Shanghai to Rotterdam",
  );
  expect(search.body).toMatchObject({ ok: true, data: { origin: "CNSHA", destination: "NLRTM" } });
}, 60_000);

test("load plans: the sample cargo list is planned in full, each unit drawn", async () => {
  const cargo = JSON.parse(readFileSync(join(root, "examples/cargo-list.json"), "utf8"));
  const plan = await call("loading", "/v1/load-plans", { method: "POST", body: cargo });
  expect(plan.status).toBe(201);
  expect(plan.body.data.status).toBe("complete");
  const svg = await recordingFetch(`${server.base.loading}/v1/load-plans/${plan.body.data.id}/units/1.svg`, {
    headers: { authorization: `Bearer ${keys.loading}` },
  });
  expect([svg.status, svg.headers.get("content-type")]).toEqual([200, expect.stringContaining("svg")]);
}, 60_000);

test("rates: the indicative offer over the distance engine", async () => {
  const search = await call(
    "rates",
    "/v1/rates/search?origin=CNSHA&destination=NLRTM&mode=OCEAN_FCL&equipment=40HC&quantity=2",
  );
  expect(search.status).toBe(200);
  expect(search.body.data.offers).toEqual(
    expect.arrayContaining([expect.objectContaining({ indicative: true })]),
  );
}, 60_000);

test("distance: a sea route and a location search in the spec's shapes", async () => {
  const route = await call("distance", "/v1/distance/route?from=NLRTM&to=USNYC&alternatives=false");
  expect(route.status).toBe(200);
  expect(route.body.data.route.distance.nm).toBeGreaterThan(3000);
  expect(route.body.data.route.distance.nm).toBeLessThan(4000);
  const bad = await call("distance", "/v1/distance/route?from=NLRTM&to=USNYC&speed_knots=99");
  expect([bad.status, bad.body.error.code]).toEqual([400, "invalid_request"]);
  const found = await call("distance", "/v1/distance/locations?q=hamburg&limit=3");
  expect(found.body.data[0].name).toMatch(/Hamburg/);
}, 60_000);

test("the route map page and its files", async () => {
  const base = server.base.distance;
  for (const path of ["/map", "/map/app.js", "/map/worldmap.js", "/map/pages.css"]) {
    const res = await recordingFetch(`${base}${path}`);
    expect(res.status, path).toBe(200);
    expect(res.headers.get("content-security-policy"), path).toBe(PAGE_CSP);
    expect((await res.arrayBuffer()).byteLength, path).toBeGreaterThan(0);
  }
  // The basemap: world-atlas's file itself (found from the page module under either runtime), gzipped.
  const land = await recordingFetch(`${base}/map/land.json`, { headers: { "accept-encoding": "gzip" } });
  expect(land.status).toBe(200);
  const basemap = createRequire(import.meta.url).resolve("world-atlas/land-50m.json");
  expect(new Uint8Array(await land.arrayBuffer())).toEqual(new Uint8Array(readFileSync(basemap)));
  // The seasonal rules' stretches, derived from the river artifacts by the Deno process.
  const stretches = await recordingFetch(`${base}/map/seasonal-stretches.json`);
  expect(await stretches.json()).toEqual(
    JSON.parse(JSON.stringify(await loadRuleStretches(join(root, "data/build")))),
  );
}, 60_000);
