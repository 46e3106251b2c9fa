/**
 * GET /public/v1/awb-prefixes/{prefix_or_awb}: open (no key, limited per IP by the product app like
 * the ocean public lookup), answered from the prefix table alone. A whole AWB also gets its check
 * digit judged; a wrong one is still a 200 (the prefix resolved) with valid false and a hint.
 */
import { Elysia } from "elysia";
import {
  type AwbPrefixes,
  formatAwb,
  MAX_AWB_INPUT,
  normalizeAwbText,
  parseAwb,
} from "../../ingest/airlines/awb.ts";
import { ApiError } from "../shared/errors.ts";
import { neverAnswers, routeAnswers } from "../shared/openapi/responses.ts";
import { product } from "../shared/products.ts";
import { AwbPrefix } from "./schemas.ts";

const USAGE = "Send a 3-digit airline prefix (020) or an 11-digit air waybill number (020-12345675).";

export function awbPrefixRoutes(prefixes: AwbPrefixes) {
  // The table air tracking loaded at start (a broken one stops the start, not a request).
  return new Elysia().get(
    "/public/v1/awb-prefixes/:reference",
    ({ params }) => resolveAwbPrefix(prefixes, params.reference),
    {
      detail: {
        ...routeAnswers(product("air"), { 200: { description: "The airline", data: AwbPrefix } }),
        summary: "Airline behind an AWB prefix; check digit of a whole AWB (no key; limited per IP)",
        security: [],
        // The table is in memory: nothing behind the route can be away.
        ...neverAnswers(503),
      },
    },
  );
}

/** The route's data for one path segment (already percent-decoded by the router). */
export function resolveAwbPrefix(table: AwbPrefixes, raw: string) {
  const text = raw.length > MAX_AWB_INPUT ? "" : normalizeAwbText(raw);
  const parsed = /^\d{3}$/.test(text) ? null : parseAwb(raw);
  if (parsed && !parsed.ok && parsed.reason === "format") throw new ApiError("validation", USAGE);
  const prefix = parsed ? parsed.prefix : text;
  const airline = table.airline(prefix);
  if (!airline) throw new ApiError("notFound", `No airline in the prefix table holds AWB prefix ${prefix}.`);
  const base = { prefix, airline: { iata: airline.iata, icao: airline.icao, name: airline.name } };
  // A bare prefix: the AWB fields are there (null), so every answer has the same keys.
  if (!parsed) return { ...base, awb: null, valid: null, check_digit: null, hint: null, suggestions: [] };
  if (parsed.ok) {
    const checkDigit = Number(parsed.serial[7]);
    return { ...base, awb: parsed.awb, valid: true, check_digit: checkDigit, hint: null, suggestions: [] };
  }
  const { hint } = parsed;
  return {
    ...base,
    awb: parsed.awb,
    valid: false,
    check_digit: hint.checkDigit,
    hint: `${formatAwb(parsed.awb)} is not a valid air waybill number: ${parsed.message}`,
    suggestions: hint.swapped ? [hint.suggestion, hint.swapped] : [hint.suggestion],
  };
}
