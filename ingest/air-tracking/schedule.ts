/**
 * When tracked air waybills are polled: a cadence per status (flights are hours, not weeks, so
 * much tighter than the ocean's), nothing after delivery. Failures back off and claims lapse as
 * ocean records' do (ingest/tracking/schedule.ts).
 */
import type { AwbStatus } from "./status.ts";

export { backoff, CLAIM_MS } from "../tracking/schedule.ts";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** Polling interval per status (ms); null: not polled any more. */
export const AIR_CADENCE: Record<AwbStatus, number | null> = {
  unknown: 6 * HOUR,
  booked: 2 * HOUR,
  received: HOUR,
  in_transit: 30 * MINUTE,
  arrived: HOUR,
  available: 2 * HOUR,
  delivered: null,
};

/**
 * An add's claim on its new waybill: due for a poll this long after the add started, so a poller
 * takes over an add whose process died (far above one airline call of at most its timeout).
 */
export const AIR_ADD_LEASE_MS = 2 * MINUTE;
