/**
 * The distance product's loaded artifacts: the location index and the sea router (the road
 * planner loads on first use, roadPlanner below). Loaded once per
 * process (the sea router once per thread); main.ts loads them at start so a missing or stale build
 * stops the server with the rebuild message instead of failing the first request. Routes for
 * the API are planned by routePlanner (sea) and modePlanners (road, rail, air): worker threads,
 * so searches never hold the event loop.
 */
import { readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { type AirPlan, AirPlanner, type AirPlanRequest } from "./air/planner.ts";
import type { RouteConfig } from "./config.ts";
import { LocationIndex } from "./locations/index.ts";
import { type RailPlan, RailPlanner, type RailPlanRequest } from "./rail/planner.ts";
import type { RoadConfig } from "./road/config.ts";
import { roadEngine } from "./road/external.ts";
import { ExternalRoadPlanner, getRoadPlanner, type RoadRoutePlanner } from "./road/planner.ts";
import { type ChainEnd, RoutePool, type SeaPlanner } from "./sea/pool.ts";
import { getSeaRouter, type SeaRouter } from "./sea/router.ts";

export interface DistanceServices {
  locations: LocationIndex;
  sea: SeaRouter;
}

/** One load per key; a failed load is forgotten so the next call retries. */
function once<T>(cache: Map<string, Promise<T>>, key: string, load: () => Promise<T>): Promise<T> {
  let pending = cache.get(key);
  if (!pending) {
    pending = load();
    pending.catch(() => cache.delete(key));
    cache.set(key, pending);
  }
  return pending;
}

const cache = new Map<string, Promise<DistanceServices>>();

async function load(buildDir: string): Promise<DistanceServices> {
  const path = join(buildDir, "locations.idx");
  const bytes = await readFile(path).catch(() => {
    throw new Error(`${path} missing: run \`npm run build\` to build the artifacts`);
  });
  const locations = LocationIndex.fromBytes(
    new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength),
    path,
  );
  const sea = await getSeaRouter(buildDir);
  if (sea.buildId !== locations.buildId) {
    throw new Error(
      `artifacts in ${buildDir} come from different builds (sea.graph ${sea.buildId}, locations.idx ${locations.buildId}): run \`npm run build\``,
    );
  }
  return { locations, sea };
}

export function distanceServices(buildDir: string): Promise<DistanceServices> {
  return once(cache, buildDir, () => load(buildDir));
}

type Planner = SeaPlanner & { close(): Promise<void> };
const planners = new Map<string, Promise<Planner>>();

async function startPlanner(buildDir: string, config: RouteConfig): Promise<Planner> {
  const { sea } = await distanceServices(buildDir);
  if (config.workers === 0) return { plan: async (request) => sea.plan(request), close: async () => {} };
  const pool = await RoutePool.start({ buildDir: resolve(buildDir), ...config });
  if (pool.buildId !== sea.buildId) {
    await pool.close();
    throw new Error(`${buildDir} was rebuilt while the server ran (sea.graph ${pool.buildId}): restart it`);
  }
  return pool;
}

/**
 * The process's sea route planner for a build directory, started on first use: a RoutePool
 * (PORTOLAN_ROUTE_WORKERS, PORTOLAN_ROUTE_QUEUE; engine/config.ts), or the calling thread's
 * router when PORTOLAN_ROUTE_WORKERS=0.
 */
export function routePlanner(buildDir: string, config: RouteConfig): Promise<SeaPlanner> {
  return once(planners, buildDir, () => startPlanner(buildDir, config));
}

/** Stops every route planner's workers; the next route starts a new pool (tests, shutdown). */
export async function closeRoutePlanners(): Promise<void> {
  const all = [...planners.values()];
  planners.clear();
  await Promise.all(all.map(async (p) => (await p.catch(() => null))?.close()));
}

const roadPlanners = new Map<string, Promise<RoadRoutePlanner>>();

async function startRoadPlanner(buildDir: string, config: RoadConfig): Promise<RoadRoutePlanner> {
  const engine = roadEngine(config);
  if (engine) return new ExternalRoadPlanner(engine);
  // The model runs in the calling thread: a road search settles at most ~23k nodes (milliseconds).
  const { locations } = await distanceServices(buildDir);
  const model = await getRoadPlanner(buildDir, {
    circuity: config.circuity,
    truckSpeedKmh: config.truckSpeedKmh,
  });
  if (model.buildId !== locations.buildId) {
    throw new Error(
      `artifacts in ${buildDir} come from different builds (road.graph ${model.buildId}, locations.idx ${locations.buildId}): run \`npm run build\``,
    );
  }
  return { plan: async (request) => model.plan(request) };
}

/**
 * The process's road planner for a build directory: the external engine when config.road names one
 * (OSRM/Valhalla, estimated legs when it is down), else the road-graph model (docs/road.md).
 */
export function roadPlanner(buildDir: string, config: RoadConfig): Promise<RoadRoutePlanner> {
  return once(roadPlanners, `${buildDir}\n${config.engine ?? "model"}\n${config.baseUrl ?? ""}`, () =>
    startRoadPlanner(buildDir, config),
  );
}

const railPlanners = new Map<string, Promise<RailPlanner>>();

async function startRailPlanner(buildDir: string): Promise<RailPlanner> {
  const { locations } = await distanceServices(buildDir);
  const rail = await RailPlanner.load(buildDir);
  if (rail.buildId !== locations.buildId) {
    throw new Error(
      `artifacts in ${buildDir} come from different builds (rail.graph ${rail.buildId}, locations.idx ${locations.buildId}): run \`npm run build\``,
    );
  }
  return rail;
}

/** The process's rail planner (rail.graph + railheads.bin in its own WASM instance), loaded on first use. */
export function railPlanner(buildDir: string): Promise<RailPlanner> {
  return once(railPlanners, buildDir, () => startRailPlanner(buildDir));
}

const airPlanners = new Map<string, Promise<AirPlanner>>();

async function startAirPlanner(buildDir: string): Promise<AirPlanner> {
  const [{ locations }, air] = await Promise.all([distanceServices(buildDir), AirPlanner.load(buildDir)]);
  if (air.buildId !== locations.buildId) {
    throw new Error(
      `artifacts in ${buildDir} come from different builds (cargo-airports.bin ${air.buildId}, locations.idx ${locations.buildId}): run \`npm run build\``,
    );
  }
  return air.planner;
}

/** The process's air planner (the large cargo airports of the build), loaded on first use. */
export function airPlanner(buildDir: string): Promise<AirPlanner> {
  return once(airPlanners, buildDir, () => startAirPlanner(buildDir));
}

/** The road, rail and air planners the API calls: on the route pool, or in-thread. */
export interface ModePlanners {
  road: RoadRoutePlanner;
  rail<P extends ChainEnd>(request: RailPlanRequest<P>): Promise<RailPlan<P>>;
  air<P extends ChainEnd>(request: AirPlanRequest<P>): Promise<AirPlan<P>>;
}

/**
 * Road, rail and air planning on a route pool's workers (the pool loads the road graph, the rail
 * graph and the cargo airports on their first job). An external road engine (config.road) stays
 * on this thread: its legs are network I/O, not CPU, and one engine client keeps one back-off
 * state; rail and air chains still run on the pool and ask this thread for such access legs.
 */
export async function pooledModes(
  pool: RoutePool,
  buildDir: string,
  config: RoadConfig,
): Promise<ModePlanners> {
  const external = config.engine ? await roadPlanner(buildDir, config) : null;
  const model = { circuity: config.circuity, truckSpeedKmh: config.truckSpeedKmh };
  return {
    road: external ?? { plan: (request) => pool.planRoad(request, model) },
    rail: (request) => pool.planRail(request, external ?? model),
    air: (request) => pool.planAir(request, external ?? model),
  };
}

/**
 * The process's road, rail and air planners for a build directory: on routePlanner's pool, or on
 * the calling thread when PORTOLAN_ROUTE_WORKERS=0 (roadPlanner, railPlanner, airPlanner).
 */
export async function modePlanners(
  buildDir: string,
  routes: RouteConfig,
  config: RoadConfig,
): Promise<ModePlanners> {
  const planner = await routePlanner(buildDir, routes);
  if (planner instanceof RoutePool) return pooledModes(planner, buildDir, config);
  const road = await roadPlanner(buildDir, config);
  return {
    road,
    rail: async (request) => (await railPlanner(buildDir)).plan(request, road),
    air: async (request) => (await airPlanner(buildDir)).plan(request, road),
  };
}
