/**
 * Tracking reads at scale: 100,000 tracked containers (each with a real sandbox timeline) in one
 * SQLite file; lookups by container number and by UUID, list pages (first, filtered, deep cursor),
 * measured in-process through app.handle against the keyed no-op GET /v1/account in the same run,
 * and the time of one 500-row page (goal: under 50 ms). Goal (issue 20): every read at least 0.3
 * of the no-op. With BENCH_POSTGRES_URL (an empty database, e.g. from scripts/postgres-temp.sh
 * start) the same file is copied there (storage/copy.ts) and measured again on PostgreSQL.
 */
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildApps } from "../api/app.ts";
import { bootstrap } from "../api/bootstrap.ts";
import { loadConfig } from "../api/config.ts";
import type { FullPlatform } from "../api/shared/platform.ts";
import { checkDigit } from "../ingest/iso6346.ts";
import { simulateVoyage, visibleEvents } from "../ingest/sandbox/simulate.ts";
import { loadWorld } from "../ingest/sandbox/world.ts";
import { currentEvents, derive } from "../ingest/tracking/timeline.ts";
import { copySqliteToPostgres } from "../storage/copy.ts";

const RECORDS = Number(process.env.BENCH_RECORDS ?? 100_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);

const dir = mkdtempSync(join(tmpdir(), "portolan-bench-tracking-"));
const database = join(dir, "tracking.sqlite");
const config = { ...loadConfig(), database, sandbox: false };
const platform = await bootstrap(config);
const org = await platform.accounts.createOrg("bench", { paid: true, rateLimit: 1_000_000_000 });
const { key } = await platform.accounts.createKey(org.id, "ocean");

// Templates: 50 real sandbox voyages seen mid-way, their events copied onto every record.
const world = await loadWorld();
const now = Date.parse("2026-11-21T12:00:00Z");
const templates = Array.from({ length: 50 }, (_, i) => {
  const serial = String(100_000 + i * 7919).slice(-6);
  const number = `MSCU${serial}${checkDigit(`MSCU${serial}`)}`;
  const v = simulateVoyage(number, { world })!;
  const events = visibleEvents(v, now, number);
  return { events, derived: derive(currentEvents(events)) };
});

const t0 = performance.now();
const raw = new Database(database);
raw.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = OFF;");
const insertRow = raw.prepare(
  `INSERT INTO tracked (id, org_id, identifier, identifier_type, container_number, carrier_code, carrier_name, tags, status, stage, eta, eta_is_estimated, origin_unlocode, destination_unlocode, route_ports, delay_bars, poll_priority, next_poll_at, last_polled_at, updated_at, added_at)
   VALUES (?, ?, ?, 'container_id', ?, 'MSCU', 'Mediterranean Shipping Company', ?, ?, ?, ?, ?, ?, ?, ?, ?, 'transit', ?, ?, ?, ?)`,
);
const insertEvent = raw.prepare(
  "INSERT INTO carrier_events (tracked_id, event_id, payload, first_seen_at) VALUES (?, ?, ?, ?)",
);
const numbers: string[] = [];
const ids: string[] = [];
raw.transaction(() => {
  for (let i = 0; i < RECORDS; i++) {
    const t = templates[i % templates.length]!;
    const serial = String(i).padStart(6, "0");
    const number = `MSDU${serial}${checkDigit(`MSDU${serial}`)}`;
    const id = crypto.randomUUID();
    const at = new Date(now - i * 1000).toISOString();
    const d = t.derived;
    insertRow.run(
      id,
      org.id,
      number,
      number,
      JSON.stringify(i % 3 ? ["bench"] : ["bench", "priority"]),
      d.status,
      d.stage,
      d.eta,
      d.etaIsEstimated === null ? null : Number(d.etaIsEstimated),
      d.originUnlocode,
      d.destinationUnlocode,
      JSON.stringify(d.routePorts),
      JSON.stringify(d.delayBars),
      at,
      at,
      at,
      at,
    );
    for (const e of t.events)
      insertEvent.run(
        id,
        e.eventID,
        JSON.stringify({ ...e, equipmentReference: e.eventType === "EQUIPMENT" ? number : undefined }),
        at,
      );
    numbers.push(number);
    ids.push(id);
  }
})();
raw.close();
const loadSeconds = (performance.now() - t0) / 1000;

const pick = (i: number) => (i * 7_919) % RECORDS;

/** Requests per second of each read, the no-op first, on one platform. */
async function measureAll(running: FullPlatform): Promise<void> {
  const ocean = buildApps(running).ocean;
  const headers = { authorization: `Bearer ${key}` };
  const call = (path: string) => ocean.handle(new Request(`http://localhost${path}`, { headers }));
  const deepCursor = (
    (await (await call("/v1/containers?limit=500")).json()) as { data: { next_cursor: string } }
  ).data.next_cursor;

  async function measure(name: string, path: (i: number) => string): Promise<number> {
    for (let i = 0; i < 200; i++) await (await call(path(i))).arrayBuffer(); // warm
    let n = 0;
    const end = performance.now() + SECONDS * 1000;
    const start = performance.now();
    while (performance.now() < end) {
      const res = await call(path(n));
      if (res.status !== 200) throw new Error(`${name}: HTTP ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
      n++;
    }
    return n / ((performance.now() - start) / 1000);
  }

  /** Milliseconds per 500-row page (every request of SECONDS, at least 20): mean and slowest. */
  async function pageOf500(): Promise<{ mean: number; max: number }> {
    const times: number[] = [];
    const end = performance.now() + SECONDS * 1000;
    while (times.length < 20 || performance.now() < end) {
      const t = performance.now();
      const res = await call("/v1/containers?limit=500");
      if (res.status !== 200) throw new Error(`list 500: HTTP ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
      times.push(performance.now() - t);
    }
    return { mean: times.reduce((a, b) => a + b, 0) / times.length, max: Math.max(...times) };
  }

  const baseline = await measure("no-op", () => "/v1/account");
  const rows: Array<[string, number]> = [
    [
      "lookup by container number",
      await measure("lookup", (i) => `/v1/containers/lookup/${numbers[pick(i)]}`),
    ],
    ["read by UUID", await measure("uuid", (i) => `/v1/containers/${ids[pick(i)]}`)],
    ["list first page (50)", await measure("list", () => "/v1/containers")],
    [
      "list status + tag filter (50)",
      await measure("filter", () => "/v1/containers?status=in_transit&tags=priority"),
    ],
    ["list page after 500 rows", await measure("deep", () => `/v1/containers?cursor=${deepCursor}`)],
  ];
  const page = await pageOf500();
  console.log(
    `${"keyed no-op GET /v1/account".padEnd(32)} ${baseline.toFixed(0).padStart(8)} req/s (baseline)`,
  );
  for (const [name, rps] of rows) {
    console.log(
      `${name.padEnd(32)} ${rps.toFixed(0).padStart(8)} req/s  ratio ${(rps / baseline).toFixed(2)} of the no-op (goal 0.30)`,
    );
  }
  console.log(
    `${"list of 500 rows".padEnd(32)} ${page.mean.toFixed(1).padStart(8)} ms mean, ${page.max.toFixed(1)} ms slowest (goal < 50 ms)`,
  );
}

console.log(`${RECORDS} tracked records loaded in ${loadSeconds.toFixed(1)} s`);
console.log("SQLite");
await measureAll(platform);
await platform.close();

const pgUrl = process.env.BENCH_POSTGRES_URL;
if (pgUrl) {
  const t1 = performance.now();
  await copySqliteToPostgres(database, pgUrl);
  console.log(`PostgreSQL (copied in ${((performance.now() - t1) / 1000).toFixed(1)} s)`);
  const onPg = await bootstrap({ ...config, database: pgUrl });
  await measureAll(onPg);
  await onPg.close();
}
if (!process.env.BENCH_KEEP) rmSync(dir, { recursive: true, force: true });
else console.log(database);
