/** The vendor's "YYYY-MM-DD HH:MM:SS" dates: UTC for metadata, the port's wall clock for events. */
import type { DcsaEventLike } from "../../ingest/tracking/dcsa.ts";
import { localTime } from "../../ingest/tracking/local-time.ts";
import type { VendorDate } from "./shapes.ts";

export function utcDate(instant: number | string): VendorDate {
  const ms = typeof instant === "number" ? instant : Date.parse(instant);
  return new Date(ms).toISOString().slice(0, 19).replace("T", " ");
}

/**
 * Port-local wall clock, as the vendor shows event dates: from the port's zone when we know it,
 * else the carrier's own offset-qualified clock, else UTC (the vendor's date is never null).
 */
export function localDate(e: DcsaEventLike, zone: string | null): VendorDate {
  const ms = Date.parse(e.eventDateTime);
  const local = zone ? localTime(ms, zone) : null;
  if (local) return local.local.replace("T", " ");
  const wall = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})(?:\.\d+)?[+-]\d{2}:\d{2}$/.exec(e.eventDateTime);
  return wall ? `${wall[1]} ${wall[2]}` : utcDate(ms);
}
