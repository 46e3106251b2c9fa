/**
 * Road (truck) legs: the embedded road-graph model searched by the WASM router, or the configured
 * external engine (OSRM/Valhalla, engine/road/external.ts) when one is set. One RoadPlanner = one
 * WebAssembly instance holding road.graph; a thread's planners hold one per set of model options
 * (engine/thread-planners.ts). Times follow the
 * spec's truck rule (engine/road/truck.ts): car moving time x 1.2 = driving, an 11 h rest after
 * every 9 h of driving, ferry and tunnel crossings at their listed hours, never scaled.
 * docs/road.md.
 */

import { resolve } from "node:path";
import { buildDirFrom } from "../../common/build-dir.ts";
import { haversineM, type PathPoint } from "../../common/geo.ts";
import { round } from "../../common/round.ts";
import { UnionFind } from "../../common/union-find.ts";
import type { Artifact } from "../../formats/container.ts";
import { ROAD_DEFAULT_KMH, ROAD_HIERARCHY_OUTPUT } from "../../formats/hierarchies.ts";
import { crossingKindOf, FERRY_GATE, ROAD_GRAPH_KIND, ROAD_GRAPH_OUTPUT } from "../../formats/road-graph.ts";
import { type LoadedGraph, type RawRoute, STATUS, WasmRouter } from "../../router-wasm/binding/router.ts";
import { readArtifact, sameSettings } from "../artifacts.ts";
import { type Chain, renderChain, type SectionInput } from "../chain.ts";
import { EngineError } from "../errors.ts";
import { attachTimeHierarchy, readHierarchy } from "../time-hierarchy.ts";
import { ROAD_DEFAULTS } from "./config.ts";
import { type ExternalRoadEngine, truckTime } from "./external.ts";
import { ROAD_GRAPH_SETTINGS, TRUCK_TIME_FACTOR, truckTimeFromCarSeconds } from "./truck.ts";

/** A point farther than this from every road node is off the network: no_route. */
export const MAX_SNAP_KM = 300;
/**
 * A point whose nearest node has no link at all may take the nearest linked node this close
 * instead: a city on a small coastal island joined by a short bridge the land mask reads as
 * water (Mombasa). Farther, the unlinked node stands and the answer is no_route (a real island).
 */
export const UNLINKED_RESNAP_KM = 30;
/** Search budget (heap pops): the largest component has ~23k nodes, so only a broken graph hits it. */
const MAX_SETTLED = 500_000;

export type RoadSource = "model" | "osrm" | "valhalla" | "estimate";

/** Shown on every road section: where the numbers come from. */
export const ROAD_ATTRIBUTION: Record<RoadSource, string> = {
  model:
    "Road distances come from a model unless an engine is set: Portolan's road network model (GeoNames, UN/LOCODE, OurAirports, Natural Earth; circuity and speeds from published tables), planning estimates.",
  osrm: "Road distance and time from OSRM over OpenStreetMap data (© OpenStreetMap contributors).",
  valhalla: "Road distance and time from Valhalla over OpenStreetMap data (© OpenStreetMap contributors).",
  estimate:
    "Road distance estimated from the great circle x circuity because the road engine was unavailable.",
};

export interface RoadPoint {
  lat: number;
  lng: number;
  /** For messages. */
  name?: string | null;
}

export interface RoadPlanRequest {
  from: RoadPoint;
  to: RoadPoint;
  /** Include the geometry; `path` is omitted otherwise. */
  path?: boolean;
  /** Also plan the route avoiding ferries when the main route uses one. */
  alternatives?: boolean;
}

/** A ferry, tunnel or bridge on the route; a bridge's hours are driving, already in driving_hours. */
export interface RoadCrossing {
  name: string;
  kind: CrossingKind;
  hours: number;
  km: number;
}

type CrossingKind = "ferry" | "tunnel" | "bridge";

export interface RoadLegPlan {
  label: string;
  distance_m: number;
  /** Car moving seconds on roads (crossings excluded): the basis of the truck rule. */
  car_seconds: number;
  /** Truck driving only (car x 1.2, or Valhalla's truck time). */
  driving_hours: number;
  rest_hours: number;
  /** Ferry and tunnel crossings at their listed hours (bridges are driven: not here). */
  ferry_hours: number;
  /** driving + ferries + rests. */
  hours: number;
  crossings: RoadCrossing[];
  /** One [lat, lng] line per ferry or tunnel, in travel order. */
  ferry_paths: Array<PathPoint[]>;
  path?: PathPoint[];
  /** Where the leg joins and leaves the road network (the snapped nodes); unknown from an external engine. */
  start?: { lat: number; lng: number };
  end?: { lat: number; lng: number };
  estimated: boolean;
  source: RoadSource;
  reason?: string;
}

export interface RoadPlan {
  route: RoadLegPlan;
  alternatives: RoadLegPlan[];
}

/** What the API and scripts call: the model and the external engine answer alike. */
export interface RoadRoutePlanner {
  plan(req: RoadPlanRequest): Promise<RoadPlan>;
}

export interface RoadModelOptions {
  /** Access legs (point to its snapped node): road km per great-circle km. */
  circuity?: number;
  /** Access legs: truck speed. */
  truckSpeedKmh?: number;
}

interface Snapped {
  node: number;
  lat: number;
  lng: number;
  /** Great-circle metres from the query point to the node. */
  accessM: number;
}

interface Crossing {
  edge: number;
  name: string;
  kind: CrossingKind;
  hours: number;
  metres: number;
  a: [number, number];
  b: [number, number];
}

function checkPoint(p: RoadPoint, side: string): void {
  if (!Number.isFinite(p.lat) || !Number.isFinite(p.lng) || Math.abs(p.lat) > 90 || Math.abs(p.lng) > 180)
    throw new EngineError("invalid_request", `${side} has no valid coordinates`);
}

const labelOf = (p: RoadPoint, side: string) => p.name ?? `${side} (${round(p.lat, 4)}, ${round(p.lng, 4)})`;

export class RoadPlanner {
  /** Component id per node (over truck edges) and component sizes: islands answer before a search. */
  private readonly component: Int32Array;
  private readonly componentSize: number[];
  private readonly crossings: Crossing[];
  private readonly coord: Float64Array;
  private readonly circuity: number;
  private readonly accessKmh: number;

  private constructor(
    readonly wasm: WasmRouter,
    readonly graph: LoadedGraph,
    art: Artifact,
    opts: RoadModelOptions,
  ) {
    this.circuity = opts.circuity ?? ROAD_DEFAULTS.circuity;
    this.accessKmh = opts.truckSpeedKmh ?? ROAD_DEFAULTS.truckSpeedKmh;
    const sec = (name: string) => {
      const s = art.sections.get(name);
      if (!s) throw new Error(`${graph.path}: section ${name} missing; rebuild the artifacts`);
      // Copy: the file's buffer need not be aligned for typed views.
      return new Uint8Array(s).buffer;
    };
    const coord = new Float64Array(sec("node_coord"));
    const arcStart = new Uint32Array(sec("arc_start"));
    const arcHead = new Uint32Array(sec("arc_head"));
    const arcEdge = new Uint32Array(sec("arc_edge"));
    const edgeLen = new Float64Array(sec("edge_len"));
    const speed = new Float32Array(sec("edge_speed_kmh"));
    const zoneStart = new Uint32Array(sec("zone_start"));
    const zoneId = new Uint8Array(sec("zone_id"));
    const n = coord.length / 2;
    this.coord = coord;
    const edgeFrom = new Uint32Array(edgeLen.length);
    const edgeTo = new Uint32Array(edgeLen.length);
    const sets = new UnionFind(n);
    for (let u = 0; u < n; u++) {
      for (let a = arcStart[u]!; a < arcStart[u + 1]!; a++) {
        const x = arcEdge[a]!;
        if ((x & 1) !== 0) continue;
        const e = x >>> 1;
        edgeFrom[e] = u;
        edgeTo[e] = arcHead[a]!;
        sets.union(u, arcHead[a]!);
      }
    }
    this.component = new Int32Array(n);
    for (let i = 0; i < n; i++) this.component[i] = sets.find(i);
    const sizes = sets.sizes();
    this.componentSize = Array.from(this.component, (r) => sizes.get(r)!);
    const pt = (v: number): [number, number] => [coord[2 * v]!, coord[2 * v + 1]!];
    const zones = graph.names.zones;
    // The writer emits edge_fixed_s only when some edge is a crossing (ferry, tunnel): a graph
    // without any has no such section and nothing to read from it.
    const fixed = zones.length > 0 ? new Float32Array(sec("edge_fixed_s")) : new Float32Array(0);
    this.crossings = zones.map((z, i) => {
      const kind = crossingKindOf(z.id);
      if (kind !== "ferry" && kind !== "tunnel" && kind !== "bridge")
        throw new Error(`${graph.path}: zone ${z.id} is not a crossing; rebuild the artifacts`);
      let edge = -1;
      for (let e = 0; e < edgeLen.length && edge < 0; e++)
        for (let k = zoneStart[e]!; k < zoneStart[e + 1]!; k++) if (zoneId[k] === i) edge = e;
      if (edge < 0) throw new Error(`${graph.path}: crossing ${z.name} has no edge; rebuild the artifacts`);
      const seconds = (edgeLen[edge]! / 1000 / speed[edge]!) * 3600 + fixed[edge]!;
      return {
        edge,
        name: z.name,
        kind,
        // A bridge's edge speed is a car's: the truck drives it 1.2 x as long.
        hours: (seconds / 3600) * (kind === "bridge" ? TRUCK_TIME_FACTOR : 1),
        metres: edgeLen[edge]!,
        a: pt(edgeFrom[edge]!),
        b: pt(edgeTo[edge]!),
      };
    });
  }

  get buildId(): string {
    return this.graph.buildId;
  }

  /**
   * Loads road.graph into `shared` (or a new instance) from graph bytes, with its hierarchy when
   * given (road.hierarchy: the searches then use it; one of another graph is refused).
   */
  static fromBytes(
    wasm: WasmRouter,
    bytes: Uint8Array,
    opts: RoadModelOptions & { path?: string; hierarchy?: { path: string; bytes: Uint8Array } | null } = {},
  ): RoadPlanner {
    const path = opts.path ?? ROAD_GRAPH_OUTPUT;
    const { artifact, ...graph } = wasm.load(bytes, { kind: ROAD_GRAPH_KIND, path });
    try {
      sameSettings(path, graph.names.settings, ROAD_GRAPH_SETTINGS);
    } catch (err) {
      wasm.unload(graph.handle);
      throw err;
    }
    if (opts.hierarchy) attachTimeHierarchy(wasm, graph.handle, opts.hierarchy, ROAD_DEFAULT_KMH);
    return new RoadPlanner(wasm, graph, artifact, opts);
  }

  /** Whether the searches use road.hierarchy (else A*). */
  get hierarchical(): boolean {
    return this.wasm.hasHierarchy(this.graph.handle);
  }

  /** Loads road.graph and router.wasm from a build directory (default data/build or PORTOLAN_BUILD_DIR). */
  static async load(
    buildDir?: string,
    opts: RoadModelOptions & { shared?: WasmRouter } = {},
  ): Promise<RoadPlanner> {
    const dir = resolve(buildDir ?? buildDirFrom());
    const [graph, wasm, hierarchy] = await Promise.all([
      readArtifact(dir, ROAD_GRAPH_OUTPUT),
      readArtifact(dir, "router.wasm"),
      readHierarchy(dir, ROAD_HIERARCHY_OUTPUT, "road"),
    ]);
    const router = opts.shared ?? (await WasmRouter.instantiate(wasm.bytes));
    return RoadPlanner.fromBytes(router, graph.bytes, { ...opts, path: graph.path, hierarchy });
  }

  /** Plans a truck route over the model; throws EngineError invalid_request or no_route. */
  plan(req: RoadPlanRequest): RoadPlan {
    checkPoint(req.from, "from");
    checkPoint(req.to, "to");
    const a = this.snapOrRefuse(req.from, "from");
    const b = this.snapOrRefuse(req.to, "to");
    if (this.component[a.node] !== this.component[b.node]) {
      const where = (p: RoadPoint, side: string, node: number) =>
        this.componentSize[node] === 1
          ? `${labelOf(p, side)} has no road link to anywhere (an island without a truck ferry or bridge)`
          : `${labelOf(p, side)} is on a road network of ${this.componentSize[node]} places`;
      throw new EngineError(
        "no_route",
        `no road route between ${labelOf(req.from, "from")} and ${labelOf(req.to, "to")}: no road or truck ferry joins them (${where(req.from, "from", a.node)}; ${where(req.to, "to", b.node)})`,
      );
    }
    const main = this.search(a, b, 0);
    if (main.status !== STATUS.found)
      throw new EngineError(
        "no_route",
        main.status === STATUS.budgetExhausted
          ? `road route search gave up after ${main.settled} steps (search budget exhausted)`
          : `no road route between ${labelOf(req.from, "from")} and ${labelOf(req.to, "to")}`,
        main.status === STATUS.budgetExhausted ? { reason: "budget_exhausted" } : undefined,
      );
    const route = this.present(main, "Road", req, a, b);
    const alternatives: RoadLegPlan[] = [];
    if (req.alternatives && route.crossings.some((c) => c.kind === "ferry")) {
      const noFerry = this.search(a, b, 1 << (FERRY_GATE - 1));
      if (noFerry.status === STATUS.found)
        alternatives.push(this.present(noFerry, "Road avoiding ferries", req, a, b));
    }
    return { route, alternatives };
  }

  private snapOrRefuse(p: RoadPoint, side: string): Snapped {
    const s = this.wasm.snap(this.graph.handle, p.lat, p.lng);
    if (!s || s.snapM > MAX_SNAP_KM * 1000)
      throw new EngineError(
        "no_route",
        `${labelOf(p, side)} is ${s ? Math.round(s.snapM / 1000) : "too many"} km from the nearest road node (limit ${MAX_SNAP_KM} km): no road route`,
      );
    let node = s.node;
    let accessM = s.snapM;
    if (this.componentSize[node] === 1) {
      const limit = UNLINKED_RESNAP_KM * 1000;
      const dLat = UNLINKED_RESNAP_KM / 111;
      for (let v = 0; v < this.componentSize.length; v++) {
        if (this.componentSize[v] === 1 || Math.abs(this.coord[2 * v]! - p.lat) > dLat) continue;
        const d = haversineM(p.lat, p.lng, this.coord[2 * v]!, this.coord[2 * v + 1]!);
        if (d <= limit && d < accessM + limit && (node === s.node || d < accessM)) {
          node = v;
          accessM = d;
        }
      }
    }
    return { node, lat: this.coord[2 * node]!, lng: this.coord[2 * node + 1]!, accessM };
  }

  private search(a: Snapped, b: Snapped, closed: number): RawRoute {
    // From node to node (the access legs are added by present); the path is always fetched: it
    // orders and orients the crossings used.
    return this.wasm.route(this.graph.handle, a.lat, a.lng, b.lat, b.lng, closed, MAX_SETTLED, true, {
      kind: "time",
      defaultSpeedKmh: ROAD_DEFAULT_KMH,
    });
  }

  private present(raw: RawRoute, label: string, req: RoadPlanRequest, a: Snapped, b: Snapped): RoadLegPlan {
    const pts = raw.path ?? [];
    const nearestIndex = (p: [number, number]) => {
      let best = 0;
      let bestD = Number.POSITIVE_INFINITY;
      pts.forEach((q, i) => {
        const d = (q[0] - p[0]) ** 2 + (q[1] - p[1]) ** 2;
        if (d < bestD) {
          bestD = d;
          best = i;
        }
      });
      return best;
    };
    // One pass over the crossings, objects only for the few a route uses.
    const used: Array<{ c: Crossing; share: number; at: number; line: [number, number][] }> = [];
    for (const [i, c] of this.crossings.entries()) {
      const share = (raw.zoneMetres[i] ?? 0) / c.metres;
      if (!(share > 1e-6)) continue;
      const ia = nearestIndex(c.a);
      const ib = nearestIndex(c.b);
      used.push({ c, share, at: Math.min(ia, ib), line: ia <= ib ? [c.a, c.b] : [c.b, c.a] });
    }
    used.sort((x, y) => x.at - y.at);
    // Bridges are driven: their time is car time like any road's, so only ferries and tunnels count here.
    const timed = used.filter((u) => u.c.kind !== "bridge");
    const crossingSeconds = timed.reduce((s, u) => s + u.c.hours * 3600 * u.share, 0);
    // Access from the query points to their snapped nodes: great circle x circuity at the truck speed.
    // Two points on one node drive straight to each other: through the node is a detour the
    // model invents (a quay and its town 1 km apart, both 30 km from the nearest modelled place).
    const local = a.node === b.node;
    const accessM =
      (local ? haversineM(req.from.lat, req.from.lng, req.to.lat, req.to.lng) : a.accessM + b.accessM) *
      this.circuity;
    const accessCarSeconds = (accessM / 1000 / (this.accessKmh * TRUCK_TIME_FACTOR)) * 3600;
    const carSeconds = Math.max(0, raw.cost - crossingSeconds) + accessCarSeconds;
    const truck = truckTimeFromCarSeconds(carSeconds);
    const ferryHours = crossingSeconds / 3600;
    const out: RoadLegPlan = {
      label,
      distance_m: raw.metres + accessM,
      car_seconds: carSeconds,
      driving_hours: truck.driving_hours,
      rest_hours: truck.rest_hours,
      ferry_hours: ferryHours,
      hours: truck.driving_hours + truck.rest_hours + ferryHours,
      crossings: used.map((u) => ({
        name: u.c.name,
        kind: u.c.kind,
        hours: round(u.c.hours * u.share, 2),
        km: round((u.c.metres * u.share) / 1000, 1),
      })),
      ferry_paths: timed.map((u) => u.line),
      // Two points on one node drive straight to each other: the leg starts and ends at them.
      start: local ? req.from : { lat: a.lat, lng: a.lng },
      end: local ? req.to : { lat: b.lat, lng: b.lng },
      estimated: false,
      source: "model",
    };
    if (req.path) {
      // The query points themselves bracket the snapped road path.
      const path: PathPoint[] = local ? [] : pts.slice();
      if (local || a.accessM > 1) path.unshift([req.from.lat, req.from.lng]);
      if (local || b.accessM > 1) path.push([req.to.lat, req.to.lng]);
      out.path = path;
    }
    return out;
  }
}

/** Road legs from OSRM/Valhalla (estimated when the engine is down): no crossings are known. */
export class ExternalRoadPlanner implements RoadRoutePlanner {
  constructor(private readonly engine: ExternalRoadEngine) {}

  async plan(req: RoadPlanRequest): Promise<RoadPlan> {
    checkPoint(req.from, "from");
    checkPoint(req.to, "to");
    const leg = await this.engine.route(req.from, req.to, { path: req.path === true });
    const t = truckTime(leg);
    const route: RoadLegPlan = {
      label: "Road",
      distance_m: leg.distance_m,
      car_seconds: leg.duration_basis === "car" ? leg.duration_s : leg.duration_s / TRUCK_TIME_FACTOR,
      driving_hours: t.driving_hours,
      rest_hours: t.rest_hours,
      ferry_hours: 0,
      hours: t.hours,
      crossings: [],
      ferry_paths: [],
      estimated: leg.estimated,
      source: leg.source,
    };
    if (leg.reason) route.reason = leg.reason;
    if (req.path) route.path = leg.path ?? [];
    return { route, alternatives: [] };
  }
}

/** Great-circle metres between two points (tests compare routes with it). */
export const greatCircleM = (a: RoadPoint, b: RoadPoint) => haversineM(a.lat, a.lng, b.lat, b.lng);

/** One ROAD section of a chain (a road-only chain, or a rail or air chain's access leg). */
export function renderRoadSection<P>(leg: RoadLegPlan, from: P, to: P): SectionInput<P> {
  const extra: Record<string, unknown> = {
    driving_hours: round(leg.driving_hours, 2),
    rest_hours: round(leg.rest_hours, 2),
    ferry_hours: round(leg.ferry_hours, 2),
    ferry_paths: leg.ferry_paths,
    crossings: leg.crossings,
    source: leg.source,
    attribution: ROAD_ATTRIBUTION[leg.source],
  };
  if (leg.reason) extra.reason = leg.reason;
  return {
    transport_mode: "ROAD",
    from,
    to,
    distance_m: leg.distance_m,
    hours: leg.hours,
    path: leg.path,
    start: leg.start,
    end: leg.end,
    estimated: leg.estimated,
    extra,
  };
}

/** A planned road leg as the spec's chain: one ROAD section (label "Road"). */
export function renderRoadChain<P>(leg: RoadLegPlan, from: P, to: P): Chain<P> {
  return renderChain(leg.label, [renderRoadSection(leg, from, to)], []);
}

/**
 * Road access legs for a multi-section chain (rail, air): one plan per key, shared by every pairing
 * that uses it; a leg with no road answers null so the caller drops those pairings.
 */
export function accessLegs(road: RoadRoutePlanner, path: boolean) {
  const legs = new Map<string, Promise<RoadLegPlan | null>>();
  return <Q extends { lat: number; lng: number }>(
    from: Q,
    to: Q,
    key: string,
  ): Promise<RoadLegPlan | null> => {
    let leg = legs.get(key);
    if (!leg) {
      leg = road
        .plan({ from, to, path })
        .then((plan) => plan.route)
        .catch((err: unknown) => {
          if (err instanceof EngineError && err.code === "no_route") return null;
          throw err;
        });
      legs.set(key, leg);
    }
    return leg;
  };
}
