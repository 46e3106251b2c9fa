/**
 * Deliveries to a real local HTTPS receiver (own CA via PORTOLAN_WEBHOOK_CA_FILE) through an
 * in-process dispatcher: signatures over the exact bytes, the retry ladder, dead deliveries, the
 * failure count, auto-disable and re-enable, 410, redirects, timeouts, resets, capped reads,
 * DELETE discarding the queue, the connect-time address re-check, fan-out and concurrent dispatchers.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import type { WebhookConfig } from "../../api/webhooks/config.ts";
import { Dispatcher, deliveryIdFor } from "../../api/webhooks/dispatcher.ts";
import { verify } from "../../api/webhooks/verify.ts";
import type { TestPlatform } from "../helpers/platform.ts";
import { deliveryChecker } from "./document-check.ts";
import { type Receiver, startReceiver } from "./receiver.ts";
import { apiOf, type Json, TEST_TIMEOUT_MS, testWebhookConfig, until, webhookPlatform } from "./setup.ts";

let rx: Receiver;
const running: Array<{ p: TestPlatform; dispatchers: Dispatcher[] }> = [];

beforeAll(async () => {
  rx = await startReceiver();
});
afterAll(() => rx.close());
afterEach(async () => {
  for (const r of running.splice(0)) {
    for (const d of r.dispatchers) await d.stop();
    await r.p.close();
  }
});

async function setup(over: Partial<WebhookConfig> = {}, dispatchers = 1) {
  const cfg = testWebhookConfig(rx, over);
  const env = await webhookPlatform(cfg);
  const ds = await Promise.all(
    Array.from({ length: dispatchers }, () => Dispatcher.start(env.p.storage, cfg)),
  );
  running.push({ p: env.p, dispatchers: ds });
  const register = async (path: string, extra: Record<string, unknown> = {}) => {
    const res = await env.api("POST", "/v1/webhooks", { url: rx.url(path), ...extra });
    expect(res.status).toBe(201);
    return res.body.data as { id: string; secret: string };
  };
  const detail = async (id: string) =>
    (await env.api("GET", `/v1/webhooks/${id}`)).body.data as Json["data"] & {
      recent_deliveries: Json[];
    };
  const ping = async (id: string) =>
    expect((await env.api("POST", `/v1/webhooks/${id}/test`)).status).toBe(200);
  return { ...env, cfg, dispatchers: ds, register, detail, ping };
}

type Setup = Awaited<ReturnType<typeof setup>>;

/** The endpoint's detail once its newest delivery has reached `status`. */
const settled = (s: Setup, id: string, status: string) =>
  until(async () => {
    const d = await s.detail(id);
    return d.recent_deliveries[0]?.status === status ? d : null;
  });

const byPath = (prefix: string) => (r: { path: string }) => r.path.startsWith(prefix);

test("a ping arrives signed over its exact bytes, with the documented headers and four body keys, as the document's webhook", async () => {
  const s = await setup();
  const ep = await s.register("/ok/signed");
  await s.ping(ep.id);
  const [got] = await rx.waitFor(1, byPath("/ok/signed"));
  const body = JSON.parse(got!.raw.toString("utf8"));
  expect(Object.keys(body)).toEqual(["id", "type", "occurred_at", "data"]);
  expect(body.type).toBe("ping");
  expect(body.occurred_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  expect(got!.headers).toMatchObject({
    "content-type": "application/json",
    "user-agent": "Portolan-Ocean-Webhooks/1",
    "x-portolan-ocean-event": "ping",
    "x-portolan-ocean-delivery": body.id,
    host: `hooks.test:${rx.port}`,
  });
  expect(got!.headers["x-portolan-ocean-signature"]).toMatch(/^sha256=[0-9a-f]{64}$/);
  (await deliveryChecker(s.p, "ocean"))(got!);
  expect(await verify(got!.raw, got!.headers["x-portolan-ocean-signature"]!, ep.secret)).toBe(true);
  // One flipped byte, or another endpoint's secret, fails.
  const tampered = Buffer.from(got!.raw);
  tampered.writeUInt8(tampered.readUInt8(tampered.length - 2) ^ 1, tampered.length - 2);
  expect(await verify(tampered, got!.headers["x-portolan-ocean-signature"]!, ep.secret)).toBe(false);
  const other = await s.register("/ok/other");
  expect(await verify(got!.raw, got!.headers["x-portolan-ocean-signature"]!, other.secret)).toBe(false);

  const d = await settled(s, ep.id, "delivered");
  const deliveredAt = d.recent_deliveries[0]!.delivered_at;
  expect(d.last_delivery_at).toBe(deliveredAt);
  expect(d.recent_deliveries[0]).toMatchObject({
    id: body.id,
    event_type: "ping",
    attempt_count: 1,
    last_status_code: 200,
    last_error: null,
    delivered_at: expect.stringMatching(/Z$/),
  });
  expect(d.failure_count).toBe(0);
});

test("failures climb the ladder with the same id and bytes, then a success resets failure_count", async () => {
  const s = await setup({ scheduleMs: [0, 150, 300, 300] });
  const ep = await s.register("/flaky/2");
  await s.ping(ep.id);
  const hits = await rx.waitFor(3, byPath("/flaky/2"));
  expect(new Set(hits.map((h) => h.headers["x-portolan-ocean-delivery"])).size).toBe(1);
  expect(new Set(hits.map((h) => h.raw.toString("hex"))).size).toBe(1);
  expect(new Set(hits.map((h) => h.headers["x-portolan-ocean-signature"])).size).toBe(1);
  // The gaps follow the ladder (no jitter in tests): >= 150 ms, then >= 300 ms.
  expect(hits[1]!.at - hits[0]!.at).toBeGreaterThanOrEqual(140);
  expect(hits[2]!.at - hits[1]!.at).toBeGreaterThanOrEqual(290);
  const d = await settled(s, ep.id, "delivered");
  expect(d.recent_deliveries[0]).toMatchObject({ attempt_count: 3, last_status_code: 200, last_error: null });
  expect(d.failure_count).toBe(0);
  const { webhookAttempts } = s.p.storage.t;
  const attempts = await s.p.storage.db
    .select()
    .from(webhookAttempts)
    .where(eq(webhookAttempts.deliveryId, d.recent_deliveries[0]!.id as string))
    .orderBy(webhookAttempts.attempt);
  expect(attempts.map((a) => [a.attempt, a.statusCode, a.error, a.responseExcerpt])).toEqual([
    [1, 500, "HTTP 500", "flaky"],
    [2, 500, "HTTP 500", "flaky"],
    [3, 200, null, "flaky"],
  ]);
});

test("a delivery that fails every rung is dead; a failure streak disables the endpoint; PATCH active=true brings it back", async () => {
  const s = await setup({ disableAfterFailures: 4 });
  const ep = await s.register("/status/500");
  await s.ping(ep.id);
  let d = await settled(s, ep.id, "dead");
  expect(d.recent_deliveries[0]).toMatchObject({
    attempt_count: 3,
    last_status_code: 500,
    last_error: "HTTP 500",
    delivered_at: null,
  });
  expect(d).toMatchObject({ failure_count: 3, active: true, last_delivery_at: null });

  await s.ping(ep.id);
  d = await until(async () => {
    const d = await s.detail(ep.id);
    return d.active === false ? d : null;
  });
  expect(d.failure_count).toBe(4);
  // The second ping is held, not burned, while the endpoint is off.
  expect(d.recent_deliveries[0]).toMatchObject({ status: "pending", attempt_count: 1 });
  await Bun.sleep(300);
  expect((await s.detail(ep.id)).recent_deliveries[0]).toMatchObject({ status: "pending", attempt_count: 1 });

  const patched = await s.api("PATCH", `/v1/webhooks/${ep.id}`, { url: rx.url("/ok/revived"), active: true });
  expect(patched.body.data).toMatchObject({ active: true, url: rx.url("/ok/revived") });
  expect((await s.detail(ep.id)).failure_count).toBe(0);
  const [revived] = await rx.waitFor(1, byPath("/ok/revived"));
  expect(revived!.headers["x-portolan-ocean-delivery"]).toBe(d.recent_deliveries[0]!.id as string);
  d = await settled(s, ep.id, "delivered");
  expect(d.recent_deliveries[0]!.attempt_count).toBe(2);
  expect(d.failure_count).toBe(0);
});

test("410 Gone kills the delivery and disables the endpoint at once", async () => {
  const s = await setup({ scheduleMs: [0, 50, 50, 50, 50] });
  const ep = await s.register("/status/410");
  await s.ping(ep.id);
  const d = await settled(s, ep.id, "dead");
  expect(d).toMatchObject({ active: false, failure_count: 1 });
  expect(d.recent_deliveries[0]).toMatchObject({
    attempt_count: 1,
    last_status_code: 410,
    last_error: "HTTP 410",
  });
});

describe.each([
  ["/redirect", 302, /^HTTP 302: redirect to https:\/\/hooks\.test\/elsewhere not followed$/],
  ["/slow/3000", null, new RegExp(`^timeout after ${TEST_TIMEOUT_MS} ms$`)],
  ["/reset", null, /./],
  ["/status/404", 404, /^HTTP 404$/],
])("%s", (path, statusCode, error) => {
  test("counts as a failed attempt with what was seen", async () => {
    const s = await setup({ scheduleMs: [0] });
    const ep = await s.register(path);
    await s.ping(ep.id);
    const d = await settled(s, ep.id, "dead");
    expect(d.recent_deliveries[0]!.last_status_code).toBe(statusCode);
    expect(String(d.recent_deliveries[0]!.last_error)).toMatch(error);
    expect(d.failure_count).toBe(1);
    expect(d.last_delivery_at).toBeNull();
    expect(rx.received.filter(byPath("/elsewhere"))).toHaveLength(0);
  });
});

test("a 2xx whose body stalls past the timeout is still a success", async () => {
  const s = await setup({ scheduleMs: [0] });
  const ep = await s.register("/stall");
  await s.ping(ep.id);
  const d = await settled(s, ep.id, "delivered");
  expect(d.recent_deliveries[0]).toMatchObject({ attempt_count: 1, last_status_code: 200, last_error: null });
});

test("a receiver's response is read up to 1 KiB only", async () => {
  const s = await setup({ scheduleMs: [0] });
  const ep = await s.register("/status/503");
  await s.ping(ep.id);
  await until(async () => (await s.detail(ep.id)).recent_deliveries[0]?.status === "dead");
  const [attempt] = await s.p.storage.db.select().from(s.p.storage.t.webhookAttempts);
  expect(attempt!.responseExcerpt).toBe("x".repeat(1024));
});

test("DELETE removes the endpoint, its history and its queued deliveries", async () => {
  const s = await setup({ scheduleMs: [0, 400, 400] });
  const ep = await s.register("/status/500/deleted");
  await s.ping(ep.id);
  await s.ping(ep.id);
  await rx.waitFor(2, byPath("/status/500/deleted"));
  const { db, t } = s.p.storage;
  await until(async () => (await db.select().from(t.webhookAttempts)).length === 2);
  expect((await s.api("DELETE", `/v1/webhooks/${ep.id}`)).body.data).toEqual({ id: ep.id, deleted: true });
  expect(
    await db.select().from(t.webhookDeliveries).where(eq(t.webhookDeliveries.endpointId, ep.id)),
  ).toEqual([]);
  expect(await db.select().from(t.webhookAttempts)).toEqual([]);
  await Bun.sleep(700); // past the next rung: nothing more is sent
  expect(rx.received.filter(byPath("/status/500/deleted"))).toHaveLength(2);
});

test("connect-time re-check: a name that was public at registration and now resolves to loopback is refused", async () => {
  const s = await setup({
    allowPrivate: false,
    resolve: { "rebind.test": ["93.184.216.34"] },
    scheduleMs: [0],
  });
  const res = await s.api("POST", "/v1/webhooks", { url: rx.url("/ok/rebind", "rebind.test") });
  expect(res.status).toBe(201);
  s.cfg.resolve["rebind.test"] = ["127.0.0.1"]; // the DNS answer changes after registration
  await s.ping(res.body.data.id as string);
  const d = await settled(s, res.body.data.id as string, "dead");
  expect(d.recent_deliveries[0]!.last_status_code).toBeNull();
  expect(String(d.recent_deliveries[0]!.last_error)).toBe(
    "refused: rebind.test resolves to 127.0.0.1, a private, loopback or reserved address",
  );
  expect(rx.received.filter(byPath("/ok/rebind"))).toHaveLength(0);
});

test("outbox rows fan out to the subscribed endpoints of their organisation and product, with stable per-endpoint ids", async () => {
  const s = await setup();
  const arrived = await s.register("/ok/fan-arrived", { event_types: ["container_arrived"] });
  const all = await s.register("/ok/fan-all");
  const eta = await s.register("/ok/fan-eta", { event_types: ["eta_changed"] });
  const other = await s.p.tenant();
  const foreign = await apiOf(s.p, other.keys.ocean)("POST", "/v1/webhooks", {
    url: rx.url("/ok/fan-foreign"),
  });
  expect(foreign.status).toBe(201);
  const data = { container_number: "MSKU1234565", event_date_time: "2026-11-20T08:00:00Z" };
  const row = { orgId: s.t.orgId, type: "container_arrived", occurredAt: "2026-11-20T09:30:00.000Z", data };
  await s.p.storage.db.insert(s.p.storage.t.outbox).values([
    { id: "evt-1", product: "ocean", createdAt: "2026-11-20T09:30:01Z", ...row },
    { id: "evt-air", product: "air", createdAt: "2026-11-20T09:30:01Z", ...row, type: "awb_arrived" },
  ]);
  const hits = await rx.waitFor(2, (r) => r.path.startsWith("/ok/fan-"));
  await Bun.sleep(200);
  const seen = rx.received.filter((r) => r.path.startsWith("/ok/fan-"));
  expect(seen.map((h) => h.path).sort()).toEqual(["/ok/fan-all", "/ok/fan-arrived"]);
  for (const [h, ep] of [
    [hits.find((x) => x.path === "/ok/fan-arrived")!, arrived],
    [hits.find((x) => x.path === "/ok/fan-all")!, all],
  ] as const) {
    const body = JSON.parse(h.raw.toString());
    expect(body).toEqual({
      id: deliveryIdFor("evt-1", ep.id),
      type: "container_arrived",
      occurred_at: "2026-11-20T09:30:00.000Z",
      data,
    });
    expect(await verify(h.raw, h.headers["x-portolan-ocean-signature"]!, ep.secret)).toBe(true);
  }
  expect(eta.id).toBeTruthy();
});

test("two dispatchers on one database deliver each of 120 pings exactly once", async () => {
  const s = await setup({ concurrency: 8 }, 2);
  const ep = await s.register("/slow/20/pair");
  for (let i = 0; i < 120; i++) await s.ping(ep.id);
  const hits = await rx.waitFor(120, byPath("/slow/20/pair"));
  await Bun.sleep(300);
  const ids = rx.received.filter(byPath("/slow/20/pair")).map((h) => h.headers["x-portolan-ocean-delivery"]);
  expect(ids).toHaveLength(120);
  expect(new Set(ids).size).toBe(120);
  const { webhookAttempts } = s.p.storage.t;
  const owners = new Set(
    (await s.p.storage.db.select({ dispatcher: webhookAttempts.dispatcher }).from(webhookAttempts)).map(
      (a) => a.dispatcher,
    ),
  );
  expect(owners.size).toBe(2); // both took part
  expect(hits).toHaveLength(120);
});

test("key rotation: a secret sealed under the old key still signs, and is resealed under the new one", async () => {
  const key = (byte: number) => btoa(String.fromCharCode(...new Uint8Array(32).fill(byte)));
  const s = await setup({ keys: `k1:${key(1)}` }, 0);
  const ep = await s.register("/ok/rotated");
  const { webhookEndpoints } = s.p.storage.t;
  const sealedUnder = async () =>
    (await s.p.storage.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, ep.id)).limit(1))[0]!
      .secretKeyId;
  expect(await sealedUnder()).toBe("k1");
  const rotated = await Dispatcher.start(s.p.storage, { ...s.cfg, keys: `k2:${key(2)},k1:${key(1)}` });
  running.at(-1)!.dispatchers.push(rotated);
  await s.ping(ep.id);
  const [got] = await rx.waitFor(1, byPath("/ok/rotated"));
  expect(await verify(got!.raw, got!.headers["x-portolan-ocean-signature"]!, ep.secret)).toBe(true);
  await until(async () => (await sealedUnder()) === "k2");
});
