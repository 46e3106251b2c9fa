/**
 * The spec's route chain (Route chain table): label, transport_modes, summary, sections,
 * transfers, estimated. Every planner (road today; rail, air, river and multimodal next) hands
 * its legs here so summaries are computed one way: the summary is the sum of its sections and
 * transfers, hours = moving_hours + handling_hours, cost_index in thousands of km-equivalents.
 */

import { METRES_PER_NM } from "../common/geo.ts";
import { round } from "../common/round.ts";

export type TransportMode = "SEA" | "RIVER" | "RAIL" | "ROAD" | "AIR";

/** Spec, summary.cost_index: weights per km. */
export const COST_WEIGHTS: Record<TransportMode, number> = { SEA: 1, RIVER: 1.8, RAIL: 3, ROAD: 6, AIR: 40 };

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
  path?: Array<[number, number]>;
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

export function renderChain<P>(
  label: string,
  sections: ReadonlyArray<SectionInput<P>>,
  transfers: ReadonlyArray<TransferInput<P>> = [],
): Chain<P> {
  const out = sections.map((s) => {
    const section: ChainSection<P> = {
      transport_mode: s.transport_mode,
      from: s.from,
      to: s.to,
      distance: distanceOf(s.distance_m),
      duration: durationOf(s.hours),
      ...s.extra,
    };
    if (s.path) section.path = s.path;
    section.estimated = s.estimated;
    return section;
  });
  const metres = out.reduce((sum, s) => sum + s.distance.meters, 0);
  const movingS = out.reduce((sum, s) => sum + s.duration.seconds, 0);
  const handlingS = transfers.reduce((sum, t) => sum + Math.round(t.hours * 3600), 0);
  const modes: TransportMode[] = [];
  for (const s of sections) if (modes[modes.length - 1] !== s.transport_mode) modes.push(s.transport_mode);
  const costKm = sections.reduce((sum, s) => sum + (s.distance_m / 1000) * COST_WEIGHTS[s.transport_mode], 0);
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
    },
    sections: out,
    transfers: [...transfers],
    estimated: sections.some((s) => s.estimated),
  };
}

/** Names a chain's end in messages: "origin Rotterdam", "destination (-15.9244, -5.7181)". */
export const sideLabel = (p: { name?: string | null; lat: number; lng: number }, side: "from" | "to") =>
  `${side === "from" ? "origin" : "destination"} ${p.name ?? `(${round(p.lat, 4)}, ${round(p.lng, 4)})`}`;
