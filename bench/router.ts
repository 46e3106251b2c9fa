/**
 * Sea router benchmark: the WASM router (in-process) against searoute-js on the same real port
 * pairs (top-100 container ports paired three ways, plus the NGA Pub. 151 pairs), and the
 * contraction hierarchy against A* on the same graph in the same run (docs/routing-speed.md).
 * Usage: bun bench/router.ts [--quick]
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { buildDirFrom } from "../common/build-dir.ts";
import { DEFAULT_MASK } from "../engine/sea/policy.ts";
import { SeaRouter } from "../engine/sea/router.ts";
import { mainPorts, pub151 } from "../test/distance-sea/fixture.ts";

type LngLat = [number, number];
type Searoute = (from: LngLat, to: LngLat, units?: string) => { properties: { length: number } } | null;

interface Pair {
  from: { lat: number; lng: number; name: string };
  to: { lat: number; lng: number; name: string };
}

function pairs(): Pair[] {
  const ports = mainPorts();
  const out: Pair[] = [];
  // Three fixed, spread-out partners per port: short, regional and long-haul pairs alike.
  for (let i = 0; i < ports.length; i++) {
    for (const step of [7, 31, 53]) {
      const j = (i * step + 13) % ports.length;
      if (j !== i) out.push({ from: ports[i]!, to: ports[j]! });
    }
  }
  for (const p of pub151()) out.push({ from: p.a, to: p.b });
  return out;
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

interface Times {
  wall: number[];
  cpu: number[];
}

/**
 * Per-route wall and CPU times in microseconds, each sorted: each pair timed `reps` times after a
 * warm-up pass. On a shared machine a preempted route shows milliseconds of wall time, so the
 * wall p99 measures the scheduler; the CPU time (process.cpuUsage) measures the route.
 */
function time(list: Pair[], reps: number, run: (p: Pair) => unknown): Times {
  for (const p of list) run(p);
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let k = 0; k < reps; k++) {
    for (const p of list) {
      const c0 = process.cpuUsage();
      const t0 = Bun.nanoseconds();
      run(p);
      wall.push((Bun.nanoseconds() - t0) / 1000);
      const c = process.cpuUsage(c0);
      cpu.push(c.user + c.system);
    }
  }
  const up = (a: number, b: number) => a - b;
  return { wall: wall.sort(up), cpu: cpu.sort(up) };
}

const quick = process.argv.includes("--quick");
const list = pairs();
const router = await SeaRouter.load();
if (!router.hierarchical) console.log("no sea.hierarchy in the build: every row is A* (run `npm run build`)");
// The same graph in the same instance without the hierarchy: A*, for the ratio.
const astar = SeaRouter.fromBytes(
  router.wasm,
  new Uint8Array(readFileSync(join(buildDirFrom(), "sea.graph"))),
);
const searoute = createRequire(import.meta.url)("searoute-js") as Searoute;

const reps = quick ? 3 : 20;
const rows: Array<[string, Times]> = [
  [
    "wasm route, A* (distance only)",
    time(list, reps, (p) => astar.routeRaw(p.from, p.to, DEFAULT_MASK, false)),
  ],
  ["wasm route (distance only)", time(list, reps, (p) => router.routeRaw(p.from, p.to, DEFAULT_MASK, false))],
  ["wasm route, A* (path)", time(list, reps, (p) => astar.routeRaw(p.from, p.to, DEFAULT_MASK, true))],
  ["wasm route (path)", time(list, reps, (p) => router.routeRaw(p.from, p.to, DEFAULT_MASK, true))],
  ["planSeaRoute, A* (path)", time(list, reps, (p) => astar.plan({ from: p.from, to: p.to, path: true }))],
  ["planSeaRoute (no path)", time(list, reps, (p) => router.plan({ from: p.from, to: p.to }))],
  ["planSeaRoute (path)", time(list, reps, (p) => router.plan({ from: p.from, to: p.to, path: true }))],
  // What the API and the batch CLI serve: the plan as JSON text, its path written by the router.
  [
    "planSeaRoute as JSON (path)",
    time(list, reps, (p) => router.planJson({ from: p.from, to: p.to, path: true })),
  ],
  [
    "planSeaRoute (path + alternatives)",
    time(list, quick ? 1 : 3, (p) => router.plan({ ...p, path: true, alternatives: true })),
  ],
  [
    "planSeaRoute, A* (path + alternatives)",
    time(list, quick ? 1 : 3, (p) => astar.plan({ ...p, path: true, alternatives: true })),
  ],
];
// The row above starts cold: an alternative's closure has no top table until its mask's 500th query
// (hierarchy::TABLE_AFTER), and the most frequent ones earn theirs inside the timed passes (30-100
// ms each). "warm": the same plans once the closures frequent enough to earn a table within a few
// passes hold theirs, as in a process that keeps answering alternatives (an API worker, a batch):
// passes run until one earns no table and the tables held at the start of the timed passes are
// still the ones held at their end (a build inside them would be timed as part of some plan).
const tablesHeld = () =>
  router.wasm
    .topTables(router.handle)
    .map((t) => `${t.closed}:${t.ranks}`)
    .sort()
    .join(" ");
const MIN_WARM = quick ? 2 : 12;
const MAX_WARM = quick ? 4 : 60;
const withAlternatives = (p: Pair) => router.plan({ ...p, path: true, alternatives: true });
let warmPasses = 0;
let warm: Times;
let steady: boolean;
do {
  let before: string;
  do {
    before = tablesHeld();
    for (const p of list) withAlternatives(p);
    warmPasses++;
  } while (warmPasses < MIN_WARM || (before !== tablesHeld() && warmPasses < MAX_WARM));
  const held = tablesHeld();
  warm = time(list, quick ? 1 : 3, withAlternatives);
  // A table earned inside the timed passes: warm on and time again.
  steady = held === tablesHeld();
} while (!steady && warmPasses < MAX_WARM);
rows.push(["planSeaRoute (path + alternatives), warm", warm]);
const warmNote = `warm row after ${warmPasses} passes; ${router.wasm.topTables(router.handle).length} top tables held${steady ? "" : " (one was built inside its timed passes)"}`;
// searoute-js logs on every call; silence it while it runs.
const log = console.log;
console.log = () => {};
const peerList = quick ? list.slice(0, 60) : list;
const peerFailed = new Set<Pair>();
const peer = time(peerList, 1, (p) => {
  // It throws on pairs that snap to one vertex; count those with the no-route answers.
  try {
    if (!searoute([p.from.lng, p.from.lat], [p.to.lng, p.to.lat], "nm")) peerFailed.add(p);
  } catch {
    peerFailed.add(p);
  }
});
console.log = log;

const fmt = (us: number) => (us >= 1000 ? `${(us / 1000).toFixed(1)} ms` : `${us.toFixed(1)} µs`);
console.log(
  `${list.length} port pairs (${peerList.length} for searoute-js; ${peerFailed.size} of them found no route)`,
);
console.log(
  `"A*" rows: A* only; other rows: the router as it serves${router.hierarchical ? " (the hierarchy for every distance query)" : " (no hierarchy: A*)"}`,
);
const head = ["wall med", "wall p99", "CPU mean", "CPU med", "CPU p99", "vs searoute-js"];
console.log(`${"".padEnd(36)}${head.map((h, i) => h.padStart(i === 5 ? 16 : 10)).join("")}`);
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const med = (t: Times, k: keyof Times) => quantile(t[k], 0.5);
for (const [name, t] of [...rows, ["searoute-js", peer] as [string, Times]]) {
  // Median ratios, by wall time and by CPU time.
  const ratio =
    name === "searoute-js"
      ? "1x"
      : `${Math.round(med(peer, "wall") / med(t, "wall"))}x / ${Math.round(med(peer, "cpu") / med(t, "cpu"))}x`;
  const cells = [
    med(t, "wall"),
    quantile(t.wall, 0.99),
    mean(t.cpu),
    med(t, "cpu"),
    quantile(t.cpu, 0.99),
  ].map((us) => fmt(us).padStart(10));
  console.log(`${name.padEnd(36)}${cells.join("")}${ratio.padStart(16)}`);
}
const row = (name: string) => rows.find(([n]) => n === name)![1];
for (const [ch, a] of [
  ["wasm route (distance only)", "wasm route, A* (distance only)"],
  ["wasm route (path)", "wasm route, A* (path)"],
  ["planSeaRoute (path)", "planSeaRoute, A* (path)"],
] as const) {
  const x = (k: keyof Times, q: number) => (quantile(row(a)[k], q) / quantile(row(ch)[k], q)).toFixed(1);
  const m = (mean(row(a).cpu) / mean(row(ch).cpu)).toFixed(1);
  console.log(
    `vs A*: ${ch.padEnd(36)} wall median ${x("wall", 0.5)}x, CPU mean ${m}x, median ${x("cpu", 0.5)}x, p99 ${x("cpu", 0.99)}x`,
  );
}
// The alternatives goal: a route with alternatives at most 3x the route without them.
for (const [label, alt, plain] of [
  ["hierarchy", "planSeaRoute (path + alternatives)", "planSeaRoute (path)"],
  ["hierarchy, warm", "planSeaRoute (path + alternatives), warm", "planSeaRoute (path)"],
  ["A*", "planSeaRoute, A* (path + alternatives)", "planSeaRoute, A* (path)"],
] as const) {
  const x = (mean(row(alt).cpu) / mean(row(plain).cpu)).toFixed(1);
  console.log(`alternatives, ${label}: ${x}x the route without them (CPU mean; goal <= 3x)`);
}
console.log(warmNote);
