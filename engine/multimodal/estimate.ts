/**
 * Cheap figures for ranking candidate chains before any of them is routed in full (spec, chain
 * rule 1: "pairs are ranked by sea distance plus inland legs"): sea and barge metres come from
 * one-to-many searches, inland legs from the great circle with the road model's circuity. Only
 * the order matters; the chains shown are routed in full.
 */
import { MODE_PROFILES } from "../modes/index.ts";
import type { TransportMode } from "../modes/profile.ts";
import { RAIL, RAIL_SPEED_KMH } from "../modes/rail.ts";
import { ROAD_DEFAULTS } from "../road/config.ts";
import { TRUCK_TIME_FACTOR, truckTimeFromCarSeconds } from "../road/truck.ts";
import type { Optimize } from "./options.ts";

/** Km per great-circle km, for an inland leg not yet routed (road and rail alike). */
export const INLAND_CIRCUITY = ROAD_DEFAULTS.circuity;

export interface Figures {
  km: number;
  hours: number;
  /** km-equivalents (spec cost weights). */
  cost: number;
  /** g CO2e well-to-wheel per tonne. */
  co2e: number;
}

export const NO_FIGURES: Figures = { km: 0, hours: 0, cost: 0, co2e: 0 };

export function legFigures(mode: TransportMode, km: number, hours: number): Figures {
  const { intensity, costWeight } = MODE_PROFILES[mode];
  return { km, hours, cost: km * costWeight, co2e: km * intensity.wtw };
}

export const addFigures = (...all: Figures[]): Figures =>
  all.reduce((a, b) => ({
    km: a.km + b.km,
    hours: a.hours + b.hours,
    cost: a.cost + b.cost,
    co2e: a.co2e + b.co2e,
  }));

/** A road leg over `gcKm` of great circle: the road model's circuity and truck speed, rests included. */
export function roadEstimate(gcKm: number): Figures {
  const km = gcKm * INLAND_CIRCUITY;
  const carSeconds = (km / (ROAD_DEFAULTS.truckSpeedKmh * TRUCK_TIME_FACTOR)) * 3600;
  return legFigures("ROAD", km, truckTimeFromCarSeconds(carSeconds).hours);
}

/** A rail pre-carriage over `gcKm`: rail at 30 km/h and two rail terminals' handling. */
export function railEstimate(gcKm: number, handling: boolean): Figures {
  const km = gcKm * INLAND_CIRCUITY;
  return legFigures("RAIL", km, km / RAIL_SPEED_KMH + (handling ? 2 * RAIL.handlingHours : 0));
}

/** A sea leg of `metres` at the request's speed. */
export const seaEstimate = (metres: number, speedKnots: number): Figures =>
  legFigures("SEA", metres / 1000, metres / 1852 / speedKnots);

/** The ranking figure under optimize. */
export function score(f: Figures, optimize: Optimize): number {
  switch (optimize) {
    case "cost":
      return f.cost;
    case "time":
      return f.hours;
    case "distance":
      return f.km;
    case "emissions":
      return f.co2e;
  }
}
