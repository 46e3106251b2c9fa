/**
 * Worker of api/distance/batch.ts: one SeaRouter (one WASM instance) and one location index per
 * thread; plans the rows it is sent and posts the result lines back.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parentPort, workerData } from "node:worker_threads";
import { ApiError } from "../../shared/errors.ts";
import { coordinatesPoint, LocationIndex, type ResolvedPoint } from "../locations/index.ts";
import { type SeaRouteRequest, SeaRouter } from "./router.ts";

export interface BatchRow {
  row: number;
  id?: string;
  from: string;
  to: string;
}

export interface BatchSetup {
  buildDir: string;
  request: Omit<SeaRouteRequest, "from" | "to">;
}

const COORDS = /^\s*([+-]?\d+(?:\.\d+)?)\s*,\s*([+-]?\d+(?:\.\d+)?)\s*$/;

const setup = workerData as BatchSetup;
const router = await SeaRouter.load(setup.buildDir);
const indexPath = join(setup.buildDir, "locations.idx");
const index = existsSync(indexPath)
  ? LocationIndex.fromBytes(new Uint8Array(readFileSync(indexPath)), indexPath)
  : null;
if (index && index.buildId !== router.buildId) {
  throw new Error(
    `${indexPath} (build ${index.buildId}) and sea.graph (build ${router.buildId}) come from different builds`,
  );
}

function resolve(input: string): ResolvedPoint {
  if (index) return index.resolve(input);
  // Without the locations artifact only coordinates work.
  const m = COORDS.exec(input);
  if (!m)
    throw new ApiError("locationNotFound", `"${input}": locations.idx missing, only lat,lng inputs resolve`);
  return coordinatesPoint(Number(m[1]), Number(m[2]));
}

function plan(r: BatchRow): string {
  const head = { row: r.row, ...(r.id === undefined ? {} : { id: r.id }) };
  try {
    const from = resolve(r.from);
    const to = resolve(r.to);
    const data = router.plan({ ...setup.request, from, to });
    return JSON.stringify({ ...head, ok: true, data: { from, to, ...data } });
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    return JSON.stringify({ ...head, ok: false, error: { code: err.problem.lower, message: err.message } });
  }
}

parentPort!.on("message", (rows: BatchRow[]) => {
  parentPort!.postMessage(rows.map(plan));
});
parentPort!.postMessage("ready");
