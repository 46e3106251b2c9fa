/**
 * Batch sea distances or door-to-door chains (the engine of `portolan route batch`, api/cli/
 * routes.ts): plans every pair on all cores (a RoutePool, one router per worker thread) and hands
 * back NDJSON lines in input order.
 *
 * Input: CSV with a header naming `from` and `to` (anything the location resolver takes: lat,lng
 * quoted, UN/LOCODE, IATA, country, free text) or `from_lat,from_lng,to_lat,to_lng`, plus an
 * optional `id`; or NDJSON objects {from, to, id?}. With --multimodal a row may also set its own
 * modes, optimize, pol, pod, date, cargo_tonnes (CSV columns or NDJSON fields of those names, as
 * the query parameters). Output line: {row, id?, ok: true, data} with the sea route response data
 * (or the GET /v1/distance/multimodal response data), or {row, id?, ok: false, error: {code,
 * message}}. Sea rows travel to the workers in chunks, each distinct place resolved once, and
 * come back as finished lines (engine/batch/, docs/sea-routing.md "Batch"), their ends planned and
 * shown by the distance engine's policy; chains are the distance engine's own answers
 * (engine/distance/engine.ts), as the API gives them.
 */

import { existsSync, readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { parseCsv } from "../formats/csv.ts";
import { SeaChunker } from "./batch/chunker.ts";
import type { RouteConfig } from "./config.ts";
import { DistanceEngine, type DistanceEngineConfig } from "./distance/engine.ts";
import { SEA_ENDS } from "./distance/places.ts";
import { type MultimodalQuery, parseMultimodalQuery } from "./distance/requests.ts";
import { EngineError } from "./errors.ts";
import { GEOCODER_TIMEOUT_MS } from "./locations/config.ts";
import { coordinatesPoint, LocationIndex, type ResolvedPoint } from "./locations/index.ts";
import { checkOptimize } from "./multimodal/options.ts";
import { roadConfig } from "./road/config.ts";
import { Overloaded, RoutePool } from "./sea/pool.ts";
import type { SeaRouteRequest } from "./sea/router.ts";

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

/** How a batch plans its rows: the sea request's options, or door-to-door chains with theirs. */
export interface BatchOptions {
  buildDir: string;
  /** Worker threads at most (default: every core); fewer for a small file. */
  workers?: number;
  sea: Omit<SeaRouteRequest, "from" | "to">;
  /** Door-to-door chains instead of sea routes: each row's options over these (query parameters). */
  multimodal: { defaults: Omit<MultimodalQuery, "from" | "to"> } | null;
}

/** Where a batch's output goes: NDJSON text in input order, and how far it got. */
export interface BatchSink {
  write(ndjson: string | Uint8Array): void;
  progress(done: number, total: number): void;
}

/**
 * Plans every row on a RoutePool and writes one NDJSON line per row, in input order. A bad
 * default option stops the run before the first row; a row's own failure is its line's error.
 */
export async function runBatch(rows: BatchRow[], o: BatchOptions, sink: BatchSink): Promise<void> {
  const workers = Math.max(
    1,
    Math.min(o.workers ?? availableParallelism(), Math.ceil(rows.length / ROWS_PER_WORKER)),
  );
  // Sea chunks: two jobs per worker, so it starts its next chunk while this thread takes in the
  // last one. Chains (async in the worker): one each, a second waiting in the queue.
  // No wait bound: the run waits for its own jobs, no client's connection is at stake.
  const routes = { workers, queue: workers, waitMs: Number.POSITIVE_INFINITY };
  const starting = RoutePool.start({ buildDir: o.buildDir, ...routes, perWorker: o.multimodal ? 1 : 2 });
  // This thread reads locations.idx while the workers load their routers; a pool that fails to
  // start still reports first.
  let resolver: ((buildId: string | null) => Resolver) | undefined;
  let indexError: unknown;
  try {
    resolver = o.multimodal ? undefined : locationResolver(o.buildDir);
  } catch (err) {
    indexError = err;
  }
  const pool = await starting;
  try {
    if (indexError) throw indexError;
    const plan = o.multimodal
      ? chainPlanner(
          rows,
          o.multimodal.defaults,
          new DistanceEngine(engineConfig(o.buildDir, routes), { routes: pool }),
        )
      : seaPlanner(rows, o.sea, pool, resolver!(pool.buildId), workers);
    await inOrder(plan, workers * 2, sink, rows.length);
  } finally {
    await pool.close();
  }
}

/** The distance engine's settings for a batch's chains: the road engine as the server's; no cache. */
const engineConfig = (buildDir: string, routes: RouteConfig): DistanceEngineConfig => ({
  buildDir,
  routes,
  road: roadConfig(process.env),
  // Rows resolve offline: a file of millions of places is not sent to a public geocoder.
  geocoder: { kind: "offline", baseUrl: null, timeoutMs: GEOCODER_TIMEOUT_MS },
  routeCacheEntries: 0,
});

/** A unit of work (a chunk of sea rows, or one chain) and the rows it covers. */
interface Planner {
  units: number;
  rowsOf(unit: number): number;
  plan(unit: number): Promise<string | Uint8Array>;
}

/**
 * A sea route is far less than a chain: a chunk of rows per job, so messages, resolution and
 * writes are paid per chunk, not per route.
 */
function seaPlanner(
  rows: BatchRow[],
  request: BatchOptions["sea"],
  pool: RoutePool,
  resolver: Resolver,
  workers: number,
): Planner {
  const size = chunkRows(rows.length, workers);
  const chunker = new SeaChunker(resolver, request, SEA_ENDS);
  return {
    units: Math.ceil(rows.length / size),
    rowsOf: (u) => Math.min(rows.length, (u + 1) * size) - u * size,
    plan: (u) => pool.planSeaChunk(chunker.chunk(rows, u * size, Math.min(rows.length, (u + 1) * size))),
  };
}

/** One chain per row, the defaults checked first as a request's are: a bad one stops the run. */
function chainPlanner(
  rows: BatchRow[],
  defaults: Omit<MultimodalQuery, "from" | "to">,
  engine: DistanceEngine,
): Planner {
  parseMultimodalQuery({ ...defaults, from: "", to: "" });
  checkOptimize(defaults.optimize);
  const planChain = async (r: BatchRow): Promise<string> => {
    const head = JSON.stringify({ row: r.row, ...(r.id === undefined ? {} : { id: r.id }) }).slice(0, -1);
    try {
      const query = { ...defaults, ...r.options, from: r.from, to: r.to };
      return `${head},"ok":true,"data":${await engine.multimodal(parseMultimodalQuery(query))}}`;
    } catch (err) {
      // A worker that died is a failed run, not a row's answer.
      if (!(err instanceof EngineError) || err instanceof Overloaded) throw err;
      return `${head},"ok":false,"error":${JSON.stringify({ code: err.code, message: err.message })}}`;
    }
  };
  return { units: rows.length, rowsOf: () => 1, plan: async (u) => `${await planChain(rows[u]!)}\n` };
}

/** Plans units `lanes` at a time and writes each as soon as every unit before it is written. */
async function inOrder(p: Planner, lanes: number, sink: BatchSink, total: number): Promise<void> {
  const results = new Array<string | Uint8Array | undefined>(p.units);
  let next = 0;
  let written = 0;
  let done = 0;
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      while (next < p.units) {
        const u = next++;
        results[u] = await p.plan(u);
        done += p.rowsOf(u);
        while (written < p.units && results[written] !== undefined) {
          sink.write(results[written]!);
          results[written++] = undefined;
        }
        sink.progress(done, total);
      }
    }),
  );
}

/** A sea row's end by its text. */
type Resolver = (input: string) => ResolvedPoint;

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
    return () => resolvePoint;
  }
  const index = LocationIndex.fromBytes(new Uint8Array(readFileSync(indexPath)), indexPath);
  return (buildId) => {
    if (index.buildId !== buildId) {
      throw new Error(
        `${indexPath} (build ${index.buildId}) and sea.graph (build ${buildId}) come from different builds`,
      );
    }
    return (input) => index.resolve(input);
  };
}
