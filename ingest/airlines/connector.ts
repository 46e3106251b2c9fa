/**
 * What an airline tells about one air waybill, and how it is asked: the contract between the
 * airline connectors (ONE Record: ingest/airlines/one-record.ts) and air-waybill tracking
 * (ingest/air-tracking/). The one owner of the normalised air event model.
 */

/** One status update about a waybill, normalised from an IATA ONE Record LogisticsEvent. */
export interface AwbEvent {
  /** The event's identifier at the airline (the last path segment of its ONE Record @id). */
  id: string;
  /** ONE Record StatusCode (code list suffix): BKD, RCS, MAN, DEP, ARR, RCF, NFD, AWD, DLV, DIS_OFLD, ... */
  code: string;
  /** ACTUAL, PLANNED or ESTIMATED (ONE Record eventTimeType). */
  timeType: "ACTUAL" | "PLANNED" | "ESTIMATED";
  /** When it happened (or is planned to), ISO 8601 in UTC as published. */
  at: string;
  /** IATA code of the airport where it happened, or null when the airline does not say. */
  airport: string | null;
  /** Flight designator (e.g. "LH8160") for flight-bound events (BKD, MAN, DEP, ARR, RCF), else null. */
  flight: string | null;
  /** The flight's arrival airport (IATA) for BKD, MAN and DEP, else null. */
  toAirport: string | null;
  /** Pieces this event covers, or null when not stated. */
  pieces: number | null;
  /** True when the event covers part of the shipment only (ONE Record partialEventIndicator). */
  partial: boolean;
}

/** A waybill as the airline knows it: its route ends, total pieces and weight, and its events. */
export interface AwbSnapshot {
  /** 11 digits, no dash: prefix (3) + serial (8). */
  awb: string;
  origin: string | null;
  destination: string | null;
  pieces: number | null;
  weightKg: number | null;
  events: AwbEvent[];
}

export type AirlineErrorKind =
  /** The airline does not know this waybill. */
  | "not_found"
  /** The airline answered, but not with a body this client can read (a typed refusal, nothing applied). */
  | "malformed"
  /** Network failure, timeout or a 5xx: try again later. */
  | "unavailable";

export class AirlineError extends Error {
  override readonly name = "AirlineError";
  constructor(
    readonly kind: AirlineErrorKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export interface AirlineConnector {
  /** The airline's IATA code (e.g. "LH"). */
  readonly iata: string;
  /** The waybill as the airline knows it now; throws AirlineError. */
  waybill(awb: string): Promise<AwbSnapshot>;
}
