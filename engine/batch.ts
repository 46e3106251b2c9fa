/**
 * Batch sea distances or door-to-door chains: reads pairs (CSV or NDJSON), plans each on all cores
 * (a RoutePool, one router per worker thread), writes NDJSON results in input order, progress on
 * stderr.
 *
 *   bun engine/batch.ts [pairs.csv|pairs.ndjson|-] [--out results.ndjson] [--workers N]
 *     [--speed 14] [--mode short|safe] [--avoid suez,panama] [--path] [--alternatives]
 *     [--multimodal [--modes SEA,ROAD,...] [--optimize cost|time|distance|emissions]
 *      [--date YYYY-MM-DD] [--cargo-tonnes 1] [--no-handling]]
 *     [--build-dir data/build]
 *
 * Input: CSV with a header naming `from` and `to` (anything the location resolver takes: lat,lng
 * quoted, UN/LOCODE, IATA, country, free text) or `from_lat,from_lng,to_lat,to_lng`, plus an
 * optional `id`; or NDJSON objects {from, to, id?}. With --multimodal a row may also set its own
 * modes, optimize, pol, pod, date, cargo_tonnes (CSV columns or NDJSON fields of those names, as
 * the query parameters). Output line: {row, id?, ok: true, data} with the sea route response data
 * (or the GET /v1/distance/multimodal response data), or {row, id?, ok: false, error: {code,
 * message}}. Sea rows travel to the workers in chunks, each distinct place resolved once, and
 * come back as finished lines (engine/batch/, docs/sea-routing.md "Batch").
 */

import { createWriteStream, existsSync, readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { buildDirFrom } from "../common/build-dir.ts";
import { parseCsv } from "../data-build/locations/csv.ts";
import { SeaChunker } from "./batch/chunker.ts";
import { checkCargoTonnes } from "./emissions.ts";
import { EngineError } from "./errors.ts";
import { coordinatesPoint, LocationIndex, type ResolvedPoint } from "./locations/index.ts";
import { checkModes, checkOptimize, type MultimodalRequest } from "./multimodal/options.ts";
import { parseRiverDate } from "./river/seasonal.ts";
import { roadConfig } from "./road/config.ts";
import { checkMode, checkSpeed, parseAvoid } from "./sea/policy.ts";
import { Overloaded, RoutePool } from "./sea/pool.ts";
import type { SeaRouteRequest } from "./sea/router.ts";
import { pooledModes } from "./services.ts";

/** Fewer rows than this per worker do not pay for loading another router. */
const ROWS_PER_WORKER = 64;
const COORDS = /^\s*([+-]?\d+(?:\.\d+)?)\s*,\s*([+-]?\d+(?:\.\d+)?)\s*$/;
/** Rows per sea job at most: a job's messages (~0.3 ms) stay small beside its routing, the tail short. */
const MAX_CHUNK_ROWS = 512;

/** Sea rows per job: about 8 jobs per worker on a small file, so the workers share it evenly. */
const chunkRows = (rows: number, workers: number): number =>
  Math.max(1, Math.min(MAX_CHUNK_ROWS, Math.ceil(rows / (workers * 8))));

/** Per-row options of a multimodal batch, as the query parameters spell them. */
export const ROW_OPTIONS = ["modes", "optimize", "pol", "pod", "date", "cargo_tonnes"] as const;
export type RowOptions = Partial<Record<(typeof ROW_OPTIONS)[number], string>>;

export interface BatchRow {
  row: number;
  id?: string;
  from: string;
  to: string;
  /** Multimodal options the row sets (CSV columns or NDJSON fields of those names). */
  options?: RowOptions;
}

const optionsOf = (get: (name: string) => unknown): RowOptions | undefined => {
  const out: RowOptions = {};
  for (const name of ROW_OPTIONS) {
    const v = get(name);
    if (v !== undefined && v !== null && String(v) !== "") out[name] = String(v);
  }
  return Object.keys(out).length ? out : undefined;
};

export function parsePairs(text: string): BatchRow[] {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== "");
  if (lines.length === 0) return [];
  if (lines[0]!.trimStart().startsWith("{")) {
    return lines.map((l, row) => {
      const o = JSON.parse(l) as Record<string, unknown>;
      const options = optionsOf((name) => o[name]);
      return {
        row,
        from: String(o.from ?? ""),
        to: String(o.to ?? ""),
        ...(o.id === undefined ? {} : { id: String(o.id) }),
        ...(options ? { options } : {}),
      };
    });
  }
  // The one CSV reader (RFC 4180: quotes, doubled quotes, CRLF); blank lines skipped.
  const [header, ...records] = parseCsv(text)
    .map((r) => r.map((cell) => cell.trim()))
    .filter((r) => r.some((cell) => cell !== ""));
  const head = header!.map((h) => h.toLowerCase());
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
  return records.map((c, row) => {
    const options = optionsOf((name) => (col(name) >= 0 ? c[col(name)] : undefined));
    return {
      row,
      from: byCoords ? `${c[fLat!]},${c[fLng!]}` : (c[f!] ?? ""),
      to: byCoords ? `${c[tLat!]},${c[tLng!]}` : (c[t!] ?? ""),
      ...(id! >= 0 ? { id: c[id!] ?? "" } : {}),
      ...(options ? { options } : {}),
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
      multimodal: { type: "boolean", default: false },
      modes: { type: "string" },
      optimize: { type: "string" },
      date: { type: "string" },
      "cargo-tonnes": { type: "string" },
      "no-handling": { type: "boolean", default: false },
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
  // Sea chunks: two jobs per worker, so it starts its next chunk while this thread takes in the
  // last one. Chains (async in the worker): one each, a second waiting in the queue.
  const perWorker = values.multimodal ? 1 : 2;
  // No wait bound: the run waits for its own jobs, no client's connection is at stake.
  const starting = RoutePool.start({
    buildDir,
    workers,
    queue: workers,
    perWorker,
    waitMs: Number.POSITIVE_INFINITY,
  });
  // This thread reads locations.idx while the workers load their routers; a pool that fails to
  // start still reports first.
  let resolver: ((buildId: string | null) => Resolver) | undefined;
  let indexError: unknown;
  try {
    resolver = locationResolver(buildDir);
  } catch (err) {
    indexError = err;
  }
  const pool = await starting;
  try {
    if (!resolver) throw indexError;
    const { resolvePoint, seaPort } = resolver(pool.buildId);
    const chains = values.multimodal ? await pooledModes(pool, buildDir, roadConfig(process.env)) : null;
    const defaults: RowOptions = {
      modes: values.modes,
      optimize: values.optimize,
      date: values.date,
      cargo_tonnes: values["cargo-tonnes"],
    };
    // The same checks a request gets, before the first row: a bad flag stops the run.
    multimodalOptions(defaults, seaPort);
    const out = values.out ? createWriteStream(values.out) : process.stdout;
    // A chain is milliseconds of work: one row per job. A sea route is far less: a chunk of rows
    // per job, so messages, resolution and writes are paid per chunk, not per route.
    const size = chains ? 1 : chunkRows(rows.length, workers);
    const units = Math.ceil(rows.length / size);
    const chunker = chains ? null : new SeaChunker(resolvePoint, request);
    const planChain = async (r: BatchRow): Promise<string> => {
      const head = { row: r.row, ...(r.id === undefined ? {} : { id: r.id }) };
      try {
        const from = resolvePoint(r.from);
        const to = resolvePoint(r.to);
        const options = multimodalOptions({ ...defaults, ...r.options }, seaPort);
        const { considered: _, ...data } = await chains!.multimodal({
          ...options,
          speedKnots: request.speedKnots,
          routingMode: request.routingMode,
          avoid: request.avoid,
          path: request.path,
          handling: !values["no-handling"],
          from,
          to,
        });
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
    const plan = async (u: number): Promise<string | Uint8Array> => {
      const start = u * size;
      if (chunker) return pool.planSeaChunk(chunker.chunk(rows, start, Math.min(rows.length, start + size)));
      return `${await planChain(rows[start]!)}\n`;
    };
    const results = new Array<string | Uint8Array | undefined>(units);
    let next = 0;
    let written = 0;
    let done = 0;
    const started = performance.now();
    let lastDraw = 0;
    await Promise.all(
      Array.from({ length: workers * 2 }, async () => {
        while (next < units) {
          const u = next++;
          results[u] = await plan(u);
          done += Math.min(rows.length, (u + 1) * size) - u * size;
          while (written < units && results[written] !== undefined) {
            out.write(results[written]!);
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

/** A multimodal row's options, checked as the API checks its query parameters. */
function multimodalOptions(
  o: RowOptions,
  seaPort: (code: string, name: "pol" | "pod") => ResolvedPoint,
): Omit<MultimodalRequest<ResolvedPoint>, "from" | "to"> {
  const modes = o.modes?.split(",").map((m) => m.trim().toUpperCase());
  return {
    modes: modes ? [...checkModes(modes)] : undefined,
    optimize: checkOptimize(o.optimize),
    pol: o.pol ? seaPort(o.pol, "pol") : null,
    pod: o.pod ? seaPort(o.pod, "pod") : null,
    date: o.date === undefined ? undefined : parseRiverDate(o.date),
    cargoTonnes: o.cargo_tonnes === undefined ? undefined : checkCargoTonnes(o.cargo_tonnes),
  };
}

type Resolver = {
  resolvePoint(input: string): ResolvedPoint;
  /** pol / pod: a port by UN/LOCODE (the planner checks it is on the sea lanes). */
  seaPort(code: string, name: "pol" | "pod"): ResolvedPoint;
};

/**
 * Resolution on this thread with locations.idx; without it only lat,lng inputs resolve. Loads the
 * index now; the resolver it returns first checks the index against sea.graph's build.
 */
function locationResolver(buildDir: string): (buildId: string | null) => Resolver {
  const indexPath = join(buildDir, "locations.idx");
  if (!existsSync(indexPath)) {
    const resolvePoint = (input: string) => {
      const m = COORDS.exec(input);
      if (!m)
        throw new EngineError(
          "location_not_found",
          `"${input}": locations.idx missing, only lat,lng inputs resolve`,
        );
      return coordinatesPoint(Number(m[1]), Number(m[2]));
    };
    return () => ({
      resolvePoint,
      seaPort: (code, name) => {
        throw new EngineError("invalid_request", `${name} ${code}: locations.idx missing, no port resolves`);
      },
    });
  }
  const index = LocationIndex.fromBytes(new Uint8Array(readFileSync(indexPath)), indexPath);
  return (buildId) => {
    if (index.buildId !== buildId) {
      throw new Error(
        `${indexPath} (build ${index.buildId}) and sea.graph (build ${buildId}) come from different builds`,
      );
    }
    return {
      resolvePoint: (input) => index.resolve(input),
      seaPort: (code, name) => {
        const port = index.port(code);
        if (port?.kind !== "port")
          throw new EngineError(
            "invalid_request",
            `${name} must be the UN/LOCODE of a sea port, got "${code}"`,
          );
        return port;
      },
    };
  };
}

if (import.meta.main) {
  main().catch((err: unknown) => {
    process.stderr.write(`\nbatch failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
