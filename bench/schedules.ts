/**
 * Schedules bench: point-to-point search over a year of sailings of every sandbox carrier.
 * The sailings come from the real sandbox process through the real sync (ingest/schedules/sync.ts)
 * into a SQLite file. The sync's window is fixed (8 weeks back, 12 ahead of its clock), so the bench
 * syncs every carrier three times, moving the sandbox clock and the sync's clock 20 weeks each time:
 * the windows join end to end and cover 60 weeks of departures. Queries: real port pairs read off the
 * stored sailings, lanes one sailing serves and lanes only a transshipment joins (also searched with up
 * to 2 transshipments), over windows of 4 to 8 weeks inside the year (fixed seed). Measured in-process (app.handle, one at a time) against the
 * keyed no-op GET /v1/account, then over HTTP on a loopback socket (bench/servers.ts) against a bare
 * Bun.serve answering a body of the same size, in the same run. Usage: bun bench/schedules.ts [--quick]
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildApps } from "../api/app.ts";
import { bootstrap } from "../api/bootstrap.ts";
import { loadConfig } from "../api/config.ts";
import { prng } from "../common/random.ts";
import { callsOf, departsOn } from "../ingest/schedules/stored.ts";
import { ScheduleSync, WINDOW_AHEAD_MS, WINDOW_BACK_MS } from "../ingest/schedules/sync.ts";
import type { SailingRow } from "../storage/sailings.ts";
import { sandboxCarriers, startSandbox } from "../test/sandbox/spawn.ts";
import { startServer } from "./http.ts";
import { drive, fmt as fmtLoad, type LoadResult } from "./http-driver.ts";
import { fmt, quantile, time } from "./leg-timing.ts";

const quick = process.argv.includes("--quick");
const D = 86_400_000;
const KEY = "bench-schedules-key";
/** First day of the year of departures searched; also the sandbox's epoch. */
const YEAR_START = Date.parse("2026-01-05T00:00:00Z");
const YEAR_DAYS = 364;
const SEED = 17;
const LANES = 40;
const QUERIES = 120;
const SECONDS = quick ? 2 : 4;
const CONCURRENCY = 32;

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const dir = mkdtempSync(join(tmpdir(), "portolan-bench-schedules-"));
const database = join(dir, "schedules.sqlite");
const stops: Array<() => unknown> = [];
// Children and the temporary database go with the bench, however it ends.
const stopAll = async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
};
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, async () => {
    await stopAll();
    rmSync(dir, { recursive: true, force: true });
    process.exit(130);
  });
}

/** Syncs a year of every sandbox carrier's sailings into `database`; returns the active rows. */
async function syncYear(): Promise<{
  rows: SailingRow[];
  seconds: number;
  rounds: number;
  carriers: number;
}> {
  const t0 = performance.now();
  const sandbox = await startSandbox({
    SANDBOX_API_KEY: KEY,
    SANDBOX_EPOCH: new Date(YEAR_START).toISOString(),
  });
  stops.push(() => sandbox.stop());
  const platform = await bootstrap({ ...loadConfig(), database, sandbox: false });
  try {
    const carriers = await sandboxCarriers(sandbox, KEY);
    let clock = YEAR_START + WINDOW_BACK_MS;
    const sync = new ScheduleSync({ storage: platform.storage, carriers, now: () => clock, log: () => {} });
    // Each round's window starts where the last one ended: 8 + 12 weeks a step.
    const step = WINDOW_BACK_MS + WINDOW_AHEAD_MS;
    let rounds = 0;
    for (; clock - WINDOW_BACK_MS < YEAR_START + YEAR_DAYS * D; clock += step) {
      await sandbox.setClock({ now: new Date(clock).toISOString() });
      const done = await sync.pollDue();
      if (done !== carriers.length) throw new Error(`sync at ${day(clock)}: ${done} of ${carriers.length}`);
      rounds++;
    }
    const { db, t } = platform.storage;
    const rows = (await db.select().from(t.sailings)).filter((r) => r.status === "active");
    return { rows, seconds: (performance.now() - t0) / 1000, rounds, carriers: carriers.length };
  } finally {
    await platform.close();
    await stopAll();
  }
}

/** Ordered port pairs some stored sailing carries (departs the first, arrives at the second later). */
function directPairs(rows: readonly SailingRow[]): Set<string> {
  const out = new Set<string>();
  for (const s of rows) {
    const calls = callsOf(s);
    calls.forEach((c, i) => {
      if (!departsOn(s, c)) return;
      for (const to of calls.slice(i + 1)) {
        if (to.place.unlocode !== c.place.unlocode) out.add(`${c.place.unlocode}-${to.place.unlocode}`);
      }
    });
  }
  return out;
}

/**
 * Pairs no sailing carries but a carrier could join at a hub: the origin on one of its services,
 * the destination on another calling a port the first one calls.
 */
function transferCandidates(rows: readonly SailingRow[], direct: Set<string>): Set<string> {
  const services = new Map<string, { carrier: string; ports: Set<string> }>();
  for (const s of rows) {
    const key = `${s.carrier}/${s.serviceCode}`;
    const held = services.get(key) ?? { carrier: s.carrier, ports: new Set<string>() };
    for (const c of callsOf(s)) if (c.place.unlocode) held.ports.add(c.place.unlocode);
    services.set(key, held);
  }
  const out = new Set<string>();
  for (const a of services.values()) {
    for (const b of services.values()) {
      if (a === b || a.carrier !== b.carrier || ![...a.ports].some((p) => b.ports.has(p))) continue;
      for (const o of a.ports) {
        for (const d of b.ports) if (o !== d && !direct.has(`${o}-${d}`)) out.add(`${o}-${d}`);
      }
    }
  }
  return out;
}

/** `n` of `set`, drawn with the seed after sorting, so a run picks the same lanes as the last. */
function draw(set: Set<string>, n: number, rand: () => number): string[] {
  const all = [...set].sort();
  for (let i = all.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [all[i], all[j]] = [all[j]!, all[i]!];
  }
  return all.slice(0, n);
}

/** Point-to-point paths over `lanes`, each with its own window of 28 to 56 days inside the year. */
function queries(lanes: string[], n: number, extra: string, rand: () => number): string[] {
  return Array.from({ length: n }, (_, i) => {
    const [o, d] = lanes[i % lanes.length]!.split("-");
    const days = 28 + Math.floor(rand() * 29);
    const from = YEAR_START + Math.floor(rand() * (YEAR_DAYS - days + 1)) * D;
    return `/v1/point-to-point?origin=${o}&destination=${d}&from=${day(from)}&to=${day(from + (days - 1) * D)}${extra}`;
  });
}

interface Probe {
  total: number;
  transfers: number;
  bytes: number;
}

try {
  const synced = await syncYear();
  const platform = await bootstrap({ ...loadConfig(), database, sandbox: false });
  const org = await platform.accounts.createOrg("bench", { paid: true, rateLimit: 1_000_000_000 });
  const { key } = await platform.accounts.createKey(org.id, "schedules");
  const app = buildApps(platform).schedules;
  const init = { headers: { authorization: `Bearer ${key}` } };
  const call = (path: string) => app.handle(new Request(`http://localhost${path}`, init));
  const probe = async (path: string): Promise<Probe> => {
    const res = await call(path);
    const text = await res.text();
    if (res.status !== 200) throw new Error(`${path}: HTTP ${res.status} ${text}`);
    const { data } = JSON.parse(text) as {
      data: { total: number; routes: Array<{ transshipments: number }> };
    };
    const transfers = data.routes.filter((r) => r.transshipments > 0).length;
    return { total: data.total, transfers, bytes: Buffer.byteLength(text) };
  };

  const rand = prng(SEED);
  const direct = directPairs(synced.rows);
  // Transfer lanes: candidates a search over the whole year answers with at least one routing.
  const transferLanes: string[] = [];
  for (const lane of draw(transferCandidates(synced.rows, direct), LANES * 4, rand)) {
    if (transferLanes.length === LANES) break;
    const [o, d] = lane.split("-");
    const found = await probe(
      `/v1/point-to-point?origin=${o}&destination=${d}&from=${day(YEAR_START + 100 * D)}&to=${day(YEAR_START + 155 * D)}`,
    );
    if (found.total > 0) transferLanes.push(lane);
  }
  const directLanes = draw(direct, LANES, rand);
  const sets: Array<[string, string[]]> = [
    ["direct lanes, direct_only=true", queries(directLanes, QUERIES, "&direct_only=true", rand)],
    ["direct lanes, up to 1 transshipment", queries(directLanes, QUERIES, "", rand)],
    ["transfer-only lanes, 1 transshipment", queries(transferLanes, QUERIES, "", rand)],
    ["transfer-only lanes, up to 2", queries(transferLanes, QUERIES, "&max_transshipments=2", rand)],
  ];

  const departures = synced.rows.map((r) => r.departsAt).sort();
  const [first, last] = [departures[0] ?? "", departures.at(-1) ?? ""];
  console.log(
    `${synced.rows.length} active sailings of ${synced.carriers} sandbox carriers, departing ${first.slice(0, 10)} to ${last.slice(0, 10)}: ${synced.rounds} syncs (clock +20 weeks each) in ${synced.seconds.toFixed(1)} s`,
  );
  console.log(
    `queries: ${QUERIES} per set over ${LANES} lanes (${directLanes.length} direct, ${transferLanes.length} transfer-only of ${direct.size} direct pairs), windows 28-56 days in ${day(YEAR_START)}..${day(YEAR_START + (YEAR_DAYS - 1) * D)}, seed ${SEED}`,
  );

  // In-process: one request at a time through app.handle, against the keyed no-op in the same run.
  const reps = quick ? 1 : 3;
  const noop = await time(["/v1/account"], 200 * reps, (p) => call(p).then((r) => r.arrayBuffer()));
  const perSet: Array<{ name: string; paths: string[]; us: number[]; probes: Probe[] }> = [];
  for (const [name, paths] of sets) {
    const probes = await Promise.all(paths.map(probe));
    // Timed without the probe's JSON parse: the status was checked just above.
    const { us } = await time(paths, reps, (p) => call(p).then((r) => r.arrayBuffer()));
    perSet.push({ name, paths, us, probes });
  }
  const mean = (us: number[]) => us.reduce((a, b) => a + b, 0) / us.length;
  const noopRps = 1e6 / mean(noop.us);
  console.log("\nin-process (app.handle, sequential)");
  console.log(
    `${"".padEnd(40)}${"median".padStart(10)}${"p99".padStart(10)}${"req/s".padStart(9)}${"vs no-op".padStart(10)}${"routes".padStart(8)}${"w/ ts".padStart(7)}${"body".padStart(9)}`,
  );
  console.log(
    `${"keyed no-op GET /v1/account".padEnd(40)}${fmt(quantile(noop.us, 0.5)).padStart(10)}${fmt(quantile(noop.us, 0.99)).padStart(10)}${noopRps.toFixed(0).padStart(9)}${"1.000".padStart(10)}`,
  );
  for (const s of perSet) {
    const rps = 1e6 / mean(s.us);
    const routes = mean(s.probes.map((p) => p.total));
    const withTs = s.probes.filter((p) => p.transfers > 0).length / s.probes.length;
    const bytes = quantile(
      s.probes.map((p) => p.bytes).sort((a, b) => a - b),
      0.5,
    );
    console.log(
      `${s.name.padEnd(40)}${fmt(quantile(s.us, 0.5)).padStart(10)}${fmt(quantile(s.us, 0.99)).padStart(10)}${rps.toFixed(0).padStart(9)}${(rps / noopRps).toFixed(3).padStart(10)}${routes.toFixed(1).padStart(8)}${`${Math.round(withTs * 100)}%`.padStart(7)}${`${(bytes / 1024).toFixed(1)} kB`.padStart(9)}`,
    );
  }
  await platform.close();

  // HTTP: the same queries rotated through the real server, then a bare Bun.serve answering a body
  // the size of the set's median response, with the same paths and load.
  console.log(`\nHTTP on loopback (${CONCURRENCY} clients, ${SECONDS} s each, queries rotated)`);
  const ours = await startServer(["portolan", database, "schedules"]);
  stops.push(ours.stop);
  for (const s of perSet) {
    const median = [...s.probes.keys()].sort((a, b) => s.probes[a]!.bytes - s.probes[b]!.bytes)[
      Math.floor(s.probes.length / 2)
    ]!;
    const bodyFile = join(dir, "body.json");
    writeFileSync(
      bodyFile,
      await (await fetch(`http://127.0.0.1:${ours.port}${s.paths[median]}`, init)).text(),
    );
    const bare = await startServer(["bare", bodyFile]);
    stops.push(bare.stop);
    const url = (port: number) => (i: number) => `http://127.0.0.1:${port}${s.paths[i % s.paths.length]}`;
    const opts = { concurrency: CONCURRENCY, seconds: SECONDS };
    await drive(url(ours.port), init, { concurrency: 8, seconds: 1 });
    await drive(url(bare.port), init, { concurrency: 8, seconds: 1 });
    const mine: LoadResult = await drive(url(ours.port), init, opts);
    const ceiling: LoadResult = await drive(url(bare.port), init, opts);
    bare.stop();
    stops.pop();
    console.log(s.name);
    console.log(`  portolan  ${fmtLoad(mine)}`);
    console.log(`  bare Bun  ${fmtLoad(ceiling)}`);
    const ratio = mine.rps / ceiling.rps;
    console.log(`  ratio     ${ratio.toFixed(4)} of the bare ceiling (1/${Math.round(1 / ratio)})`);
  }
} finally {
  await stopAll();
  rmSync(dir, { recursive: true, force: true });
}
