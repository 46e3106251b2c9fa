/**
 * Distance matrices through the distance engine on the route workers (as the server plans them,
 * route cache off) at the limits, 100 x 100 main container ports by sea and 25 x 25 cities door to
 * door (goals: 0.5 s and 2 s), each timed whole and against the same cells asked as single routes
 * one after another in the same run (the ratio is matrix time / single-route time).
 * bench/multimodal.ts prints these rows too.
 * Usage: bun bench/matrix.ts [--quick]
 */
import { loadavg } from "node:os";
import { DistanceEngine } from "../engine/distance/engine.ts";
import {
  MATRIX_LIMITS,
  type MatrixRequest,
  parseMatrixQuery,
  planMatrix,
} from "../engine/distance/matrix.ts";
import { parseMultimodalQuery, parseRouteQuery } from "../engine/distance/requests.ts";
import { EngineError } from "../engine/errors.ts";
import { geocoderConfig } from "../engine/locations/config.ts";
import { roadConfig } from "../engine/road/config.ts";
import { RoutePool } from "../engine/sea/pool.ts";
import { BUILD_DIR, mainPorts } from "../test/distance-sea/fixture.ts";

/** Inland and coastal cities of the door-to-door bench's kind, by name. */
const CITIES = [
  "Hamburg",
  "Milan",
  "Paris",
  "Madrid",
  "Warsaw",
  "Vienna",
  "Prague",
  "Budapest",
  "Lyon",
  "Munich",
  "Zurich",
  "Brussels",
  "Amsterdam",
  "Berlin",
  "Lisbon",
  "Rotterdam",
  "Antwerp",
  "Marseille",
  "Genoa",
  "Barcelona",
  "Bremen",
  "Gdansk",
  "Stuttgart",
  "Frankfurt",
  "Cologne",
];

/** A single route's time, failures counted as answers (the matrix answers them as cells). */
async function timedSingles(
  pairs: Array<[string, string]>,
  plan: (from: string, to: string) => Promise<string>,
) {
  const t0 = performance.now();
  for (const [from, to] of pairs)
    await plan(from, to).catch((err) => {
      if (!(err instanceof EngineError)) throw err;
    });
  return performance.now() - t0;
}

/** A matrix request for `places` both ways. */
function matrixOf(places: string[], modes?: string): MatrixRequest {
  const [first] = places;
  const req = parseMatrixQuery({ sources: [first!], destinations: [first!], modes });
  return { ...req, sources: places, destinations: places };
}

async function row(
  name: string,
  engine: DistanceEngine,
  places: string[],
  modes: string | undefined,
  single: (from: string, to: string) => Promise<string>,
): Promise<void> {
  const req = matrixOf(places, modes);
  const pairs = places.flatMap((a) => places.map((b) => [a, b] as [string, string]));
  // Two rounds, each way in turn, the better time of each: the first round fills the workers' rows.
  let [matrixMs, singleMs] = [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY];
  let cells: Array<{ error?: unknown }> = [];
  for (let round = 0; round < 2; round++) {
    singleMs = Math.min(singleMs, await timedSingles(pairs, single));
    const t0 = performance.now();
    cells = (JSON.parse(await planMatrix(engine, req)) as { cells: (typeof cells)[] }).cells.flat();
    matrixMs = Math.min(matrixMs, performance.now() - t0);
  }
  const routed = cells.filter((c) => c.error === undefined).length;
  console.log(
    `${name.padEnd(34)}${`${matrixMs.toFixed(0)} ms`.padStart(10)}${`${singleMs.toFixed(0)} ms`.padStart(12)}${`${(matrixMs / singleMs).toFixed(2)}x`.padStart(8)}   ${routed}/${cells.length} cells routed`,
  );
}

/** Prints the matrix rows: matrix time, the same cells as single routes, and their ratio. */
export async function matrixRows(quick = false): Promise<void> {
  // A pool of its own: the process's planner may be in-thread (bench/multimodal.ts).
  const routes = { workers: 2, queue: 64 };
  const pool = await RoutePool.start({ buildDir: BUILD_DIR, ...routes });
  const config = { buildDir: BUILD_DIR, routes, road: roadConfig({}), geocoder: geocoderConfig({}) };
  const engine = new DistanceEngine({ ...config, routeCacheEntries: 0 }, { routes: pool });
  const side = quick ? 30 : MATRIX_LIMITS.single;
  const ports = mainPorts()
    .slice(0, side)
    .map((p) => p.locode);
  const cities = CITIES.slice(0, quick ? 10 : MATRIX_LIMITS.doorToDoor);
  console.log(
    `load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(", ")}`,
  );
  // Loads the planners on the workers (each worker's first chain loads rail, air and river).
  await planMatrix(
    engine,
    parseMatrixQuery({ sources: cities.slice(0, 2), destinations: cities.slice(0, 2), modes: "" }),
  );
  console.log(
    `${"matrix (2 route workers, cache off)".padEnd(34)}${"matrix".padStart(10)}${"as singles".padStart(12)}${"ratio".padStart(8)}`,
  );
  const route = (from: string, to: string) => engine.route(parseRouteQuery({ from, to }));
  await row(`${side} x ${side} sea ports`, engine, ports, undefined, route);
  const chain = (from: string, to: string) =>
    engine.multimodal(parseMultimodalQuery({ from, to, alternatives: "false" }));
  await row(`${cities.length} x ${cities.length} cities door to door`, engine, cities, "", chain);
  await pool.close();
}

if (import.meta.main) await matrixRows(process.argv.includes("--quick"));
