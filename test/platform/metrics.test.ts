/**
 * /metrics as Prometheus scrapes it: over a real socket on the admin listener, read with an npm
 * Prometheus text parser, every family the docs name present, the request counters moving with
 * traffic; and on the product ports only for the metrics token.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import parse from "parse-prometheus-text-format";
import { observeProcess } from "../../api/observe.ts";
import { serveAdmin } from "../../api/runtime/bun-serve.ts";
import { adminApp } from "../../api/shared/admin.ts";
import { bearer, makePlatform, type TestPlatform } from "../helpers/platform.ts";
import { sampleDeletedPlan } from "../webhooks/event-samples.ts";

const TOKEN = "metrics-token-for-the-test";
let p: TestPlatform;
let admin: ReturnType<typeof serveAdmin>;
let key: string;

beforeAll(async () => {
  p = await makePlatform({ metricsToken: TOKEN });
  observeProcess(p, null);
  admin = serveAdmin(adminApp(p.readiness), "127.0.0.1", 0);
  key = (await p.tenant()).keys.rates;
});
afterAll(async () => {
  admin?.stop(true);
  await p?.close();
});

async function scrape() {
  const res = await fetch(`http://127.0.0.1:${admin.port}/metrics`);
  expect(res.headers.get("content-type")).toStartWith("text/plain");
  const text = await res.text();
  return Object.assign(parse(text), { text });
}

/**
 * A histogram's sample count by its own line: the parser merges a histogram's labelled series
 * (it keys them with `le`, which prom-client writes first).
 */
function histogramCount(text: string, name: string, labels: string): number {
  return Number(new RegExp(`^${name}_count\\{${labels}\\} (\\S+)$`, "m").exec(text)?.[1] ?? 0);
}

/** The value of a counter's series with these labels (0 when absent). */
function counter(families: ReturnType<typeof parse>, name: string, labels: Record<string, string>): number {
  const family = families.find((f) => f.name === name);
  const series = family?.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));
  return Number(series?.value ?? series?.count ?? 0);
}

/** After-response hooks run once the answer is out: a few turns of the event loop. */
const settle = async () => {
  for (let i = 0; i < 10; i++) await new Promise((resolve) => setImmediate(resolve));
};

describe("/metrics on the admin port", () => {
  test("parses as Prometheus text with every documented family", async () => {
    const names = (await scrape()).map((f) => f.name);
    for (const name of [
      "portolan_http_requests_total",
      "portolan_http_request_duration_seconds",
      "portolan_route_shed_total",
      "portolan_poller_due_records",
      "portolan_poller_lag_seconds",
      "portolan_outbox_backlog_events",
      "portolan_webhook_delivery_attempts_total",
      "portolan_webhook_event_to_delivery_seconds",
      "portolan_cache_hits_total",
      "portolan_cache_misses_total",
      "portolan_db_connections_in_use",
      "portolan_connector_errors_total",
      "portolan_process_memory_bytes",
    ])
      expect(names).toContain(name);
  });

  test("request counters and durations move with traffic, by route template and status", async () => {
    const ok = { product: "rates", route: "/v1/rates/sheets", status: "200" };
    const refused = { product: "rates", route: "(unmatched)", status: "401" };
    const before = await scrape();
    for (let i = 0; i < 3; i++)
      expect((await p.call("rates", "/v1/rates/sheets", bearer(key))).status).toBe(200);
    expect((await p.call("rates", "/v1/rates/sheets")).status).toBe(401);
    await settle();
    const after = await scrape();
    const moved = (labels: Record<string, string>) =>
      counter(after, "portolan_http_requests_total", labels) -
      counter(before, "portolan_http_requests_total", labels);
    expect([moved(ok), moved(refused)]).toEqual([3, 1]);
    const durations = (text: string) =>
      histogramCount(
        text,
        "portolan_http_request_duration_seconds",
        'product="rates",route="/v1/rates/sheets"',
      );
    expect(durations(after.text) - durations(before.text)).toBe(3);
  });

  test("the database gauges read the database", async () => {
    const series = (families: ReturnType<typeof parse>, name: string) =>
      families.find((f) => f.name === name)?.metrics.map((m) => Number(m.value));
    const before = await scrape();
    const occurred = new Date(p.now() - 60_000).toISOString();
    const event = {
      orgId: "org-metrics",
      product: "loading" as const,
      type: "plan_deleted" as const,
      data: sampleDeletedPlan("plan-metrics"),
    };
    await p.storage.outbox.append([event], occurred);
    const after = await scrape();
    expect(series(after, "portolan_outbox_backlog_events")).toEqual([
      series(before, "portolan_outbox_backlog_events")![0]! + 1,
    ]);
    expect(series(after, "portolan_outbox_oldest_event_age_seconds")![0]).toBeGreaterThanOrEqual(60);
    for (const name of [
      "portolan_poller_due_records",
      "portolan_poller_lag_seconds",
      "portolan_webhook_deliveries_pending",
    ])
      expect(series(after, name), name).toEqual([0]);
    expect(series(after, "portolan_process_memory_bytes")?.length).toBe(4);
  });
});

test("the operator's guide and the Grafana dashboard name only metrics that are served", async () => {
  const served = new Set((await scrape()).map((f) => f.name));
  const docs = join(import.meta.dir, "../../docs");
  const named = (file: string) => {
    const text = readFileSync(join(docs, file), "utf8");
    return [...new Set(text.match(/portolan_[a-z_]+/g))].map((n) => n.replace(/_(bucket|count|sum)$/, ""));
  };
  const dashboard = named("grafana-dashboard.json");
  const guide = named("operating.md");
  expect(dashboard.filter((n) => !served.has(n))).toEqual([]);
  expect(guide.filter((n) => !served.has(n))).toEqual([]);
  expect([...served].filter((n) => n.startsWith("portolan_") && !guide.includes(n))).toEqual([]);
});

describe("/metrics on a product port", () => {
  test("answers the metrics token only, in the product's envelope otherwise", async () => {
    const none = await p.call("ocean", "/metrics");
    expect(none.status).toBe(401);
    expect(((await none.json()) as { ok: boolean }).ok).toBe(false);
    expect((await p.call("ocean", "/metrics", bearer("not-the-token"))).status).toBe(401);
    const res = await p.call("ocean", "/metrics", bearer(TOKEN));
    expect(res.status).toBe(200);
    expect(parse(await res.text()).length).toBeGreaterThan(10);
  });

  test("without a configured token, metrics stay on the admin port", async () => {
    const other = await makePlatform();
    try {
      expect((await other.call("ocean", "/metrics", bearer(TOKEN))).status).toBe(404);
    } finally {
      await other.close();
    }
  });
});
