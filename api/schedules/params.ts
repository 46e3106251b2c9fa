/**
 * Query parameters of the schedules routes, checked once: UN/LOCODEs, carrier codes, IMO numbers,
 * service codes and UTC date windows. Anything malformed is the product's validation error, so no
 * handler sees a value it cannot use.
 */
import { calendarDayMs } from "../../common/calendar-date.ts";
import { ApiError } from "../shared/errors.ts";
import type { Range } from "../shared/openapi/parameters.ts";

const DAY_MS = 86_400_000;

/** UN/LOCODE: country + three letters or digits 2-9 (as DCSA's UNLocationCode pattern). */
const UNLOCODE = /^[A-Z]{2}[A-Z2-9]{3}$/;
/** SCAC-like carrier codes (DCSA carrierCode: 2 to 4 letters; the spec's carrier_code bound is 10). */
const CARRIER = /^[A-Z]{2,10}$/;
/** DCSA carrierServiceCode: at most 11 characters. */
const SERVICE = /^[A-Za-z0-9_-]{1,11}$/;
const IMO = /^\d{7}$/;

export function unlocode(name: string, raw: string | undefined): string {
  const v = raw?.trim().toUpperCase();
  if (!v) throw new ApiError("validation", `${name} is required: a UN/LOCODE such as NLRTM.`);
  if (!UNLOCODE.test(v))
    throw new ApiError("validation", `${name} must be a UN/LOCODE such as NLRTM; got "${raw}".`);
  return v;
}

export function optionalUnlocode(name: string, raw: string | undefined): string | undefined {
  return raw === undefined ? undefined : unlocode(name, raw);
}

/** carrier=MAEU or carrier=MAEU,ONEY: upper-cased, de-duplicated; undefined means every carrier. */
export function carriers(raw: string | undefined): string[] | undefined {
  if (raw === undefined) return undefined;
  const list = [...new Set(raw.split(",").map((s) => s.trim().toUpperCase()))];
  if (list.length > 20 || list.some((c) => !CARRIER.test(c))) {
    throw new ApiError(
      "validation",
      `carrier takes up to 20 comma-separated carrier codes (SCAC, 2 to 10 letters); got "${raw}".`,
    );
  }
  return list;
}

export function imo(raw: string): string {
  if (!IMO.test(raw)) throw new ApiError("validation", `imo must be a 7-digit IMO number; got "${raw}".`);
  return raw;
}

export function serviceCode(raw: string, name = "service code"): string {
  if (!SERVICE.test(raw)) {
    throw new ApiError("validation", `${name} must be 1 to 11 letters, digits, - or _; got "${raw}".`);
  }
  return raw;
}

/** One carrier code (SCAC-like), upper-cased. */
export function carrier(name: string, raw: string): string {
  const v = raw.trim().toUpperCase();
  if (!CARRIER.test(v)) {
    throw new ApiError("validation", `${name} must be a carrier code (SCAC, 2 to 10 letters); got "${raw}".`);
  }
  return v;
}

/** The bounds of an integer query parameter and its value when absent; the route's schema takes them too. */
export type IntRange = Required<Pick<Range, "minimum" | "maximum" | "default">>;

/** A small integer query parameter within its range, its default when absent. */
export function intParam(name: string, raw: string | undefined, range: IntRange): number {
  if (raw === undefined) return range.default;
  const n = Number(raw);
  const { minimum, maximum } = range;
  if (raw.trim() === "" || !Number.isInteger(n) || n < minimum || n > maximum) {
    throw new ApiError(
      "validation",
      `${name} must be an integer from ${minimum} to ${maximum}; got "${raw}".`,
    );
  }
  return n;
}

export function oneOf<T extends string>(
  name: string,
  raw: string | undefined,
  values: readonly T[],
  fallback: T,
): T {
  if (raw === undefined) return fallback;
  if (!(values as readonly string[]).includes(raw)) {
    throw new ApiError("validation", `${name} must be one of ${values.join(", ")}; got "${raw}".`);
  }
  return raw as T;
}

function dateMs(name: string, raw: string): number {
  const ms = calendarDayMs(raw);
  if (ms === null)
    throw new ApiError("validation", `${name} must be a calendar date YYYY-MM-DD; got "${raw}".`);
  return ms;
}

/** A window of whole UTC days: [fromMs, toMs) where toMs is the midnight after the `to` date. */
export interface Window {
  from: string;
  to: string;
  fromMs: number;
  toMs: number;
}

/**
 * from / to (UTC dates, both inclusive): `from` defaults to the clock's day, `to` to from +
 * defaultDays - 1; at most maxDays days; to before from is refused.
 */
export function dateWindow(
  q: { from?: string; to?: string },
  now: number,
  defaultDays: number,
  maxDays: number,
): Window {
  const fromMs = q.from === undefined ? Math.floor(now / DAY_MS) * DAY_MS : dateMs("from", q.from);
  const toMs = (q.to === undefined ? fromMs + (defaultDays - 1) * DAY_MS : dateMs("to", q.to)) + DAY_MS;
  if (toMs <= fromMs) throw new ApiError("validation", "to must not be before from.");
  if (toMs - fromMs > maxDays * DAY_MS) {
    throw new ApiError("validation", `from to to spans at most ${maxDays} days.`);
  }
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  return { from: day(fromMs), to: day(toMs - DAY_MS), fromMs, toMs };
}
