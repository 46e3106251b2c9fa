/**
 * Delivery fairness against real HTTPS receivers: an endpoint whose receiver never answers holds at
 * most its per-endpoint share of a dispatcher's slots, other endpoints' deliveries and retries go
 * out while its attempts are still open, the sweep keeps fanning out while every slot is busy, and
 * an address check that never answers is cut off by the attempt timeout (so the lease covers it).
 * Every assertion is about order (what arrived while which request was still open), not time.
 */
import { afterAll, afterEach, beforeAll, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { type WebhookConfig, webhookConfig } from "../../api/webhooks/config.ts";
import { Dispatcher, type DispatcherOptions } from "../../api/webhooks/dispatcher.ts";
import type { TestPlatform } from "../helpers/platform.ts";
import { type Received, type Receiver, startReceiver } from "./receiver.ts";
import { apiOf, testWebhookConfig, until, webhookPlatform } from "./setup.ts";

let rx: Receiver;
const running: Array<{ p: TestPlatform; dispatchers: Dispatcher[] }> = [];
/** /hang/ paths registered by the current test, answered before stopping so no stop waits out a timeout. */
const hangs: string[] = [];

beforeAll(async () => {
  rx = await startReceiver();
});
afterAll(() => rx.close());
afterEach(async () => {
  for (const path of hangs.splice(0)) rx.release(path);
  for (const r of running.splice(0)) {
    for (const d of r.dispatchers) await d.stop();
    await r.p.close();
  }
});

/**
 * Long enough for everything the healthy endpoint needs to fit inside one hung attempt. A
 * dispatcher that let the hung endpoint take every slot would send the healthy one nothing before
 * this ran out and the hung requests ended, which is what the tests tell apart.
 */
const SLOW_TIMEOUT_MS = 10_000;

async function setup(over: Partial<WebhookConfig>, opts: DispatcherOptions = {}) {
  const cfg = testWebhookConfig(rx, { timeoutMs: SLOW_TIMEOUT_MS, scheduleMs: [0, 60, 60], ...over });
  const env = await webhookPlatform(cfg);
  const dispatcher = await Dispatcher.start(env.p.storage, cfg, opts);
  running.push({ p: env.p, dispatchers: [dispatcher] });
  const register = async (path: string, api = env.api) => {
    if (path.startsWith("/hang/")) hangs.push(path);
    const res = await api("POST", "/v1/webhooks", { url: rx.url(path) });
    expect(res.status).toBe(201);
    return res.body.data as { id: string; secret: string };
  };
  const ping = async (id: string, api = env.api) =>
    expect((await api("POST", `/v1/webhooks/${id}/test`)).status).toBe(200);
  const { webhookDeliveries } = env.p.storage.t;
  const statuses = async (endpointId: string) =>
    (
      await env.p.storage.db
        .select({ status: webhookDeliveries.status })
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.endpointId, endpointId))
    ).map((d) => d.status);
  return { ...env, cfg, register, ping, statuses };
}

const byPath = (prefix: string) => (r: Received) => r.path.startsWith(prefix);
const open = (hits: Received[]) => hits.filter((h) => h.ended === null);

test("a receiver that never answers holds only its share of slots; another endpoint's deliveries and retries go out meanwhile", async () => {
  const s = await setup({ concurrency: 4, endpointConcurrency: 2 });
  const slow = await s.register("/hang/fair");
  const healthy = await s.register("/flaky/1/fair"); // 500 once per delivery, then 200: one retry each
  // As many as the dispatcher has slots, queued first (so due first).
  for (let i = 0; i < 4; i++) await s.ping(slow.id);
  const hung = await rx.waitFor(2, byPath("/hang/fair"));
  for (let i = 0; i < 3; i++) await s.ping(healthy.id);

  // Whichever comes first: the healthy endpoint's three deliveries and three retries, or the end
  // of one of the hung attempts (which on a dispatcher that lets one endpoint block it is the only
  // thing that frees a slot).
  await rx.waitUntil(
    () => rx.received.filter(byPath("/flaky/1/fair")).length >= 6 || hung.some((h) => h.ended !== null),
    "the healthy endpoint's retries or the end of a hung attempt",
    SLOW_TIMEOUT_MS * 2,
  );
  const served = rx.received.filter(byPath("/flaky/1/fair"));
  expect(served).toHaveLength(6);
  // All of them while the slow endpoint's first attempts were still open ...
  expect(open(hung)).toHaveLength(2);
  for (const h of served)
    for (const x of hung) expect(x.ended ?? Number.POSITIVE_INFINITY).toBeGreaterThan(h.seq);
  // ... and each delivery was retried after its failure, with the same id.
  const ids = served.map((h) => h.headers["x-portolan-ocean-delivery"]);
  expect(new Set(ids).size).toBe(3);
  for (const id of new Set(ids)) expect(ids.filter((x) => x === id)).toHaveLength(2);
  await until(async () => (await s.statuses(healthy.id)).every((st) => st === "delivered"));
  // The slow endpoint never had more than its two slots: its other two pings were due throughout
  // and two slots stood free while the healthy endpoint finished, yet nothing more was sent to it.
  expect(rx.received.filter(byPath("/hang/fair"))).toHaveLength(2);

  // Once the receiver answers, the held deliveries go out too: nothing was dropped for fairness.
  rx.release("/hang/fair");
  await until(async () => (await s.statuses(slow.id)).filter((st) => st === "delivered").length === 4);
  expect(rx.received.filter(byPath("/hang/fair"))).toHaveLength(4);
});

test("an organisation's hung endpoints hold only its share of slots; another organisation's delivery goes out meanwhile", async () => {
  // Four hung endpoints at two slots each could fill all eight slots; the organisation gets four.
  const s = await setup({ concurrency: 8, endpointConcurrency: 2, orgConcurrency: 4 });
  const hung: string[] = [];
  for (let e = 0; e < 4; e++) hung.push((await s.register(`/hang/org-a/${e}`)).id);
  // A backlog of twelve, queued first (so due first).
  for (let i = 0; i < 3; i++) for (const id of hung) await s.ping(id);
  const open4 = await rx.waitFor(4, byPath("/hang/org-a/"));
  const other = await s.p.tenant({ paid: true, name: "Other Ltd" });
  await s.p.accounts.setPlan(other.orgId, { rateLimit: 1_000_000 });
  const otherApi = apiOf(s.p, other.keys.ocean);
  const theirs = await s.register("/ok/org-b", otherApi);
  await s.ping(theirs.id, otherApi);

  await rx.waitUntil(
    () => rx.received.some(byPath("/ok/org-b")) || open4.some((h) => h.ended !== null),
    "the other organisation's delivery or the end of a hung attempt",
    SLOW_TIMEOUT_MS * 2,
  );
  const [served] = rx.received.filter(byPath("/ok/org-b"));
  expect(served).toBeDefined();
  // It arrived while every hung attempt was still open, and the hung organisation held four slots.
  const aHits = rx.received.filter(byPath("/hang/org-a/"));
  expect(open(aHits)).toHaveLength(aHits.length);
  expect(aHits).toHaveLength(4);
  await until(async () => (await s.statuses(theirs.id)).every((st) => st === "delivered"));
  expect(rx.received.filter(byPath("/hang/org-a/"))).toHaveLength(4);
  // Nothing of the backlog was dropped: released, every delivery goes out.
  rx.release("/hang/org-a/");
  for (const id of hung)
    await until(async () => (await s.statuses(id)).filter((st) => st === "delivered").length === 3);
});

test("the sweep keeps fanning out new events while every slot is held by hung attempts", async () => {
  const s = await setup({ concurrency: 2, endpointConcurrency: 2 });
  const slow = await s.register("/hang/sweep");
  const other = await s.register("/ok/sweep");
  for (let i = 0; i < 2; i++) await s.ping(slow.id);
  const hung = await rx.waitFor(2, byPath("/hang/sweep"));
  await s.p.storage.db.insert(s.p.storage.t.outbox).values({
    id: "evt-sweep",
    orgId: s.t.orgId,
    product: "ocean",
    type: "vessel_departed",
    occurredAt: "2026-11-20T09:30:00.000Z",
    data: { n: 1 },
    createdAt: "2026-11-20T09:30:01.000Z",
  });
  // Fanned out (a delivery row for the other endpoint), or a hung attempt ended first.
  await until(
    async () => (await s.statuses(other.id)).length > 0 || hung.some((h) => h.ended !== null),
    SLOW_TIMEOUT_MS * 2,
    "the fan-out or the end of a hung attempt",
  );
  expect(await s.statuses(other.id)).toHaveLength(1); // the event's delivery ...
  expect(open(hung)).toHaveLength(2); // ... while both slots were still held
  rx.release("/hang/sweep");
  const [got] = await rx.waitFor(1, byPath("/ok/sweep"));
  expect(JSON.parse(got!.raw.toString()).type).toBe("vessel_departed");
});

test("an address check that never answers is cut off by the attempt timeout", async () => {
  const s = await setup(
    { timeoutMs: 300, scheduleMs: [0] },
    // A DNS server that never answers: the lease only covers the attempt if the timeout does too.
    { resolve: () => new Promise<string[]>(() => {}) },
  );
  const ep = await s.register("/ok/no-dns");
  await s.ping(ep.id);
  await until(async () => (await s.statuses(ep.id))[0] === "dead", 10_000, "the delivery to die");
  const [attempt] = await s.p.storage.db.select().from(s.p.storage.t.webhookAttempts);
  expect(attempt).toMatchObject({ attempt: 1, statusCode: null, error: "timeout after 300 ms" });
  expect(rx.received.filter(byPath("/ok/no-dns"))).toHaveLength(0);
});

test("PORTOLAN_WEBHOOK_ENDPOINT_CONCURRENCY: 4 by default, PORTOLAN_WEBHOOK_ORG_CONCURRENCY: 16, each at least 1", () => {
  expect(webhookConfig({}).endpointConcurrency).toBe(4);
  expect(webhookConfig({}).orgConcurrency).toBe(16);
  expect(webhookConfig({ PORTOLAN_WEBHOOK_ORG_CONCURRENCY: "3" }).orgConcurrency).toBe(3);
  expect(() => webhookConfig({ PORTOLAN_WEBHOOK_ORG_CONCURRENCY: "0" })).toThrow(
    "PORTOLAN_WEBHOOK_ORG_CONCURRENCY must be a number >= 1",
  );
  expect(webhookConfig({ PORTOLAN_WEBHOOK_ENDPOINT_CONCURRENCY: "2" }).endpointConcurrency).toBe(2);
  expect(() => webhookConfig({ PORTOLAN_WEBHOOK_ENDPOINT_CONCURRENCY: "0" })).toThrow(
    "PORTOLAN_WEBHOOK_ENDPOINT_CONCURRENCY must be a number >= 1",
  );
});
