/**
 * `portolan route` (one route: api/cli/distance.ts) and `portolan route batch`: sea distances or
 * door-to-door chains for a file of pairs, on every core (engine/batch.ts). Input CSV or NDJSON (a
 * file, or - for stdin); output NDJSON, CSV or GeoJSON in input order (api/cli/batch-output.ts),
 * to --out or stdout; a progress bar on stderr when it is a terminal and a closing count always;
 * --resume plans only the rows --out does not hold yet, and appends them.
 */
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { type Command, Option } from "commander";
import { buildDirFrom } from "../../common/build-dir.ts";
import { type BatchRow, parsePairs, runBatch } from "../../engine/batch.ts";
import type { MultimodalQuery } from "../../engine/distance/requests.ts";
import { EngineError } from "../../engine/errors.ts";
import { checkMode, checkSpeed, parseAvoid } from "../../engine/sea/policy.ts";
import { BATCH_FORMATS, type BatchFormat, batchOutput, rowsWritten } from "./batch-output.ts";
import { type Cli, CommandFailed, UsageError } from "./context.ts";
import { distanceQuestion } from "./distance.ts";

interface BatchFlags {
  out?: string;
  format: BatchFormat;
  resume?: boolean;
  workers?: string;
  speed: string;
  routingMode: string;
  avoid: string;
  path?: boolean;
  alternatives?: boolean;
  multimodal?: boolean;
  modes?: string;
  optimize?: string;
  date?: string;
  cargoTonnes?: string;
  handling: boolean;
  buildDir?: string;
}

/** The engine's options from the flags, checked as a request's query is: a bad one stops the run. */
function batchOptions(o: BatchFlags) {
  const workers = o.workers === undefined ? undefined : Number(o.workers);
  if (workers !== undefined && !(Number.isInteger(workers) && workers > 0))
    throw new UsageError(`--workers takes a positive whole number, got "${o.workers}"`);
  // A chain's options as query parameters: the sea flags apply to its sea legs.
  // GeoJSON draws each route: its line is the route's path.
  const path = o.path || o.format === "geojson";
  const defaults: Omit<MultimodalQuery, "from" | "to"> = {
    modes: o.modes,
    optimize: o.optimize,
    date: o.date,
    cargo_tonnes: o.cargoTonnes,
    speed_knots: o.speed,
    routing_mode: o.routingMode,
    avoid: o.avoid,
    path: path ? "true" : undefined,
    handling: o.handling ? undefined : "false",
  };
  try {
    return {
      buildDir: resolve(o.buildDir ?? buildDirFrom()),
      workers,
      sea: {
        speedKnots: checkSpeed(Number(o.speed)),
        routingMode: checkMode(o.routingMode),
        avoid: parseAvoid(o.avoid.split(",")),
        path,
        alternatives: o.alternatives ?? false,
      },
      multimodal: o.multimodal ? { defaults } : null,
    };
  } catch (err) {
    throw err instanceof EngineError ? new UsageError(err.message) : err;
  }
}

function readRows(input: string): BatchRow[] {
  try {
    return parsePairs(input === "-" ? readFileSync(0, "utf8") : readFileSync(input, "utf8"));
  } catch (err) {
    throw new UsageError(`${input}: ${(err as Error).message}`);
  }
}

/**
 * Writes to --out (appending after `done` rows when resuming) or stdout, in the chosen format:
 * the format's opening line on a fresh output, the rows, its closing line at the end.
 */
function writer(o: BatchFlags, done: number) {
  const output = batchOutput(o.format, done);
  const path = o.out;
  const put = (text: string) => (path ? appendFileSync(path, text) : process.stdout.write(text));
  if (path && done === 0) writeFileSync(path, "");
  if (done === 0 && output.head !== null) put(`${output.head}\n`);
  return {
    rows: (ndjson: string) => put(output.rows(ndjson)),
    close: () => output.tail !== null && put(`${output.tail}\n`),
  };
}

/** A bar redrawn at most every 100 ms on a terminal; the count line at the end always. */
function progressBar(started: number) {
  let drawn = 0;
  const line = (done: number, total: number) => {
    const width = 30;
    const filled = total ? Math.round((done / total) * width) : width;
    const rate = done / Math.max(0.001, (performance.now() - started) / 1000);
    return `[${"#".repeat(filled)}${".".repeat(width - filled)}] ${done}/${total} pairs, ${Math.round(rate)}/s`;
  };
  return {
    progress(done: number, total: number) {
      if (!process.stderr.isTTY || performance.now() - drawn < 100) return;
      drawn = performance.now();
      process.stderr.write(`\r${line(done, total)}`);
    },
    end: (done: number, total: number) =>
      process.stderr.write(`${process.stderr.isTTY ? "\r" : ""}${line(done, total)}\n`),
  };
}

async function batch(input: string, o: BatchFlags): Promise<void> {
  if (o.resume && !o.out) throw new UsageError("--resume needs --out: the file whose rows are kept");
  const options = batchOptions(o);
  const all = readRows(input);
  const done = o.resume && o.out ? rowsWritten(o.out, o.format) : new Set<number>();
  const rows = all.filter((r) => !done.has(r.row));
  const write = writer(o, done.size);
  const bar = progressBar(performance.now());
  const decoder = new TextDecoder();
  try {
    await runBatch(rows, options, {
      write: (ndjson) => write.rows(typeof ndjson === "string" ? ndjson : decoder.decode(ndjson)),
      progress: bar.progress,
    });
  } catch (err) {
    throw new CommandFailed(`batch failed: ${(err as Error).message}`, { cause: err });
  }
  write.close();
  bar.end(rows.length, rows.length);
}

export function routeCommands(program: Command, cli: Cli): void {
  const route = program
    .command("route")
    .description(
      "one route, as GET /v1/distance/route: each flag is its query parameter; `route batch` for a file of them",
    );
  distanceQuestion(route, cli, "route");
  route
    .command("batch")
    .description(
      "sea routes (or door-to-door chains with --multimodal) for every pair of a CSV or NDJSON file",
    )
    .argument(
      "[input]",
      "pairs: CSV naming from,to (or from_lat,from_lng,to_lat,to_lng) and id, or NDJSON; - for stdin",
      "-",
    )
    .option("--out <file>", "where the results go (default stdout)")
    .addOption(
      new Option(
        "--format <format>",
        "output format: ndjson (the API's data a line), csv (figures), geojson (a FeatureCollection, a row's route line a Feature: draws every route)",
      )
        .choices(BATCH_FORMATS)
        .default("ndjson"),
    )
    .option("--resume", "plan only the rows --out does not hold yet, appending them")
    .option("--workers <n>", "worker threads at most (default: every core)")
    .option("--speed <knots>", "sea speed, 3 to 40", "14")
    .option("--routing-mode <mode>", "short or safe", "short")
    .option("--avoid <passages>", "passages to close, comma-separated", "")
    .option("--path", "each route's geometry")
    .option("--alternatives", "sea alternatives")
    .option("--multimodal", "door-to-door chains, as GET /v1/distance/multimodal")
    .option("--modes <modes>", "with --multimodal: the modes a chain may use")
    .option("--optimize <by>", "with --multimodal: cost, time or distance")
    .option("--date <date>", "with --multimodal: YYYY-MM-DD for seasonal river rules")
    .option("--cargo-tonnes <t>", "with --multimodal: cargo mass for emissions")
    .option("--no-handling", "with --multimodal: no terminal handling")
    .option("--build-dir <dir>", "the build artifacts (default data/build)")
    .action((input: string, o: BatchFlags) => batch(input, o));
}
