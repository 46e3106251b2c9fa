/**
 * Rail chains (spec, chain rule 3): road to a railhead within 150 km, rail over rail.graph at the
 * spec's 30 km/h average (stops included), road from a railhead to the door; 12 h handling at each
 * rail terminal. A railhead stands where its place meets the track (railheads.bin's snapped
 * point): the road leg ends there and the rail section starts there. The router anchors that
 * point on its edge itself, so rides ask it point to point. The nearest few railheads on each side
 * are paired (one oneToMany search per origin railhead); the fastest pair is the route, the other
 * pairs are its alternatives. docs/rail.md, section "Rail chains".
 */

import { dirname, resolve } from "node:path";
import type { PathPoint } from "../../common/geo.ts";
import { RAIL_HIERARCHY_OUTPUT } from "../../formats/hierarchies.ts";
import { decodeRailheads, RAILHEAD_MAX_M, RAILHEADS_OUTPUT } from "../../formats/railheads.ts";
import { type LoadedGraph, type Objective, WasmRouter } from "../../router-wasm/binding/router.ts";
import { readArtifact, sameBuild } from "../artifacts.ts";
import { type Chain, sideLabel } from "../chain.ts";
import { EngineError } from "../errors.ts";
import { RAIL, RAIL_SPEED_KMH } from "../modes/rail.ts";
import type { RoadRoutePlanner } from "../road/planner.ts";
import { nearestTerminals, roadLegKey, terminalChains, terminalsInReach } from "../terminal-chain.ts";
import { attachTimeHierarchy, readHierarchy } from "../time-hierarchy.ts";

export const RAIL_GRAPH_KIND = "rail-graph";
export const RAIL_GRAPH_FILE = "rail.graph";
/** Spec: railhead access up to 150 km (great circle from the point to the railhead's track point). */
export const RAIL_ACCESS_MAX_KM = RAILHEAD_MAX_M / 1000;
/** Railheads tried per side: 3 x 3 pairs at most. */
export const RAILHEADS_PER_SIDE = 3;
/** Alternatives shown: the next-fastest railhead pairings. */
export const RAIL_ALTERNATIVES = 3;
/** Search budget (heap pops); the largest rail component has well under this many nodes. */
const MAX_SETTLED = 2_000_000;
/**
 * Rail time: edges without a speed of their own (every track edge) at the spec's average; railroad
 * ferries at their own speed (data-build/rail/network.ts FERRY_KMH).
 */
const RAIL_TIME: Objective = { kind: "time", defaultSpeedKmh: RAIL_SPEED_KMH };

export interface RailPoint {
  lat: number;
  lng: number;
  name?: string | null;
}

/** A railhead as chains show it (the spec's resolved point kind rail_terminal). */
export interface RailTerminal {
  kind: "rail_terminal";
  name: string;
  locode: string;
  iata: null;
  country_code: string;
  lat: number;
  lng: number;
}

export interface RailPlanRequest<P extends RailPoint> {
  from: P;
  to: P;
  path?: boolean;
  alternatives?: boolean;
  /** Terminal handling; default true (false: transfers stay, at 0 h). */
  handling?: boolean;
}

export interface RailPlan<P> {
  route: Chain<P | RailTerminal>;
  alternatives: Chain<P | RailTerminal>[];
}

interface Head {
  /** At the railhead's track point: the road leg ends and the rail section starts here. */
  terminal: RailTerminal;
  /** The track node railheads.bin routes the place from (the edge end nearer along the track). */
  node: number;
  geocoded: boolean;
}

interface Candidate extends Head {
  /** Great-circle km from the query point to the track point. */
  km: number;
  rank: number;
}

/** The rail ride between two track points. */
interface Ride {
  metres: number;
  seconds: number;
}

const samePoint = (a: RailTerminal, b: RailTerminal) => a.lat === b.lat && a.lng === b.lng;

export class RailPlanner {
  private constructor(
    private readonly wasm: WasmRouter,
    readonly graph: LoadedGraph,
    /** Railheads at their track points, one per point (the best-ranked place names it). */
    private readonly heads: ReadonlyArray<Head>,
  ) {}

  get buildId(): string {
    return this.graph.buildId;
  }

  /**
   * rail.graph and railheads.bin (same build) into `wasm`, with rail.hierarchy when given (the
   * searches then use it; one of another graph is refused); tests hand it tiny built maps.
   */
  static fromBytes(
    wasm: WasmRouter,
    graphBytes: Uint8Array,
    railheadBytes: Uint8Array,
    paths: {
      graph?: string;
      railheads?: string;
      hierarchy?: { path: string; bytes: Uint8Array } | null;
    } = {},
  ): RailPlanner {
    const graphPath = paths.graph ?? RAIL_GRAPH_FILE;
    const headsPath = paths.railheads ?? RAILHEADS_OUTPUT;
    const { artifact: _, ...graph } = wasm.load(graphBytes, { kind: RAIL_GRAPH_KIND, path: graphPath });
    const decoded = decodeRailheads(railheadBytes, headsPath);
    sameBuild(
      dirname(graphPath),
      { file: RAILHEADS_OUTPUT, buildId: decoded.buildId },
      { file: RAIL_GRAPH_FILE, buildId: graph.buildId },
    );
    if (paths.hierarchy) attachTimeHierarchy(wasm, graph.handle, paths.hierarchy, RAIL_SPEED_KMH);
    // Several places often meet the track at one point; keep one, surveyed before geocoded.
    const byPoint = new Map<string, Head>();
    for (const r of decoded.railheads) {
      const key = `${r.snapLat},${r.snapLng}`;
      const seen = byPoint.get(key);
      if (seen && !(seen.geocoded && !r.geocoded)) continue;
      byPoint.set(key, {
        node: r.node,
        geocoded: r.geocoded,
        terminal: {
          kind: "rail_terminal",
          name: r.name,
          locode: r.locode,
          iata: null,
          country_code: r.country,
          lat: r.snapLat,
          lng: r.snapLng,
        },
      });
    }
    return new RailPlanner(wasm, graph, [...byPoint.values()]);
  }

  static async load(buildDir: string): Promise<RailPlanner> {
    const dir = resolve(buildDir);
    const [graphFile, headsFile, wasm, hierarchy] = await Promise.all([
      readArtifact(dir, RAIL_GRAPH_FILE),
      readArtifact(dir, RAILHEADS_OUTPUT),
      readArtifact(dir, "router.wasm"),
      readHierarchy(dir, RAIL_HIERARCHY_OUTPUT, "rail"),
    ]);
    return RailPlanner.fromBytes(await WasmRouter.instantiate(wasm.bytes), graphFile.bytes, headsFile.bytes, {
      graph: graphFile.path,
      railheads: headsFile.path,
      hierarchy,
    });
  }

  /** Whether the searches use rail.hierarchy (else A* and Dijkstra). */
  get hierarchical(): boolean {
    return this.wasm.hasHierarchy(this.graph.handle);
  }

  /**
   * The nearest railheads within 150 km of a point, best first, at most RAILHEADS_PER_SIDE and one
   * per track node they route from (so the pairings reach different stretches of track).
   */
  candidates(p: RailPoint): Candidate[] {
    return nearestTerminals(this.heads, p, RAIL_ACCESS_MAX_KM, RAILHEADS_PER_SIDE);
  }

  /**
   * The fastest ride between every origin and destination candidate (null: not connected), one
   * search per origin. The router anchors each track point on its edge: it rides out by either
   * end at the partial lengths, or straight along an edge both points share.
   */
  private rides(a: Candidate[], b: Candidate[]): Array<Array<Ride | null>> {
    const targets = b.map((y) => y.terminal);
    return a.map((x) => {
      const r = this.wasm.oneToManyResult(this.graph.handle, x.terminal, targets, 0, {
        maxSettled: MAX_SETTLED,
        objective: RAIL_TIME,
      });
      // Unreachable targets answer Infinity, unsettled ones (budget) NaN.
      return targets.map((_, j) =>
        Number.isFinite(r.cost[j]!) ? { metres: r.metres[j]!, seconds: r.cost[j]! } : null,
      );
    });
  }

  /** The ride's line from track point to track point, as the router draws it. */
  private railPath(a: RailTerminal, b: RailTerminal): PathPoint[] {
    const r = this.wasm.route(this.graph.handle, a.lat, a.lng, b.lat, b.lng, 0, MAX_SETTLED, true, RAIL_TIME);
    return r.path ?? [];
  }

  /** Plans the rail chain; throws EngineError no_route when a side has no railhead or no pair connects. */
  async plan<P extends RailPoint>(req: RailPlanRequest<P>, road: RoadRoutePlanner): Promise<RailPlan<P>> {
    const [a, b] = terminalsInReach(
      req.from,
      req.to,
      (p) => this.candidates(p),
      (end) => `No rail route: ${end} has no railhead within ${RAIL_ACCESS_MAX_KM} km (rail access limit).`,
    );
    // The same closest railhead on both sides: a road question, not a rail detour.
    if (samePoint(a[0]!.terminal, b[0]!.terminal))
      throw new EngineError(
        "no_route",
        `No rail route: both ends are served by the same railhead (${a[0]!.terminal.locode} ${a[0]!.terminal.name}); use mode ROAD.`,
      );
    const rides = this.rides(a, b);
    const pairs: Array<{ i: number; j: number; ride: Ride }> = [];
    a.forEach((_, i) => {
      b.forEach((_, j) => {
        const ride = rides[i]![j];
        if (ride && !samePoint(a[i]!.terminal, b[j]!.terminal)) pairs.push({ i, j, ride });
      });
    });
    if (pairs.length === 0)
      throw new EngineError(
        "no_route",
        `No rail route: the railheads near ${sideLabel(req.from, "from")} (${a.map((c) => c.terminal.locode).join(", ")}) are not connected by rail to those near ${sideLabel(req.to, "to")} (${b.map((c) => c.terminal.locode).join(", ")}).`,
      );
    const handling = req.handling === false ? 0 : RAIL.handlingHours;
    // A railhead at the door needs no road leg.
    const { chains, unreachable } = await terminalChains({
      from: req.from,
      to: req.to,
      mode: "RAIL",
      label: "Rail",
      handlingHours: handling,
      road,
      path: req.path === true,
      pairings: pairs.map(({ i, j, ride }) => {
        const ta = a[i]!.terminal;
        const tb = b[j]!.terminal;
        return {
          from: ta,
          to: tb,
          fromRoad: roadLegKey(req.from, ta, `a${i}`),
          toRoad: roadLegKey(req.to, tb, `b${j}`),
          main: {
            transport_mode: "RAIL",
            from: ta,
            to: tb,
            distance_m: ride.metres,
            hours: ride.seconds / 3600,
            path: req.path ? this.railPath(ta, tb) : undefined,
            // A railhead stands where its place meets the track: the ride starts at it.
            start: ta,
            end: tb,
            estimated: false,
            extra: { speed_kmh: RAIL_SPEED_KMH },
          },
        };
      }),
    });
    if (chains.length === 0)
      throw new EngineError(
        "no_route",
        `No rail route: no railhead pair can be reached by road (no road to ${unreachable.map((t) => t.name).join(", ")}).`,
      );
    const [best, ...rest] = chains;
    return {
      route: best!,
      alternatives: req.alternatives === false ? [] : rest.slice(0, RAIL_ALTERNATIVES),
    };
  }
}
