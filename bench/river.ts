/**
 * River bench (goal: a river query on the full graph under 5 ms median in-process). Pairs: 300
 * river ports of the build drawn with a fixed seed among the pairs 100-3000 km apart that the river
 * graph joins. Times the router's river query (barge only, today's seasonal rules) and the whole
 * river chain (road access legs, port pairings, notes). Baseline, measured in the same run: the sea
 * router's distance-only WASM query (leg-timing.ts). Then the build's own time and peak memory as
 * river.summary.json recorded them. Then the road access legs at the main inland ports
 * (river-access.ts) on this build and, with --before DIR, on another build of the river artifacts
 * (the same road planner), with their ratio. Usage: bun bench/river.ts [--quick] [--before DIR]
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { haversineM } from "../common/geo.ts";
import { prng } from "../common/random.ts";
import { EngineError } from "../engine/errors.ts";
import { RiverPlanner } from "../engine/river/planner.ts";
import { seasonalState, todayUtc } from "../engine/river/seasonal.ts";
import { RoadPlanner, type RoadRoutePlanner } from "../engine/road/planner.ts";
import { SeaRouter } from "../engine/sea/router.ts";
import { decodeRiverPorts, RIVER_PORTS_OUTPUT } from "../formats/river-ports.ts";
import { STATUS, WasmRouter } from "../router-wasm/binding/router.ts";
import { BUILD_DIR } from "../test/distance-sea/fixture.ts";
import { fmt, PORT_PAIRS, quantile, seaBaseline, time } from "./leg-timing.ts";
import { type AccessFigures, accessLegs } from "./river-access.ts";

const PAIRS = 300;
const SEED = 13;
const TARGET_MS = 5;
const quick = process.argv.includes("--quick");
const beforeAt = process.argv.indexOf("--before");
const beforeDir = beforeAt > 0 ? process.argv[beforeAt + 1] : undefined;

const [river, road, sea] = await Promise.all([
  RiverPlanner.load(BUILD_DIR),
  RoadPlanner.load(BUILD_DIR),
  SeaRouter.load(BUILD_DIR),
]);
const roadAsync: RoadRoutePlanner = { plan: async (req) => road.plan(req) };
// The barge query alone, in an instance of its own over the same graph.
const wasm = await WasmRouter.instantiate(readFileSync(join(BUILD_DIR, "router.wasm")));
const graph = wasm.load(readFileSync(join(BUILD_DIR, "river.graph")), {
  kind: "river-graph",
  path: "river.graph",
});
const { ports } = decodeRiverPorts(readFileSync(join(BUILD_DIR, RIVER_PORTS_OUTPUT)));
const factors = seasonalState(river.rules, todayUtc()).factors;

// Seeded draws of port pairs 100-3000 km apart that the graph joins, until PAIRS of them.
const rand = prng(SEED);
const pairs: Array<{ from: (typeof ports)[number]; to: (typeof ports)[number] }> = [];
for (let tries = 0; pairs.length < PAIRS && tries < PAIRS * 200; tries++) {
  const a = ports[Math.floor(rand() * ports.length)]!;
  const b = ports[Math.floor(rand() * ports.length)]!;
  const km = haversineM(a.lat, a.lng, b.lat, b.lng) / 1000;
  if (km < 100 || km > 3000) continue;
  const r = wasm.routeRiver(graph.handle, a, b, { ruleFactors: factors });
  if (r.status === STATUS.found) pairs.push({ from: a, to: b });
}

const reps = quick ? 2 : 10;
const baseline = await seaBaseline(sea, reps);
const barge = await time(pairs, reps, (p) => {
  const r = wasm.routeRiver(graph.handle, p.from, p.to, { ruleFactors: factors });
  if (r.status !== STATUS.found) throw new EngineError("no_route", "no river route");
});
const chain = await time(pairs, quick ? 1 : 3, (p) => river.plan({ from: p.from, to: p.to }, roadAsync));

const baseMedian = quantile(baseline.us, 0.5);
console.log(
  `${pairs.length} river port pairs (100-3000 km apart, joined by the river graph, seed ${SEED}); rules of ${todayUtc()}`,
);
console.log(
  `${"".padEnd(44)}${"routed".padStart(10)}${"median".padStart(10)}${"p99".padStart(10)}${"vs baseline".padStart(13)}${`< ${TARGET_MS} ms`.padStart(9)}`,
);
const rows: Array<[string, typeof barge, number, boolean]> = [
  ["baseline: sea WASM route (distance only)", baseline, PORT_PAIRS.length, false],
  ["river query (router, barge only)", barge, pairs.length, true],
  ["river chain (ports, road access legs, notes)", chain, pairs.length, false],
];
for (const [name, r, of, goal] of rows) {
  const median = quantile(r.us, 0.5);
  const verdict = goal ? (median < TARGET_MS * 1000 ? "yes" : "NO") : "";
  console.log(
    `${name.padEnd(44)}${`${r.routed}/${of}`.padStart(10)}${fmt(median).padStart(10)}${fmt(quantile(r.us, 0.99)).padStart(10)}${`${(median / baseMedian).toFixed(2)}x`.padStart(13)}${verdict.padStart(9)}`,
  );
}

const summary = JSON.parse(readFileSync(join(BUILD_DIR, "river.summary.json"), "utf8")) as Record<
  string,
  unknown
>;
console.log(
  `river build (river.summary.json): ${JSON.stringify({ build_seconds: summary.build_seconds, peak_rss_mb: summary.peak_rss_mb })}`,
);

const access: Array<[string, AccessFigures]> = [];
if (beforeDir)
  access.push([`before (${beforeDir})`, await accessLegs(await RiverPlanner.load(beforeDir), roadAsync)]);
access.push([`this build (${BUILD_DIR})`, await accessLegs(river, roadAsync)]);
console.log(
  "road access legs at the main inland ports (main-river-ports.csv; first road leg of a chain to the nearest listed port 100+ km along the river):",
);
for (const [name, a] of access)
  console.log(
    `  ${name}: ${a.routed}/${a.of} routed, median ${a.median.toFixed(1)} km, worst ${a.worst.km.toFixed(1)} km (${a.worst.name}), ${a.over10} over 10 km`,
  );
if (access.length === 2) {
  const [[, b], [, a]] = access as [[string, AccessFigures], [string, AccessFigures]];
  const ratio = (x: number, y: number) => (y > 0 ? `${(x / y).toFixed(2)}x` : "-");
  console.log(
    `  after / before: median ${ratio(a.median, b.median)}, worst ${ratio(a.worst.km, b.worst.km)}`,
  );
}
