/**
 * Batch CLI benchmark: `portolan route batch` as a user runs it (CSV of UN/LOCODE pairs in, NDJSON
 * out, path off, all cores) over N sea routes between main container ports, against the router
 * alone (routeRaw in this thread) over the same pairs. Goal: 1,000,000 routes a minute.
 * A run over the first 256 pairs gives the CLI's fixed start-up cost; the CPU per route past it,
 * less the router's, is what the batch adds to each route; a run from each origin to itself
 * (trivial searches) shows that cost apart from the router's noise.
 * Usage: bun bench/batch.ts [--routes 100000]
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { buildDirFrom } from "../common/build-dir.ts";
import { LocationIndex, type ResolvedPoint } from "../engine/locations/index.ts";
import { DEFAULT_MASK } from "../engine/sea/policy.ts";
import { SeaRouter } from "../engine/sea/router.ts";
import { STATUS } from "../router-wasm/binding/router.ts";
import { mainPorts } from "../test/distance-sea/fixture.ts";

const GOAL_PER_MINUTE = 1_000_000;
/** Pairs of the short run that measures the CLI's fixed start-up cost. */
const START_ROWS = 256;
const { values } = parseArgs({
  args: Bun.argv.slice(2),
  options: { routes: { type: "string", default: "100000" } },
});
const routes = Number(values.routes);
if (!Number.isInteger(routes) || routes < 1) throw new Error(`--routes must be a positive integer`);

const buildDir = buildDirFrom();
const index = LocationIndex.fromBytes(new Uint8Array(readFileSync(join(buildDir, "locations.idx"))));
// The ports the batch can resolve by code; the router baseline routes the very points it resolves to.
const ports: Array<{ locode: string; point: ResolvedPoint }> = [];
for (const p of mainPorts()) {
  try {
    ports.push({ locode: p.locode, point: index.resolve(p.locode) });
  } catch {
    // A code the index does not know would only measure the error path.
  }
}

// A fixed-seed generator (mulberry32): the same pairs every run, spread over all ordered port pairs.
let seed = 20;
const random = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const pairs = Array.from({ length: routes }, () => {
  const i = Math.floor(random() * ports.length);
  const j = (i + 1 + Math.floor(random() * (ports.length - 1))) % ports.length;
  return [ports[i]!, ports[j]!] as const;
});

const dir = mkdtempSync(join(tmpdir(), "portolan-bench-batch-"));
try {
  const input = join(dir, "pairs.csv");
  const output = join(dir, "results.ndjson");
  const writePairs = (file: string, list: ReadonlyArray<readonly [{ locode: string }, { locode: string }]>) =>
    writeFileSync(file, `from,to\n${list.map(([a, b]) => `${a.locode},${b.locode}`).join("\n")}\n`);
  writePairs(input, pairs);

  // The CLI in its own process, as a user starts it: wall time from spawn to exit, CPU of the
  // process and its worker threads (resourceUsage covers every thread of the child).
  const cli = resolve(import.meta.dir, "../api/cli/main.ts");
  const runCli = async (file: string, out: string) => {
    const t0 = performance.now();
    const proc = Bun.spawn([process.execPath, cli, "route", "batch", file, "--out", out], {
      stdout: "inherit",
      stderr: "ignore",
    });
    if ((await proc.exited) !== 0) throw new Error(`batch CLI exited with ${proc.exitCode}`);
    return { ms: performance.now() - t0, cpuUs: Number(proc.resourceUsage()?.cpuTime.total ?? Number.NaN) };
  };
  // The fixed cost (spawn, locations.idx, one router per worker) from a run over a few pairs.
  const few = join(dir, "few.csv");
  writePairs(few, pairs.slice(0, START_ROWS));
  const start = await runCli(few, output);
  // The batch's own cost per route: as many rows from each origin to itself (a trivial search).
  const same = join(dir, "same.csv");
  writePairs(
    same,
    pairs.map(([a]) => [a, a] as const),
  );
  const trivial = await runCli(same, output);
  const { ms: batchMs, cpuUs } = await runCli(input, output);
  const lines = readFileSync(output, "utf8").split("\n").filter(Boolean);
  const ok = lines.filter((l) => l.includes('"ok":true')).length;
  if (lines.length !== routes) throw new Error(`batch wrote ${lines.length} lines for ${routes} pairs`);

  // Baseline: the router alone, one thread, same points, after one warm-up pass over the ports.
  const router = await SeaRouter.load(buildDir);
  for (let k = 0; k < Math.min(routes, 1000); k++) {
    const [a, b] = pairs[k]!;
    router.routeRaw(a.point, b.point, DEFAULT_MASK, false);
  }
  const c0 = process.cpuUsage();
  const r0 = performance.now();
  let found = 0;
  for (const [a, b] of pairs)
    if (router.routeRaw(a.point, b.point, DEFAULT_MASK, false).status === STATUS.found) found++;
  const rawMs = performance.now() - r0;
  const rawCpu = process.cpuUsage(c0);

  const perMinute = (ms: number) => Math.round((routes / ms) * 60_000);
  const fmt = (n: number) => n.toLocaleString("en-US");
  const batchRate = perMinute(batchMs);
  const rawRate = perMinute(rawMs);
  console.log(
    `${fmt(routes)} sea routes over ${ports.length} main ports, path off (batch ok ${fmt(ok)}, router found ${fmt(found)})`,
  );
  console.log(
    `batch CLI (all cores)      ${fmt(batchRate).padStart(11)} routes/min  ${(batchMs / 1000).toFixed(1)} s wall  ${(cpuUs / routes).toFixed(1)} µs CPU/route`,
  );
  console.log(
    `routeRaw (one thread)      ${fmt(rawRate).padStart(11)} routes/min  ${(rawMs / 1000).toFixed(1)} s wall  ${((rawCpu.user + rawCpu.system) / routes).toFixed(1)} µs CPU/route`,
  );
  console.log(
    `batch start-up             ${(start.ms / 1000).toFixed(2)} s wall  ${(start.cpuUs / 1000).toFixed(0)} ms CPU (${START_ROWS} pairs)`,
  );
  if (routes > START_ROWS) {
    const runUs = (cpuUs - start.cpuUs) / (routes - START_ROWS);
    const rawUs = (rawCpu.user + rawCpu.system) / routes;
    console.log(
      `CPU per route past start   ${runUs.toFixed(1)} µs: router ${rawUs.toFixed(1)} + the rest ${(runUs - rawUs).toFixed(1)}`,
    );
    const ownUs = (trivial.cpuUs - start.cpuUs) / (routes - START_ROWS);
    console.log(
      `batch, from = to           ${ownUs.toFixed(1)} µs CPU/route past start (trivial search: the batch's own cost)`,
    );
  }
  console.log(`batch / router alone       ${(batchRate / rawRate).toFixed(2)}x routes/min`);
  console.log(
    `goal ${fmt(GOAL_PER_MINUTE)}/min          ${batchRate >= GOAL_PER_MINUTE ? "met" : "not met"} (${(batchRate / GOAL_PER_MINUTE).toFixed(2)} of it)`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
