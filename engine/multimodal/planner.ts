/**
 * Door-to-door chains across the allowed modes (spec, GET /v1/distance/multimodal and its chain
 * construction rules): the Sea chain and Sea + River (sea-chain.ts, sea-river.ts, sharing one set
 * of one-to-many sea searches), the River, Rail and Air chains of the single-mode planners, and the
 * Road chain. Sea + River chains keep only barges a road would not serve better (barge-rule.ts)
 * and pass the drop rules (drop-rules.ts); the rest are ordered by optimize, the best is the
 * route. docs/multimodal.md.
 *
 * Modes: a chain uses only the allowed modes (mode-rule.ts): without ROAD its road sections (door
 * to the first terminal, last terminal to door, a railhead to its port) may only be local
 * transfers of a few km; ROAD in modes allows them, the Road chain itself, and a river chain's
 * fallback to the road when the date's closures leave no river route.
 */
import type { AirPlanner } from "../air/planner.ts";
import { type Chain, type TransportMode, withCargoTonnes } from "../chain.ts";
import { DEFAULT_CARGO_TONNES } from "../emissions.ts";
import { EngineError } from "../errors.ts";
import { MODES } from "../modes/index.ts";
import type { RailPlanner } from "../rail/planner.ts";
import type { RiverPlanner } from "../river/planner.ts";
import { type SeasonalNote, seasonalState } from "../river/seasonal.ts";
import { type RoadPlan, type RoadRoutePlanner, renderRoadChain } from "../road/planner.ts";
import { DEFAULT_MASK, type PassageId, type RoutingMode } from "../sea/policy.ts";
import { MAX_SNAP_KM, type SeaRouter } from "../sea/router.ts";
import type { BargeReason } from "./barge-rule.ts";
import { type DropReason, dropReasons } from "./drop-rules.ts";
import { greatCircleKm, InlandLegs } from "./inland.ts";
import { outsideModes } from "./mode-rule.ts";
import { type MultimodalRequest, type Optimize, type Place, type Settings, settingsOf } from "./options.ts";
import { compareChains } from "./order.ts";
import { seaChains } from "./sea-chain.ts";
import { SeaDistances } from "./sea-distances.ts";
import { portOptions } from "./sea-legs.ts";
import {
  Barges,
  type GatewaySide,
  gatewayOptions,
  gatewaySeaPoint,
  SEA_RIVER_LABEL,
  seaRiverChains,
} from "./sea-river.ts";

/** What the planner needs; the single-mode planners load on first use (route workers load lazily). */
export interface MultimodalDeps {
  sea: SeaRouter;
  /** The main container ports (LocationIndex.mainPorts). */
  ports(): Promise<readonly Place[]>;
  rail(): Promise<RailPlanner>;
  air(): Promise<AirPlanner>;
  river(): Promise<RiverPlanner>;
}

export type ChainRule = "sea" | "sea_river" | "river" | "rail" | "air" | "road";

/** What a chain rule gave: a chain kept or dropped (with the drop rules that fired), or no route. */
export interface Considered {
  rule: ChainRule;
  outcome: "kept" | "dropped" | "no_route";
  label?: string;
  km?: number;
  reasons?: Array<DropReason | BargeReason>;
  message?: string;
}

export interface MultimodalPlan {
  /** The allowed modes, in the spec's order. */
  transport_modes: TransportMode[];
  optimize: Optimize;
  routing_mode: RoutingMode;
  avoided: PassageId[];
  route: Chain<Place>;
  alternatives: Chain<Place>[];
  /** Present when RIVER is allowed. */
  date?: string;
  seasonal_notes: SeasonalNote[];
  /** Not part of the response (the API leaves it out): every rule's outcome, for tests and batch logs. */
  considered: Considered[];
}

/** A chain found by a rule, with the seasonal notes of its barge leg. */
interface Found {
  rule: ChainRule;
  chain: Chain<Place>;
  notes: SeasonalNote[];
}

interface RuleResult {
  found: Found[];
  failures: Considered[];
  /** The river chain's notes (closures it went round or that closed it, slow-downs). */
  riverNotes?: SeasonalNote[];
  /** The date's closures left no river route (the River planner fell back to the road). */
  riverClosed?: boolean;
}

const LABELS: Record<ChainRule, string> = {
  sea: "Sea",
  sea_river: SEA_RIVER_LABEL,
  river: "River",
  rail: "Rail",
  air: "Air",
  road: "Road",
};

const placeName = (p: Place) => p.name ?? `(${p.lat}, ${p.lng})`;

export class MultimodalPlanner {
  /** The sea table, rows and routes, kept across requests (this thread's): main ports only... */
  private portRows: Promise<SeaDistances> | null = null;
  /** ...until the river planner is in use: then with the gateways' sea points as columns too. */
  private gatewayRows: Promise<SeaDistances> | null = null;
  /** Barge rows and sections for Sea + River, kept across requests. */
  private readonly barges = new Barges();

  constructor(private readonly deps: MultimodalDeps) {}

  /**
   * The sea distances between the main container ports, and from them to the river gateways once
   * `river` is loaded: their table under the default closures is filled on first use, once per
   * thread (sea-distances.ts).
   */
  distances(river: RiverPlanner | null): Promise<SeaDistances> {
    const filled = (columns: readonly Place[]) =>
      this.deps.ports().then((ports) => new SeaDistances(this.deps.sea, ports, columns).fill(DEFAULT_MASK));
    if (river) {
      this.gatewayRows ??= filled(river.gateways.map(gatewaySeaPoint));
      // The gateway rows answer everything the port rows did.
      this.portRows = null;
      return this.gatewayRows;
    }
    if (this.gatewayRows) return this.gatewayRows;
    this.portRows ??= filled([]);
    return this.portRows;
  }

  async plan<P extends Place>(req: MultimodalRequest<P>, roads: RoadRoutePlanner): Promise<MultimodalPlan> {
    const s = settingsOf(req);
    const road = onceEach(roads);
    for (const [name, p] of [
      ["from", req.from],
      ["to", req.to],
    ] as const) {
      if (!Number.isFinite(p.lat) || !Number.isFinite(p.lng) || Math.abs(p.lat) > 90 || Math.abs(p.lng) > 180)
        throw new EngineError("invalid_request", `${name} has no valid coordinates`);
    }
    const pol = req.pol ?? null;
    const pod = req.pod ?? null;
    for (const [name, p] of [
      ["pol", pol],
      ["pod", pod],
    ] as const) {
      if (p) this.checkSeaPort(name, p, s);
    }
    const { from, to } = req;
    const legs = new InlandLegs(s, road, this.deps.rail);
    const allowed = (m: TransportMode) => s.modes.has(m);
    // A fixed pol or pod asks for a chain through it: only chains with a sea leg have one.
    const seaOnly = pol !== null || pod !== null;
    const rules: Array<Promise<RuleResult>> = [];
    if (allowed("SEA")) rules.push(this.seaFamily(from, to, pol, pod, s, legs));
    if (!seaOnly) {
      if (allowed("RIVER")) rules.push(this.riverRule(from, to, s, road));
      if (allowed("RAIL"))
        rules.push(
          attempt("rail", async () => {
            const plan = await (await this.deps.rail()).plan(
              { from, to, path: s.path, alternatives: false, handling: s.handling },
              road,
            );
            return plan.route;
          }),
        );
      if (allowed("AIR"))
        rules.push(
          attempt("air", async () => {
            const plan = await (await this.deps.air()).plan(
              { from, to, path: s.path, alternatives: false, handling: s.handling },
              road,
            );
            return plan.route;
          }),
        );
      if (allowed("ROAD"))
        rules.push(
          attempt("road", async () => {
            const plan = await road.plan({ from, to, path: s.path, alternatives: false });
            return renderRoadChain<Place>(plan.route, from, to);
          }),
        );
    }
    const results = await Promise.all(rules);
    const considered: Considered[] = results.flatMap((r) => r.failures);
    const found = withinModes(
      results.flatMap((r) => r.found),
      s,
      considered,
    );
    const riverResult = results.find((r) => r.riverNotes !== undefined);
    const kept = this.applyDropRules(found, from, to, considered);
    kept.sort((a, b) => compareChains(s.optimize)(a.chain, b.chain));
    for (const k of kept)
      considered.push({
        rule: k.rule,
        outcome: "kept",
        label: k.chain.label,
        km: k.chain.summary.distance.km,
      });
    if (kept.length === 0) throw this.noRoute(from, to, s, considered, riverResult);
    const restate = (c: Chain<Place>) =>
      s.cargoTonnes === DEFAULT_CARGO_TONNES ? c : withCargoTonnes(c, s.cargoTonnes);
    const notes = new Map<string, SeasonalNote>();
    for (const n of [...(riverResult?.riverNotes ?? []), ...kept.flatMap((k) => k.notes)])
      if (!notes.has(`${n.id}\n${n.effect}`)) notes.set(`${n.id}\n${n.effect}`, n);
    const [best, ...rest] = kept;
    return {
      transport_modes: MODES.filter(allowed),
      optimize: s.optimize,
      routing_mode: s.routingMode,
      avoided: s.avoided,
      route: restate(best!.chain),
      alternatives: s.alternatives ? rest.map((k) => restate(k.chain)) : [],
      ...(allowed("RIVER") ? { date: s.date } : {}),
      seasonal_notes: [...notes.values()],
      considered,
    };
  }

  /** pol and pod must be sea ports: a port (UN/LOCODE) near the sea lanes. */
  private checkSeaPort(name: "pol" | "pod", p: Place, s: Settings): void {
    if (!s.modes.has("SEA"))
      throw new EngineError("invalid_request", `${name} fixes a sea port, but SEA is not among the modes.`);
    const snap = this.deps.sea.snap(p.lat, p.lng);
    if (p.kind !== "port" || !snap || snap.km > MAX_SNAP_KM.port)
      throw new EngineError(
        "invalid_request",
        `${name} must be a sea port (UN/LOCODE of a port on the sea lanes); ${placeName(p)} is not one.`,
      );
  }

  /** Sea chains and Sea + River chains: one set of one-to-many sea searches serves both. */
  private async seaFamily(
    from: Place,
    to: Place,
    pol: Place | null,
    pod: Place | null,
    s: Settings,
    legs: InlandLegs,
  ): Promise<RuleResult> {
    const river = s.modes.has("RIVER") ? await this.deps.river() : null;
    const [sea, ports] = await Promise.all([this.distances(river), this.deps.ports()]);
    const origins = portOptions(ports, from, pol, legs);
    const destinations = portOptions(ports, to, pod, legs);
    let toSide: GatewaySide = { options: [], refused: [] };
    let fromSide: GatewaySide = { options: [], refused: [] };
    const state = river ? seasonalState(river.rules, s.date, s.seasonal) : null;
    if (river && state) {
      // Sea then barge ends at a gateway near the destination (the pod, when fixed); the reverse
      // starts at one near the origin (the pol).
      const common = { river, state, legs, settings: s, barges: this.barges, seaPorts: ports };
      toSide = gatewayOptions({ ...common, door: to, fixed: pod });
      fromSide = gatewayOptions({ ...common, door: from, fixed: pol });
    }
    const chains = await seaChains({ from, to, origins, destinations, sea, legs, settings: s });
    const failures: Considered[] = chains.length
      ? []
      : [
          {
            rule: "sea",
            outcome: "no_route",
            message: this.noSeaChain(from, to, origins.length, destinations.length),
          },
        ];
    failures.push(...refusedBarges(from, fromSide.refused), ...refusedBarges(to, toSide.refused));
    const result: RuleResult = {
      found: chains.map((chain) => ({ rule: "sea" as const, chain, notes: [] })),
      failures,
    };
    if (river && state && (toSide.options.length > 0 || fromSide.options.length > 0)) {
      const sr = await seaRiverChains({
        from,
        to,
        sea,
        river,
        state,
        barges: this.barges,
        legs,
        settings: s,
        origins,
        destinations,
        toSide: toSide.options,
        fromSide: fromSide.options,
      });
      result.found.push(...sr.map((c) => ({ rule: "sea_river" as const, chain: c.chain, notes: c.notes })));
    }
    return result;
  }

  private noSeaChain(from: Place, to: Place, origins: number, destinations: number): string {
    return `no pair of the ${origins} x ${destinations} main container ports nearest ${placeName(from)} and ${placeName(to)} is joined by sea and reached by land with these modes and passages`;
  }

  /** The River chain: the single-mode planner's best by optimize; a closed river is noted, not a chain. */
  private async riverRule(from: Place, to: Place, s: Settings, road: RoadRoutePlanner): Promise<RuleResult> {
    const river = await this.deps.river();
    try {
      const plan = await river.plan(
        {
          from,
          to,
          path: s.path,
          alternatives: false,
          handling: s.handling,
          date: s.date,
          seasonal: s.seasonal,
        },
        road,
      );
      if (!plan.route.transport_modes.includes("RIVER")) {
        // Closed on the date: the planner's road fallback is the Road chain's business, not River's.
        return {
          found: [],
          failures: [
            { rule: "river", outcome: "no_route", message: closureMessage(plan.seasonal_notes, s.date) },
          ],
          riverNotes: plan.seasonal_notes,
          riverClosed: true,
        };
      }
      return {
        found: [{ rule: "river", chain: plan.route, notes: [] }],
        failures: [],
        riverNotes: plan.seasonal_notes,
      };
    } catch (err) {
      return { found: [], failures: [failure("river", err)], riverNotes: [] };
    }
  }

  /** Sea + River chains that pass the drop rules, with the other chains; the dropped are recorded. */
  private applyDropRules(found: Found[], from: Place, to: Place, considered: Considered[]): Found[] {
    const others = found.filter((f) => f.rule !== "sea_river");
    const river = found.find((f) => f.rule === "river")?.chain;
    const km = (c: Chain<Place>) => c.summary.distance.meters / 1000;
    const withoutAir = found.filter((f) => !f.chain.transport_modes.includes("AIR")).map((f) => km(f.chain));
    const ctx = {
      river: river ? { km: km(river), hours: river.summary.duration.hours } : null,
      greatCircleKm: greatCircleKm(from, to),
      directExists: others.length > 0,
      shortestWithoutAirKm: Math.min(...withoutAir),
    };
    const kept = [...others];
    for (const f of found) {
      if (f.rule !== "sea_river") continue;
      const c = f.chain;
      const accessKm = c.sections
        .filter((x) => x.transport_mode === "ROAD" || x.transport_mode === "RAIL")
        .reduce((sum, x) => sum + x.distance.meters / 1000, 0);
      const reasons = dropReasons({ km: km(c), hours: c.summary.duration.hours, accessKm }, ctx);
      if (reasons.length === 0) kept.push(f);
      else
        considered.push({
          rule: "sea_river",
          outcome: "dropped",
          label: c.label,
          km: c.summary.distance.km,
          reasons,
        });
    }
    return kept;
  }

  private noRoute(
    from: Place,
    to: Place,
    s: Settings,
    considered: Considered[],
    river: RuleResult | undefined,
  ): EngineError {
    const modes = MODES.filter((m) => s.modes.has(m));
    if (modes.length === 1 && modes[0] === "RIVER" && river?.riverClosed)
      return new EngineError(
        "no_route",
        `No river route from ${placeName(from)} to ${placeName(to)}: ${closureMessage(river.riverNotes ?? [], s.date)}.`,
      );
    const why = considered
      .map((c) =>
        c.outcome === "dropped"
          ? `${c.label}: dropped (${c.reasons?.join(", ") ?? c.message})`
          : `${LABELS[c.rule]}: ${(c.message ?? "no route").replace(/\.$/, "")}`,
      )
      .join("; ");
    return new EngineError(
      "no_route",
      `No door-to-door route from ${placeName(from)} to ${placeName(to)} with modes ${modes.join(", ")}${why ? `: ${why}` : ""}.`,
    );
  }
}

/** The chains that use only the allowed modes; the others are noted as dropped, with why. */
function withinModes(found: Found[], s: Settings, considered: Considered[]): Found[] {
  return found.filter((f) => {
    const why = outsideModes(f.chain, s.modes);
    if (why !== null)
      considered.push({
        rule: f.rule,
        outcome: "dropped",
        label: f.chain.label,
        km: f.chain.summary.distance.km,
        message: why,
      });
    return why === null;
  });
}

/** A side's barge candidates a road leg serves better (barge-rule.ts), noted as one drop. */
function refusedBarges(door: Place, reasons: BargeReason[]): Considered[] {
  if (reasons.length === 0) return [];
  return [
    {
      rule: "sea_river",
      outcome: "dropped",
      label: SEA_RIVER_LABEL,
      reasons,
      message: `barges at ${placeName(door)}: a road leg serves the door better`,
    },
  ];
}

/**
 * `road`, planning each distinct request once: the rules of one request ask for the same legs
 * (the Rail chain's door to its railheads, and a sea chain's rail pre-carriage to a port).
 */
function onceEach(road: RoadRoutePlanner): RoadRoutePlanner {
  const plans = new Map<string, Promise<RoadPlan>>();
  return {
    plan: (req) => {
      const key = JSON.stringify(req);
      let plan = plans.get(key);
      if (!plan) {
        plan = road.plan(req);
        plans.set(key, plan);
      }
      return plan;
    },
  };
}

/**
 * Runs a single-mode rule: its planner's own chain (rail and air: the fastest terminal pairing,
 * river: the cheapest), since that choice is what the rule describes; a cheaper pairing by cost
 * would fly from a farther airport only to truck back. Its no_route becomes a recorded failure.
 */
async function attempt(rule: ChainRule, run: () => Promise<Chain<Place>>): Promise<RuleResult> {
  try {
    return { found: [{ rule, chain: await run(), notes: [] }], failures: [] };
  } catch (err) {
    return { found: [], failures: [failure(rule, err)] };
  }
}

function failure(rule: ChainRule, err: unknown): Considered {
  if (err instanceof EngineError && err.code === "no_route")
    return { rule, outcome: "no_route", message: err.message };
  throw err;
}

/** Each closure with its typical window and reopening date (spec: the RIVER-only 422's message). */
export function closureMessage(notes: readonly SeasonalNote[], date: string): string {
  const closed = notes.filter((n) => n.kind === "closure");
  if (closed.length === 0) return `no river route is open on ${date}`;
  return `every river route between them is closed on ${date}: ${closed
    .map(
      (n) =>
        `${n.id} ${n.note} (typically ${n.typical_window}; reopens about ${n.reopens_about ?? "unknown"})`,
    )
    .join("; ")}`;
}
