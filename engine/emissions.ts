/**
 * Transport emissions per ISO 14083 with default intensity factors (GLEC Framework): kg CO2e
 * well-to-wheel (WTW) and tank-to-wheel (TTW) for a stated cargo mass, leg by leg. A leg emits
 * factor (g CO2e per tonne-km) x km x tonnes; transfers emit nothing (no hub factor is applied).
 * Every factor, where it comes from and what was derived: docs/emissions.md.
 */

import { haversineM } from "../common/geo.ts";
import type { TransportMode } from "./chain.ts";
import { EngineError } from "./errors.ts";

export const EMISSIONS_METHOD = "ISO 14083 / GLEC default intensity factors";
/** Without cargo_tonnes, emissions are for one tonne of cargo. */
export const DEFAULT_CARGO_TONNES = 1;
export const MAX_CARGO_TONNES = 100_000;

/** Fuel WTW/TTW ratios read off GLEC v3.0 rows, to derive a factor's missing half (docs/emissions.md). */
const WTW_PER_TTW = {
  /** Table 14, Ferry-RoPax >20000 GT, VLSFO: WTW 0.098 / TTW 0.0835 kg per tonne-km. */
  vlsfo: 0.098 / 0.0835,
  /** Table 8, articulated truck <34 t, average/mixed, diesel: WTW 116 / TTW 89 g per tonne-km. */
  diesel: 116 / 89,
  /** Table 1, air freight >1500 km and <1500 km, aircraft unknown: WTT/TTW 0.2647 and 0.2642. */
  jet: 1.2644,
};

export interface IntensityFactor {
  /** What the default stands for (vehicle class, load, region). */
  basis: string;
  /** g CO2e per tonne-km. */
  wtw: number;
  ttw: number;
  source: string;
}

/** Default intensity per mode, g CO2e per tonne-km. */
export const INTENSITY: Record<TransportMode, IntensityFactor> = {
  SEA: {
    basis: "deep-sea container ship, industry average, dry container, 10 t cargo per TEU",
    wtw: 7.6,
    ttw: Math.round((7.6 / WTW_PER_TTW.vlsfo) * 100) / 100,
    source: "GLEC Framework (2019, July 2022 ed.) Module 2 Table 46: 76 g/TEU-km; TTW derived",
  },
  RIVER: {
    basis: "inland container vessel 110 m, diesel, primarily European operating data",
    // The table gives WTT 6.8 and TTW 22.5: WTW is their sum.
    wtw: 6.8 + 22.5,
    ttw: 22.5,
    source: "GLEC Framework v3.2 (2025) Module 2 Table 2 (inland waterways), container vessel 110 m",
  },
  RAIL: {
    basis: "European freight train, diesel traction, average/mixed load",
    wtw: 28,
    ttw: Math.round((28 / WTW_PER_TTW.diesel) * 100) / 100,
    source: "GLEC Framework (2019, July 2022 ed.) Module 2 Table 38; TTW derived",
  },
  ROAD: {
    basis: "articulated truck <34 t GVW, average/mixed load, diesel, Europe",
    wtw: 116,
    ttw: 89,
    source: "GLEC Framework v3.0 (2023) Module 2 Table 8",
  },
  AIR: {
    basis: "air freight >1500 km, freighter, IATA RP1678",
    wtw: Math.round(498 * WTW_PER_TTW.jet),
    ttw: 498,
    source: "GLEC Framework v3.0 (2023) Module 2 Table 1; WTW derived",
  },
};

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
  const f = INTENSITY[leg.transport_mode];
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
  if (typeof t !== "number" || !Number.isFinite(t) || t <= 0 || t > MAX_CARGO_TONNES) {
    throw new EngineError(
      "invalid_request",
      `cargo_tonnes must be a number greater than 0 and at most ${MAX_CARGO_TONNES}, got ${JSON.stringify(value)}.`,
    );
  }
  return t;
}
