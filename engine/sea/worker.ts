/**
 * A route worker thread of RoutePool (sea/pool.ts), used by the HTTP API and the batch CLI: one
 * SeaRouter (one WASM instance, one loaded graph) per thread, one request at a time (the batch's
 * pool hands it a second chunk of rows to start on as soon as the first is answered). The road
 * model, the rail planner, the cargo airports and the river planner load on the first job that
 * needs them (a multimodal job loads only its allowed modes' planners, and the main container
 * ports from locations.idx), each checked against the sea graph's build (which the pool checked
 * against locations.idx); the load planner (its own router.wasm instance) on the first load plan.
 * A load plan's unit pictures are drawn here too, answered as their UTF-8 bytes.
 * EngineErrors and LoadPlanErrors go back as their parts so the caller renders them exactly as
 * in-thread.
 */

import { parentPort, workerData } from "node:worker_threads";
import { once, readArtifact, sameBuild } from "../artifacts.ts";
import { seaChunkLines } from "../batch/sea-chunk.ts";
import { chunkCells } from "../distance/matrix-chunk.ts";
import { EngineError } from "../errors.ts";
import { LoadPlanner } from "../loadplan/planner.ts";
import { drawUnit } from "../loadplan/svg.ts";
import { LocationIndex } from "../locations/index.ts";
import type { RoadModelOptions, RoadPlan, RoadPlanRequest, RoadRoutePlanner } from "../road/planner.ts";
import { ThreadPlanners } from "../thread-planners.ts";
import {
  errorParts,
  type LegAsk,
  type LegReply,
  type PlanJob,
  type PlanReply,
  type WorkerSetup,
} from "./pool.ts";
import { SeaRouter } from "./router.ts";

const { buildDir } = workerData as WorkerSetup;
const router = await SeaRouter.load(buildDir);
const port = parentPort!;

/** Loads by key; a failed load is forgotten so the next job retries. */
const loads = new Map<string, Promise<unknown>>();
const loadOnce = <T>(key: string, load: () => Promise<T>) =>
  once(loads as Map<string, Promise<T>>, key, load);

/** The main container ports of locations.idx (the index itself is not kept: 100 points are). */
const mainPorts = () =>
  loadOnce("ports", async () => {
    const { path, bytes } = await readArtifact(buildDir, "locations.idx");
    const index = LocationIndex.fromBytes(bytes, path);
    // The pool compared the two builds at start; the file may have been rebuilt since.
    sameBuild(
      buildDir,
      { file: "locations.idx", buildId: index.buildId },
      { file: "sea.graph", buildId: router.buildId },
    );
    return index.mainPorts();
  });

const loadPlanner = () => loadOnce("loadplan", () => LoadPlanner.fromBuildDir(buildDir));

/** This thread's planners: every mode's, loaded on the first job that needs it. */
const planners = new ThreadPlanners(buildDir, router, mainPorts);

/** Access legs asked of the pool's thread (an external road engine), matched by leg number. */
const legs = new Map<number, { resolve(plan: RoadPlan): void; reject(err: Error): void }>();
let nextLeg = 0;
const legsFromPool = (id: number): RoadRoutePlanner => ({
  plan: (request: RoadPlanRequest) =>
    new Promise<RoadPlan>((resolve, reject) => {
      const leg = nextLeg++;
      legs.set(leg, { resolve, reject });
      port.postMessage({ id, leg, request } satisfies LegAsk);
    }),
});

/** The road planner for a rail or air job's access legs. */
async function accessRoad(id: number, opts: RoadModelOptions | null): Promise<RoadRoutePlanner> {
  if (!opts) return legsFromPool(id);
  const model = await planners.road(opts);
  return { plan: async (request) => model.plan(request) };
}

async function plan(job: PlanJob): Promise<unknown> {
  switch (job.kind) {
    case "sea":
      return router.plan(job.request);
    case "seaJson":
      return router.planJson(job.request);
    case "seaChunk":
      return seaChunkLines(router, job.chunk);
    case "road":
      return (await planners.road(job.road)).plan(job.request);
    case "rail": {
      const [planner, road] = await Promise.all([planners.rail(), accessRoad(job.id, job.road)]);
      return planner.plan(job.request, road);
    }
    case "air": {
      const [planner, road] = await Promise.all([planners.air(), accessRoad(job.id, job.road)]);
      return planner.plan(job.request, road);
    }
    case "river": {
      const [planner, road] = await Promise.all([planners.river(), accessRoad(job.id, job.road)]);
      return planner.plan(job.request, road);
    }
    case "multimodal":
      return planners.multimodal.plan(job.request, await accessRoad(job.id, job.road));
    case "matrixChunk":
      return chunkCells(planners, job.chunk, await accessRoad(job.id, job.road));
    case "loadplan":
      return (await loadPlanner()).plan(job.input);
    case "picture":
      return drawUnit(job.picture);
  }
}

async function answer(job: PlanJob): Promise<PlanReply> {
  try {
    return { id: job.id, ok: true, data: await plan(job) };
  } catch (err) {
    return { id: job.id, ...errorParts(err) };
  }
}

port.on("message", (msg: PlanJob | LegReply) => {
  if ("leg" in msg) {
    const waiting = legs.get(msg.leg);
    legs.delete(msg.leg);
    if (!waiting) return;
    if (msg.ok) waiting.resolve(msg.data);
    else if (msg.code) waiting.reject(new EngineError(msg.code, msg.message, msg.extra));
    else waiting.reject(new Error(`road leg: ${msg.message}`));
    return;
  }
  // A batch chunk's lines and a picture's bytes move to the pool's thread instead of being copied.
  void answer(msg).then((reply) =>
    port.postMessage(reply, reply.ok && reply.data instanceof Uint8Array ? [reply.data.buffer] : []),
  );
});
port.postMessage({ ready: router.buildId });
