/**
 * Transport emissions per ISO 14083 with default intensity factors (GLEC Framework): kg CO2e
 * well-to-wheel (WTW) and tank-to-wheel (TTW) for a stated cargo mass, leg by leg. A leg emits
 * factor (g CO2e per tonne-km) x km x tonnes; transfers emit nothing (no hub factor is applied).
 * Every factor (one per mode, engine/modes/), where it comes from and what was derived:
 * docs/emissions.md.
 */

import { haversineM } from "../common/geo.ts";
import { EngineError } from "./errors.ts";
import { MODE_PROFILES } from "./modes/index.ts";
import type { TransportMode } from "./modes/profile.ts";

export const EMISSIONS_METHOD = "ISO 14083 / GLEC default intensity factors";
/** Without cargo_tonnes, emissions are for one tonne of cargo. */
export const DEFAULT_CARGO_TONNES = 1;
export const MAX_CARGO_TONNES = 100_000;
/** cargo_tonnes: above 0, at most MAX_CARGO_TONNES (checkCargoTonnes; the API documents it from here). */
export const CARGO_TONNES = {
  exclusiveMinimum: 0,
  maximum: MAX_CARGO_TONNES,
  default: DEFAULT_CARGO_TONNES,
} as const;

/** GLEC / EN 16258 air rule: default factors apply to the great circle plus 95 km. */
export const AIR_GCD_ADD_KM = 95;

export interface Emissions {
  /** kg CO2e well-to-wheel. */
  co2e_kg: number;
  /** kg CO2e tank-to-wheel. */
  co2e_ttw_kg: number;
  cargo_tonnes: number;
  method: typeof EMISSIONS_METHOD;
}

/** A leg as the emissions see it: its mode, its metres and, for AIR, its two airports. */
export interface EmissionLeg {
  transport_mode: TransportMode;
  meters: number;
  from?: unknown;
  to?: unknown;
}

/** Whole grams per leg, so a chain's total is exactly the sum of its legs. */
interface Grams {
  wtw: number;
  ttw: number;
}

const latLng = (p: unknown): { lat: number; lng: number } | null => {
  const q = p as { lat?: unknown; lng?: unknown } | null;
  return q && typeof q.lat === "number" && typeof q.lng === "number" && Number.isFinite(q.lat + q.lng)
    ? { lat: q.lat, lng: q.lng }
    : null;
};

/**
 * Km the factor applies to: the leg's own km, except AIR (great circle between its airports plus
 * 95 km, the distance GLEC's air defaults are stated for); an AIR leg without coordinates keeps its km.
 */
export function emissionKm(leg: EmissionLeg): number {
  if (leg.transport_mode === "AIR") {
    const a = latLng(leg.from);
    const b = latLng(leg.to);
    if (a && b) return haversineM(a.lat, a.lng, b.lat, b.lng) / 1000 + AIR_GCD_ADD_KM;
  }
  return leg.meters / 1000;
}

function legGrams(leg: EmissionLeg, tonnes: number): Grams {
  const f = MODE_PROFILES[leg.transport_mode].intensity;
  const tkm = emissionKm(leg) * tonnes;
  return { wtw: Math.round(f.wtw * tkm), ttw: Math.round(f.ttw * tkm) };
}

function render(g: Grams, tonnes: number): Emissions {
  return { co2e_kg: g.wtw / 1000, co2e_ttw_kg: g.ttw / 1000, cargo_tonnes: tonnes, method: EMISSIONS_METHOD };
}

/** Emissions of a chain's legs and their total (transfers add nothing). */
export function chainEmissions(
  legs: ReadonlyArray<EmissionLeg>,
  tonnes: number,
): { legs: Emissions[]; total: Emissions } {
  const grams = legs.map((l) => legGrams(l, tonnes));
  const sum = (pick: (g: Grams) => number) => grams.reduce((s, g) => s + pick(g), 0);
  return {
    legs: grams.map((g) => render(g, tonnes)),
    total: render({ wtw: sum((g) => g.wtw), ttw: sum((g) => g.ttw) }, tonnes),
  };
}

/** One leg's emissions (the sea-only route, which is not a chain). */
export const legEmissions = (leg: EmissionLeg, tonnes: number): Emissions =>
  render(legGrams(leg, tonnes), tonnes);

/**
 * The cargo mass for a request: undefined is the default 1 t; a number or a numeric string must be
 * more than 0 and at most 100000 t, else EngineError invalid_request.
 */
export function checkCargoTonnes(value: unknown): number {
  if (value === undefined) return DEFAULT_CARGO_TONNES;
  const t = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  const { exclusiveMinimum: above, maximum } = CARGO_TONNES;
  if (typeof t !== "number" || !Number.isFinite(t) || t <= above || t > maximum) {
    throw new EngineError(
      "invalid_request",
      `cargo_tonnes must be a number greater than ${above} and at most ${maximum}, got ${JSON.stringify(value)}.`,
    );
  }
  return t;
}
