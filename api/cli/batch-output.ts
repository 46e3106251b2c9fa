/**
 * What `portolan route batch` writes: NDJSON lines as the engine hands them, or CSV rows of the
 * figures a spreadsheet wants; and, for --resume, which rows an earlier run already wrote (its
 * complete lines: a line cut short by a killed run is dropped and planned again).
 */
import { closeSync, existsSync, ftruncateSync, openSync, readFileSync } from "node:fs";

export type BatchFormat = "ndjson" | "csv";

export const CSV_HEADER = "row,id,ok,label,km,nm,hours,co2e_kg,error_code,error_message";

interface Line {
  row: number;
  id?: string;
  ok: boolean;
  data?: {
    route: {
      label: string;
      distance?: { km: number; nm: number };
      transit?: { hours: number };
      summary?: { distance: { km: number; nm: number }; duration: { hours: number } };
      emissions?: { co2e_kg: number };
    };
  };
  error?: { code: string; message: string };
}

const cell = (v: unknown): string => {
  const text = v === undefined || v === null ? "" : String(v);
  return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};

/** One NDJSON result line as a CSV row (a sea route's or a chain's figures, or the row's error). */
export function csvRow(ndjson: string): string {
  const l = JSON.parse(ndjson) as Line;
  const r = l.data?.route;
  const distance = r?.summary?.distance ?? r?.distance;
  const hours = r?.summary?.duration.hours ?? r?.transit?.hours;
  const co2e =
    (r?.summary as { emissions?: { co2e_kg: number } } | undefined)?.emissions?.co2e_kg ??
    r?.emissions?.co2e_kg;
  return [
    l.row,
    l.id,
    l.ok,
    r?.label,
    distance?.km,
    distance?.nm,
    hours,
    co2e,
    l.error?.code,
    l.error?.message,
  ]
    .map(cell)
    .join(",");
}

/** NDJSON text (one line or many) in the output format. */
export function formatted(ndjson: string, format: BatchFormat): string {
  if (format === "ndjson") return ndjson;
  return ndjson
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => `${csvRow(l)}\n`)
    .join("");
}

/**
 * The rows an earlier run wrote to `path`, read from its complete lines; the file is cut back to
 * them. An absent or empty file has none.
 */
export function rowsWritten(path: string, format: BatchFormat): Set<number> {
  if (!existsSync(path)) return new Set();
  const text = readFileSync(path, "utf8");
  const complete = text.slice(0, text.lastIndexOf("\n") + 1);
  const fd = openSync(path, "r+");
  try {
    ftruncateSync(fd, Buffer.byteLength(complete));
  } finally {
    closeSync(fd);
  }
  const lines = complete.split("\n").filter((l) => l !== "" && l !== CSV_HEADER);
  const rowOf = (l: string) =>
    format === "ndjson" ? (JSON.parse(l) as { row: number }).row : Number(l.split(",")[0]);
  return new Set(lines.map(rowOf));
}
