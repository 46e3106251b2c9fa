/**
 * Tracking's own failures (ocean records and air waybills alike), with domain codes. No HTTP here:
 * each product maps a code to its envelope at its edge (api/shared/errors.ts fromTracking for the
 * ocean and air-cargo envelopes, api/compat/service.ts for the vendor's answers).
 */
import { CodedError } from "../../common/coded-error.ts";

export type TrackingErrorCode =
  /** The reference breaks its form (a check digit, a number the carrier rejects as malformed). */
  | "invalid_reference"
  /** No line is known for the reference, or the one asked does not know it. */
  | "reference_not_resolvable"
  /** The organisation has no such record (another organisation's id reads the same). */
  | "not_found"
  | "unique_quota_exceeded"
  | "container_quota_exceeded"
  | "payg_spend_cap_reached"
  | "already_tracked"
  /** Another request is adding the same reference now. */
  | "add_in_progress"
  | "recheck_too_soon"
  /** The carrier's connector is live already: there is nothing to be told about. */
  | "already_connected"
  /** The carrier did not answer a live lookup; extra.retry_after_seconds says when to ask again. */
  | "carrier_unavailable";

export class TrackingError extends CodedError<TrackingErrorCode> {
  override readonly name = "TrackingError";
}

/** The plan allowances a registration can hit: compat answers all three as a spent allowance. */
export const QUOTA_CODES: readonly TrackingErrorCode[] = [
  "unique_quota_exceeded",
  "container_quota_exceeded",
  "payg_spend_cap_reached",
];
