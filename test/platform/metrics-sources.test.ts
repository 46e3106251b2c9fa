/**
 * The metrics that count what the process's parts do, moving with real work and read over the
 * admin listener's socket with an npm Prometheus text parser: the route workers' queue, busy
 * workers and shed jobs under a burst of real routes; a carrier that does not answer, counted and
 * reported degraded in /readyz; webhook deliveries to a real HTTPS receiver by outcome, with the
 * event-to-delivery lag; a tracked record past its poll, as due records and poller lag; the
 * database connections in use, the scrape's own statements not among them.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import parse from "parse-prometheus-text-format";
import { distanceApp } from "../../api/distance/app.ts";
import { observeProcess } from "../../api/observe.ts";
import { serveAdmin, serveBun } from "../../api/runtime/bun-serve.ts";
import { adminApp } from "../../api/shared/admin.ts";
import { Dispatcher } from "../../api/webhooks/dispatcher.ts";
import { registry } from "../../common/metrics.ts";
import { RoutePool } from "../../engine/sea/pool.ts";
import { carrierConnectors } from "../../ingest/carriers/registry.ts";
import { bearer, type TestPlatform } from "../helpers/platform.ts";
import { type Receiver, startReceiver } from "../webhooks/receiver.ts";
import { apiOf, testWebhookConfig, until, webhookPlatform } from "../webhooks/setup.ts";

const BUILD_DIR = join(import.meta.dir, "../../data/build");
/** Long searches (alternatives and geometry), so that a burst stays in flight. */
const LONG = "/v1/distance/route?from=NLRTM&to=AUSYD&path=true&alternatives=true";

let rx: Receiver;
let p: TestPlatform;
let orgKeys: Record<"ocean" | "distance", string>;
let pool: RoutePool;
let admin: ReturnType<typeof serveAdmin>;

beforeAll(async () => {
  rx = await startReceiver();
  // The route cache off: every request of the burst goes to the workers.
  const env = await webhookPlatform(testWebhookConfig(rx), { buildDir: BUILD_DIR, routeCacheEntries: 0 });
  p = env.p;
  orgKeys = env.t.keys;
  // One worker with room for two jobs waiting.
  pool = await RoutePool.start({ buildDir: BUILD_DIR, workers: 1, queue: 2 });
  observeProcess(p, pool);
  admin = serveAdmin(adminApp(p.readiness), "127.0.0.1", 0);
});
afterAll(async () => {
  admin?.stop(true);
  await pool?.close();
  await p?.close();
  await rx?.close();
});

const scrape = async () => parse(await (await fetch(`http://127.0.0.1:${admin.port}/metrics`)).text());

/** A series' value (a histogram's count) by its labels; 0 when absent. */
function value(
  families: ReturnType<typeof parse>,
  name: string,
  labels: Record<string, string> = {},
): number {
  const family = families.find((f) => f.name === name);
  const series = family?.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));
  return Number(series?.value ?? series?.count ?? 0);
}

describe("route workers", () => {
  test("a burst shows the queue and the busy worker, and every 503 counts as shed", async () => {
    const before = await scrape();
    expect(value(before, "portolan_route_workers")).toBe(1);
    const server = serveBun(distanceApp(p, { routes: pool }), "127.0.0.1", 0);
    try {
      const burst = Array.from({ length: 12 }, async () => {
        const res = await fetch(`http://127.0.0.1:${server.port}${LONG}`, bearer(orgKeys.distance));
        await res.arrayBuffer();
        return res.status;
      });
      while (!(pool.stats().busy === 1 && pool.stats().waiting > 0)) await Bun.sleep(1);
      // In process, so that the gauges read the pool in this turn of the event loop, as seen here.
      const { waiting } = pool.stats();
      const during = parse(await registry.metrics());
      expect(value(during, "portolan_route_workers_busy")).toBe(1);
      expect(value(during, "portolan_route_queue_depth", { lane: "route" })).toBe(waiting);
      const statuses = await Promise.all(burst);
      const shed = statuses.filter((s) => s === 503).length;
      expect(shed).toBeGreaterThan(0);
      expect(shed + statuses.filter((s) => s === 200).length).toBe(12);
      const after = await scrape();
      const moved = (name: string, labels: Record<string, string> = {}) =>
        value(after, name, labels) - value(before, name, labels);
      expect(moved("portolan_route_shed_total", { lane: "route" })).toBe(shed);
      expect(value(after, "portolan_route_queue_depth", { lane: "route" })).toBe(0);
      expect(value(after, "portolan_route_workers_busy")).toBe(0);
    } finally {
      server.stop(true);
    }
  });
});

describe("carrier connectors", () => {
  test("a carrier that does not answer is counted by failure and degrades /readyz", async () => {
    // A port nothing listens on any more.
    const gone = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response() });
    const baseUrl = `http://127.0.0.1:${gone.port}`;
    gone.stop(true);
    const labels = { kind: "carrier", line: "ZZZU", error: "unavailable" };
    const before = value(await scrape(), "portolan_connector_errors_total", labels);
    const connector = carrierConnectors([{ scac: "ZZZU", baseUrl, timeoutMs: 2000 }], { now: Date.now }).get(
      "ZZZU",
    )!;
    const failed = await connector.fetchEvents({ kind: "container", value: "MSCU1234565" }).catch((e) => e);
    expect(failed).toBeInstanceOf(Error);
    expect(value(await scrape(), "portolan_connector_errors_total", labels)).toBe(before + 1);
    const ready = await fetch(`http://127.0.0.1:${admin.port}/readyz`);
    const body = (await ready.json()) as { checks: Record<string, { status: string; detail?: string }> };
    expect(ready.status).toBe(200);
    expect(body.checks.carriers).toEqual({ status: "degraded", detail: "unreachable: carrier ZZZU" });
  });
});

describe("webhook deliveries", () => {
  test("attempts count by outcome; a delivered event's lag is observed", async () => {
    const dispatcher = await Dispatcher.start(p.storage, testWebhookConfig(rx));
    try {
      const api = apiOf(p, orgKeys.ocean);
      const endpoint = async (path: string) =>
        ((await api("POST", "/v1/webhooks", { url: rx.url(path) })).body.data as { id: string }).id;
      const ok = await endpoint("/ok/metrics");
      const failing = await endpoint("/status/500");
      const before = await scrape();
      for (const id of [ok, failing]) expect((await api("POST", `/v1/webhooks/${id}/test`)).status).toBe(200);
      const moved = async (outcome: string) =>
        value(await scrape(), "portolan_webhook_delivery_attempts_total", { outcome }) -
        value(before, "portolan_webhook_delivery_attempts_total", { outcome });
      await until(
        async () => (await moved("delivered")) >= 1 && (await moved("failed")) >= 1,
        10_000,
        "attempts",
      );
      const after = await scrape();
      expect(await moved("delivered")).toBe(1);
      expect(
        value(after, "portolan_webhook_event_to_delivery_seconds") -
          value(before, "portolan_webhook_event_to_delivery_seconds"),
      ).toBe(1);
    } finally {
      await dispatcher.stop();
    }
  });
});

describe("the poller's backlog", () => {
  test("a record past its next poll counts as due, the lag as how long it has been due", async () => {
    const before = value(await scrape(), "portolan_poller_due_records");
    const at = new Date(p.now()).toISOString();
    await p.storage.trackings.insert({
      id: crypto.randomUUID(),
      orgId: (await p.tenant()).orgId,
      identifier: "MSCU1234565",
      identifierType: "container_id",
      updatedAt: at,
      addedAt: at,
      nextPollAt: new Date(p.now() - 90_000).toISOString(),
    });
    const after = await scrape();
    expect(value(after, "portolan_poller_due_records")).toBe(before + 1);
    expect(value(after, "portolan_poller_lag_seconds")).toBeGreaterThanOrEqual(90);
  });
});

describe("the database", () => {
  test("connections in use: none while idle, the scrape's own reads left out; a transaction held is one", async () => {
    expect(value(await scrape(), "portolan_db_connections_in_use")).toBe(0);
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const held = p.storage.transaction(async (tx) => {
      await tx.orgs.get("no-such-org");
      await released;
    });
    await until(async () => p.storage.inUse() === 1, 10_000, "the transaction");
    // In process: the gauges are read as the scrape starts, before the transaction ends (on
    // SQLite the scrape's own reads wait for it).
    const scraped = registry.metrics();
    await Bun.sleep(10);
    release();
    await held;
    expect(value(parse(await scraped), "portolan_db_connections_in_use")).toBe(1);
  });
});
