/**
 * The spec's road-time rule (Limits, "Road time"): truck driving time is car time x 1.2, and an
 * 11-hour rest follows every 9 hours of driving (EU Regulation 561/2006 daily driving and rest).
 * No rest is added after the last stint: the truck has arrived.
 */
import { ROAD_GRAPH_SETTINGS, TRUCK_TIME_FACTOR } from "../../formats/road-graph.ts";

export { ROAD_GRAPH_SETTINGS, TRUCK_TIME_FACTOR };
export const MAX_DRIVING_HOURS = 9;
export const REST_HOURS = 11;

export interface TruckTime {
  /** Driving only (the section's driving_hours). */
  driving_hours: number;
  rest_hours: number;
  /** driving + rests. */
  hours: number;
}

/** Rests needed for a given amount of driving; exactly 9 h needs none, 9 h and a second needs one. */
export function restStops(drivingHours: number): number {
  if (!Number.isFinite(drivingHours) || drivingHours <= 0) return 0;
  // The tolerance keeps 7.5 h x 1.2 (8.999999... or 9.000...1 in binary) at zero rests.
  return Math.max(0, Math.ceil(drivingHours / MAX_DRIVING_HOURS - 1e-9) - 1);
}

/** Truck time from truck driving hours (a Valhalla truck-costing time, say). */
export function truckTimeFromDriving(drivingHours: number): TruckTime {
  const driving = Math.max(0, drivingHours);
  const rest = restStops(driving) * REST_HOURS;
  return { driving_hours: driving, rest_hours: rest, hours: driving + rest };
}

/** Truck time from car seconds (OSRM's car profile, or the estimate's car-equivalent time). */
export function truckTimeFromCarSeconds(carSeconds: number): TruckTime {
  return truckTimeFromDriving((Math.max(0, carSeconds) / 3600) * TRUCK_TIME_FACTOR);
}
