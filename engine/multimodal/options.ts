/**
 * A door-to-door request (spec, GET /v1/distance/multimodal) and its checked settings: allowed
 * modes, the ordering objective, the sea leg's speed and closures, the river date. Every check
 * answers EngineError invalid_request naming the parameter, so the API and the batch CLI say the same.
 */
import type { TransportMode } from "../chain.ts";
import { checkCargoTonnes } from "../emissions.ts";
import { EngineError } from "../errors.ts";
import { MODES } from "../modes/index.ts";
import { parseRiverDate, todayUtc } from "../river/seasonal.ts";
import {
  checkMode,
  checkSpeed,
  DEFAULT_MASK,
  maskOf,
  PASSAGE_IDS,
  type PassageId,
  parseAvoid,
  type RoutingMode,
  SAFE_CLOSED,
  SPEED_KNOTS,
} from "../sea/policy.ts";

/** cost (spec default), time, distance; emissions orders by well-to-wheel kg CO2e (beyond the spec). */
export const OPTIMIZE = ["cost", "time", "distance", "emissions"] as const;
export type Optimize = (typeof OPTIMIZE)[number];

/** A resolved end or port as a plain object (it crosses to the route workers by structured clone). */
export interface Place {
  lat: number;
  lng: number;
  name?: string | null;
  /** Resolved-point kind: "port" for pol/pod, "airport" for an end given by airport code. */
  kind?: string;
  locode?: string | null;
  iata?: string | null;
  country_code?: string | null;
}

export interface MultimodalRequest<P extends Place> {
  from: P;
  to: P;
  /** Allowed modes; default all five. */
  modes?: readonly TransportMode[];
  optimize?: string;
  /** Port of loading / discharge: a resolved sea port (kind "port"). */
  pol?: P | null;
  pod?: P | null;
  /** 3 to 40, default 14. */
  speedKnots?: number;
  routingMode?: string;
  /** Passage ids closed on the sea legs. */
  avoid?: readonly string[];
  /** Default true: other feasible chains. */
  alternatives?: boolean;
  /** Default true: terminal handling at each transfer. */
  handling?: boolean;
  path?: boolean;
  /** YYYY-MM-DD for the seasonal river rules; default today UTC. */
  date?: string;
  seasonal?: boolean;
  /** Cargo mass the emissions are stated for; default 1 t. */
  cargoTonnes?: number;
}

export interface Settings {
  modes: ReadonlySet<TransportMode>;
  optimize: Optimize;
  speedKnots: number;
  routingMode: RoutingMode;
  avoided: PassageId[];
  /** The sea legs' closed-passage mask: default closures, avoid, and safe's. */
  closedMask: number;
  alternatives: boolean;
  handling: boolean;
  path: boolean;
  date: string;
  seasonal: boolean;
  cargoTonnes: number;
}

export function checkModes(modes: readonly string[] | undefined): Set<TransportMode> {
  if (modes === undefined || modes.length === 0) return new Set(MODES);
  const out = new Set<TransportMode>();
  for (const m of modes) {
    if (!(MODES as readonly string[]).includes(m))
      throw new EngineError("invalid_request", `Unknown mode "${m}" in modes: use ${MODES.join(", ")}.`);
    out.add(m as TransportMode);
  }
  return out;
}

export function checkOptimize(value: string | undefined): Optimize {
  const v = (value ?? "cost").trim().toLowerCase();
  if (!(OPTIMIZE as readonly string[]).includes(v))
    throw new EngineError(
      "invalid_request",
      `optimize must be one of ${OPTIMIZE.join(", ")}, got "${value}".`,
    );
  return v as Optimize;
}

export function settingsOf(req: MultimodalRequest<Place>): Settings {
  const routingMode = checkMode(req.routingMode ?? "short");
  // The sea router's own closures: the default ones, the avoid list, and safe's (policy.ts).
  const closed = new Set<PassageId>([
    ...parseAvoid(req.avoid ?? []),
    ...(routingMode === "safe" ? SAFE_CLOSED : []),
  ]);
  const avoided = PASSAGE_IDS.filter((id) => closed.has(id));
  return {
    modes: checkModes(req.modes),
    optimize: checkOptimize(req.optimize),
    speedKnots: checkSpeed(req.speedKnots ?? SPEED_KNOTS.default),
    routingMode,
    avoided,
    closedMask: (DEFAULT_MASK | maskOf(avoided)) >>> 0,
    alternatives: req.alternatives !== false,
    handling: req.handling !== false,
    path: req.path === true,
    date: req.date === undefined ? todayUtc() : parseRiverDate(req.date),
    seasonal: req.seasonal !== false,
    cargoTonnes: checkCargoTonnes(req.cargoTonnes),
  };
}
