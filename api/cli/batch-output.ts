/**
 * What `portolan route batch` writes: NDJSON lines as the engine hands them, CSV rows of the
 * figures a spreadsheet wants, or a GeoJSON FeatureCollection of one Feature per row (the route's
 * line, the CSV figures as properties); and, for --resume, which rows an earlier run already wrote
 * (its complete lines: a line cut short by a killed run is dropped and planned again). Every format
 * holds one row a line, so a run killed part-way resumes line by line.
 */
import { closeSync, existsSync, ftruncateSync, openSync, readFileSync } from "node:fs";
import type { PathPoint } from "../../common/geo.ts";
import { type Feature, lineGeometry } from "../../engine/geojson.ts";

export const BATCH_FORMATS = ["ndjson", "csv", "geojson"] as const;
export type BatchFormat = (typeof BATCH_FORMATS)[number];

const COLUMNS = ["row", "id", "ok", "label", "km", "nm", "hours", "co2e_kg", "error_code", "error_message"];
export const CSV_HEADER = COLUMNS.join(",");

/**
 * A GeoJSON output's first and last lines: each row's Feature sits on a line between them, every
 * one but the first led by the comma that separates it from the one before.
 */
const COLLECTION_HEAD = '{"type":"FeatureCollection","features":[';
const COLLECTION_TAIL = "]}";

interface Drawn {
  path?: readonly PathPoint[];
}

interface Line {
  row: number;
  id?: string;
  ok: boolean;
  data?: {
    route: Drawn & {
      label: string;
      distance?: { km: number; nm: number };
      transit?: { hours: number };
      summary?: {
        distance: { km: number; nm: number };
        duration: { hours: number };
        emissions?: { co2e_kg: number };
      };
      emissions?: { co2e_kg: number };
      sections?: Drawn[];
    };
  };
  error?: { code: string; message: string };
}

type Figure = string | number | boolean | null;

/** A result line's figures in CSV_HEADER's order: a sea route's or a chain's, or the row's error. */
function figures(l: Line): Figure[] {
  const r = l.data?.route;
  const distance = r?.summary?.distance ?? r?.distance;
  const hours = r?.summary?.duration.hours ?? r?.transit?.hours;
  const co2e = r?.summary?.emissions?.co2e_kg ?? r?.emissions?.co2e_kg;
  const shown = [l.row, l.id, l.ok, r?.label, distance?.km, distance?.nm, hours, co2e];
  return [...shown, l.error?.code, l.error?.message].map((v) => v ?? null);
}

const cell = (v: Figure): string => {
  const text = v === null ? "" : String(v);
  return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};

/** One NDJSON result line as a CSV row. */
export function csvRow(ndjson: string): string {
  return figures(JSON.parse(ndjson) as Line)
    .map(cell)
    .join(",");
}

/**
 * One NDJSON result line as a Feature: the route's path (a sea route's, or a chain's sections' one
 * after another) as a LineString, cut at the antimeridian into a MultiLineString as the API's
 * geometry is (engine/geojson.ts); null geometry for a row without a route, its error in the
 * properties.
 */
export function feature(ndjson: string): Feature {
  const l = JSON.parse(ndjson) as Line;
  const route = l.data?.route;
  const path = route?.sections ? route.sections.flatMap((s) => s.path ?? []) : (route?.path ?? []);
  const values = figures(l);
  return {
    type: "Feature",
    geometry: lineGeometry(path),
    properties: Object.fromEntries(COLUMNS.map((c, i) => [c, values[i]])),
  };
}

/**
 * A format's text around and for the rows. `before`: rows the output already holds (a resumed
 * run's), which decides whether the next Feature needs its comma.
 */
export function batchOutput(format: BatchFormat, before: number) {
  let rows = before;
  const line = (ndjson: string): string => {
    if (format === "csv") return `${csvRow(ndjson)}\n`;
    return `${rows++ > 0 ? "," : ""}${JSON.stringify(feature(ndjson))}\n`;
  };
  return {
    /** The line that opens the output, if the format has one. */
    head: format === "csv" ? CSV_HEADER : format === "geojson" ? COLLECTION_HEAD : null,
    /** The line that closes it. */
    tail: format === "geojson" ? COLLECTION_TAIL : null,
    /** NDJSON text (one line or many) in the format. */
    rows(ndjson: string): string {
      if (format === "ndjson") return ndjson;
      return ndjson
        .split("\n")
        .filter((l) => l !== "")
        .map(line)
        .join("");
    },
  };
}

/** The row a written line holds, or null for a head or tail line. */
function rowOf(line: string, format: BatchFormat): number | null {
  if (line === CSV_HEADER || line === COLLECTION_HEAD || line === COLLECTION_TAIL) return null;
  if (format === "csv") return Number(line.split(",")[0]);
  if (format === "ndjson") return (JSON.parse(line) as { row: number }).row;
  return (JSON.parse(line.replace(/^,/, "")) as { properties: { row: number } }).properties.row;
}

/**
 * The rows an earlier run wrote to `path`, read from its complete lines; the file is cut back to
 * them (and before a closing line, which the resumed run writes again). An absent or empty file
 * has none.
 */
export function rowsWritten(path: string, format: BatchFormat): Set<number> {
  if (!existsSync(path)) return new Set();
  const text = readFileSync(path, "utf8");
  let kept = text.slice(0, text.lastIndexOf("\n") + 1);
  if (kept.endsWith(`\n${COLLECTION_TAIL}\n`)) kept = kept.slice(0, -(COLLECTION_TAIL.length + 1));
  const fd = openSync(path, "r+");
  try {
    ftruncateSync(fd, Buffer.byteLength(kept));
  } finally {
    closeSync(fd);
  }
  const rows = kept
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => rowOf(l, format));
  return new Set(rows.filter((r) => r !== null));
}
