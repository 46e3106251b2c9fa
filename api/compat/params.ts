/**
 * The vendor's query parameters: number (or container), type, sealine, route, ais, force_update.
 * Booleans read like the vendor's clients send them (1, true, yes; any case). route is on unless
 * sent with another value: route_data is the map whenever one can be drawn (spec).
 */
import { looksLikeContainer, validateContainerNumber } from "../../ingest/iso6346.ts";
import { type IdentifierType, normalizeIdentifier } from "../../ingest/tracking/registration.ts";
import type { Kind } from "./shapes.ts";

export interface CompatQuery {
  /** Trimmed and upper-cased, as metadata.number echoes it. */
  number: string;
  /** Declared with type=; null = auto-detect. */
  kind: Kind | null;
  /** SCAC hint; null = auto. */
  sealine: string | null;
  /** Legs and pin in route_data; absent or empty = on, route=false (0, no, ...) = off. */
  route: boolean;
  ais: boolean;
  force: boolean;
}

const truthy = (v: string | null) => v !== null && /^(1|true|yes)$/i.test(v.trim());

/** A parsed query, or the transport error message (HTTP 400) naming what is wrong. */
export function parseQuery(
  params: URLSearchParams,
): CompatQuery | "WRONG_PARAMETERS" | "WRONG_TYPE" | "WRONG_SEALINE" {
  const number = (params.get("number") || params.get("container") || "").trim().toUpperCase();
  if (number === "") return "WRONG_PARAMETERS";
  const type = (params.get("type") ?? "").trim().toUpperCase();
  if (type !== "" && type !== "CT" && type !== "BL" && type !== "BK") return "WRONG_TYPE";
  const sealine = (params.get("sealine") ?? "").trim().toUpperCase();
  // A SCAC as the ocean API takes carrier_code: 2 to 10 letters or digits.
  if (sealine !== "" && !/^[A-Z0-9]{2,10}$/.test(sealine)) return "WRONG_SEALINE";
  return {
    number,
    kind: type === "" ? null : (type as Kind),
    sealine: sealine === "" || sealine === "AUTO" ? null : sealine,
    route: (params.get("route") ?? "").trim() === "" || truthy(params.get("route")),
    ais: truthy(params.get("ais")),
    force: truthy(params.get("force_update")),
  };
}

export const IDENTIFIER_TYPE: Record<Kind, IdentifierType> = {
  CT: "container_id",
  BL: "bill_of_lading",
  BK: "booking",
};

/** B/L and booking numbers: letters and digits, as long as the ocean API allows an identifier. */
const DOCUMENT_NUMBER = /^[A-Z0-9]{4,50}$/;

/**
 * What the number is and how we store it, or why it is not a reference at all (WRONG_NUMBER, with
 * a human hint such as the corrected check digit). Undeclared: container-shaped is a container,
 * anything else a bill of lading.
 */
export function classify(
  number: string,
  declared: Kind | null,
): { type: IdentifierType; identifier: string } | { wrong: string } {
  const kind = declared ?? (looksLikeContainer(number) ? "CT" : "BL");
  const type = IDENTIFIER_TYPE[kind];
  const identifier = normalizeIdentifier(number, type);
  if (kind === "CT") {
    const check = validateContainerNumber(identifier);
    if (!check.ok) return { wrong: `${identifier}: ${check.message}` };
  } else if (!DOCUMENT_NUMBER.test(identifier)) {
    return { wrong: `${identifier}: a bill of lading or booking number is 4 to 50 letters and digits` };
  }
  return { type, identifier };
}
