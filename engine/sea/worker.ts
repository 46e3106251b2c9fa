/**
 * A sea-route worker thread of RoutePool (sea/pool.ts), used by the HTTP API and the batch CLI:
 * one SeaRouter (one WASM instance, one loaded graph) per thread, one request at a time. Engine
 * errors go back as their EngineError parts so the caller renders them exactly as in-thread.
 */
import { parentPort, workerData } from "node:worker_threads";
import { EngineError } from "../errors.ts";
import type { PlanJob, PlanReply, WorkerSetup } from "./pool.ts";
import { SeaRouter } from "./router.ts";

const router = await SeaRouter.load((workerData as WorkerSetup).buildDir);
const port = parentPort!;

function answer({ id, request }: PlanJob): PlanReply {
  try {
    return { id, ok: true, data: router.plan(request) };
  } catch (err) {
    if (err instanceof EngineError)
      return { id, ok: false, code: err.code, message: err.message, extra: err.extra };
    return { id, ok: false, message: err instanceof Error ? (err.stack ?? err.message) : String(err) };
  }
}

port.on("message", (job: PlanJob) => port.postMessage(answer(job)));
port.postMessage({ ready: router.buildId });
