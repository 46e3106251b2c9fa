/**
 * In-process sea route planning over the WASM router. One SeaRouter uses one WebAssembly
 * instance and its sea graph handle (the instance may hold other graphs: pass a WasmRouter to
 * SeaRouter.load to share it); create one per worker thread (getSeaRouter caches it per thread).
 * Response shape and conventions: docs/sea-routing.md.
 */

import { join, resolve } from "node:path";
import { buildDirFrom } from "../../common/build-dir.ts";
import type { PathPoint } from "../../common/geo.ts";
import { log } from "../../common/log.ts";
import { round } from "../../common/round.ts";
import {
  type LoadedGraph,
  type ManyResult,
  type PathOutput,
  type RawRoute,
  type SnappedNode,
  STATUS,
  WasmRouter,
} from "../../router-wasm/binding/router.ts";
import { readArtifact } from "../artifacts.ts";
import { checkCargoTonnes, type Emissions, legEmissions } from "../emissions.ts";
import { EngineError } from "../errors.ts";
import {
  answerWithGeometry,
  type FeatureCollection,
  type GeometryFormat,
  seaRouteWithGeometry,
} from "../geojson.ts";
import { alternativeLabel, type Found, nextCorridorClosure, pickAlternatives } from "./alternatives.ts";
import {
  alternativeClosures,
  checkMode,
  checkSpeed,
  DEFAULT_MASK,
  GATE_IDS,
  maskOf,
  PASSAGE_IDS,
  type PassageId,
  parseAvoid,
  passageBit,
  type RoutingMode,
  SAFE_CLOSED,
  SPEED_KNOTS,
} from "./policy.ts";
import { routePoint } from "./route-point.ts";

const METRES_PER_NM = 1852;
/** The sea graph's contraction hierarchy, next to sea.graph (data-build/stages/sea-hierarchy.ts). */
export const SEA_HIERARCHY = "sea.hierarchy";
/**
 * A point farther than this from every sea lane is not at sea (inland city, lake): no route.
 * Resolved ports get more room: river ports such as Nanjing (245 km up the Yangtze) sit beyond
 * the 20 km network's last lane but are still sea ports.
 */
export const MAX_SNAP_KM = { port: 400, other: 200 } as const;
/** Search budget (heap pops); the whole sea graph settles in ~15k, so only a broken graph hits it. */
export const DEFAULT_MAX_SETTLED = 250_000;
const MAX_ALTERNATIVES = 3;

/** Any resolved location works; only lat/lng (and name, for messages) are read. */
export interface SeaPoint {
  lat: number;
  lng: number;
  name?: string | null;
  /** Resolved-point kind; "port" allows a longer snap (MAX_SNAP_KM). */
  kind?: string;
}

export interface SeaRouteRequest {
  from: SeaPoint;
  to: SeaPoint;
  /** 3 to 40; default 14. */
  speedKnots?: number;
  routingMode?: RoutingMode | string;
  /** Passage ids to close (case-insensitive). */
  avoid?: readonly string[];
  /** Include the geometry; the `path` key is omitted otherwise. */
  path?: boolean;
  /** Each route's geometry in this format too, as its `geometry` (engine/geojson.ts). */
  geometry?: GeometryFormat;
  alternatives?: boolean;
  /** Cargo mass the emissions are stated for; default 1 t, more than 0 and at most 100000. */
  cargoTonnes?: number;
  /** Search budget override (tests, batch jobs). */
  maxSettled?: number;
  /**
   * The ends as the answer shows them: planJson then writes them first, as `from` and `to`, each
   * with its route_point (route-point.ts).
   */
  show?: { from: object; to: object };
}

export interface SeaRoute {
  label: string;
  distance: { nm: number; km: number };
  eca: {
    nm: number;
    non_eca_nm: number;
    share: number;
    zones: Array<{ id: string; name: string; nm: number }>;
  };
  transit: { speed_knots: number; hours: number; days: number };
  passages: Array<{ id: string; name: string }>;
  /** Beyond the spec: kg CO2e for the cargo mass (docs/emissions.md). */
  emissions: Emissions;
  /** [lat, lng] pairs from the snapped origin to the snapped destination. */
  path?: PathPoint[];
  /** Beyond the spec: the route as a GeoJSON FeatureCollection (one SEA feature), when asked. */
  geometry?: FeatureCollection;
}

export interface SeaRouteData {
  routing_mode: RoutingMode;
  avoided: PassageId[];
  route: SeaRoute;
  alternatives: SeaRoute[];
}

export class SeaRouter {
  private constructor(
    readonly wasm: WasmRouter,
    readonly graph: LoadedGraph,
    readonly graphPath: string,
  ) {}

  get buildId(): string {
    return this.graph.buildId;
  }

  /** The sea graph's handle in `wasm`. */
  get handle(): number {
    return this.graph.handle;
  }

  /**
   * Loads `sea.graph` and `router.wasm` from a build directory (default data/build or
   * PORTOLAN_BUILD_DIR). A stale, foreign or corrupt artifact throws an ArtifactError that names
   * the file and says how to rebuild.
   */
  static async load(buildDir?: string, shared?: WasmRouter): Promise<SeaRouter> {
    const dir = resolve(buildDir ?? buildDirFrom());
    const [graph, wasm, hierarchy] = await Promise.all([
      readArtifact(dir, "sea.graph"),
      readArtifact(dir, "router.wasm"),
      readArtifact(dir, SEA_HIERARCHY).catch(() => null),
    ]);
    const router = shared ?? (await WasmRouter.instantiate(wasm.bytes));
    const sea = SeaRouter.fromBytes(router, graph.bytes, graph.path);
    if (hierarchy) {
      sea.attachHierarchy(hierarchy.bytes, hierarchy.path);
    } else {
      // An older build directory: still correct, only slower.
      log.warn(
        `${join(dir, SEA_HIERARCHY)} missing: sea routes use A* search (slower); run \`npm run build\` to build the hierarchy`,
      );
    }
    return sea;
  }

  /**
   * Attaches the contraction hierarchy (docs/routing-speed.md): distance queries then use it, with
   * A*'s answers. One built for another sea graph is refused: the graph is unloaded and the error
   * names the file and how to rebuild.
   */
  attachHierarchy(bytes: Uint8Array, path = SEA_HIERARCHY): void {
    try {
      this.wasm.loadHierarchy(this.handle, bytes, path);
      // The table most queries use, full and now rather than a smaller one on the 500th query.
      this.wasm.prepareTopTable(this.handle, DEFAULT_MASK);
    } catch (err) {
      this.wasm.unload(this.handle);
      throw err;
    }
  }

  /** Whether distance queries use the contraction hierarchy (else A*). */
  get hierarchical(): boolean {
    return this.wasm.hasHierarchy(this.handle);
  }

  /** A sea graph's bytes into `wasm` (the build's, or a test's tiny hand-made graph). */
  static fromBytes(wasm: WasmRouter, bytes: Uint8Array, path = "sea.graph"): SeaRouter {
    const { artifact: _, ...loaded } = wasm.load(bytes, { kind: "sea-graph", path });
    const ids = loaded.names.gates.map((g) => g.id);
    if (ids.join(",") !== GATE_IDS.join(",")) {
      wasm.unload(loaded.handle);
      throw new Error(
        `${path}: passages [${ids.join(", ")}] do not match this API build; rebuild the artifacts`,
      );
    }
    return new SeaRouter(wasm, loaded, path);
  }

  /** Nearest graph node to a point: where a route from or to it starts. */
  snap(lat: number, lng: number): { lat: number; lng: number; km: number } | null {
    const s = this.wasm.snap(this.handle, lat, lng);
    return s && { lat: s.lat, lng: s.lng, km: s.snapM / 1000 };
  }

  /** Low-level query with an explicit closed mask (bit i = GATE_IDS[i]). */
  routeRaw(
    from: SeaPoint,
    to: SeaPoint,
    closedMask: number,
    path: PathOutput,
    maxSettled = DEFAULT_MAX_SETTLED,
  ): RawRoute {
    return this.wasm.route(this.handle, from.lat, from.lng, to.lat, to.lng, closedMask, maxSettled, path);
  }

  /**
   * Sea distances from one point to many (port and terminal candidates) in one search: metres per
   * target, Infinity when unreachable with the closures, NaN when a target is not near the graph.
   * `closedMask` defaults to the default closures. Snap limits (MAX_SNAP_KM) are not applied:
   * `result.from.snapM` and `snap()` tell the caller how far each point is from the lanes.
   */
  oneToMany(
    from: SeaPoint,
    targets: readonly SeaPoint[],
    closedMask: number = DEFAULT_MASK,
    maxSettled = DEFAULT_MAX_SETTLED,
  ): ManyResult {
    return this.wasm.oneToManyResult(this.handle, from, targets, closedMask, { maxSettled });
  }

  /** Plans a sea route; throws EngineError validation / noRoute. */
  plan(req: SeaRouteRequest): SeaRouteData {
    return this.plannedWithGeometry(req).data;
  }

  /**
   * The best route's figures alone (a matrix cell): plan's search and arithmetic, without its path,
   * alternatives or rendering.
   */
  figures(req: Omit<SeaRouteRequest, "path" | "geometry" | "alternatives" | "show">): SeaRoute {
    return this.planned({ ...req, alternatives: false }, false).data.route;
  }

  /** plan's answer and the ends it snapped to, with each route's GeoJSON when asked for. */
  private plannedWithGeometry(req: SeaRouteRequest): {
    data: SeaRouteData;
    ends: readonly [SnappedNode, SnappedNode];
  } {
    const { data, ends } = this.planned(req, req.path === true || req.geometry !== undefined);
    if (req.geometry === undefined) return { data, ends };
    const withGeometry = (route: SeaRoute) => seaRouteWithGeometry(route, req.path === true);
    return { data: answerWithGeometry(data, withGeometry), ends };
  }

  /**
   * JSON.stringify(this.plan(req)), its paths' text written by the router from each graph point's
   * JSON text, kept once per point (router-wasm/src/path_json.rs): writing a long path's numbers
   * took 3x the route's planning, and joining hundreds of texts here left a string that took as
   * long again to flatten (docs/routing-speed.md). Each route's `path` is its last member. With
   * `geometry` the path's numbers are needed anyway: the data is rendered whole.
   */
  planJson(req: SeaRouteRequest): string {
    if (req.geometry !== undefined) {
      const { data, ends } = this.plannedWithGeometry(req);
      return `{${this.endsJson(req, ends)}${JSON.stringify(data).slice(1)}`;
    }
    const withPath = req.path === true;
    const { data, paths, ends } = this.planned(req, withPath ? "json" : false);
    const routeJson = (r: SeaRoute, k: number) =>
      withPath ? `${JSON.stringify(r).slice(0, -1)},"path":${paths[k]}}` : JSON.stringify(r);
    const alternatives = data.alternatives.map((r, k) => routeJson(r, k + 1)).join(",");
    return `{${this.endsJson(req, ends)}"routing_mode":${JSON.stringify(data.routing_mode)},"avoided":${JSON.stringify(data.avoided)},"route":${routeJson(data.route, 0)},"alternatives":[${alternatives}]}`;
  }

  /** The shown ends with their route points, as the answer's first members; "" when not asked for. */
  private endsJson(req: SeaRouteRequest, ends: readonly [SnappedNode, SnappedNode]): string {
    if (!req.show) return "";
    const end = (side: "from" | "to", k: 0 | 1) => {
      const p = req[side];
      const point = routePoint(side, { name: p.name, port: p.kind === "port" }, ends[k]);
      return JSON.stringify({ ...req.show![side], route_point: point });
    };
    return `"from":${end("from", 0)},"to":${end("to", 1)},`;
  }

  /** plan's work: the data, and with `path` "json" each route's path text (main route first), not in the data. */
  private planned(
    req: SeaRouteRequest,
    path: PathOutput,
  ): { data: SeaRouteData; paths: string[]; ends: readonly [SnappedNode, SnappedNode] } {
    const speed = checkSpeed(req.speedKnots ?? SPEED_KNOTS.default);
    const mode = checkMode(req.routingMode ?? "short");
    const tonnes = checkCargoTonnes(req.cargoTonnes);
    for (const [side, p] of [["from", req.from] as const, ["to", req.to] as const]) {
      if (
        !Number.isFinite(p.lat) ||
        !Number.isFinite(p.lng) ||
        Math.abs(p.lat) > 90 ||
        Math.abs(p.lng) > 180
      ) {
        throw new EngineError("invalid_request", `${side} has no valid coordinates`);
      }
    }
    const requested = parseAvoid(req.avoid ?? []);
    const avoidedSet = new Set<PassageId>([...requested, ...(mode === "safe" ? SAFE_CLOSED : [])]);
    const avoided = PASSAGE_IDS.filter((id) => avoidedSet.has(id));
    const closed = (DEFAULT_MASK | maskOf(avoided)) >>> 0;
    const budget = req.maxSettled ?? DEFAULT_MAX_SETTLED;

    const main = this.routeRaw(req.from, req.to, closed, path, budget);
    this.ensureFound(main, req, avoided, closed);
    const route = this.present(main, "Direct", speed, tonnes);
    const paths = [main.pathJson ?? ""];
    const alternatives: SeaRoute[] = [];
    if (req.alternatives) {
      for (const f of this.alternativesOf(req, main, closed, path, budget)) {
        alternatives.push(
          this.present(
            f.raw,
            alternativeLabel(main.gates, f, (g) => this.gateName(g)),
            speed,
            tonnes,
          ),
        );
        paths.push(f.raw.pathJson ?? "");
      }
    }
    return { data: { routing_mode: mode, avoided, route, alternatives }, paths, ends: [main.from, main.to] };
  }

  /**
   * The alternatives to offer (alternatives.ts): each passage of the main route closed in turn
   * (one per enclosed sea's pair of exits: either closure gives the same route), then one corridor
   * further; routes with a passage set already found are dropped.
   */
  private alternativesOf(
    req: SeaRouteRequest,
    main: RawRoute,
    closed: number,
    path: PathOutput,
    budget: number,
  ): Array<Found & { raw: RawRoute }> {
    const seen = new Set([main.gates.slice().sort().join(",")]);
    const found: Array<Found & { raw: RawRoute }> = [];
    const search = (mask: number, avoided: number) => {
      const raw = this.routeRaw(req.from, req.to, mask, path, budget);
      const key = raw.gates.slice().sort().join(",");
      if (raw.status !== STATUS.found || seen.has(key)) return;
      seen.add(key);
      found.push({ raw, gates: raw.gates, metres: raw.metres, closed: mask, avoided });
    };
    for (const gate of alternativeClosures(main.gates)) search((closed | (1 << (gate - 1))) >>> 0, gate);
    const further = nextCorridorClosure(main.gates, found);
    if (further !== null) search(further, 0);
    return pickAlternatives(main.gates, found, MAX_ALTERNATIVES);
  }

  private gateName(code: number): string {
    return this.graph.names.gates[code - 1]?.name ?? `passage ${code}`;
  }

  private ensureFound(raw: RawRoute, req: SeaRouteRequest, avoided: PassageId[], closed: number): void {
    const label = (p: SeaPoint, side: string) => p.name ?? `${side} (${round(p.lat, 4)}, ${round(p.lng, 4)})`;
    // Whenever the search ran, both points snapped: one too far from every lane is not at sea,
    // whatever else stopped the route (Basel: 325 km from the last lane, itself inland).
    if (
      raw.status === STATUS.found ||
      raw.status === STATUS.noRoute ||
      raw.status === STATUS.budgetExhausted
    ) {
      for (const [p, s, side] of [
        [req.from, raw.from, "from"],
        [req.to, raw.to, "to"],
      ] as const) {
        const limit = p.kind === "port" ? MAX_SNAP_KM.port : MAX_SNAP_KM.other;
        if (s.snapM > limit * 1000) {
          throw new EngineError(
            "no_route",
            `${label(p, side)} is ${Math.round(s.snapM / 1000)} km from the nearest sea lane (limit ${limit} km): no sea route`,
          );
        }
      }
    }
    if (raw.status === STATUS.found) return;
    if (raw.status === STATUS.budgetExhausted) {
      throw new EngineError(
        "no_route",
        `sea route search gave up after ${raw.settled} steps (search budget exhausted)`,
        {
          reason: "budget_exhausted",
        },
      );
    }
    const closedNote = avoided.length ? ` with ${avoided.join(", ")} closed` : "";
    // Inland lanes are closed to every query; say so when only they would join the points (Duisburg).
    const inland = this.routeRaw(req.from, req.to, closed & ~passageBit("inland"), false, req.maxSettled);
    const inlandNote =
      inland.status === STATUS.found
        ? ": the sea lanes stop where inland waterways begin (barge routes: mode=RIVER)"
        : "";
    throw new EngineError(
      "no_route",
      `no sea route between ${label(req.from, "from")} and ${label(req.to, "to")}${closedNote}${inlandNote}`,
    );
  }

  private present(raw: RawRoute, label: string, speed: number, cargoTonnes: number): SeaRoute {
    // Integer tenths of a mile so eca.nm + non_eca_nm equals distance.nm exactly.
    const tenths = (m: number) => Math.round((m / METRES_PER_NM) * 10);
    const totalT = tenths(raw.metres);
    const zones = raw.zoneMetres
      .map((m, i) => ({
        id: this.graph.names.zones[i]!.id,
        name: this.graph.names.zones[i]!.name,
        t: tenths(m),
      }))
      .filter((z) => z.t > 0)
      .sort((a, b) => b.t - a.t);
    const ecaT = Math.min(
      totalT,
      zones.reduce((s, z) => s + z.t, 0),
    );
    const nm = totalT / 10;
    const hours = nm / speed;
    const out: SeaRoute = {
      label,
      distance: { nm, km: round(raw.metres / 1000, 1) },
      eca: {
        nm: ecaT / 10,
        non_eca_nm: (totalT - ecaT) / 10,
        share: totalT > 0 ? round(ecaT / totalT, 3) : 0,
        zones: zones.map((z) => ({ id: z.id, name: z.name, nm: z.t / 10 })),
      },
      transit: { speed_knots: speed, hours: round(hours, 1), days: round(hours / 24, 2) },
      passages: raw.gates.map((g) => ({ id: this.graph.names.gates[g - 1]!.id, name: this.gateName(g) })),
      emissions: legEmissions({ transport_mode: "SEA", meters: Math.round(raw.metres) }, cargoTonnes),
    };
    // The router already rounds to 5 decimals (~1 m).
    if (raw.path) out.path = raw.path;
    return out;
  }
}

let perThread: Promise<SeaRouter> | null = null;

/** The calling thread's router (each worker gets its own WASM instance), loaded once. */
export function getSeaRouter(buildDir?: string): Promise<SeaRouter> {
  perThread ??= SeaRouter.load(buildDir).catch((err) => {
    perThread = null;
    throw err;
  });
  return perThread;
}

/** Plans a sea route with the thread's router. Throws EngineError("validation" | "noRoute"). */
export async function planSeaRoute(req: SeaRouteRequest): Promise<SeaRouteData> {
  return (await getSeaRouter()).plan(req);
}
