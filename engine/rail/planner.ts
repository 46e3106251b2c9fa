/**
 * Rail chains (spec, chain rule 3): road to a railhead within 150 km, rail over rail.graph at the
 * spec's 30 km/h average (stops included), road from a railhead to the door; 12 h handling at each
 * rail terminal. The nearest few railheads on each side are paired (one oneToMany search per
 * origin railhead); the fastest pair is the route, the other pairs are its alternatives.
 * docs/rail.md, section "Rail chains".
 */

import { resolve } from "node:path";
import { haversineM } from "../../common/geo.ts";
import { decodeRailheads, RAILHEAD_MAX_M, RAILHEADS_OUTPUT } from "../../data-build/rail/railheads.ts";
import { type LoadedGraph, STATUS, WasmRouter } from "../../router-wasm/binding/router.ts";
import { readArtifact, sameBuild } from "../artifacts.ts";
import { type Chain, renderChain, type SectionInput, sideLabel, type TransferInput } from "../chain.ts";
import { EngineError } from "../errors.ts";
import { accessLegs, type RoadLegPlan, type RoadRoutePlanner, renderRoadSection } from "../road/planner.ts";

export const RAIL_GRAPH_KIND = "rail-graph";
export const RAIL_GRAPH_FILE = "rail.graph";
/** Spec, Limits: rail 30 km/h average including stops. */
export const RAIL_SPEED_KMH = 30;
/** Spec, Limits: handling per transfer at a rail terminal. */
export const RAIL_HANDLING_HOURS = 12;
/** Spec: railhead access up to 150 km (great circle from the point to the railhead's track node). */
export const RAIL_ACCESS_MAX_KM = RAILHEAD_MAX_M / 1000;
/** Railheads tried per side: 3 x 3 pairs at most. */
export const RAILHEADS_PER_SIDE = 3;
/**
 * Geocoded UN/LOCODE coordinates are sometimes far off, so a geocoded railhead ranks as if it
 * were this much farther than it is: a surveyed one nearby wins, a geocoded one still serves alone.
 */
export const GEOCODED_PENALTY_KM = 30;
/** Alternatives shown: the next-fastest railhead pairings. */
export const RAIL_ALTERNATIVES = 3;
/** Closer than this, the door is the terminal: no road leg. */
const NO_ACCESS_LEG_KM = 0.5;
/** Search budget (heap pops); the largest rail component has well under this many nodes. */
const MAX_SETTLED = 2_000_000;

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

interface Candidate {
  terminal: RailTerminal;
  /** Rail graph node and its coordinates: where the rail section starts or ends. */
  node: number;
  /** Great-circle km from the query point to the node. */
  km: number;
  rank: number;
}

export class RailPlanner {
  private constructor(
    private readonly wasm: WasmRouter,
    readonly graph: LoadedGraph,
    private readonly coord: Float64Array,
    /** Railheads with their graph node, one per node (the best-ranked place names it). */
    private readonly heads: ReadonlyArray<{ terminal: RailTerminal; node: number; geocoded: boolean }>,
  ) {}

  get buildId(): string {
    return this.graph.buildId;
  }

  static async load(buildDir: string): Promise<RailPlanner> {
    const dir = resolve(buildDir);
    const [graphFile, headsFile, wasm] = await Promise.all([
      readArtifact(dir, RAIL_GRAPH_FILE),
      readArtifact(dir, RAILHEADS_OUTPUT),
      readArtifact(dir, "router.wasm"),
    ]);
    const router = await WasmRouter.instantiate(wasm.bytes);
    const { artifact: art, ...graph } = router.load(graphFile.bytes, {
      kind: RAIL_GRAPH_KIND,
      path: graphFile.path,
    });
    const nc = art.sections.get("node_coord");
    if (!nc) throw new Error(`${graphFile.path}: section node_coord missing; rebuild the artifacts`);
    // Copy: the file's buffer need not be aligned for typed views.
    const coord = new Float64Array(new Uint8Array(nc).buffer);
    const decoded = decodeRailheads(headsFile.bytes, headsFile.path);
    sameBuild(
      dir,
      { file: RAILHEADS_OUTPUT, buildId: decoded.buildId },
      { file: RAIL_GRAPH_FILE, buildId: graph.buildId },
    );
    // Several places often share one track node; keep one per node, surveyed before geocoded.
    const byNode = new Map<number, { terminal: RailTerminal; node: number; geocoded: boolean }>();
    for (const r of decoded.railheads) {
      const seen = byNode.get(r.node);
      if (seen && !(seen.geocoded && !r.geocoded)) continue;
      byNode.set(r.node, {
        node: r.node,
        geocoded: r.geocoded,
        terminal: {
          kind: "rail_terminal",
          name: r.name,
          locode: r.locode,
          iata: null,
          country_code: r.country,
          lat: coord[2 * r.node]!,
          lng: coord[2 * r.node + 1]!,
        },
      });
    }
    return new RailPlanner(router, graph, coord, [...byNode.values()]);
  }

  /** The nearest railheads within 150 km of a point, best first (at most RAILHEADS_PER_SIDE). */
  candidates(p: RailPoint): Candidate[] {
    const out: Candidate[] = [];
    for (const h of this.heads) {
      const km = haversineM(p.lat, p.lng, h.terminal.lat, h.terminal.lng) / 1000;
      if (km > RAIL_ACCESS_MAX_KM) continue;
      out.push({ terminal: h.terminal, node: h.node, km, rank: km + (h.geocoded ? GEOCODED_PENALTY_KM : 0) });
    }
    out.sort((a, b) => a.rank - b.rank);
    return out.slice(0, RAILHEADS_PER_SIDE);
  }

  /** Rail metres between every origin and destination candidate (Infinity: not connected). */
  private railMetres(a: Candidate[], b: Candidate[]): Float64Array[] {
    const targets = b.map((c) => ({ lat: this.coord[2 * c.node]!, lng: this.coord[2 * c.node + 1]! }));
    return a.map((c) => {
      const r = this.wasm.oneToManyResult(
        this.graph.handle,
        { lat: this.coord[2 * c.node]!, lng: this.coord[2 * c.node + 1]! },
        targets,
        0,
        { maxSettled: MAX_SETTLED },
      );
      if (r.status !== STATUS.found) return new Float64Array(targets.length).fill(Number.POSITIVE_INFINITY);
      return r.metres;
    });
  }

  private railPath(a: Candidate, b: Candidate): Array<[number, number]> {
    const r = this.wasm.route(
      this.graph.handle,
      this.coord[2 * a.node]!,
      this.coord[2 * a.node + 1]!,
      this.coord[2 * b.node]!,
      this.coord[2 * b.node + 1]!,
      0,
      MAX_SETTLED,
      true,
    );
    const flat = r.path ?? new Float64Array();
    const out: Array<[number, number]> = [];
    for (let i = 0; i + 1 < flat.length; i += 2) out.push([flat[i]!, flat[i + 1]!]);
    return out;
  }

  /** Plans the rail chain; throws EngineError no_route when a side has no railhead or no pair connects. */
  async plan<P extends RailPoint>(req: RailPlanRequest<P>, road: RoadRoutePlanner): Promise<RailPlan<P>> {
    const a = this.candidates(req.from);
    const b = this.candidates(req.to);
    for (const [side, p, c] of [
      ["from", req.from, a],
      ["to", req.to, b],
    ] as const) {
      if (c.length === 0)
        throw new EngineError(
          "no_route",
          `No rail route: ${sideLabel(p, side)} has no railhead within ${RAIL_ACCESS_MAX_KM} km (rail access limit).`,
        );
    }
    // The same closest railhead on both sides: a road question, not a rail detour.
    if (a[0]!.node === b[0]!.node)
      throw new EngineError(
        "no_route",
        `No rail route: both ends are served by the same railhead (${a[0]!.terminal.locode} ${a[0]!.terminal.name}); use mode ROAD.`,
      );
    const metres = this.railMetres(a, b);
    const pairs: Array<{ i: number; j: number; m: number }> = [];
    a.forEach((_, i) => {
      b.forEach((_, j) => {
        const m = metres[i]![j]!;
        if (Number.isFinite(m) && a[i]!.node !== b[j]!.node) pairs.push({ i, j, m });
      });
    });
    if (pairs.length === 0)
      throw new EngineError(
        "no_route",
        `No rail route: the railheads near ${sideLabel(req.from, "from")} (${a.map((c) => c.terminal.locode).join(", ")}) are not connected by rail to those near ${sideLabel(req.to, "to")} (${b.map((c) => c.terminal.locode).join(", ")}).`,
      );
    const handling = req.handling === false ? 0 : RAIL_HANDLING_HOURS;
    // One road plan per terminal, shared by every pair that uses it; a failed leg drops its pairs.
    const roadLeg = accessLegs(road, req.path === true);
    // A railhead at the door needs no road leg.
    const leg = (from: RailPoint, to: RailPoint, key: string): Promise<RoadLegPlan | null | "none"> =>
      haversineM(from.lat, from.lng, to.lat, to.lng) / 1000 < NO_ACCESS_LEG_KM
        ? Promise.resolve("none")
        : roadLeg(from, to, key);
    const chains: Array<{ hours: number; chain: Chain<P | RailTerminal> }> = [];
    let roadFailure = "";
    for (const { i, j, m } of pairs) {
      const ta = a[i]!.terminal;
      const tb = b[j]!.terminal;
      const [pre, post] = await Promise.all([leg(req.from, ta, `a${i}`), leg(tb, req.to, `b${j}`)]);
      if (pre === null || post === null) {
        roadFailure = ` (no road to ${pre === null ? ta.name : tb.name})`;
        continue;
      }
      const sections: SectionInput<P | RailTerminal>[] = [];
      const transfers: TransferInput<P | RailTerminal>[] = [];
      if (pre !== "none") {
        sections.push(renderRoadSection<P | RailTerminal>(pre, req.from, ta));
        transfers.push({ at: ta, from_mode: "ROAD", to_mode: "RAIL", hours: handling });
      } else transfers.push({ at: ta, from_mode: null, to_mode: "RAIL", hours: handling });
      sections.push({
        transport_mode: "RAIL",
        from: ta,
        to: tb,
        distance_m: m,
        hours: m / 1000 / RAIL_SPEED_KMH,
        path: req.path ? this.railPath(a[i]!, b[j]!) : undefined,
        estimated: false,
        extra: { speed_kmh: RAIL_SPEED_KMH },
      });
      if (post !== "none") {
        transfers.push({ at: tb, from_mode: "RAIL", to_mode: "ROAD", hours: handling });
        sections.push(renderRoadSection<P | RailTerminal>(post, tb, req.to));
      } else transfers.push({ at: tb, from_mode: "RAIL", to_mode: null, hours: handling });
      const chain = renderChain("Rail", sections, transfers);
      chains.push({ hours: chain.summary.duration.hours, chain });
    }
    if (chains.length === 0)
      throw new EngineError(
        "no_route",
        `No rail route: no railhead pair can be reached by road${roadFailure}.`,
      );
    // Fastest first (the single-mode route's ordering; the spec orders multimodal ones by optimize).
    chains.sort((x, y) => x.hours - y.hours);
    const [best, ...rest] = chains;
    return {
      route: best!.chain,
      alternatives: req.alternatives === false ? [] : rest.slice(0, RAIL_ALTERNATIVES).map((c) => c.chain),
    };
  }
}
