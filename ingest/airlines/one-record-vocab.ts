/**
 * The IRIs the ONE Record client reads and the sandbox airline writes: one list, so the two halves
 * cannot drift. Namespaces as published by IATA (../shared/reference/one-record/), plus the two
 * properties ONE Record has no place for on a LogisticsEvent (docs/air-cargo.md, "ONE Record and the
 * sandbox airline").
 */

export const CARGO = "https://onerecord.iata.org/ns/cargo#";
export const API = "https://onerecord.iata.org/ns/api#";
export const STATUS_CODE = "https://onerecord.iata.org/ns/code-lists/StatusCode#";
export const XSD = "http://www.w3.org/2001/XMLSchema#";
export const UNIT = "https://onerecord.iata.org/ns/code-lists/MeasurementUnitCode#";
/**
 * Flight and piece count of a status event: XFSU carries both, the 2024-12 LogisticsEvent does not
 * (they live on TransportMovement and Piece objects that an event does not link). A URN, not a web
 * address: nothing is published there.
 */
export const PORTOLAN = "urn:portolan:one-record:";

/** Prefixes a document may use without declaring them (a remote @context is never fetched). */
export const DEFAULT_PREFIXES: Readonly<Record<string, string>> = {
  cargo: CARGO,
  api: API,
  xsd: XSD,
};

export const cargo = (local: string) => `${CARGO}${local}`;
export const api = (local: string) => `${API}${local}`;

export const EVENT_TIME_TYPES = ["ACTUAL", "ESTIMATED", "EXPECTED", "PLANNED", "REQUESTED"] as const;
export type EventTimeType = (typeof EVENT_TIME_TYPES)[number];

/** A StatusCode list element: three letters, or DIS_ and four (DIS_OFLD). */
export const STATUS_CODE_PATTERN = /^[A-Z]{3}(_[A-Z]{4})?$/;

/** Media type of every ONE Record body (the API also names a version parameter; any is accepted). */
export const LD_JSON = "application/ld+json";
