/**
 * A carrier rate sheet as the rates product stores it, and the checks every imported field goes
 * through, whatever the file format (engine/rates/file.ts reads CSV and JSON into Sources). A
 * failed check throws RateFileError naming the CSV line or JSON path. Pure: no storage, no HTTP.
 * docs/rates.md, "File format".
 */

import { createHash } from "node:crypto";
import { isCalendarDate } from "../../common/calendar-date.ts";

export const RATE_MODES = ["OCEAN_FCL", "OCEAN_LCL", "AIR", "ROAD", "RAIL"] as const;
export type RateMode = (typeof RATE_MODES)[number];

export const CONTAINER_TYPES = ["20GP", "40GP", "40HC", "45HC", "20RF", "40RH"] as const;
export type ContainerType = (typeof CONTAINER_TYPES)[number];

/** IATA weight breaks after the minimum: label and the lowest chargeable weight it applies to. */
export const AIR_BREAKS = [
  { label: "-45", fromKg: 0 },
  { label: "+45", fromKg: 45 },
  { label: "+100", fromKg: 100 },
  { label: "+300", fromKg: 300 },
  { label: "+500", fromKg: 500 },
  { label: "+1000", fromKg: 1000 },
] as const;

/** How a line's base freight is charged: by the mode, and for road and rail by the sheet's choice. */
export type LineBasis = "per_container" | "per_wm" | "weight_break" | "per_km" | "per_lane";
const IMPLIED_BASIS: Partial<Record<RateMode, LineBasis>> = {
  OCEAN_FCL: "per_container",
  OCEAN_LCL: "per_wm",
  AIR: "weight_break",
};

export const SURCHARGE_BASES = ["per_container", "per_shipment", "per_kg", "per_wm", "percent"] as const;
export type SurchargeBasis = (typeof SURCHARGE_BASES)[number];
/** The modes each surcharge basis has a quantity in (per_container: containers, trucks or wagons). */
const SURCHARGE_MODES: Record<SurchargeBasis, readonly RateMode[]> = {
  per_container: ["OCEAN_FCL", "ROAD", "RAIL"],
  per_shipment: RATE_MODES,
  per_kg: ["AIR", "OCEAN_LCL"],
  per_wm: ["OCEAN_LCL"],
  percent: RATE_MODES,
};

export interface RateSheetHeader {
  name: string;
  carrier: string;
  mode: RateMode;
  currency: string;
  /** YYYY-MM-DD, inclusive. */
  validFrom: string;
  /** YYYY-MM-DD, inclusive. */
  validTo: string;
}

export interface RateLine {
  origin: string;
  destination: string;
  equipment: string | null;
  basis: LineBasis;
  /** Per container, per w/m, per km or per lane; null for air (breaks). */
  rate: number | null;
  /** LCL and road/rail per_km: the least base charge; air: the minimum charge. */
  minimum: number | null;
  /** Air: rate per kg by break label. */
  breaks: Record<string, number> | null;
  transitDays: number | null;
  /** Road/rail per_km: the sheet's own distance (else the distance engine's). */
  distanceKm: number | null;
}

export interface RateSurcharge {
  code: string;
  basis: SurchargeBasis;
  amount: number;
  equipment: string | null;
  origin: string | null;
  destination: string | null;
  validFrom: string | null;
  validTo: string | null;
}

export interface RateSheet extends RateSheetHeader {
  lines: RateLine[];
  surcharges: RateSurcharge[];
}

/** A bad file: `where` is "line 7" (CSV) or "$.lines[3]" (JSON); the message starts with it. */
export class RateFileError extends Error {
  override name = "RateFileError";
  constructor(
    readonly where: string,
    detail: string,
  ) {
    super(`${where}: ${detail}`);
  }
}

/**
 * One record of a file (the sheet, a line or a surcharge) as read: CSV cells are text and empty
 * cells are absent; JSON values keep their type and null is absent.
 */
export interface Source {
  value(field: string): unknown;
  /** Where the field is, for messages ("line 7, column rate", "$.lines[3].rate"). */
  at(field?: string): string;
  /** Fields holding a value. */
  present(): string[];
  /** true for CSV: numbers are read from text. */
  text: boolean;
}

/** Reads fields of one Source and refuses any it did not use (a misspelt or misplaced field). */
class Reader {
  private readonly used = new Set<string>();
  constructor(
    readonly src: Source,
    private readonly what: string,
  ) {}

  fail(field: string | undefined, detail: string): never {
    throw new RateFileError(this.src.at(field), detail);
  }

  private raw(field: string): unknown {
    this.used.add(field);
    const v = this.src.value(field);
    return v === undefined || v === null ? undefined : v;
  }

  string(field: string, required: true, max?: number): string;
  string(field: string, required: boolean, max?: number): string | null;
  string(field: string, required: boolean, max = 100): string | null {
    const v = this.raw(field);
    if (v === undefined) return required ? this.fail(field, `${field} is required`) : null;
    if (typeof v !== "string") this.fail(field, `${field} must be a string`);
    const s = v.trim();
    if (s === "") return required ? this.fail(field, `${field} is required`) : null;
    if (s.length > max) this.fail(field, `${field} is longer than ${max} characters`);
    return s;
  }

  number(field: string, opts: { required: boolean; positive?: boolean; max?: number }): number | null {
    const v = this.raw(field);
    if (v === undefined || (this.src.text && typeof v === "string" && v.trim() === "")) {
      return opts.required ? this.fail(field, `${field} is required`) : null;
    }
    let n: number;
    if (this.src.text && typeof v === "string") {
      const s = v.trim();
      if (!/^\d+(\.\d+)?$/.test(s))
        this.fail(field, `${field} must be a number (like 1250 or 4.75), got "${s}"`);
      n = Number(s);
    } else if (typeof v === "number") n = v;
    else return this.fail(field, `${field} must be a number`);
    const max = opts.max ?? 1e9;
    if (!Number.isFinite(n) || n < 0 || n > max)
      this.fail(field, `${field} must be from 0 to ${max}, got ${n}`);
    if (opts.positive && n === 0) this.fail(field, `${field} must be more than 0`);
    return n;
  }

  date(field: string, required: boolean): string | null {
    const s = this.string(field, required, 10);
    if (s === null) return null;
    if (!isCalendarDate(s)) this.fail(field, `${field} must be a date YYYY-MM-DD, got "${s}"`);
    return s;
  }

  /** Every field with a value was read: anything else is a mistake, not something to ignore. */
  done(ignore: readonly string[] = []): void {
    for (const f of this.src.present()) {
      if (!this.used.has(f) && !ignore.includes(f) && !f.startsWith("_")) {
        this.fail(f, `${f} does not belong to ${this.what}`);
      }
    }
  }
}

const LOCODE = /^[A-Z]{2}[A-Z2-9]{3}$/;
const IATA = /^[A-Z]{3}$/;
const COUNTRY = /^[A-Z]{2}$/;

/** A place code of a line or surcharge: UN/LOCODE, IATA (air only) or ISO country; spaces dropped. */
function place(r: Reader, field: string, mode: RateMode, required: boolean): string | null {
  const s = r.string(field, required, 10);
  if (s === null) return null;
  const code = s.replace(/\s/g, "").toUpperCase();
  if (LOCODE.test(code) || COUNTRY.test(code) || (mode === "AIR" && IATA.test(code))) return code;
  const forms = mode === "AIR" ? "an IATA airport code, a UN/LOCODE or" : "a UN/LOCODE or";
  return r.fail(field, `${field} must be ${forms} an ISO country code, got "${s}"`);
}

function equipment(r: Reader, mode: RateMode, required: boolean): string | null {
  const s = r.string("equipment", required, 20);
  if (s === null) return null;
  if (mode === "OCEAN_FCL") {
    const up = s.toUpperCase();
    if (!(CONTAINER_TYPES as readonly string[]).includes(up)) {
      r.fail("equipment", `equipment must be one of ${CONTAINER_TYPES.join(", ")}, got "${s}"`);
    }
    return up;
  }
  if (mode === "ROAD" || mode === "RAIL") return s;
  return r.fail("equipment", `equipment does not apply to ${mode} sheets`);
}

export function readHeader(src: Source, ignore: readonly string[] = []): RateSheetHeader {
  const r = new Reader(src, "the sheet");
  const name = r.string("name", true, 100);
  const carrier = r.string("carrier", true, 64);
  const modeRaw = r.string("mode", true, 20).toUpperCase();
  if (!(RATE_MODES as readonly string[]).includes(modeRaw)) {
    r.fail("mode", `mode must be one of ${RATE_MODES.join(", ")}, got "${modeRaw}"`);
  }
  const currency = r.string("currency", true, 3).toUpperCase();
  if (!/^[A-Z]{3}$/.test(currency)) r.fail("currency", `currency must be an ISO 4217 code like USD`);
  const validFrom = r.date("valid_from", true)!;
  const validTo = r.date("valid_to", true)!;
  if (validTo < validFrom) r.fail("valid_to", `valid_to ${validTo} is before valid_from ${validFrom}`);
  r.done(ignore);
  return { name, carrier, mode: modeRaw as RateMode, currency, validFrom, validTo };
}

/** The weight-break rates of an air line: at least one break. */
function breaks(r: Reader): Record<string, number> {
  const out: Record<string, number> = {};
  for (const b of AIR_BREAKS) {
    const v = r.number(b.label, { required: false, positive: true });
    if (v !== null) out[b.label] = v;
  }
  if (Object.keys(out).length === 0) {
    r.fail(
      undefined,
      `an AIR line needs at least one weight-break rate (${AIR_BREAKS.map((b) => b.label).join(", ")})`,
    );
  }
  return out;
}

export function readLine(mode: RateMode, src: Source, ignore: readonly string[] = []): RateLine {
  const r = new Reader(src, `${mode} lines`);
  const origin = place(r, "origin", mode, true)!;
  const destination = place(r, "destination", mode, true)!;
  const implied = IMPLIED_BASIS[mode];
  const basisRaw = r.string("basis", implied === undefined, 20);
  let basis: LineBasis;
  if (implied) {
    if (basisRaw !== null && basisRaw !== implied)
      r.fail("basis", `the basis of a ${mode} line is ${implied}, got "${basisRaw}"`);
    basis = implied;
  } else {
    if (basisRaw !== "per_km" && basisRaw !== "per_lane") {
      return r.fail("basis", `the basis of a ${mode} line is per_km or per_lane, got "${basisRaw}"`);
    }
    basis = basisRaw;
  }
  const line: RateLine = {
    origin,
    destination,
    equipment: equipment(r, mode, mode === "OCEAN_FCL"),
    basis,
    rate: null,
    minimum: null,
    breaks: null,
    transitDays: r.number("transit_days", { required: false, max: 365 }),
    distanceKm: null,
  };
  if (basis === "weight_break") {
    line.minimum = r.number("min", { required: false });
    line.breaks = breaks(r);
  } else {
    line.rate = r.number("rate", { required: true, positive: true });
    if (basis === "per_wm" || basis === "per_km") line.minimum = r.number("min", { required: false });
    if (basis === "per_km")
      line.distanceKm = r.number("distance_km", { required: false, positive: true, max: 50_000 });
  }
  r.done(ignore);
  return line;
}

export function readSurcharge(mode: RateMode, src: Source, ignore: readonly string[] = []): RateSurcharge {
  const r = new Reader(src, `${mode} surcharges`);
  const code = r.string("code", true, 16).toUpperCase();
  if (!/^[A-Z][A-Z0-9_]{1,15}$/.test(code)) {
    r.fail("code", `code must be 2 to 16 letters, digits or _ (BAF, THC_O, FUEL), got "${code}"`);
  }
  const basis = r.string("basis", true, 20) as SurchargeBasis;
  if (!(SURCHARGE_BASES as readonly string[]).includes(basis)) {
    r.fail("basis", `basis must be one of ${SURCHARGE_BASES.join(", ")}, got "${basis}"`);
  }
  if (!SURCHARGE_MODES[basis].includes(mode)) {
    r.fail("basis", `a ${basis} surcharge does not apply to ${mode} sheets`);
  }
  const amount = r.number("amount", { required: true, max: basis === "percent" ? 1000 : 1e9 })!;
  const s: RateSurcharge = {
    code,
    basis,
    amount,
    equipment: mode === "OCEAN_FCL" || mode === "ROAD" || mode === "RAIL" ? equipment(r, mode, false) : null,
    origin: place(r, "origin", mode, false),
    destination: place(r, "destination", mode, false),
    validFrom: r.date("valid_from", false),
    validTo: r.date("valid_to", false),
  };
  if (s.validFrom && s.validTo && s.validTo < s.validFrom) {
    r.fail("valid_to", `valid_to ${s.validTo} is before valid_from ${s.validFrom}`);
  }
  r.done(ignore);
  return s;
}

/** The key a lane is known by within a sheet (and across its re-imports). */
export const laneKey = (l: Pick<RateLine, "origin" | "destination" | "equipment">): string =>
  `${l.origin}>${l.destination}${l.equipment === null ? "" : ` ${l.equipment}`}`;

/** A sheet from its header and records; a lane listed twice is refused at its second place. */
export function assembleSheet(
  header: RateSheetHeader,
  lines: ReadonlyArray<{ line: RateLine; at: string }>,
  surcharges: ReadonlyArray<{ surcharge: RateSurcharge; at: string }>,
): RateSheet {
  if (lines.length === 0) throw new RateFileError("sheet", "the file has no rate lines");
  const seen = new Map<string, string>();
  for (const { line, at } of lines) {
    const key = laneKey(line);
    const first = seen.get(key);
    if (first) throw new RateFileError(at, `lane ${key} is already priced at ${first}`);
    seen.set(key, at);
  }
  return { ...header, lines: lines.map((l) => l.line), surcharges: surcharges.map((s) => s.surcharge) };
}

/**
 * sha256 of the sheet's content in a canonical form (lines and surcharges sorted, fixed key
 * order): the same rates read from CSV or JSON, in any row order, give the same digest.
 */
export function sheetDigest(sheet: RateSheet): string {
  const { lines, surcharges, ...header } = sheet;
  const text = canonical([
    header,
    lines.map((l) => canonical(l)).sort(),
    surcharges.map((x) => canonical(x)).sort(),
  ]);
  return `sha256:${createHash("sha256").update(text).digest("hex")}`;
}

/** JSON with every object's keys sorted, at any depth. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const o = value as Record<string, unknown>;
    return `{${Object.keys(o)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value);
}
