/**
 * National speed limits for heavy goods vehicles (truck-speed-limits.csv: motorway and other
 * roads per country, each row with its source), and the cap they put on a truck's average speed
 * over a lane: no lane is all motorway, so the cap is the time-weighted blend of a lane run at the
 * motorway limit for MOTORWAY_SHARE of its length and at the other-roads limit for the rest.
 */
import { csvRecords } from "../../formats/csv.ts";
import limitsCsv from "./truck-speed-limits.csv" with { type: "text" };

/**
 * Share of heavy-truck kilometres on motorways: 25.0 of the 30.9 billion km that trucks of 7.5 t
 * and more drove on German toll roads (motorways and federal highways) in the first three quarters
 * of 2019 (Bundesamt für Güterverkehr, Mautstatistik), rounded down to 0.8 because lanes also run
 * on roads without toll.
 */
export const MOTORWAY_SHARE = 0.8;

export interface TruckSpeedLimit {
  motorwayKmh: number;
  otherKmh: number;
}

export function parseTruckSpeedLimits(csv: string = limitsCsv): Map<string, TruckSpeedLimit> {
  const out = new Map<string, TruckSpeedLimit>();
  for (const r of csvRecords(csv)) {
    const limit = { motorwayKmh: Number(r.hgv_motorway_kmh), otherKmh: Number(r.hgv_other_kmh) };
    if (!/^[A-Z]{2}$/.test(r.country ?? "") || !(limit.motorwayKmh > 0) || !(limit.otherKmh > 0))
      throw new Error(`truck-speed-limits.csv: bad row for "${r.country}"`);
    out.set(r.country!, limit);
  }
  return out;
}

/** Highest average speed the limits allow over a lane: MOTORWAY_SHARE at one, the rest at the other. */
export function laneLimitKmh(limit: TruckSpeedLimit): number {
  return 1 / (MOTORWAY_SHARE / limit.motorwayKmh + (1 - MOTORWAY_SHARE) / limit.otherKmh);
}
