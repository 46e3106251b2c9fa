/** When records are polled: cadences by voyage phase, back-off after carrier errors, recheck spacing. */
import type { Derived } from "./timeline.ts";

export type PollPriority = "pre_departure" | "transit" | "arrival" | "dwell";

/** A poller's claim on a record: if it dies mid-refresh, the record is due again after this. */
export const CLAIM_MS = 5 * 60_000;

/** Polling cadence per priority (ms); see docs/tracking.md. */
export const DEFAULT_CADENCE: Record<PollPriority, number> = {
  pre_departure: 12 * 3_600_000,
  transit: 6 * 3_600_000,
  arrival: 3_600_000,
  dwell: 3 * 3_600_000,
};
/** ETA closer than this moves a box from transit to arrival cadence. */
export const ARRIVAL_WINDOW_MS = 48 * 3_600_000;
/** A recheck sooner than this after the previous one answers 429 RATE_LIMITED. */
export const RECHECK_INTERVAL_MS = 10 * 60_000;
/** Back-off after carrier errors: 1 min doubling to 6 h. */
export const backoff = (failures: number) => Math.min(6 * 3_600_000, 60_000 * 2 ** Math.min(failures - 1, 9));

/** Cadence from the derived state: before departure, in transit, close to arrival, dwelling at destination. */
export function pollPriority(d: Derived, now: number): PollPriority {
  if (d.stage === "unknown" || (d.stage === "in_transit" && d.departedAt === null)) return "pre_departure";
  if (d.stage === "in_transit") {
    return d.eta !== null && Date.parse(d.eta) - now < ARRIVAL_WINDOW_MS ? "arrival" : "transit";
  }
  return "dwell";
}
