/**
 * Air waybill numbers: a 3-digit airline prefix and an 8-digit serial whose last digit checks the
 * first seven (their value mod 7). Parsing, the check digit with a typo hint, and the prefix table
 * (../shared/data/air/awb-prefixes.csv) that names the airline behind a prefix.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { sourcesDirFrom } from "../../common/sources-dir.ts";
import { csvRecords } from "../../formats/csv.ts";

/** A well-formed AWB whose check digit holds. */
export interface ParsedAwb {
  ok: true;
  /** 11 digits, no separators: prefix + serial. */
  awb: string;
  prefix: string;
  serial: string;
}

/** What to suggest for a wrong check digit. */
export interface AwbHint {
  /** The check digit the first seven serial digits call for. */
  checkDigit: number;
  /** The number with that check digit (11 digits). */
  suggestion: string;
  /**
   * The one valid number two adjacent serial digits apart, when exactly one swap makes the number
   * valid; null when none or several do (a list of guesses helps nobody).
   */
  swapped: string | null;
}

export type AwbRefusal =
  | { ok: false; reason: "format"; message: string }
  | {
      ok: false;
      reason: "check_digit";
      message: string;
      awb: string;
      prefix: string;
      serial: string;
      hint: AwbHint;
    };

export type AwbParse = ParsedAwb | AwbRefusal;

/** Longer text is refused before any work: the longest sensible spelling is well under this. */
export const MAX_AWB_INPUT = 64;
/** Spaces and every dash a keyboard or a word processor produces (hyphen, en/em dash, minus). */
const SEPARATORS = /[\s\-\u2010-\u2015\u2212]/g;

const FORMAT_MESSAGE =
  "an air waybill number is 11 digits: a 3-digit airline prefix and an 8-digit serial (e.g. 020-12345675)";

/** The input without separators ("020 1234-5675" -> "02012345675"); no other change. */
export function normalizeAwbText(text: string): string {
  return text.trim().replace(SEPARATORS, "");
}

/** Check digit of the first seven serial digits. */
export function awbCheckDigit(first7: string): number {
  if (!/^\d{7}$/.test(first7)) throw new Error(`not seven digits: "${first7}"`);
  return Number(first7) % 7;
}

/** 020-12345675: the way waybills are printed. */
export function formatAwb(awb: string): string {
  return `${awb.slice(0, 3)}-${awb.slice(3)}`;
}

const checks = (serial: string) => awbCheckDigit(serial.slice(0, 7)) === Number(serial[7]);

/**
 * Swaps of two adjacent serial digits (the check digit included) that make the serial valid.
 * Single-digit substitutions are not offered: mod 7, every one of the seven checked positions has
 * one or two other digits that would pass, so there are always 7 to 14 candidates.
 */
function validSwaps(serial: string): string[] {
  const out = new Set<string>();
  for (let i = 0; i < 7; i++) {
    if (serial[i] === serial[i + 1]) continue;
    const s = `${serial.slice(0, i)}${serial[i + 1]}${serial[i]}${serial.slice(i + 2)}`;
    if (checks(s)) out.add(s);
  }
  return [...out];
}

/** Parses "020-12345675", "02012345675", "020 1234 5675" (spaces and dashes anywhere) and checks it. */
export function parseAwb(text: string): AwbParse {
  if (text.length > MAX_AWB_INPUT) return { ok: false, reason: "format", message: FORMAT_MESSAGE };
  const awb = normalizeAwbText(text);
  if (!/^\d{11}$/.test(awb)) return { ok: false, reason: "format", message: FORMAT_MESSAGE };
  const prefix = awb.slice(0, 3);
  const serial = awb.slice(3);
  if (checks(serial)) return { ok: true, awb, prefix, serial };
  const checkDigit = awbCheckDigit(serial.slice(0, 7));
  const suggestion = `${awb.slice(0, 10)}${checkDigit}`;
  const swaps = validSwaps(serial);
  const swapped = swaps.length === 1 ? `${prefix}${swaps[0]}` : null;
  const alternative = swapped ? ` (or ${formatAwb(swapped)}, two digits swapped)` : "";
  return {
    ok: false,
    reason: "check_digit",
    message: `check digit should be ${checkDigit}: did you mean ${formatAwb(suggestion)}${alternative}?`,
    awb,
    prefix,
    serial,
    hint: { checkDigit, suggestion, swapped },
  };
}

/** A full AWB from prefix + the first seven serial digits, with its check digit. */
export function withAwbCheckDigit(prefixAndFirst7: string): string {
  if (!/^\d{10}$/.test(prefixAndFirst7)) throw new Error(`not 10 digits: "${prefixAndFirst7}"`);
  return `${prefixAndFirst7}${awbCheckDigit(prefixAndFirst7.slice(3))}`;
}

export interface AwbAirline {
  prefix: string;
  iata: string;
  icao: string;
  name: string;
}

export const AWB_PREFIXES_FILE = "air/awb-prefixes.csv";

/** The airline behind each AWB prefix (columns awb_prefix, iata, icao, airline). */
const loaded = new Map<string, Promise<AwbPrefixes>>();

export class AwbPrefixes {
  private readonly byPrefix = new Map<string, AwbAirline>();

  private constructor(csv: string) {
    // Rows are checked at load: a bad table fails naming its line instead of answering odd airlines.
    csvRecords(csv).forEach((r, i) => {
      const line = i + 2;
      const a: AwbAirline = {
        prefix: (r.awb_prefix ?? "").trim(),
        iata: (r.iata ?? "").trim().toUpperCase(),
        icao: (r.icao ?? "").trim().toUpperCase(),
        name: (r.airline ?? "").trim(),
      };
      if (!/^\d{3}$/.test(a.prefix)) throw new Error(`${AWB_PREFIXES_FILE}:${line}: prefix "${a.prefix}"`);
      if (!/^[A-Z0-9]{2}$/.test(a.iata)) throw new Error(`${AWB_PREFIXES_FILE}:${line}: iata "${a.iata}"`);
      if (!/^[A-Z]{3}$/.test(a.icao)) throw new Error(`${AWB_PREFIXES_FILE}:${line}: icao "${a.icao}"`);
      if (!a.name) throw new Error(`${AWB_PREFIXES_FILE}:${line}: no airline name`);
      if (this.byPrefix.has(a.prefix))
        throw new Error(`${AWB_PREFIXES_FILE}:${line}: prefix ${a.prefix} listed twice`);
      this.byPrefix.set(a.prefix, a);
    });
  }

  static fromCsv(csv: string): AwbPrefixes {
    return new AwbPrefixes(csv);
  }

  /**
   * The table from a sources directory (config sourcesDir, PORTOLAN_SOURCES), read once per
   * directory: the quote, air tracking and the sandbox airline share it.
   */
  static load(dir: string = sourcesDirFrom()): Promise<AwbPrefixes> {
    let table = loaded.get(dir);
    if (!table) {
      table = readFile(join(dir, AWB_PREFIXES_FILE), "utf8").then((csv) => new AwbPrefixes(csv));
      // A failed read is not kept: the next start-up step tries again and reports it.
      table.catch(() => loaded.delete(dir));
      loaded.set(dir, table);
    }
    return table;
  }

  /** The airline holding a 3-digit prefix (the first three digits of an AWB), or null. */
  airline(prefix: string): AwbAirline | null {
    return this.byPrefix.get(prefix) ?? null;
  }

  /** Every airline in the table, in prefix order. */
  airlines(): AwbAirline[] {
    return [...this.byPrefix.values()].sort((a, b) => a.prefix.localeCompare(b.prefix));
  }
}
