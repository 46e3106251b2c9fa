/**
 * The spec's route chain (Route chain table): label, transport_modes, summary, sections,
 * transfers, estimated. Every planner (road, rail, air, river, multimodal) hands its legs here so
 * summaries are computed one way: the summary is the sum of its sections and transfers, hours =
 * moving_hours + handling_hours, cost_index in thousands of km-equivalents, emissions (beyond the
 * spec, docs/emissions.md) the sum of the sections' for the stated cargo mass.
 */

import { METRES_PER_NM, type PathPoint } from "../common/geo.ts";
import { round } from "../common/round.ts";
import { chainEmissions, DEFAULT_CARGO_TONNES, type EmissionLeg, type Emissions } from "./emissions.ts";
import { MODE_PROFILES } from "./modes/index.ts";
import type { TransportMode } from "./modes/profile.ts";
import { sectionRoutePoints } from "./route-point.ts";

export type { TransportMode };

export interface ChainDistance {
  km: number;
  nm: number;
  meters: number;
}

export interface ChainDuration {
  hours: number;
  days: number;
  seconds: number;
}

export interface SectionInput<P> {
  transport_mode: TransportMode;
  from: P;
  to: P;
  distance_m: number;
  /** Door-to-door hours of the leg (moving, rests and crossings included; no transfer handling). */
  hours: number;
  path?: PathPoint[];
  /**
   * Where the leg really starts and ends on its network (a road's snapped node, a barge leg's river
   * node, a sea leg's lane node, the terminal itself): shown as the section's `route_points`.
   * Unknown (an external road engine's leg): none, or the ones `extra` already carries.
   */
  start?: { lat: number; lng: number };
  end?: { lat: number; lng: number };
  estimated: boolean;
  /** Mode-specific fields (ROAD: driving_hours, ferry_paths ...), shown after the common ones. */
  extra?: Record<string, unknown>;
}

export interface TransferInput<P> {
  at: P;
  /**
   * null when the freight starts (from_mode) or ends (to_mode) at the terminal itself, e.g. an
   * air chain asked from an airport code: the terminal handling still applies there.
   */
  from_mode: TransportMode | null;
  to_mode: TransportMode | null;
  hours: number;
}

export interface ChainSection<P> {
  transport_mode: TransportMode;
  from: P;
  to: P;
  distance: ChainDistance;
  duration: ChainDuration;
  emissions: Emissions;
  /** [lat, lng] pairs, when the path is drawn. */
  path?: PathPoint[];
  [field: string]: unknown;
}

export interface Chain<P> {
  label: string;
  transport_modes: TransportMode[];
  summary: {
    distance: ChainDistance;
    duration: ChainDuration;
    moving_hours: number;
    handling_hours: number;
    speed_kmh: number;
    cost_index: number;
    emissions: Emissions;
  };
  sections: ChainSection<P>[];
  transfers: TransferInput<P>[];
  estimated: boolean;
}

/** Whole metres first, so the summary's meters is exactly the sum of its sections'. */
export function distanceOf(metres: number): ChainDistance {
  const m = Math.round(metres);
  return { km: round(m / 1000, 1), nm: round(m / METRES_PER_NM, 1), meters: m };
}

/** Whole seconds first, so the summary's seconds is exactly the sum of its parts. */
export function durationOf(hours: number): ChainDuration {
  const s = Math.round(hours * 3600);
  return { hours: round(s / 3600, 2), days: round(s / 86400, 2), seconds: s };
}

/** Whole metres as shown, so restating a chain for another mass gives the same figures. */
const emissionLeg = (s: ChainSection<unknown>): EmissionLeg => ({
  transport_mode: s.transport_mode,
  meters: s.distance.meters,
  from: s.from,
  to: s.to,
});

export interface ChainOptions {
  /** Cargo mass the emissions are stated for; default 1 t (check it with checkCargoTonnes). */
  cargoTonnes?: number;
}

export function renderChain<P>(
  label: string,
  sections: ReadonlyArray<SectionInput<P>>,
  transfers: ReadonlyArray<TransferInput<P>> = [],
  options: ChainOptions = {},
): Chain<P> {
  const out = sections.map((s) => {
    const section = {
      transport_mode: s.transport_mode,
      from: s.from,
      to: s.to,
      distance: distanceOf(s.distance_m),
      duration: durationOf(s.hours),
      ...sectionRoutePoints(s),
      ...s.extra,
    } as ChainSection<P>;
    if (s.path) section.path = s.path;
    section.estimated = s.estimated;
    return section;
  });
  const emissions = chainEmissions(out.map(emissionLeg), options.cargoTonnes ?? DEFAULT_CARGO_TONNES);
  out.forEach((s, i) => {
    s.emissions = emissions.legs[i]!;
  });
  const metres = out.reduce((sum, s) => sum + s.distance.meters, 0);
  const movingS = out.reduce((sum, s) => sum + s.duration.seconds, 0);
  const handlingS = transfers.reduce((sum, t) => sum + Math.round(t.hours * 3600), 0);
  const modes: TransportMode[] = [];
  for (const s of sections) if (modes[modes.length - 1] !== s.transport_mode) modes.push(s.transport_mode);
  const costKm = sections.reduce(
    (sum, s) => sum + (s.distance_m / 1000) * MODE_PROFILES[s.transport_mode].costWeight,
    0,
  );
  const moving = round(movingS / 3600, 2);
  const handling = round(handlingS / 3600, 2);
  return {
    label,
    transport_modes: modes,
    summary: {
      distance: distanceOf(metres),
      // hours = moving_hours + handling_hours exactly as shown (the spec's identity).
      duration: { ...durationOf((movingS + handlingS) / 3600), hours: round(moving + handling, 2) },
      moving_hours: moving,
      handling_hours: handling,
      speed_kmh: movingS > 0 ? round(metres / 1000 / (movingS / 3600), 1) : 0,
      cost_index: round(costKm / 1000, 3),
      emissions: emissions.total,
    },
    sections: out,
    transfers: [...transfers],
    estimated: sections.some((s) => s.estimated),
  };
}

/**
 * The chain with its emissions restated for another cargo mass, e.g. a plan made in a worker with
 * the default 1 t. Computed from the shown sections, so withCargoTonnes(c, 1) equals c.
 */
export function withCargoTonnes<C extends Chain<unknown>>(chain: C, cargoTonnes: number): C {
  const e = chainEmissions(chain.sections.map(emissionLeg), cargoTonnes);
  return {
    ...chain,
    summary: { ...chain.summary, emissions: e.total },
    sections: chain.sections.map((s, i) => ({ ...s, emissions: e.legs[i]! })),
  };
}

/** A plan's route and alternatives restated for a cargo mass (other fields kept). */
export function planWithCargoTonnes<T extends { route: Chain<unknown>; alternatives: Chain<unknown>[] }>(
  plan: T,
  cargoTonnes: number,
): T {
  return {
    ...plan,
    route: withCargoTonnes(plan.route, cargoTonnes),
    alternatives: plan.alternatives.map((c) => withCargoTonnes(c, cargoTonnes)),
  };
}

/** Names a chain's end in messages: "origin Rotterdam", "destination (-15.9244, -5.7181)". */
export const sideLabel = (p: { name?: string | null; lat: number; lng: number }, side: "from" | "to") =>
  `${side === "from" ? "origin" : "destination"} ${p.name ?? `(${round(p.lat, 4)}, ${round(p.lng, 4)})`}`;
