/**
 * The distance product's loaded artifacts: the location index and the sea router (the road
 * planner loads on first use, roadPlanner below). Loaded once per
 * process (the sea router once per thread); main.ts loads them at start so a missing or stale build
 * stops the server with the rebuild message instead of failing the first request. Routes for
 * the API are planned by routePlanner (sea) and modePlanners (road, rail, air, river, multimodal):
 * worker threads, so searches never hold the event loop.
 */

import { resolve } from "node:path";
import { CARGO_AIRPORTS_OUTPUT, decodeCargoAirports } from "../formats/cargo-airports.ts";
import { decodeArtifact } from "../formats/container.ts";
import { decodeRailheads, RAILHEADS_OUTPUT } from "../formats/railheads.ts";
import { decodeRiverPorts, RIVER_PORTS_OUTPUT } from "../formats/river-ports.ts";
import { decodeRiverRules, RIVER_RULES_OUTPUT } from "../formats/river-rules.ts";
import { ROAD_GRAPH_KIND, ROAD_GRAPH_OUTPUT } from "../formats/road-graph.ts";
import { GRAPH_FORMAT_VERSION } from "../router-wasm/binding/router.ts";
import type { AirPlan, AirPlanner, AirPlanRequest } from "./air/planner.ts";
import { once, readArtifact, sameBuild } from "./artifacts.ts";
import type { RouteConfig } from "./config.ts";
import { type Cell, chunkCells, type MatrixChunk } from "./distance/matrix-chunk.ts";
import { LocationIndex } from "./locations/index.ts";
import type { MultimodalRequest } from "./multimodal/options.ts";
import type { MultimodalPlan } from "./multimodal/planner.ts";
import { RAIL_GRAPH_FILE, RAIL_GRAPH_KIND, type RailPlan, type RailPlanRequest } from "./rail/planner.ts";
import {
  RIVER_GRAPH_FILE,
  RIVER_GRAPH_KIND,
  type RiverPlan,
  type RiverPlanRequest,
} from "./river/planner.ts";
import type { RoadConfig } from "./road/config.ts";
import { roadEngine } from "./road/external.ts";
import { ExternalRoadPlanner, type RoadRoutePlanner } from "./road/planner.ts";
import { type ChainEnd, inThreadPlanner, RoutePool, type SeaPlanner } from "./sea/pool.ts";
import { getSeaRouter, type SeaRouter } from "./sea/router.ts";
import { ThreadPlanners } from "./thread-planners.ts";

export interface DistanceServices {
  locations: LocationIndex;
  sea: SeaRouter;
}

const cache = new Map<string, Promise<DistanceServices>>();

const LOCATIONS_FILE = "locations.idx";
const ofLocations = (locations: LocationIndex) => ({ file: LOCATIONS_FILE, buildId: locations.buildId });

async function load(buildDir: string): Promise<DistanceServices> {
  const { path, bytes } = await readArtifact(buildDir, LOCATIONS_FILE);
  const locations = LocationIndex.fromBytes(bytes, path);
  const sea = await getSeaRouter(buildDir);
  sameBuild(buildDir, { file: "sea.graph", buildId: sea.buildId }, ofLocations(locations));
  return { locations, sea };
}

export function distanceServices(buildDir: string): Promise<DistanceServices> {
  return once(cache, buildDir, () => load(buildDir));
}

type Planner = SeaPlanner & { close(): Promise<void> };
const planners = new Map<string, Promise<Planner>>();

/**
 * Jobs each API worker holds at once: while it plans one, the next is already in its message queue,
 * so under load it does not sleep and wake between jobs. A sea route is ~50 us of search and the
 * round trip to an idle worker cost ~100 us of CPU more (thread wake-ups: about a third of it in the
 * kernel); pipelined, 16 concurrent routes took 118 us of CPU each against 198 us (docs/sea-routing.md).
 */
const PIPELINED_JOBS = 2;

async function startPlanner(buildDir: string, config: RouteConfig): Promise<Planner> {
  const { sea } = await distanceServices(buildDir);
  if (config.workers === 0) return { ...inThreadPlanner(sea), close: async () => {} };
  const pool = await RoutePool.start({ buildDir: resolve(buildDir), ...config, perWorker: PIPELINED_JOBS });
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

const threadPlanners = new Map<string, Promise<ThreadPlanners>>();

/** The serving thread's planners for a build directory, over its sea router and main container ports. */
function inThread(buildDir: string): Promise<ThreadPlanners> {
  return once(threadPlanners, buildDir, async () => {
    const { sea, locations } = await distanceServices(buildDir);
    const ports = locations.mainPorts();
    return new ThreadPlanners(buildDir, sea, async () => ports);
  });
}

const roadPlanners = new Map<string, Promise<RoadRoutePlanner>>();

async function startRoadPlanner(buildDir: string, config: RoadConfig): Promise<RoadRoutePlanner> {
  const engine = roadEngine(config);
  if (engine) return new ExternalRoadPlanner(engine);
  // The model runs in the calling thread: a road search settles at most ~23k nodes (milliseconds).
  const model = await (await inThread(buildDir)).road(config);
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

/** The process's air planner (the large cargo airports of the build), loaded on first use. */
export async function airPlanner(buildDir: string): Promise<AirPlanner> {
  return (await inThread(buildDir)).air();
}

/** The road, rail, air, river and multimodal planners the API calls: on the route pool, or in-thread. */
export interface ModePlanners {
  road: RoadRoutePlanner;
  rail<P extends ChainEnd>(request: RailPlanRequest<P>): Promise<RailPlan<P>>;
  air<P extends ChainEnd>(request: AirPlanRequest<P>): Promise<AirPlan<P>>;
  river<P extends ChainEnd>(request: RiverPlanRequest<P>): Promise<RiverPlan<P>>;
  multimodal<P extends ChainEnd>(request: MultimodalRequest<P>): Promise<MultimodalPlan>;
  /** A matrix's cells (engine/distance/matrix-chunk.ts). */
  matrix(chunk: MatrixChunk): Promise<Cell[]>;
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
    river: (request) => pool.planRiver(request, external ?? model),
    multimodal: (request) => pool.planMultimodal(request, external ?? model),
    matrix: (chunk) => pool.planMatrixChunk(chunk, external ?? model),
  };
}

/**
 * The process's road, rail, air, river and multimodal planners for a build directory: on
 * routePlanner's pool, or on the calling thread when PORTOLAN_ROUTE_WORKERS=0.
 */
export async function modePlanners(
  buildDir: string,
  routes: RouteConfig,
  config: RoadConfig,
): Promise<ModePlanners> {
  const planner = await routePlanner(buildDir, routes);
  if (planner instanceof RoutePool) return pooledModes(planner, buildDir, config);
  const [road, planners] = await Promise.all([roadPlanner(buildDir, config), inThread(buildDir)]);
  return {
    road,
    rail: async (request) => (await planners.rail()).plan(request, road),
    air: async (request) => (await planners.air()).plan(request, road),
    river: async (request) => (await planners.river()).plan(request, road),
    multimodal: (request) => planners.multimodal.plan(request, road),
    matrix: (chunk) => chunkCells(planners, chunk, road),
  };
}

/**
 * The start's check of the road, rail and air artifacts (missing, stale, corrupt or from another
 * build stops the start). In-thread planning loads them here; with route workers they are only
 * decoded and compared with locations.idx, since the workers load them on their first job and a
 * second copy on this thread would serve nothing.
 */
export async function checkModeArtifacts(
  buildDir: string,
  routes: RouteConfig,
  config: RoadConfig,
): Promise<void> {
  if (routes.workers === 0) {
    const planners = await inThread(buildDir);
    await Promise.all([roadPlanner(buildDir, config), planners.rail(), planners.air(), planners.river()]);
    return;
  }
  const { locations } = await distanceServices(buildDir);
  const graph = async (file: string, kind: string) => {
    const { path, bytes } = await readArtifact(buildDir, file);
    return {
      file,
      buildId: decodeArtifact(bytes, { kind, formatVersion: GRAPH_FORMAT_VERSION, path }).buildId,
    };
  };
  const decoded = async (file: string, decode: (bytes: Uint8Array, path: string) => { buildId: string }) => {
    const { path, bytes } = await readArtifact(buildDir, file);
    return { file, buildId: decode(bytes, path).buildId };
  };
  const found = await Promise.all([
    graph(ROAD_GRAPH_OUTPUT, ROAD_GRAPH_KIND),
    graph(RAIL_GRAPH_FILE, RAIL_GRAPH_KIND),
    decoded(RAILHEADS_OUTPUT, decodeRailheads),
    decoded(CARGO_AIRPORTS_OUTPUT, decodeCargoAirports),
    graph(RIVER_GRAPH_FILE, RIVER_GRAPH_KIND),
    decoded(RIVER_PORTS_OUTPUT, decodeRiverPorts),
    decoded(RIVER_RULES_OUTPUT, decodeRiverRules),
  ]);
  for (const artifact of found) sameBuild(buildDir, artifact, ofLocations(locations));
}
