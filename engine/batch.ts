/**
 * Batch sea distances: reads pairs (CSV or NDJSON), plans each on all cores (a RoutePool, one
 * router per worker thread), writes NDJSON results in input order, progress on stderr.
 *
 *   bun engine/batch.ts [pairs.csv|pairs.ndjson|-] [--out results.ndjson] [--workers N]
 *     [--speed 14] [--mode short|safe] [--avoid suez,panama] [--path] [--alternatives]
 *     [--build-dir data/build]
 *
 * Input: CSV with a header naming `from` and `to` (anything the location resolver takes: lat,lng
 * quoted, UN/LOCODE, IATA, country, free text) or `from_lat,from_lng,to_lat,to_lng`, plus an
 * optional `id`; or NDJSON objects {from, to, id?}. Output line: {row, id?, ok: true, data} with
 * the sea route response data, or {row, id?, ok: false, error: {code, message}}.
 */

import { createWriteStream, existsSync, readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { buildDirFrom } from "../common/build-dir.ts";
import { EngineError } from "./errors.ts";
import { coordinatesPoint, LocationIndex, type ResolvedPoint } from "./locations/index.ts";
import { checkMode, checkSpeed, parseAvoid } from "./sea/policy.ts";
import { Overloaded, RoutePool } from "./sea/pool.ts";
import type { SeaRouteRequest } from "./sea/router.ts";

/** Fewer rows than this per worker do not pay for loading another router. */
const ROWS_PER_WORKER = 64;
const COORDS = /^\s*([+-]?\d+(?:\.\d+)?)\s*,\s*([+-]?\d+(?:\.\d+)?)\s*$/;

export interface BatchRow {
  row: number;
  id?: string;
  from: string;
  to: string;
}

function splitCsv(line: string): string[] {
  const out: string[] = [];
  let cur = "";
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (ch === '"' && quoted && line[i + 1] === '"') {
      cur += '"';
      i++;
    } else if (ch === '"') quoted = !quoted;
    else if (ch === "," && !quoted) {
      out.push(cur.trim());
      cur = "";
    } else cur += ch;
  }
  out.push(cur.trim());
  return out;
}

export function parsePairs(text: string): BatchRow[] {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== "");
  if (lines.length === 0) return [];
  if (lines[0]!.trimStart().startsWith("{")) {
    return lines.map((l, row) => {
      const o = JSON.parse(l) as { from?: unknown; to?: unknown; id?: unknown };
      return {
        row,
        from: String(o.from ?? ""),
        to: String(o.to ?? ""),
        ...(o.id === undefined ? {} : { id: String(o.id) }),
      };
    });
  }
  const head = splitCsv(lines[0]!).map((h) => h.toLowerCase());
  const col = (name: string) => head.indexOf(name);
  const [f, t, fLat, fLng, tLat, tLng, id] = [
    "from",
    "to",
    "from_lat",
    "from_lng",
    "to_lat",
    "to_lng",
    "id",
  ].map(col);
  const byCoords = f! < 0 && [fLat, fLng, tLat, tLng].every((i) => i! >= 0);
  if (!byCoords && (f! < 0 || t! < 0)) {
    throw new Error("CSV header must name from,to or from_lat,from_lng,to_lat,to_lng");
  }
  return lines.slice(1).map((l, row) => {
    const c = splitCsv(l);
    return {
      row,
      from: byCoords ? `${c[fLat!]},${c[fLng!]}` : (c[f!] ?? ""),
      to: byCoords ? `${c[tLat!]},${c[tLng!]}` : (c[t!] ?? ""),
      ...(id! >= 0 ? { id: c[id!] ?? "" } : {}),
    };
  });
}

function progress(done: number, total: number, started: number): void {
  const width = 30;
  const filled = total ? Math.round((done / total) * width) : width;
  const rate = done / Math.max(0.001, (performance.now() - started) / 1000);
  process.stderr.write(
    `\r[${"#".repeat(filled)}${".".repeat(width - filled)}] ${done}/${total} pairs, ${Math.round(rate)}/s`,
  );
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    args: Bun.argv.slice(2),
    allowPositionals: true,
    options: {
      out: { type: "string" },
      workers: { type: "string" },
      speed: { type: "string", default: "14" },
      mode: { type: "string", default: "short" },
      avoid: { type: "string", default: "" },
      path: { type: "boolean", default: false },
      alternatives: { type: "boolean", default: false },
      "build-dir": { type: "string" },
    },
  });
  const request: Omit<SeaRouteRequest, "from" | "to"> = {
    speedKnots: checkSpeed(Number(values.speed)),
    routingMode: checkMode(values.mode),
    avoid: parseAvoid(values.avoid.split(",")),
    path: values.path,
    alternatives: values.alternatives,
  };
  const input = positionals[0] ?? "-";
  const rows = parsePairs(input === "-" ? await Bun.stdin.text() : readFileSync(input, "utf8"));
  const buildDir = resolve(values["build-dir"] ?? buildDirFrom());
  const workers = Math.max(
    1,
    Math.min(Number(values.workers ?? availableParallelism()), Math.ceil(rows.length / ROWS_PER_WORKER)),
  );
  // A second request per worker waits in the queue, so no worker idles between rows.
  const pool = await RoutePool.start({ buildDir, workers, queue: workers });
  try {
    const resolvePoint = locationResolver(buildDir, pool.buildId);
    const out = values.out ? createWriteStream(values.out) : process.stdout;
    const results = new Array<string | undefined>(rows.length);
    let next = 0;
    let written = 0;
    let done = 0;
    const started = performance.now();
    let lastDraw = 0;
    const plan = async (r: BatchRow): Promise<string> => {
      const head = { row: r.row, ...(r.id === undefined ? {} : { id: r.id }) };
      try {
        const from = resolvePoint(r.from);
        const to = resolvePoint(r.to);
        const data = await pool.plan({ ...request, from, to });
        return JSON.stringify({ ...head, ok: true, data: { from, to, ...data } });
      } catch (err) {
        // A worker that died is a failed run, not a row's answer.
        if (!(err instanceof EngineError) || err instanceof Overloaded) throw err;
        return JSON.stringify({
          ...head,
          ok: false,
          error: { code: err.code, message: err.message },
        });
      }
    };
    await Promise.all(
      Array.from({ length: workers * 2 }, async () => {
        while (next < rows.length) {
          const row = rows[next++]!;
          results[row.row] = await plan(row);
          done++;
          while (written < rows.length && results[written] !== undefined) {
            out.write(`${results[written]}\n`);
            results[written++] = undefined;
          }
          if (done < rows.length && performance.now() - lastDraw > 100) {
            lastDraw = performance.now();
            progress(done, rows.length, started);
          }
        }
      }),
    );
    progress(done, rows.length, started);
    process.stderr.write("\n");
    if (out !== process.stdout)
      await new Promise((r) => (out as ReturnType<typeof createWriteStream>).end(r));
  } finally {
    await pool.close();
  }
}

/** Resolution on this thread with locations.idx; without it only lat,lng inputs resolve. */
function locationResolver(buildDir: string, buildId: string | null): (input: string) => ResolvedPoint {
  const indexPath = join(buildDir, "locations.idx");
  if (!existsSync(indexPath)) {
    return (input) => {
      const m = COORDS.exec(input);
      if (!m)
        throw new EngineError(
          "location_not_found",
          `"${input}": locations.idx missing, only lat,lng inputs resolve`,
        );
      return coordinatesPoint(Number(m[1]), Number(m[2]));
    };
  }
  const index = LocationIndex.fromBytes(new Uint8Array(readFileSync(indexPath)), indexPath);
  if (index.buildId !== buildId) {
    throw new Error(
      `${indexPath} (build ${index.buildId}) and sea.graph (build ${buildId}) come from different builds`,
    );
  }
  return (input) => index.resolve(input);
}

if (import.meta.main) {
  main().catch((err: unknown) => {
    process.stderr.write(`\nbatch failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
