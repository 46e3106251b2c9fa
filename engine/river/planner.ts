/**
 * River chains (spec, chain rule 2, mode RIVER): road to a river port, barge over river.graph,
 * road from a river port; 18 h handling at each river port. Barge costs come from the router's
 * river objective (current by direction, locks, seasonal rule factors for the date, class < IV
 * avoided by cost only). When the date's closures leave no river route the chain falls back to
 * the road with seasonal_notes (the spec: road is allowed for the access legs). docs/river.md.
 */
import { dirname, resolve } from "node:path";
import { haversineM } from "../../common/geo.ts";
import { round } from "../../common/round.ts";
import {
  decodeRiverPorts,
  RIVER_PORTS_OUTPUT,
  type RiverPort,
  type SeaGateway,
} from "../../formats/river-ports.ts";
import { decodeRiverRules, RIVER_RULES_OUTPUT, type RiverRule } from "../../formats/river-rules.ts";
import {
  type LoadedGraph,
  type RiverFigures,
  type RiverRoute,
  STATUS,
  WasmRouter,
} from "../../router-wasm/binding/router.ts";
import { readArtifact, sameBuild } from "../artifacts.ts";
import { type Chain, type SectionInput, sideLabel } from "../chain.ts";
import { EngineError } from "../errors.ts";
import { RIVER } from "../modes/river.ts";
import { ROAD } from "../modes/road.ts";
import { type RoadRoutePlanner, renderRoadChain } from "../road/planner.ts";
import {
  nearestTerminals,
  roadLegKey,
  type TerminalSite,
  terminalChains,
  terminalsInReach,
} from "../terminal-chain.ts";
import {
  type ActiveRule,
  type SeasonalNote,
  type SeasonalState,
  seasonalNote,
  seasonalState,
  todayUtc,
} from "./seasonal.ts";

export const RIVER_GRAPH_KIND = "river-graph";
export const RIVER_GRAPH_FILE = "river.graph";
/** River port access by road (ours; the spec names none): the rail railhead reach. */
export const RIVER_ACCESS_MAX_KM = 150;
/** River ports tried per side: 3 x 3 pairings at most. */
export const RIVER_PORTS_PER_SIDE = 3;
/** Alternatives shown: the next-fastest port pairings. */
export const RIVER_ALTERNATIVES = 3;
/** Uncurated water a barge leg may use: this much, or this share of the leg, whichever is more. */
export const UNCURATED_MAX_M = 50_000;
export const UNCURATED_MAX_SHARE = 0.15;
/** Access legs in the pairing estimate: straight line x a typical road circuity. */
const ACCESS_CIRCUITY = 1.3;
/** Search budget (heap pops): above the largest river component. */
const MAX_SETTLED = 4_000_000;
export const RIVER_ATTRIBUTION =
  "Waterways: Natural Earth rivers and lakes (public domain), GSHHG WDB II (LGPL), Portolan's curated waterway table and seasonal windows (estimates, not live data)";

export interface RiverPoint {
  lat: number;
  lng: number;
  name?: string | null;
}

/** A river port as chains show it (the spec's resolved point, kind port). */
export interface RiverTerminal {
  kind: "port";
  name: string;
  locode: string;
  iata: null;
  country_code: string;
  lat: number;
  lng: number;
}

export interface RiverPlanRequest<P extends RiverPoint> {
  from: P;
  to: P;
  path?: boolean;
  alternatives?: boolean;
  /** River port handling; default true (false: transfers stay, at 0 h). */
  handling?: boolean;
  /** Departure date YYYY-MM-DD (already validated: parseRiverDate); default today UTC. */
  date?: string;
  /** false: no seasonal rule applies and no note is given. Default true. */
  seasonal?: boolean;
}

export interface RiverPlan<P> {
  route: Chain<P | RiverTerminal>;
  alternatives: Chain<P | RiverTerminal>[];
  date: string;
  seasonal_notes: SeasonalNote[];
}

type Candidate = TerminalSite<RiverTerminal>;
/** A port in reach of an end, with its distance and rank. */
type Ranked = Candidate & { km: number; rank: number };

/**
 * Ports whose river-ports.bin position is the harbour itself (WPI, the main ports' quays, sea
 * gateways): chains show them there and road legs drive there, on the harbour's own bank. A
 * UN/LOCODE-only port's position is its town's, so it stands at its graph node.
 */
const AT_HARBOUR: ReadonlySet<RiverPort["source"]> = new Set(["wpi", "unlocode+wpi", "curated", "gateway"]);
const pointKey = (p: RiverPoint) => `${p.lat},${p.lng}`;

export class RiverPlanner {
  private constructor(
    private readonly wasm: WasmRouter,
    readonly graph: LoadedGraph,
    readonly rules: readonly RiverRule[],
    private readonly ports: ReadonlyArray<Candidate>,
    /** Where barge routes meet the sea lanes (river-ports.bin): the multimodal Sea + River chains. */
    readonly gateways: ReadonlyArray<SeaGateway>,
    /** A port's graph node position by its shown position (pointKey): where its barges start. */
    private readonly water: ReadonlyMap<string, RiverPoint>,
  ) {}

  /** Where a barge leg from or to `p` starts: a port's graph node, else the point itself. */
  private onWater(p: RiverPoint): RiverPoint {
    return this.water.get(pointKey(p)) ?? p;
  }

  get buildId(): string {
    return this.graph.buildId;
  }

  /** river.graph, river-ports.bin and river-rules.bin of one build into `wasm`; tests hand it tiny maps. */
  static fromBytes(
    wasm: WasmRouter,
    bytes: { graph: Uint8Array; ports: Uint8Array; rules: Uint8Array },
    paths: { graph?: string; ports?: string; rules?: string } = {},
  ): RiverPlanner {
    const graphPath = paths.graph ?? RIVER_GRAPH_FILE;
    const { artifact, ...graph } = wasm.load(bytes.graph, { kind: RIVER_GRAPH_KIND, path: graphPath });
    const ports = decodeRiverPorts(bytes.ports, paths.ports ?? RIVER_PORTS_OUTPUT);
    const rules = decodeRiverRules(bytes.rules, paths.rules ?? RIVER_RULES_OUTPUT);
    const dir = dirname(graphPath);
    const ofGraph = { file: RIVER_GRAPH_FILE, buildId: graph.buildId };
    sameBuild(dir, { file: RIVER_PORTS_OUTPUT, buildId: ports.buildId }, ofGraph);
    sameBuild(dir, { file: RIVER_RULES_OUTPUT, buildId: rules.buildId }, ofGraph);
    if (rules.rules.length !== (graph.names.rules?.length ?? 0))
      throw new Error(
        `${graphPath}: ${graph.names.rules?.length ?? 0} seasonal rules, river-rules.bin ${rules.rules.length}; rebuild the artifacts`,
      );
    const nc = artifact.sections.get("node_coord");
    if (!nc) throw new Error(`${graphPath}: section node_coord missing; rebuild the artifacts`);
    // Copy: the file's buffer need not be aligned for typed views.
    const coord = new Float64Array(new Uint8Array(nc).buffer);
    // Several places share a node; keep one per node, surveyed before geocoded.
    const byNode = new Map<number, Candidate>();
    const water = new Map<string, RiverPoint>();
    for (const p of ports.ports) {
      const seen = byNode.get(p.node);
      if (seen && !(seen.geocoded && !p.geocoded)) continue;
      const node = { lat: coord[2 * p.node]!, lng: coord[2 * p.node + 1]! };
      const at = AT_HARBOUR.has(p.source) ? { lat: p.lat, lng: p.lng } : node;
      water.set(pointKey(at), node);
      byNode.set(p.node, {
        node: p.node,
        geocoded: p.geocoded,
        terminal: {
          kind: "port",
          name: p.name,
          locode: p.locode,
          iata: null,
          country_code: p.country,
          ...at,
        },
      });
    }
    return new RiverPlanner(wasm, graph, rules.rules, [...byNode.values()], ports.gateways, water);
  }

  static async load(buildDir: string): Promise<RiverPlanner> {
    const dir = resolve(buildDir);
    const [graph, ports, rules, wasm] = await Promise.all([
      readArtifact(dir, RIVER_GRAPH_FILE),
      readArtifact(dir, RIVER_PORTS_OUTPUT),
      readArtifact(dir, RIVER_RULES_OUTPUT),
      readArtifact(dir, "router.wasm"),
    ]);
    return RiverPlanner.fromBytes(
      await WasmRouter.instantiate(wasm.bytes),
      { graph: graph.bytes, ports: ports.bytes, rules: rules.bytes },
      { graph: graph.path, ports: ports.path, rules: rules.path },
    );
  }

  /** The nearest river ports within RIVER_ACCESS_MAX_KM of a point, best first. */
  candidates(p: RiverPoint): Ranked[] {
    return nearestTerminals(this.ports, p, RIVER_ACCESS_MAX_KM, RIVER_PORTS_PER_SIDE);
  }

  /**
   * Barge metres and real seconds from one river point (a port, a sea gateway) to many in one
   * search under the rule factors (seasonalState); Infinity where no river route joins them.
   */
  bargeMany(
    from: RiverPoint,
    targets: readonly RiverPoint[],
    factors: Float64Array,
  ): { metres: Float64Array; seconds: Float64Array; uncuratedM: Float64Array } {
    const r = this.wasm.oneToManyResult(
      this.graph.handle,
      this.onWater(from),
      targets.map((t) => this.onWater(t)),
      0,
      {
        maxSettled: MAX_SETTLED,
        objective: { kind: "river", ruleFactors: factors },
      },
    );
    const none = () => new Float64Array(targets.length).fill(Number.POSITIVE_INFINITY);
    if (r.status !== STATUS.found) return { metres: none(), seconds: none(), uncuratedM: none() };
    const finite = (x: number) => (Number.isNaN(x) ? Number.POSITIVE_INFINITY : x);
    // Class 0 is uncurated water on a river graph (docs/graph-format.md, river class codes).
    return { metres: r.metres.map(finite), seconds: r.real.map(finite), uncuratedM: r.class0M.map(finite) };
  }

  /**
   * The RIVER section between two river points on a date's rules (a sea gateway and a port, for
   * the multimodal Sea + River chain); null when no river route joins them.
   */
  bargeSection<T extends RiverPoint>(
    a: T,
    b: T,
    state: SeasonalState,
    path: boolean,
  ): SectionInput<T> | null {
    const r = this.barge(a, b, state.factors, path);
    return this.navigable(r) ? this.section(a, b, r, state.active) : null;
  }

  /**
   * A barge route that is mostly curated waterway. Uncurated water (Natural Earth rivers nobody
   * classed) joins ports to the network and bridges short gaps, but a route that runs on it for
   * long crosses headwaters and watersheds no barge sails (Hamburg to Milan over the Alps).
   */
  private navigable(r: RiverRoute): r is RiverRoute & { river: RiverFigures } {
    if (r.status !== STATUS.found || !r.river) return false;
    const names = this.graph.names.waterways ?? [];
    const uncurated = r.river.waterwayMetres.reduce((sum, m, i) => sum + (names[i]?.class ? 0 : m), 0);
    return navigableShare(uncurated, r.metres);
  }

  private barge(a: RiverPoint, b: RiverPoint, factors: Float64Array, path: boolean): RiverRoute {
    return this.wasm.routeRiver(this.graph.handle, this.onWater(a), this.onWater(b), {
      ruleFactors: factors,
      maxSettled: MAX_SETTLED,
      path,
    });
  }

  /** The spec's RIVER section of a barge route between two ports. */
  private section<T extends RiverPoint>(
    a: T,
    b: T,
    r: RiverRoute & { river: RiverFigures },
    active: readonly ActiveRule[],
  ): SectionInput<T> {
    const f = r.river;
    const names = this.graph.names.waterways ?? [];
    // Metres per waterway of the whole graph (thousands): only those sailed become entries.
    const waterways: Array<{ name: string; km: number; class: string | null }> = [];
    f.waterwayMetres.forEach((m, i) => {
      const km = round(m / 1000, 1);
      if (km > 0)
        waterways.push({ name: names[i]?.name || "unnamed waterway", km, class: names[i]?.class || null });
    });
    waterways.sort((x, y) => y.km - x.km);
    const moving = (f.seconds - f.lockSeconds) / 3600;
    return {
      transport_mode: "RIVER",
      from: a,
      to: b,
      distance_m: r.metres,
      hours: f.seconds / 3600,
      path: r.path,
      start: this.onWater(a),
      end: this.onWater(b),
      estimated: false,
      extra: {
        speed_kmh: moving > 0 ? round(r.metres / 1000 / moving, 1) : 0,
        current: {
          downstream_km: round(f.downstreamM / 1000, 1),
          upstream_km: round(f.upstreamM / 1000, 1),
          slack_water_km: round(f.slackM / 1000, 1),
        },
        locks: Math.round(f.locks),
        lock_hours: round(f.lockSeconds / 3600, 2),
        waterways,
        seasonal: active
          .filter((x) => x.kind !== "closure" && (f.ruleMetres[x.index] ?? 0) > 0)
          .map((x) => seasonalNote(x, f.ruleMetres[x.index]! / 1000, "slower")),
        attribution: RIVER_ATTRIBUTION,
      },
    };
  }

  /**
   * Plans the river chain. Throws EngineError no_route when a side has no river port in reach or
   * the ports are not joined by water on any date; the date's closures alone fall back to the road.
   */
  async plan<P extends RiverPoint>(req: RiverPlanRequest<P>, road: RoadRoutePlanner): Promise<RiverPlan<P>> {
    const date = req.date ?? todayUtc();
    const state = seasonalState(this.rules, date, req.seasonal !== false);
    const [a, b] = this.portsInReach(req);
    const closures = state.active.filter((x) => x.kind === "closure");
    // The same factors with every closure lifted: what the closures take away.
    const open = Float64Array.from(state.factors, (f) => (f === 0 ? 1 : f));
    const closureNotes = (from: RiverTerminal, to: RiverTerminal, effect: "no_route" | "detour") => {
      if (closures.length === 0) return [];
      const unclosed = this.barge(from, to, open, false);
      return closures
        .filter((x) => (unclosed.river?.ruleMetres[x.index] ?? 0) > 0)
        .map((x) => seasonalNote(x, unclosed.river!.ruleMetres[x.index]! / 1000, effect));
    };
    const pairs = this.pairings(req, a, b, state.factors);
    if (pairs.length === 0) {
      const reopened = closures.length > 0 ? this.pairings(req, a, b, open) : [];
      if (reopened.length === 0)
        throw new EngineError(
          "no_route",
          `No river route: the river ports near ${sideLabel(req.from, "from")} (${a.map((c) => c.terminal.locode).join(", ")}) are not joined by navigable water to those near ${sideLabel(req.to, "to")} (${b.map((c) => c.terminal.locode).join(", ")}).`,
        );
      // Closed on this date: the spec's fallback is the road chain, with the closures as notes.
      const legs = await road.plan({ from: req.from, to: req.to, path: req.path === true });
      return {
        route: renderRoadChain(legs.route, req.from, req.to),
        alternatives: [],
        date,
        seasonal_notes: closureNotes(reopened[0]!.x.terminal, reopened[0]!.y.terminal, "no_route"),
      };
    }
    const [best, ...rest] = await this.chains(req, pairs, state, road);
    const barge = best!.sections.find((s) => s.transport_mode === "RIVER")!;
    const slower = (barge.seasonal as SeasonalNote[]) ?? [];
    return {
      route: best!,
      alternatives: req.alternatives === false ? [] : rest,
      date,
      seasonal_notes: [
        ...closureNotes(barge.from as RiverTerminal, barge.to as RiverTerminal, "detour"),
        ...slower,
      ],
    };
  }

  /** The river ports in reach of each end; no_route when a side has none or both share one. */
  private portsInReach(req: RiverPlanRequest<RiverPoint>): [Ranked[], Ranked[]] {
    const [a, b] = terminalsInReach(
      req.from,
      req.to,
      (p) => this.candidates(p),
      (end) => `No river route: ${end} has no river port within ${RIVER_ACCESS_MAX_KM} km.`,
    );
    if (a[0]!.node === b[0]!.node)
      throw new EngineError(
        "no_route",
        `No river route: both ends are served by the same river port (${a[0]!.terminal.locode} ${a[0]!.terminal.name}); use mode ROAD.`,
      );
    return [a, b];
  }

  /**
   * Port pairings joined by navigable water under `factors`, cheapest first by the spec's cost
   * weights (barge km, access legs as straight lines): one search per origin port.
   */
  private pairings(req: RiverPlanRequest<RiverPoint>, a: Ranked[], b: Ranked[], factors: Float64Array) {
    const targets = b.map((c) => c.terminal);
    const rows = a.map((x) => this.bargeMany(x.terminal, targets, factors));
    return a
      .flatMap((x, i) =>
        b.map((y, j) => ({
          x,
          y,
          metres: rows[i]!.metres[j]!,
          ok:
            Number.isFinite(rows[i]!.seconds[j]!) &&
            navigableShare(rows[i]!.uncuratedM[j]!, rows[i]!.metres[j]!),
        })),
      )
      .filter((p) => p.ok && p.x.node !== p.y.node)
      .map((p) => ({ ...p, est: estimatedCost(req.from, req.to, p.x.terminal, p.y.terminal, p.metres) }))
      .sort((p, q) => p.est - q.est);
  }

  /**
   * The chains over the best pairings (the first, or it and the alternatives), road legs planned,
   * cheapest first; no_route when no road reaches any of their ports.
   */
  private async chains<P extends RiverPoint>(
    req: RiverPlanRequest<P>,
    pairs: Array<{ x: Ranked; y: Ranked }>,
    state: SeasonalState,
    road: RoadRoutePlanner,
  ): Promise<Chain<P | RiverTerminal>[]> {
    const path = req.path === true;
    const chosen = pairs.slice(0, req.alternatives === false ? 1 : 1 + RIVER_ALTERNATIVES).flatMap((p) => {
      const r = this.barge(p.x.terminal, p.y.terminal, state.factors, path);
      return this.navigable(r) ? [{ ...p, r }] : [];
    });
    const { chains, unreachable } = await terminalChains({
      from: req.from,
      to: req.to,
      mode: "RIVER",
      label: "River",
      handlingHours: req.handling === false ? 0 : RIVER.handlingHours,
      road,
      path,
      pairings: chosen.map(({ x, y, r }) => ({
        from: x.terminal,
        to: y.terminal,
        fromRoad: roadLegKey(req.from, x.terminal, `a${x.node}`),
        toRoad: roadLegKey(req.to, y.terminal, `b${y.node}`),
        main: this.section(x.terminal, y.terminal, r, state.active),
      })),
    });
    if (chains.length === 0)
      throw new EngineError(
        "no_route",
        `No river route: no road reaches the river ports in reach (${unreachable.map((t) => t.locode).join(", ")}).`,
      );
    // Cheapest first (spec cost_index): barging is chosen for cost, so a barge leg that a shorter
    // truck leg could replace faster (the last reach upstream to the city) still wins.
    return chains.sort(
      (x, y) =>
        x.summary.cost_index - y.summary.cost_index || x.summary.duration.hours - y.summary.duration.hours,
    );
  }
}

/** A pairing's cost_index before its road legs are planned (spec weights; access as straight lines). */
function estimatedCost(
  from: RiverPoint,
  to: RiverPoint,
  a: RiverTerminal,
  b: RiverTerminal,
  bargeM: number,
): number {
  const access =
    (haversineM(from.lat, from.lng, a.lat, a.lng) + haversineM(b.lat, b.lng, to.lat, to.lng)) *
    ACCESS_CIRCUITY;
  return bargeM * RIVER.costWeight + access * ROAD.costWeight;
}

/** The navigable-water rule: at most UNCURATED_MAX_M or UNCURATED_MAX_SHARE of the leg uncurated. */
const navigableShare = (uncuratedM: number, metres: number) =>
  uncuratedM <= Math.max(UNCURATED_MAX_M, UNCURATED_MAX_SHARE * metres);
