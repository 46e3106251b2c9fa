/**
 * Tracking reads at scale: 100,000 tracked containers (each with a real sandbox timeline) in one
 * SQLite file; lookups by container number and by UUID, list pages (first, filtered, deep cursor),
 * measured in-process through app.handle against the keyed no-op GET /v1/account in the same run,
 * and the time of one 500-row page (goal: under 50 ms). Goal: every read at least 0.3
 * of the no-op. Every row runs in turns with the others (the machine's other load falls on all
 * alike); lookups run with their milestone cache on and off (the figures before it, in this run),
 * over the whole fleet and over hot records, list pages with their items' cache on and off. Even
 * records carry the milestones a refresh stores (tracked.milestones_*); the "not stored" rows read
 * odd ones, whose reads derive them from the events (records no refresh has rendered yet). Rows
 * read each body into an ArrayBuffer as a client would, except the "body as Blob" rows (hot lookups,
 * the first list page and their own no-op), which take the bytes the server keeps without copying
 * them: what serving costs apart from moving the body. "compat answer, repeated poll" polls the
 * compat surface (GET /compat/vendor/tracking) for hot records it answers with data, each answer
 * from the organisation's answer window, with every record counted as a shipment of the month (an
 * integrator tracking its whole fleet through the surface). The lane on-time share query runs once per
 * lane (what a lane's first lookup each minute pays). Then the same kinds of read over HTTP, from a
 * server process on the same file (measureOverHttp), with the server's CPU a request beside the
 * rates (the clients share the machine's cores, so the rates' ratio also carries their cost). With
 * BENCH_POSTGRES_URL (an empty database, e.g. from scripts/postgres-temp.sh start) the same file is
 * copied there (storage/copy.ts) and measured again on PostgreSQL, in process (one request at a
 * time: each waits for its round trips) and over HTTP (32 at a time over the pool's connections).
 */
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildApps } from "../api/app.ts";
import { bootstrap } from "../api/bootstrap.ts";
import { loadConfig } from "../api/config.ts";
import type { ListItem, Timeline } from "../api/ocean/records.ts";
import { ON_TIME_DAYS } from "../api/ocean/services.ts";
import type { RenderedJson } from "../api/shared/envelopes.ts";
import type { FullPlatform } from "../api/shared/platform.ts";
import { monthOf } from "../common/plans.ts";
import { shuffle } from "../common/random.ts";
import { VersionedCache } from "../common/versioned-cache.ts";
import { checkDigit } from "../ingest/iso6346.ts";
import { visibleEvents } from "../ingest/sandbox/box-view.ts";
import { simulateVoyage } from "../ingest/sandbox/simulate.ts";
import { loadWorld } from "../ingest/sandbox/world.ts";
import type { SingleRead } from "../ingest/tracking/record-reads.ts";
import { currentEvents, derive, eventsForContainer, renderForStore } from "../ingest/tracking/timeline.ts";
import { copySqliteToPostgres } from "../storage/copy.ts";
import type { TrackedRow } from "../storage/trackings.ts";
import { startServer } from "./http.ts";
import type { ClientPlan, ClientResult, ClientRow } from "./http-clients.ts";

const RECORDS = Number(process.env.BENCH_RECORDS ?? 100_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
/** Records read again and again in the hot lookups (a dashboard's working set). */
const HOT = 1_000;
/** Each row's turn (see measureInTurns). */
const SLICE_MS = 100;

const dir = mkdtempSync(join(tmpdir(), "portolan-bench-tracking-"));
const database = join(dir, "tracking.sqlite");
/**
 * The compat surface's answer window (spec: about 90 s), longer here so every compat read of the
 * run is a repeated poll answered from it (rule 4), the case a client polling its fleet pays.
 */
const COMPAT_WINDOW_MS = 3_600_000;
const loaded = loadConfig();
const config = {
  ...loaded,
  database,
  sandbox: false,
  compat: { ...loaded.compat, cacheMs: COMPAT_WINDOW_MS },
};
const platform = await bootstrap(config);
const org = await platform.accounts.createOrg("bench", { paid: true, rateLimit: 1_000_000_000 });
const { key } = await platform.accounts.createKey(org.id, "ocean");
// The compat surface answers organisations entitled to ocean tracking.
await platform.accounts.setEntitlement(org.id, "ocean", null);
/** The month the compat surface counts shipments in: every record counts as added in it. */
const month = monthOf(Date.now());

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
const storeTimeline = raw.prepare("UPDATE tracked SET milestones_of = ?, milestones_json = ? WHERE id = ?");
// What an add charges (storage/quotas.ts): a shipment row per record, and the month's count.
const insertShipment = raw.prepare(
  "INSERT INTO shipment_usage (org_id, month, identifier, charged_usd) VALUES (?, ?, ?, 0)",
);
const { places } = platform.tracking.views;
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
    const events = t.events.map((e) =>
      JSON.stringify({ ...e, equipmentReference: e.eventType === "EQUIPMENT" ? number : undefined }),
    );
    for (const [k, e] of events.entries()) insertEvent.run(id, t.events[k]!.eventID, e, at);
    // What a refresh stores (ingest/tracking/apply.ts), on even records only: odd ones stand for
    // records no refresh has rendered yet, whose reads derive their milestones from the events.
    if (i % 2 === 0) {
      const current = currentEvents(
        eventsForContainer(
          events.map((e) => JSON.parse(e)),
          number,
        ),
      );
      const { of, json } = renderForStore(current, places, number, "");
      storeTimeline.run(of, json, id);
    }
    insertShipment.run(org.id, month, number);
    numbers.push(number);
    ids.push(id);
  }
  raw
    .prepare("INSERT INTO shipment_months (org_id, month, shipments) VALUES (?, ?, ?)")
    .run(org.id, month, RECORDS);
})();
raw.close();
const loadSeconds = (performance.now() - t0) / 1000;

/**
 * Where each row's records come from. Even records have stored milestones, odd ones not (see the
 * load above). `scattered(k, parity)` is the k-th record of one parity in an order spread over the
 * file (7,919 is prime, so k -> k * 7,919 mod HALF is a permutation): the records at positions
 * k < FLEET are all different. Rounding scattered picks to even instead (an earlier version) read a
 * third of the "each record once" reads a second time 17,679 reads later, which the caches took
 * for a record worth keeping (docs/benchmarks.md, "bench/tracking.ts").
 */
const HALF = Math.floor(RECORDS / 2);
const scattered = (k: number, parity: number) => 2 * ((k * 7_919) % HALF) + parity;
/** Positions past the fleet's hold the hot records, so a fleet read never reads a hot one. */
const FLEET = HALF - HOT / 2;
/** The HOT records read again and again: half of them even. */
const hot = (i: number) => {
  const j = i % HOT;
  return scattered(FLEET + (j >> 1), j & 1);
};

/** A bench row: a read, with the caches on or off, its body read as bytes (default) or a Blob. */
interface Row {
  name: string;
  path: (i: number) => string;
  cached: boolean;
  changing?: boolean;
  warm?: number;
  blob?: boolean;
}

/** Requests per second of each read, the no-op first, on one platform. */
async function measureAll(running: FullPlatform): Promise<void> {
  const ocean = buildApps(running).ocean;
  const headers = { authorization: `Bearer ${key}` };
  const call = (path: string) => ocean.handle(new Request(`http://localhost${path}`, { headers }));
  const deepCursor = (
    (await (await call("/v1/containers?limit=500")).json()) as { data: { next_cursor: string } }
  ).data.next_cursor;
  compatNumbers = await answeredByCompat(call);

  const { list, noop, blobNoop } = readRows(deepCursor);
  const rates = await measureInTurns(running, call, list);
  const baseline = rates[0]!;
  const blobBaseline = rates[list.indexOf(blobNoop)]!;
  const rows = list
    .map((row, k): [Row, number] => [row, rates[k]!])
    .filter(([row]) => row !== noop && row !== blobNoop)
    .map(([row, rps]): [string, number, number] => [row.name, rps, row.blob ? blobBaseline : baseline]);
  const page = await pageOf500(call);
  const lanes = await laneReads(running);
  console.log(
    `${"keyed no-op GET /v1/account".padEnd(32)} ${baseline.toFixed(0).padStart(8)} req/s (baseline)`,
  );
  console.log(
    `${"keyed no-op, body as Blob".padEnd(32)} ${blobBaseline.toFixed(0).padStart(8)} req/s (baseline of the Blob rows)`,
  );
  for (const [name, rps, base] of rows) {
    console.log(
      `${name.padEnd(32)} ${rps.toFixed(0).padStart(8)} req/s  ratio ${(rps / base).toFixed(2)} of the no-op (goal 0.30)`,
    );
  }
  console.log(
    `${"list of 500 rows".padEnd(32)} ${page.mean.toFixed(1).padStart(8)} ms mean, ${page.max.toFixed(1)} ms slowest (goal < 50 ms)`,
  );
  console.log(
    `${"lane on-time share (first read)".padEnd(32)} ${lanes.mean.toFixed(2).padStart(8)} ms mean, ${lanes.max.toFixed(2)} ms slowest over ${lanes.n} lanes`,
  );
}

type Call = (path: string) => Promise<Response>;

/** Milliseconds per 500-row page (every request of SECONDS, at least 20): mean and slowest. */
async function pageOf500(call: Call): Promise<{ mean: number; max: number }> {
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

/**
 * Requests per second of each row, measured in turns of SLICE_MS so that the load other work puts
 * on the machine falls on every row alike: the ratios compare figures taken at the same moments.
 * Each turn takes the rows in a new random order: a row pays for part of what the row before it
 * left (garbage to collect, freed memory the allocator hands back to the system and faults in
 * again), so in a fixed order one row paid for a heavy predecessor and another rode behind a light
 * one (the page after 500 rows read 0.34 of the no-op behind the filter row, 0.16-0.18 shuffled,
 * like the first page). A row reads with the caches on or off (the figures before them, in this
 * run); `changing` turns off only the caches kept under the database's change token, which is
 * what every read pays when something in the database changed since the last one (a writer at
 * work).
 */
async function measureInTurns(running: FullPlatform, call: Call, list: Row[]): Promise<number[]> {
  const { timelines, lookups, listItems, listPages, quietPages } = running.tracking;
  const rowCaches = running.tracking.ocean.rowCaches;
  const { rows, reads } = rowCaches;
  const off = {
    rows: new VersionedCache<TrackedRow>(0),
    reads: new VersionedCache<SingleRead>(0),
    quietPages: new VersionedCache<RenderedJson>(0),
    timelines: new VersionedCache<Timeline>(0),
    lookups: new VersionedCache<RenderedJson>(0),
    listItems: new VersionedCache<ListItem>(0),
    listPages: new VersionedCache<RenderedJson>(0),
  };
  const use = (cached: boolean, changing = false) => {
    rowCaches.rows = cached ? rows : off.rows;
    rowCaches.reads = cached && !changing ? reads : off.reads;
    running.tracking.quietPages = cached && !changing ? quietPages : off.quietPages;
    running.tracking.timelines = cached ? timelines : off.timelines;
    running.tracking.lookups = cached ? lookups : off.lookups;
    running.tracking.listItems = cached ? listItems : off.listItems;
    running.tracking.listPages = cached ? listPages : off.listPages;
  };
  const state = list.map(() => ({ n: 0, ms: 0 }));
  for (const row of list) {
    use(row.cached, row.changing);
    for (let i = 0; i < (row.warm ?? 200); i++) await (await call(row.path(i))).arrayBuffer();
  }
  const end = performance.now() + SECONDS * 1000 * list.length;
  const order = list.map((_, k) => k);
  while (performance.now() < end) {
    shuffle(order);
    for (const k of order) {
      const row = list[k]!;
      use(row.cached, row.changing);
      const s = state[k]!;
      const start = performance.now();
      while (performance.now() - start < SLICE_MS) {
        const res = await call(row.path(s.n));
        if (res.status !== 200) throw new Error(`${row.name}: HTTP ${res.status} ${await res.text()}`);
        await (row.blob ? res.blob() : res.arrayBuffer());
        s.n++;
      }
      s.ms += performance.now() - start;
    }
  }
  use(true);
  return state.map((s) => s.n / (s.ms / 1000));
}

/** The rows measured in turns, the no-op first: lookups, list pages, compat, a changing database, Blob bodies. */
function readRows(deepCursor: string): { list: Row[]; noop: Row; blobNoop: Row } {
  // Lookups over the whole fleet (each record read about once: the caches miss) and over HOT records
  // read again and again (they hit). Each fleet row reads its own lane of records, so no record is
  // read by two rows: even records (milestones stored by a refresh) unless marked "not stored" (odd
  // ones: derived). Four lanes split the fleet's even records, two its odd ones: a lane comes back
  // to a record after its other 12,000 or more, tens of thousands of reads of every row later (the
  // caches' seen filters have forgotten it by then).
  const fleetOf = (lane: number, lanes: number, parity: number) => (i: number) =>
    scattered((lanes * i + lane) % FLEET, parity);
  const notStored = [fleetOf(0, 2, 1), fleetOf(1, 2, 1)] as const;
  const lookupRows = [true, false].flatMap((cached) => {
    const tag = cached ? "" : ", cache off";
    const [byNumber, byId] = cached
      ? [fleetOf(0, 4, 0), fleetOf(1, 4, 0)]
      : [fleetOf(2, 4, 0), fleetOf(3, 4, 0)];
    return [
      {
        name: `lookup by number${tag}`,
        cached,
        path: (i: number) => `/v1/containers/lookup/${numbers[byNumber(i)]}`,
      },
      { name: `read by UUID${tag}`, cached, path: (i: number) => `/v1/containers/${ids[byId(i)]}` },
      ...(cached
        ? [
            {
              name: "lookup by number, not stored",
              cached,
              path: (i: number) => `/v1/containers/lookup/${numbers[notStored[0](i)]}`,
            },
            {
              name: "read by UUID, not stored",
              cached,
              path: (i: number) => `/v1/containers/${ids[notStored[1](i)]}`,
            },
          ]
        : []),
      {
        name: `lookup ${HOT} hot${tag}`,
        cached,
        warm: HOT,
        path: (i: number) => `/v1/containers/lookup/${numbers[hot(i)]}`,
      },
      {
        name: `read by UUID ${HOT} hot${tag}`,
        cached,
        warm: HOT,
        path: (i: number) => `/v1/containers/${ids[hot(i)]}`,
      },
    ];
  });
  // List pages with their items' cache (rendered once per record version) and without it.
  const listRows = [true, false].flatMap((cached) => {
    const tag = cached ? "" : ", cache off";
    return [
      { name: `list first page (50)${tag}`, cached, path: () => "/v1/containers" },
      {
        name: `list status + tag filter (50)${tag}`,
        cached,
        path: () => "/v1/containers?status=in_transit&tags=priority",
      },
      { name: `list page after 500 rows${tag}`, cached, path: () => `/v1/containers?cursor=${deepCursor}` },
    ];
  });
  const hotLookup = lookupRows.find((r) => r.name === `lookup ${HOT} hot`)!;
  // The same reads when the database changed since the last one: the change-token caches miss and
  // the record versions decide.
  const changingRows = [
    { ...hotLookup, name: `lookup ${HOT} hot, db changing`, changing: true },
    { ...listRows[0]!, name: "list first page (50), db changing", changing: true },
  ];
  // Bodies taken as a Blob (the bytes the server keeps, not copied), against the no-op read the same
  // way: what serving costs without the copy into a fresh ArrayBuffer that every other row makes
  // per read (a list page's 75 kB: most of its time in process, docs/tracking.md "Read speed").
  const noop = { name: "keyed no-op", cached: true, path: () => "/v1/account" };
  const blobRows = [noop, hotLookup, listRows[0]!].map((row) => ({
    ...row,
    name: `${row.name}, body as Blob`,
    blob: true,
  }));
  const compatRow = {
    name: "compat answer, repeated poll",
    cached: true,
    warm: compatNumbers.length,
    path: compatPath,
  };
  const list: Row[] = [noop, ...lookupRows, ...listRows, compatRow, ...changingRows, ...blobRows];
  return { list, noop, blobNoop: blobRows[0]! };
}

/**
 * The HOT records the compat surface answers with their data (a template whose visible events name
 * no box answers NO_TRACKING_INFO, "still resolving", which is never kept and asks the carrier
 * again): found by polling each once, which also fills the answer window.
 */
let compatNumbers: string[] = [];
const pollOf = (number: string) => `/compat/vendor/tracking?api_key=${key}&number=${number}`;
const compatPath = (i: number) => pollOf(compatNumbers[i % compatNumbers.length]!);

async function answeredByCompat(call: (path: string) => Promise<Response>): Promise<string[]> {
  const answered: string[] = [];
  for (let i = 0; i < HOT; i++) {
    const number = numbers[hot(i)]!;
    const res = await call(pollOf(number));
    if (((await res.json()) as { status: string }).status === "success") answered.push(number);
  }
  if (answered.length === 0) throw new Error("the compat surface answered none of the hot records");
  return answered;
}

/** Milliseconds of the on-time share query of each lane of the templates (what a lane's first lookup a minute pays). */
async function laneReads(running: FullPlatform): Promise<{ mean: number; max: number; n: number }> {
  const lanes = new Map(
    templates
      .filter((t) => t.derived.originUnlocode && t.derived.destinationUnlocode)
      .map((t) => [
        `${t.derived.originUnlocode}|${t.derived.destinationUnlocode}`,
        {
          carrierCode: "MSCU",
          originUnlocode: t.derived.originUnlocode!,
          destinationUnlocode: t.derived.destinationUnlocode!,
        },
      ]),
  );
  const times: number[] = [];
  for (const lane of lanes.values()) {
    const t = performance.now();
    await running.storage.trackings.laneArrivals(lane, ON_TIME_DAYS);
    times.push(performance.now() - t);
  }
  return { mean: times.reduce((a, b) => a + b, 0) / times.length, max: Math.max(...times), n: times.length };
}

/**
 * The same reads over HTTP: a server process on the same database (bench/servers.ts, its caches empty)
 * and its clients (concurrency 32) in a process of their own (bench/http-clients.ts), each row
 * against the keyed no-op over the same sockets. What a client in another process sees; in process,
 * every row above also pays its body's copy into a fresh ArrayBuffer in the serving process
 * (docs/tracking.md "Read speed"). Each row runs SECONDS in two passes, the second in the opposite
 * order, so drift falls on all rows alike. The clients were this process until 2026-12-05: holding
 * the fixtures and the in-process rows' platform (about 3 GB), they took the second core's time
 * from a server that then ran at 0.8 of its own (docs/benchmarks.md, "bench/tracking.ts").
 */
async function measureOverHttp(target: string): Promise<void> {
  const server = await startServer(["portolan", target, "ocean"], {
    PORTOLAN_SANDBOX: "0",
    PORTOLAN_COMPAT_CACHE_MS: String(COMPAT_WINDOW_MS),
  });
  try {
    const base = `http://127.0.0.1:${server.port}`;
    const headers = { authorization: `Bearer ${key}` };
    const deepCursor = (
      (await (await fetch(`${base}/v1/containers?limit=500`, { headers })).json()) as {
        data: { next_cursor: string };
      }
    ).data.next_cursor;
    // Records the server process has not read (its caches start empty), each once until the fleet's
    // even records (milestones stored) are all read, the two rows in turn over one count; HOT ones
    // again and again.
    const fleet = Array.from({ length: FLEET }, (_, k) => scattered(k, 0));
    const rows: ClientRow[] = [
      { name: "keyed no-op GET /v1/account", paths: ["/v1/account"] },
      {
        name: "lookup by number",
        paths: fleet.map((r) => `/v1/containers/lookup/${numbers[r]}`),
        cursor: "fleet",
      },
      { name: "read by UUID", paths: fleet.map((r) => `/v1/containers/${ids[r]}`), cursor: "fleet" },
      {
        name: `lookup ${HOT} hot`,
        paths: Array.from({ length: HOT }, (_, i) => `/v1/containers/lookup/${numbers[hot(i)]}`),
      },
      { name: "list first page (50)", paths: ["/v1/containers"] },
      { name: "list status + tag filter (50)", paths: ["/v1/containers?status=in_transit&tags=priority"] },
      { name: "list page after 500 rows", paths: [`/v1/containers?cursor=${deepCursor}`] },
      { name: "compat answer, repeated poll", paths: compatNumbers.map(pollOf) },
    ];
    const plan: ClientPlan = { base, headers, serverPid: server.pid, seconds: SECONDS, rows };
    const planFile = join(dir, "http-plan.json");
    writeFileSync(planFile, JSON.stringify(plan));
    const clients = Bun.spawn([process.execPath, join(import.meta.dir, "http-clients.ts"), planFile], {
      stdout: "pipe",
      stderr: "inherit",
    });
    const out = await new Response(clients.stdout).text();
    if ((await clients.exited) !== 0) throw new Error("bench/http-clients.ts failed");
    const totals = JSON.parse(out) as ClientResult[];
    const rps = totals.map((t) => t.requests / t.seconds);
    // Server CPU a request: what a read costs the server whatever the clients cost (they share this
    // machine's cores); its ratio is the no-op's CPU over the read's.
    const cpuUs = totals.map((t) => (t.cpuSeconds === null ? Number.NaN : (t.cpuSeconds / t.requests) * 1e6));
    console.log(
      target === database
        ? "over HTTP (a server process, clients in another; server CPU from /proc, all threads)"
        : "over HTTP on PostgreSQL (server CPU: the API process's, not PostgreSQL's)",
    );
    for (const [k, { name }] of rows.entries()) {
      const ratio =
        k === 0 ? "(baseline)" : `ratio ${(rps[k]! / rps[0]!).toFixed(2)} of the no-op (goal 0.30)`;
      const cpu = Number.isNaN(cpuUs[k]!)
        ? ""
        : `  server CPU ${cpuUs[k]!.toFixed(1)} us a request${k === 0 ? "" : ` (${(cpuUs[0]! / cpuUs[k]!).toFixed(2)} of the no-op's cost)`}`;
      console.log(`${name.padEnd(32)} ${rps[k]!.toFixed(0).padStart(8)} req/s  ${ratio}${cpu}`);
    }
  } finally {
    server.stop();
  }
}

console.log(`${RECORDS} tracked records loaded in ${loadSeconds.toFixed(1)} s`);
console.log("SQLite");
await measureAll(platform);
await platform.close();
await measureOverHttp(database);

const pgUrl = process.env.BENCH_POSTGRES_URL;
if (pgUrl) {
  const t1 = performance.now();
  await copySqliteToPostgres(database, pgUrl);
  console.log(`PostgreSQL (copied in ${((performance.now() - t1) / 1000).toFixed(1)} s)`);
  const onPg = await bootstrap({ ...config, database: pgUrl });
  await measureAll(onPg);
  await onPg.close();
  await measureOverHttp(pgUrl);
}
console.log(`peak resident memory ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
if (!process.env.BENCH_KEEP) rmSync(dir, { recursive: true, force: true });
else console.log(database);
