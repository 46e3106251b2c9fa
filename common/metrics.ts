/**
 * The process's Prometheus metrics (prom-client), one registry served on /metrics (api/shared/
 * admin.ts). Counters and histograms move where the event happens; gauges are read at scrape time
 * from whatever part of the process holds the value (`sample`), so nothing is kept twice. Every
 * name starts with portolan_; docs/operating.md lists them and docs/grafana-dashboard.json draws them.
 */
import { Counter, Gauge, Histogram, Registry } from "prom-client";

export const registry = new Registry();
const registers = [registry];

export const httpRequests = new Counter({
  name: "portolan_http_requests_total",
  help: "Requests answered, by product, route template and status.",
  labelNames: ["product", "route", "status"] as const,
  registers,
});

export const httpDuration = new Histogram({
  name: "portolan_http_request_duration_seconds",
  help: "Time from a request's arrival to its answer, by product and route template.",
  labelNames: ["product", "route"] as const,
  buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers,
});

export const httpInFlight = new Gauge({
  name: "portolan_http_requests_in_flight",
  help: "Requests received and not yet answered, by product.",
  labelNames: ["product"] as const,
  registers,
});

export const routeShed = new Counter({
  name: "portolan_route_shed_total",
  help: "Route worker jobs answered 503 overloaded (lane full or waited past the bound), by lane.",
  labelNames: ["lane"] as const,
  registers,
});

export const deliveryAttempts = new Counter({
  name: "portolan_webhook_delivery_attempts_total",
  help: "Webhook delivery attempts, by outcome (delivered, failed).",
  labelNames: ["outcome"] as const,
  registers,
});

export const deliveryLag = new Histogram({
  name: "portolan_webhook_event_to_delivery_seconds",
  help: "Time from an event's occurrence to its delivery's acceptance by the endpoint.",
  buckets: [0.1, 0.5, 1, 5, 15, 60, 300, 900, 3600, 21600, 86400],
  registers,
});

export const connectorErrors = new Counter({
  name: "portolan_connector_errors_total",
  help: "Failed calls to carrier and airline connectors, by kind (carrier, airline), line and failure.",
  labelNames: ["kind", "line", "error"] as const,
  registers,
});

/** One reading of a sampled gauge: a value, or values by label. */
type Reading = number | ReadonlyArray<readonly [Record<string, string>, number]>;

/**
 * A gauge read at scrape time from the sources registered with `from` (several processes parts
 * may each add theirs: their readings are set side by side, a number overwriting a number). A
 * source that throws (the database gone) leaves the gauge unset for that scrape.
 */
function sample(name: string, help: string, labelNames: readonly string[] = []) {
  const sources: Array<() => Reading | Promise<Reading>> = [];
  const gauge = new Gauge({
    name,
    help,
    labelNames,
    registers,
    async collect() {
      this.reset();
      for (const source of sources) {
        const reading = await Promise.resolve()
          .then(source)
          .catch(() => null);
        if (typeof reading === "number") this.set(reading);
        else for (const [labels, value] of reading ?? []) this.set(labels, value);
      }
    },
  });
  return {
    gauge,
    from(source: () => Reading | Promise<Reading>): () => void {
      sources.push(source);
      return () => sources.splice(sources.indexOf(source), 1);
    },
  };
}

export const gauges = {
  // First: a scrape reads its gauges in the order they were made, so this one counts the
  // statements running before the backlog gauges below send the scrape's own.
  dbInUse: sample("portolan_db_connections_in_use", "Database statements and transactions running now."),
  routeQueueDepth: sample("portolan_route_queue_depth", "Route worker jobs waiting, by lane.", ["lane"]),
  routeWorkersBusy: sample("portolan_route_workers_busy", "Route workers with a job."),
  routeWorkers: sample("portolan_route_workers", "Route workers running and loaded."),
  pollerDue: sample("portolan_poller_due_records", "Tracked records and air waybills due a poll."),
  pollerLag: sample("portolan_poller_lag_seconds", "How long the longest-due record has been due."),
  outboxEvents: sample("portolan_outbox_backlog_events", "Outbox events not yet fanned out."),
  outboxLag: sample(
    "portolan_outbox_oldest_event_age_seconds",
    "Age of the oldest event not yet fanned out.",
  ),
  deliveriesPending: sample(
    "portolan_webhook_deliveries_pending",
    "Webhook deliveries waiting for an attempt.",
  ),
  memory: sample(
    "portolan_process_memory_bytes",
    "Process memory, by kind (rss, heap_used, heap_total, external).",
    ["kind"],
  ),
};

gauges.memory.from(() => {
  const m = process.memoryUsage();
  return [
    [{ kind: "rss" }, m.rss],
    [{ kind: "heap_used" }, m.heapUsed],
    [{ kind: "heap_total" }, m.heapTotal],
    [{ kind: "external" }, m.external],
  ];
});

/** A cache's tallies since start (common/lru.ts keeps hits and misses), and what it holds now. */
export interface CacheTally {
  readonly hits: number;
  readonly misses: number;
  /** Entries dropped to make room, for a cache that counts them. */
  readonly evictions?: number;
  /** Entries held now. */
  readonly size?: number;
}

const caches = new Map<string, CacheTally>();

/** A metric copied at scrape time from every watched cache's tally that has the reading. */
function cacheMetric(
  kind: typeof Counter<"cache"> | typeof Gauge<"cache">,
  name: string,
  help: string,
  read: (c: CacheTally) => number | undefined,
) {
  return new kind({
    name,
    help,
    labelNames: ["cache"],
    registers,
    collect() {
      this.reset();
      for (const [cache, tally] of caches) {
        const value = read(tally);
        if (value !== undefined) this.inc({ cache }, value);
      }
    },
  });
}

cacheMetric(
  Counter,
  "portolan_cache_hits_total",
  "Cache lookups answered from the cache, by cache.",
  (c) => c.hits,
);
cacheMetric(Counter, "portolan_cache_misses_total", "Cache lookups that missed, by cache.", (c) => c.misses);
cacheMetric(
  Counter,
  "portolan_cache_evictions_total",
  "Entries dropped to make room, by cache (the caches that count them).",
  (c) => c.evictions,
);
cacheMetric(Gauge, "portolan_cache_entries", "Entries a cache holds now, by cache.", (c) => c.size);

/** Counts these caches' hits and misses under their names. */
export function watchCaches(named: Record<string, CacheTally>): void {
  for (const [name, tally] of Object.entries(named)) caches.set(name, tally);
}
