/**
 * The distance engine: built once from a build directory and its settings, it answers a parsed
 * route, door-to-door or locations request (requests.ts) the same way for every caller: the HTTP
 * API (api/distance/app.ts), the batch CLI (engine/batch.ts) and the rates search. It resolves the
 * ends (the configured geocoder), applies the port policy (places.ts), plans on the route workers
 * or in-thread (services.ts) and keeps repeated route answers (route-cache.ts). Answers are the
 * response data's JSON text; failures are EngineErrors (Overloaded when the workers shed).
 */
import { type Chain, planWithCargoTonnes, withCargoTonnes } from "../chain.ts";
import type { RouteConfig } from "../config.ts";
import { answerWithGeometry, chainWithGeometry } from "../geojson.ts";
import type { GeocoderConfig } from "../locations/config.ts";
import { createGeocoder } from "../locations/geocoders.ts";
import type { Geocoder, LocationIndex, ResolvedPoint, SearchResult } from "../locations/index.ts";
import type { TransportMode } from "../modes/profile.ts";
import type { RoadConfig } from "../road/config.ts";
import { renderRoadChain } from "../road/planner.ts";
import { chainEnds } from "../route-point.ts";
import { RoutePool, type SeaPlanner } from "../sea/pool.ts";
import {
  type DistanceServices,
  distanceServices,
  type ModePlanners,
  modePlanners,
  pooledModes,
  routePlanner,
} from "../services.ts";
import { seaEnd, seaPortOf, shownPoint, withResolvedEnds } from "./places.ts";
import type { LocationsRequest, MultimodalParsed, RouteRequest } from "./requests.ts";
import { RouteCache, type RouteOption, routeKey } from "./route-cache.ts";

export interface DistanceEngineConfig {
  buildDir: string;
  routes: RouteConfig;
  road: RoadConfig;
  geocoder: GeocoderConfig;
  /** Route answers kept for repeated queries (route-cache.ts); 0 keeps none. */
  routeCacheEntries: number;
}

export interface DistanceEngineOptions {
  /**
   * Plans the sea routes; default: the process's planner for the build (services.ts routePlanner).
   * A RoutePool given here plans the road, rail, air, river and door-to-door routes too.
   */
  routes?: SeaPlanner;
}

type Ends = readonly [ResolvedPoint, ResolvedPoint];
type RoutePlan = (
  engine: DistanceEngine,
  req: RouteRequest,
  from: ResolvedPoint,
  to: ResolvedPoint,
) => Promise<string>;

/** Whether the planner draws the path: shown (path=true), or for the geometry. */
const drawn = (r: Pick<RouteRequest, "path" | "geometry">) => r.path || r.geometry !== undefined;

/** The answer's chains with their geometry when asked for (their paths then shown only with path=true). */
function withGeometry<T extends { route: Chain<unknown>; alternatives: Chain<unknown>[] }>(
  answer: T,
  r: Pick<RouteRequest, "path" | "geometry">,
): T {
  if (r.geometry === undefined) return answer;
  return answerWithGeometry(answer, (chain: Chain<unknown>) => chainWithGeometry(chain, r.path));
}

/** A chain plan's answer: the shown ends with their route points, then the plan with its emissions for the cargo mass. */
const chainAnswer = <T extends Parameters<typeof planWithCargoTonnes>[0]>(
  a: ReturnType<typeof shownPoint>,
  b: ReturnType<typeof shownPoint>,
  planned: T,
  r: RouteRequest,
) => {
  const [from, to] = chainEnds(a, b, planned.route);
  return JSON.stringify({ from, to, ...withGeometry(planWithCargoTonnes(planned, r.cargoTonnes), r) });
};

/** A rail or air chain: terminals in reach of each end, road access legs, handling. */
async function terminalChain(
  mode: "rail" | "air",
  engine: DistanceEngine,
  r: RouteRequest,
  from: ResolvedPoint,
  to: ResolvedPoint,
): Promise<string> {
  const [a, b] = [shownPoint(from), shownPoint(to)];
  const { alternatives, handling } = r;
  const planned = await (await engine.modes())[mode]({
    from: a,
    to: b,
    path: drawn(r),
    alternatives,
    handling,
  });
  return chainAnswer(a, b, planned, r);
}

/** How each mode's route is planned and rendered. */
const ROUTE_PLANS: Record<TransportMode, RoutePlan> = {
  SEA: async (engine, r, from, to) => {
    const { speedKnots, routingMode, avoid = [], cargoTonnes, path, geometry, alternatives } = r;
    return (await engine.sea()).planJson({
      from: seaEnd(from),
      to: seaEnd(to),
      show: { from: shownPoint(from), to: shownPoint(to) },
      ...{ speedKnots, routingMode, avoid, cargoTonnes, path, geometry, alternatives },
    });
  },
  ROAD: async (engine, r, from, to) => {
    const planned = await (await engine.modes()).road.plan({
      from,
      to,
      path: drawn(r),
      alternatives: r.alternatives,
    });
    const [a, b] = [shownPoint(from), shownPoint(to)];
    const chains = {
      route: withCargoTonnes(renderRoadChain(planned.route, a, b), r.cargoTonnes),
      alternatives: planned.alternatives.map((leg) =>
        withCargoTonnes(renderRoadChain(leg, a, b), r.cargoTonnes),
      ),
    };
    const [start, end] = chainEnds(a, b, chains.route);
    return JSON.stringify({ from: start, to: end, ...withGeometry(chains, r) });
  },
  RAIL: (engine, r, from, to) => terminalChain("rail", engine, r, from, to),
  AIR: (engine, r, from, to) => terminalChain("air", engine, r, from, to),
  RIVER: async (engine, r, from, to) => {
    const [a, b] = [shownPoint(from), shownPoint(to)];
    const { alternatives, handling, date, seasonal } = r;
    const planned = await (await engine.modes()).river({
      from: a,
      to: b,
      path: drawn(r),
      alternatives,
      handling,
      date,
      seasonal,
    });
    return chainAnswer(a, b, planned, r);
  },
};

export class DistanceEngine {
  private geocoder: Geocoder | null = null;
  private readonly cache: RouteCache;

  constructor(
    readonly config: DistanceEngineConfig,
    private readonly opts: DistanceEngineOptions = {},
  ) {
    this.cache = new RouteCache(config.routeCacheEntries);
  }

  /** The route cache's tallies, for the metrics (api/distance/app.ts watches them). */
  get routeCache(): Pick<RouteCache, "hits" | "misses" | "evictions" | "size"> {
    return this.cache;
  }

  /** The build's location index and this thread's sea router. */
  services(): Promise<DistanceServices> {
    return distanceServices(this.config.buildDir);
  }

  /** The sea route planner: the given one, or the process's (workers or in-thread). */
  async sea(): Promise<SeaPlanner> {
    return this.opts.routes ?? routePlanner(this.config.buildDir, this.config.routes);
  }

  /** The road, rail, air, river and door-to-door planners, on the same workers as sea(). */
  modes(): Promise<ModePlanners> {
    const { buildDir, routes, road } = this.config;
    return this.opts.routes instanceof RoutePool
      ? pooledModes(this.opts.routes, buildDir, road)
      : modePlanners(buildDir, routes, road);
  }

  /** One mode's route: the response data's JSON text. */
  async route(req: RouteRequest): Promise<string> {
    const [from, to] = await this.routeEnds(req.from, req.to);
    return this.routeBetween(req, from, to);
  }

  /**
   * One mode's route between ends already resolved (a matrix's cells resolve each place once).
   * `keep` false reads the route cache without filling it: a matrix's cells do not evict routes.
   */
  async routeBetween(
    req: RouteRequest,
    from: ResolvedPoint,
    to: ResolvedPoint,
    keep = true,
  ): Promise<string> {
    // Every option that changes the answer, in one fixed order.
    const options: RouteOption[] = [
      req.path,
      req.geometry,
      req.alternatives,
      req.handling,
      req.date,
      req.seasonal,
      req.speedKnots,
      req.routingMode,
      req.avoid,
      req.cargoTonnes,
    ];
    // A sea route never involves the road planner.
    const key = await this.keyOf(req.mode, from, to, options, req.mode !== "SEA");
    return this.cached(key, () => ROUTE_PLANS[req.mode](this, req, from, to), keep).catch((err) => {
      throw withResolvedEnds(err, [
        ["from", req.from, from],
        ["to", req.to, to],
      ]);
    });
  }

  /** A door-to-door route (GET /v1/distance/multimodal): the response data's JSON text. */
  async multimodal(req: MultimodalParsed): Promise<string> {
    const [from, to] = await this.routeEnds(req.from, req.to);
    return this.multimodalBetween(req, from, to);
  }

  /** A door-to-door route between ends already resolved; `keep` as routeBetween's. */
  async multimodalBetween(
    req: MultimodalParsed,
    from: ResolvedPoint,
    to: ResolvedPoint,
    keep = true,
  ): Promise<string> {
    const [pol, pod] = await Promise.all([this.seaPort("pol", req.pol), this.seaPort("pod", req.pod)]);
    const { from: _from, to: _to, pol: _pol, pod: _pod, geometry, ...options } = req;
    const key = await this.keyOf(
      "MULTIMODAL",
      from,
      to,
      [...Object.values(options), geometry, pol, pod],
      true,
    );
    const answer = this.cached(
      key,
      async () => {
        const [a, b] = [shownPoint(from), shownPoint(to)];
        const path = drawn(req);
        const planned = await (await this.modes()).multimodal({ from: a, to: b, pol, pod, ...options, path });
        const { considered: _, ...shown } = planned;
        const [start, end] = chainEnds(a, b, shown.route);
        return JSON.stringify({ from: start, to: end, ...withGeometry(shown, req) });
      },
      keep,
    );
    return answer.catch((err) => {
      throw withResolvedEnds(err, [
        ["from", req.from, from],
        ["to", req.to, to],
      ]);
    });
  }

  /** Ports, airports, countries and places matching the text (GET /v1/distance/locations). */
  async locations(req: LocationsRequest): Promise<SearchResult[]> {
    const { locations } = await this.services();
    const { types, geocode, limit } = req;
    return locations.searchWith(req.q, { types, geocode, limit }, this.geocoderOf(locations));
  }

  /** Free text goes to the configured geocoder (offline GeoNames by default; Nominatim or Photon). */
  private geocoderOf(locations: LocationIndex): Geocoder {
    this.geocoder ??= createGeocoder(locations, this.config.geocoder);
    return this.geocoder;
  }

  /**
   * The ends, kept with the route answers while resolution is offline (a pure function of the
   * text). Resolution stays on this thread: microseconds of index lookups, and an external
   * geocoder is I/O.
   */
  private async routeEnds(from: string, to: string): Promise<Ends> {
    return [await this.resolveEnd(from), await this.resolveEnd(to)];
  }

  /** A route end's text as resolved (location_not_found when it names no place). */
  async resolveEnd(text: string): Promise<ResolvedPoint> {
    const { locations } = await this.services();
    const geocoder = this.geocoderOf(locations);
    const resolve = (t: string) => locations.resolveWith(t, geocoder);
    if (!this.cache.enabled || geocoder !== locations.offline) return resolve(text);
    return this.cache.resolved(text, resolve);
  }

  /** pol / pod as a sea port, or null when not given. */
  async seaPort(name: "pol" | "pod", code: string | undefined): Promise<ResolvedPoint | null> {
    if (code === undefined || code.trim() === "") return null;
    return seaPortOf((await this.services()).locations, name, code);
  }

  /**
   * The cache key of a route, or null with the cache off. Answers that use the road planner are
   * not kept with an external road engine, whose answers move with its data and turn into
   * estimates while it is down.
   */
  private async keyOf(
    mode: string,
    from: ResolvedPoint,
    to: ResolvedPoint,
    options: RouteOption[],
    usesRoad: boolean,
  ): Promise<string | null> {
    if (!this.cache.enabled || (usesRoad && this.config.road.engine)) return null;
    return routeKey({ build: (await this.services()).sea.buildId, mode, from, to, options });
  }

  /** The answer kept under `key`, else `plan`'s, kept for the next unless `keep` is false. */
  private async cached(key: string | null, plan: () => Promise<string>, keep = true): Promise<string> {
    const hit = key === null ? undefined : this.cache.get(key);
    if (hit !== undefined) return hit;
    const json = await plan();
    if (key !== null && keep) this.cache.set(key, json);
    return json;
  }
}
