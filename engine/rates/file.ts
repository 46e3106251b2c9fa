/**
 * Rate sheet files: CSV (one row per record, a `kind` column saying sheet, line or surcharge) and
 * JSON (one sheet object). Both are read into Sources and checked by engine/rates/sheet.ts, so
 * the rules are the same; the first bad record stops the read with its CSV line or JSON path.
 * docs/rates.md, "File format".
 */
import { parseCsvRows } from "../../formats/csv.ts";
import {
  AIR_BREAKS,
  assembleSheet,
  RateFileError,
  type RateLine,
  type RateSheet,
  type RateSheetHeader,
  type RateSurcharge,
  readHeader,
  readLine,
  readSurcharge,
  type Source,
} from "./sheet.ts";

/** Every column a CSV file may have; a record uses those of its kind, the others stay empty. */
export const CSV_COLUMNS = [
  "kind",
  "name",
  "carrier",
  "mode",
  "currency",
  "valid_from",
  "valid_to",
  "origin",
  "destination",
  "equipment",
  "basis",
  "rate",
  "min",
  ...AIR_BREAKS.map((b) => b.label),
  "distance_km",
  "transit_days",
  "code",
  "amount",
] as const;

/** Reads a CSV or JSON sheet: by the file name's extension, else by its first character. */
export function readRateFile(fileName: string, text: string): RateSheet {
  const lower = fileName.toLowerCase();
  const json = lower.endsWith(".json") || (!lower.endsWith(".csv") && /^\s*[{[]/.test(text));
  return json ? readRateJson(text) : readRateCsv(text);
}

export function readRateCsv(text: string): RateSheet {
  const [head, ...rows] = parseCsvRows(text);
  if (!head) throw new RateFileError("line 1", "the file is empty: it needs a header row");
  const columns = head.fields.map((h) => h.trim().toLowerCase());
  columns.forEach((c, i) => {
    if (!(CSV_COLUMNS as readonly string[]).includes(c)) {
      throw new RateFileError(
        `line ${head.line}`,
        `unknown column "${head.fields[i]}" (columns: ${CSV_COLUMNS.join(", ")})`,
      );
    }
    if (columns.indexOf(c) !== i) throw new RateFileError(`line ${head.line}`, `column "${c}" appears twice`);
  });
  if (!columns.includes("kind"))
    throw new RateFileError(`line ${head.line}`, `the header needs a "kind" column`);
  const records = rows
    .filter((r) => r.fields.some((f) => f.trim() !== ""))
    .map((r): Source & { kind: string; line: number } => {
      if (r.fields.length > columns.length) {
        throw new RateFileError(
          `line ${r.line}`,
          `${r.fields.length} fields, the header names ${columns.length}`,
        );
      }
      const cell = (field: string) => {
        const i = columns.indexOf(field);
        const v = i < 0 ? undefined : r.fields[i]?.trim();
        return v === "" ? undefined : v;
      };
      return {
        kind: (cell("kind") ?? "").toLowerCase(),
        line: r.line,
        text: true,
        value: cell,
        at: (field) => (field ? `line ${r.line}, column ${field}` : `line ${r.line}`),
        present: () => columns.filter((c) => cell(c) !== undefined),
      };
    });
  const sheets = records.filter((r) => r.kind === "sheet");
  if (sheets.length === 0)
    throw new RateFileError("file", 'no row of kind "sheet" (name, carrier, mode, ...)');
  if (sheets.length > 1) throw new RateFileError(`line ${sheets[1]!.line}`, 'a second row of kind "sheet"');
  const header: RateSheetHeader = readHeader(sheets[0]!, ["kind"]);
  const lines: Array<{ line: RateLine; at: string }> = [];
  const surcharges: Array<{ surcharge: RateSurcharge; at: string }> = [];
  for (const r of records) {
    if (r.kind === "line") lines.push({ line: readLine(header.mode, r, ["kind"]), at: r.at() });
    else if (r.kind === "surcharge") {
      surcharges.push({ surcharge: readSurcharge(header.mode, r, ["kind"]), at: r.at() });
    } else if (r.kind !== "sheet") {
      throw new RateFileError(
        r.at("kind"),
        `kind must be sheet, line or surcharge, got "${r.value("kind") ?? ""}"`,
      );
    }
  }
  return assembleSheet(header, lines, surcharges);
}

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => v !== null && typeof v === "object" && !Array.isArray(v);

function jsonSource(obj: Json, path: string, skip: readonly string[] = []): Source {
  return {
    text: false,
    value: (field) => (skip.includes(field) ? undefined : obj[field]),
    at: (field) => (field ? `${path}${/^[a-z_]+$/.test(field) ? `.${field}` : `["${field}"]`}` : path),
    present: () =>
      Object.keys(obj).filter((k) => !skip.includes(k) && obj[k] !== null && obj[k] !== undefined),
  };
}

const BREAK_LABELS: readonly string[] = AIR_BREAKS.map((b) => b.label);

/** A JSON line: air rates sit in a "breaks" object ({"-45": 4.2, "+45": 3.6}), read as fields. */
function lineSource(obj: Json, path: string): Source {
  const stray = Object.keys(obj).find((k) => BREAK_LABELS.includes(k));
  if (stray)
    throw new RateFileError(`${path}["${stray}"]`, `weight-break rates go in "breaks": {"${stray}": ...}`);
  const nested = obj.breaks ?? {};
  if (!isObject(nested)) throw new RateFileError(`${path}.breaks`, "breaks must be an object");
  const own = jsonSource(obj, path, ["breaks"]);
  const inner = jsonSource(nested, `${path}.breaks`);
  const inBreaks = (f: string | undefined) => f !== undefined && Object.hasOwn(nested, f);
  return {
    text: false,
    value: (f) => (BREAK_LABELS.includes(f) ? inner.value(f) : own.value(f)),
    at: (f) => (inBreaks(f) ? inner.at(f) : own.at(f)),
    // A break label not in the list surfaces as an unknown field, with its path under breaks.
    present: () => [...own.present(), ...inner.present()],
  };
}

export function readRateJson(text: string): RateSheet {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new RateFileError("$", `not valid JSON (${(err as Error).message})`);
  }
  if (!isObject(doc)) throw new RateFileError("$", "the file must hold one sheet object");
  const header = readHeader(jsonSource(doc, "$", ["lines", "surcharges"]));
  const list = (key: "lines" | "surcharges", required: boolean): Json[] => {
    const v = doc[key];
    if (v === undefined || v === null) {
      if (required) throw new RateFileError(`$.${key}`, `${key} is required (an array)`);
      return [];
    }
    if (!Array.isArray(v)) throw new RateFileError(`$.${key}`, `${key} must be an array`);
    return v.map((item, i) => {
      if (!isObject(item)) throw new RateFileError(`$.${key}[${i}]`, "must be an object");
      return item;
    });
  };
  const lines = list("lines", true).map((o, i) => {
    const src = lineSource(o, `$.lines[${i}]`);
    return { line: readLine(header.mode, src), at: src.at() };
  });
  const surcharges = list("surcharges", false).map((o, i) => {
    const src = jsonSource(o, `$.surcharges[${i}]`);
    return { surcharge: readSurcharge(header.mode, src), at: src.at() };
  });
  return assembleSheet(header, lines, surcharges);
}
