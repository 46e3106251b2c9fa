/**
 * Routes off the event loop: a pool of worker threads (sea/worker.ts), each with its own WASM
 * instances and graphs, fed from bounded queues on the calling thread, one per lane (sea/lanes.ts).
 * A sea search is ~17 ms of CPU with alternatives, a road route 0.15-0.4 ms, a rail chain ~1 ms;
 * run on the thread that serves every product, a burst of them stalled all six. Every mode's
 * planner runs here: a job names its planner ("sea" | "road" | "rail" | "air" | "river" |
 * "multimodal") and carries the request. So do the load planner ("loadplan": a large plan is
 * ~0.5 s of WASM) and the load plan's unit pictures ("picture"). The batch CLI sends chunks of sea
 * rows ("seaChunk", engine/batch/sea-chunk.ts), two per worker. When no worker can take a job and
 * its lane's queue is full, or it has waited there past the wait bound, the request sheds with
 * Overloaded (503 overloaded + Retry-After) instead of queueing without limit.
 */
import { Worker } from "node:worker_threads";
import { log } from "../../common/log.ts";
import { routeShed } from "../../common/metrics.ts";
import type { AirPlan, AirPlanRequest, AirPoint } from "../air/planner.ts";
import type { SeaChunk } from "../batch/sea-chunk.ts";
import type { RouteConfig } from "../config.ts";
import type { Cell, MatrixChunk } from "../distance/matrix-chunk.ts";
import { EngineError, type EngineErrorCode } from "../errors.ts";
import { LoadPlanError, type LoadPlanErrorCode } from "../loadplan/errors.ts";
import type { UnitPicture } from "../loadplan/svg.ts";
import type { LoadPlanInput, LoadPlanResult } from "../loadplan/types.ts";
import type { MultimodalRequest, Place } from "../multimodal/options.ts";
import type { MultimodalPlan } from "../multimodal/planner.ts";
import type { RailPlan, RailPlanRequest, RailPoint } from "../rail/planner.ts";
import type { RiverPlan, RiverPlanRequest } from "../river/planner.ts";
import type { RoadModelOptions, RoadPlan, RoadPlanRequest, RoadRoutePlanner } from "../road/planner.ts";
import {
  isHeavy,
  LANE_NOUNS,
  LANES,
  type Lane,
  LaneQueues,
  type LaneSettings,
  laneOf,
  laneSettings,
} from "./lanes.ts";
import type { SeaRouteData, SeaRouteRequest, SeaRouter } from "./router.ts";

/**
 * `workers`: threads, each loading router.wasm and sea.graph (~10 MB) for itself; `queue`: routes
 * that may wait for a worker (the next one is shed), and the other lanes' bound unless `lanes`
 * names it (sea/lanes.ts).
 */
export interface RoutePoolOptions extends RouteConfig {
  buildDir: string;
  /**
   * Jobs a worker holds at once (default 1). The batch CLI sends 2, so a worker starts its next
   * chunk without waiting for this thread to answer the last one.
   */
  perWorker?: number;
}

/** Sent to a worker at spawn. */
export interface WorkerSetup {
  buildDir: string;
}

/** An end of a chain: a resolved point as a plain object (it crosses by structured clone). */
export type ChainEnd = RailPoint & AirPoint & Place;

/**
 * What a worker plans: the planner's name and its request. `road` is the road model's options
 * (config.road's circuity and truck speed); for rail and air, null means the access legs come
 * from the pool's thread (an external road engine: network I/O with one back-off state).
 */
export type PlanTask =
  | { kind: "sea"; request: SeaRouteRequest }
  | { kind: "seaJson"; request: SeaRouteRequest }
  | { kind: "seaChunk"; chunk: SeaChunk }
  | { kind: "road"; request: RoadPlanRequest; road: RoadModelOptions }
  | { kind: "rail"; request: RailPlanRequest<ChainEnd>; road: RoadModelOptions | null }
  | { kind: "air"; request: AirPlanRequest<ChainEnd>; road: RoadModelOptions | null }
  | { kind: "river"; request: RiverPlanRequest<ChainEnd>; road: RoadModelOptions | null }
  | { kind: "multimodal"; request: MultimodalRequest<ChainEnd>; road: RoadModelOptions | null }
  | { kind: "matrixChunk"; chunk: MatrixChunk; road: RoadModelOptions | null }
  | { kind: "loadplan"; input: LoadPlanInput }
  | { kind: "picture"; picture: UnitPicture };

export type PlanJob = PlanTask & { id: number };

/** The error half of a reply: EngineError or LoadPlanError parts, or an unexpected failure (no code). */
export interface ErrorParts {
  ok: false;
  code?: EngineErrorCode;
  message: string;
  extra?: Record<string, unknown>;
  loadPlan?: { code: LoadPlanErrorCode; field?: string };
}

/** A worker's answer: the plan (SeaRouteData, RoadPlan, ... an SVG's bytes by the job's kind) or an error. */
export type PlanReply = { id: number } & ({ ok: true; data: unknown } | ErrorParts);

/** A worker asking the pool's thread for a road access leg (rail and air jobs with `road: null`). */
export interface LegAsk {
  id: number;
  leg: number;
  request: RoadPlanRequest;
}

/** The pool's answer to a LegAsk. */
export type LegReply = { leg: number } & ({ ok: true; data: RoadPlan } | ErrorParts);

/** Error parts of a thrown value, for a reply across the thread boundary. */
export function errorParts(err: unknown): ErrorParts {
  if (err instanceof EngineError)
    return { ok: false, code: err.code, message: err.message, extra: err.extra };
  if (err instanceof LoadPlanError)
    return { ok: false, message: err.message, loadPlan: { code: err.code, field: err.field } };
  return { ok: false, message: err instanceof Error ? (err.stack ?? err.message) : String(err) };
}

/** The pool's answer when it cannot take or finish a request; the caller sets Retry-After from it. */
export class Overloaded extends EngineError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super("overloaded", message);
  }
}

interface Job {
  id: number;
  task: PlanTask;
  lane: Lane;
  /** Ends its wait in the lane's queue (sea/lanes.ts). */
  timer?: ReturnType<typeof setTimeout>;
  /** Answers the worker's access-leg requests (rail and air jobs with `road: null`). */
  road: RoadRoutePlanner | null;
  resolve(data: unknown): void;
  reject(err: Error): void;
  startedAt: number;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  /** In flight on the worker, oldest first; at most `perWorker`. */
  jobs: Job[];
}

/** Anything that plans a sea route: the pool, or the calling thread's router (in-thread mode). */
export interface SeaPlanner {
  plan(request: SeaRouteRequest): Promise<SeaRouteData>;
  /**
   * JSON.stringify of plan's answer, made where the route was planned. From a worker the text
   * crosses the thread boundary, not the object: cloning a route with its path cost more CPU than
   * rendering it, and the API answers with the text anyway (engine/distance/engine.ts).
   */
  planJson(request: SeaRouteRequest): Promise<string>;
}

/** A router on the calling thread as a SeaPlanner (PORTOLAN_ROUTE_WORKERS=0). */
export function inThreadPlanner(router: Pick<SeaRouter, "plan" | "planJson">): SeaPlanner {
  return {
    plan: async (request) => router.plan(request),
    planJson: async (request) => router.planJson(request),
  };
}

/** A replacement that fails to load is retried after this long (a rebuild in progress, say). */
const RESPAWN_DELAY_MS = 1000;

export class RoutePool implements SeaPlanner {
  private readonly slots: Slot[] = [];
  private readonly lanes: LaneQueues<Job>;
  private readonly settings: LaneSettings;
  private nextId = 0;
  private closed = false;
  /** Build id of the first worker; a replacement loading another build is refused. */
  private build: string | null = null;

  private constructor(private readonly opts: RoutePoolOptions) {
    this.settings = laneSettings(opts);
    this.lanes = new LaneQueues<Job>(this.settings, (job) => {
      routeShed.inc({ lane: job.lane });
      const waited = Math.round(this.settings.waitMs / 100) / 10;
      job.reject(
        new Overloaded(
          `This request waited ${waited} s for a route worker without getting one; retry shortly.`,
          this.retryAfter(job.lane),
        ),
      );
    });
  }

  /** Starts every worker and waits for them to load; a broken artifact rejects with the worker's message. */
  static async start(opts: RoutePoolOptions): Promise<RoutePool> {
    const settings = laneSettings(opts);
    const bounds = Object.values(settings.bounds);
    if (
      !(opts.workers >= 1 && bounds.every((b) => b >= 0) && (opts.perWorker ?? 1) >= 1) ||
      !(settings.heavyWorkers >= 1 && settings.waitMs > 0)
    ) {
      throw new Error(
        `route pool needs at least 1 worker, 1 heavy worker, queues of 0 or more and a wait bound (got ${JSON.stringify({ ...settings, workers: opts.workers })})`,
      );
    }
    const pool = new RoutePool(opts);
    try {
      await Promise.all(Array.from({ length: opts.workers }, () => pool.spawn()));
    } catch (err) {
      await pool.close();
      throw err;
    }
    return pool;
  }

  get buildId(): string | null {
    return this.build;
  }

  /** The live worker threads, for diagnostics (and the tests that kill one). */
  threads(): readonly Worker[] {
    return this.slots.map((s) => s.worker);
  }

  /** Workers and queues; per lane its waiting and running jobs, its bound and the jobs answered. */
  stats() {
    const lanes = Object.fromEntries(
      LANES.map((lane) => [lane, { ...this.lanes.stats(lane), running: this.running(lane) }]),
    ) as Record<Lane, { waiting: number; queue: number; answered: number; running: number }>;
    return {
      workers: this.slots.length,
      ready: this.slots.filter((s) => s.ready).length,
      busy: this.slots.filter((s) => s.jobs.length > 0).length,
      waiting: this.lanes.waiting(),
      queue: this.settings.bounds.route,
      lanes,
    };
  }

  plan(request: SeaRouteRequest): Promise<SeaRouteData> {
    return this.run({ kind: "sea", request }, null) as Promise<SeaRouteData>;
  }

  planJson(request: SeaRouteRequest): Promise<string> {
    return this.run({ kind: "seaJson", request }, null) as Promise<string>;
  }

  /** A batch's rows in one job (engine/batch/sea-chunk.ts): their NDJSON lines as UTF-8. */
  planSeaChunk(chunk: SeaChunk): Promise<Uint8Array> {
    return this.run({ kind: "seaChunk", chunk }, null) as Promise<Uint8Array>;
  }

  /** A road route over the road-graph model (options: config.road's circuity and truck speed). */
  planRoad(request: RoadPlanRequest, road: RoadModelOptions): Promise<RoadPlan> {
    return this.run({ kind: "road", request, road }, null) as Promise<RoadPlan>;
  }

  /**
   * A rail chain; its access legs come from the worker's road model (options), or from `road`
   * on this thread when it is a planner (an external engine).
   */
  planRail<P extends ChainEnd>(
    request: RailPlanRequest<P>,
    road: RoadModelOptions | RoadRoutePlanner,
  ): Promise<RailPlan<P>> {
    return this.chain("rail", request, road) as Promise<RailPlan<P>>;
  }

  /** An air chain; access legs as for planRail. */
  planAir<P extends ChainEnd>(
    request: AirPlanRequest<P>,
    road: RoadModelOptions | RoadRoutePlanner,
  ): Promise<AirPlan<P>> {
    return this.chain("air", request, road) as Promise<AirPlan<P>>;
  }

  /** A river chain (barge between river ports); access legs as for planRail. */
  planRiver<P extends ChainEnd>(
    request: RiverPlanRequest<P>,
    road: RoadModelOptions | RoadRoutePlanner,
  ): Promise<RiverPlan<P>> {
    return this.chain("river", request, road) as Promise<RiverPlan<P>>;
  }

  /** A door-to-door chain across the allowed modes (engine/multimodal); access legs as for planRail. */
  planMultimodal<P extends ChainEnd>(
    request: MultimodalRequest<P>,
    road: RoadModelOptions | RoadRoutePlanner,
  ): Promise<MultimodalPlan> {
    return this.chain("multimodal", request, road) as Promise<MultimodalPlan>;
  }

  /** A matrix's cells (engine/distance/matrix-chunk.ts); access legs as for planRail. */
  planMatrixChunk(chunk: MatrixChunk, road: RoadModelOptions | RoadRoutePlanner): Promise<Cell[]> {
    const main = "plan" in road ? road : null;
    return this.run(
      { kind: "matrixChunk", chunk, road: main ? null : (road as RoadModelOptions) },
      main,
    ) as Promise<Cell[]>;
  }

  /** A load plan (engine/loadplan); LoadPlanError comes back as thrown in the worker. */
  planLoad(input: LoadPlanInput): Promise<LoadPlanResult> {
    return this.run({ kind: "loadplan", input }, null) as Promise<LoadPlanResult>;
  }

  /** A load plan's unit as SVG (engine/loadplan/svg.ts drawUnit): its UTF-8 bytes. */
  drawUnit(picture: UnitPicture): Promise<Uint8Array<ArrayBuffer>> {
    return this.run({ kind: "picture", picture }, null) as Promise<Uint8Array<ArrayBuffer>>;
  }

  private chain(
    kind: "rail" | "air" | "river" | "multimodal",
    request:
      | RailPlanRequest<ChainEnd>
      | AirPlanRequest<ChainEnd>
      | RiverPlanRequest<ChainEnd>
      | MultimodalRequest<ChainEnd>,
    road: RoadModelOptions | RoadRoutePlanner,
  ): Promise<unknown> {
    const main = "plan" in road ? road : null;
    return this.run({ kind, request, road: main ? null : (road as RoadModelOptions) } as PlanTask, main);
  }

  private run(task: PlanTask, road: RoadRoutePlanner | null): Promise<unknown> {
    if (this.closed) return Promise.reject(new Overloaded("The route service is shutting down.", 1));
    const lane = laneOf(task.kind);
    const slot = this.freeSlot(lane);
    if (!slot && this.lanes.full(lane)) {
      routeShed.inc({ lane });
      return Promise.reject(
        new Overloaded(
          `No route worker is free for more ${LANE_NOUNS[lane]} and ${this.lanes.waiting(lane)} are waiting; retry shortly.`,
          this.retryAfter(lane),
        ),
      );
    }
    return new Promise<unknown>((resolve, reject) => {
      const job: Job = { id: this.nextId++, task, lane, road, resolve, reject, startedAt: 0 };
      if (slot) this.dispatch(slot, job);
      else this.lanes.push(job);
    });
  }

  /** Stops the workers; waiting and running requests answer Overloaded. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.lanes.drain())
      job.reject(new Overloaded("The route service is shutting down.", 1));
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }

  private running(lane: Lane): number {
    return this.slots.reduce((n, s) => n + s.jobs.filter((j) => j.lane === lane).length, 0);
  }

  /** Seconds until the lane's work ahead of a new request (waiting and in flight) has likely drained. */
  private retryAfter(lane: Lane): number {
    const ahead = this.lanes.waiting(lane) + this.running(lane);
    const workers = isHeavy(lane)
      ? Math.min(this.settings.heavyWorkers, this.slots.length)
      : this.slots.length;
    return Math.max(1, Math.ceil((ahead * this.lanes.avgMs(lane)) / workers / 1000));
  }

  private get depth(): number {
    return this.opts.perWorker ?? 1;
  }

  /**
   * Whether `slot` may take a job of `lane` now. A heavy job needs an idle worker and a heavy
   * worker's place; a worker on a heavy job takes nothing else meanwhile (a route queued behind a
   * plan would wait for it).
   */
  private fits(slot: Slot, lane: Lane): boolean {
    if (!slot.ready) return false;
    if (isHeavy(lane)) {
      const heavyBusy = this.slots.filter((s) => s.jobs.some((j) => isHeavy(j.lane))).length;
      return slot.jobs.length === 0 && heavyBusy < this.settings.heavyWorkers;
    }
    return slot.jobs.length < this.depth && !slot.jobs.some((j) => isHeavy(j.lane));
  }

  /** A worker that may take a job of `lane` now, an idle one first. */
  private freeSlot(lane: Lane): Slot | undefined {
    return (
      this.slots.find((s) => s.jobs.length === 0 && this.fits(s, lane)) ??
      this.slots.find((s) => this.fits(s, lane))
    );
  }

  private dispatch(slot: Slot, job: Job): void {
    slot.jobs.push(job);
    job.startedAt = performance.now();
    // Busy workers keep the process alive, idle ones do not (tests and CLIs exit when done).
    slot.worker.ref();
    slot.worker.postMessage({ ...job.task, id: job.id } satisfies PlanJob);
  }

  /** Hands waiting jobs, lane by lane in order, to the workers that may take them. */
  private pump(): void {
    for (;;) {
      const job = this.lanes.take((lane) => this.freeSlot(lane) !== undefined);
      if (!job) break;
      this.dispatch(this.freeSlot(job.lane)!, job);
    }
    // A worker still loading stays referenced: the process waits for it to start.
    for (const slot of this.slots) if (slot.ready && slot.jobs.length === 0) slot.worker.unref();
  }

  /** Plans a worker's access leg on this thread (an external engine's I/O) and sends it back. */
  private answerLeg(worker: Worker, job: Job, ask: LegAsk): void {
    const planner = job.road;
    const reply = (r: LegReply) => {
      // The worker may have died, or moved on, meanwhile: its job already answered.
      if (this.slots.some((s) => s.worker === worker && s.jobs.includes(job))) worker.postMessage(r);
    };
    if (!planner) {
      reply({ leg: ask.leg, ok: false, message: "route pool: no road planner for this job's access legs" });
      return;
    }
    planner.plan(ask.request).then(
      (data) => reply({ leg: ask.leg, ok: true, data }),
      (err: unknown) => reply({ leg: ask.leg, ...errorParts(err) }),
    );
  }

  /** Spawns a worker into a new slot (or `replace`); resolves once it has loaded its router. */
  private spawn(replace?: Slot): Promise<void> {
    const setup: WorkerSetup = { buildDir: this.opts.buildDir };
    const worker = new Worker(new URL("./worker.ts", import.meta.url), { workerData: setup });
    const slot: Slot = replace ?? { worker, ready: false, jobs: [] };
    if (replace) Object.assign(slot, { worker, ready: false, jobs: [] });
    else this.slots.push(slot);
    return new Promise<void>((resolveReady, rejectReady) => {
      let failure: Error | null = null;
      worker.on("error", (err: Error) => {
        failure = err;
      });
      worker.on("message", (msg: PlanReply | LegAsk | { ready: string }) => {
        if ("ready" in msg) {
          if (this.build !== null && msg.ready !== this.build) {
            failure = new Error(`route worker loaded build ${msg.ready}, the pool serves ${this.build}`);
            void worker.terminate();
            return;
          }
          this.build = msg.ready;
          slot.ready = true;
          resolveReady();
          this.pump();
          return;
        }
        const at = slot.jobs.findIndex((j) => j.id === msg.id);
        if (at < 0) return;
        const job = slot.jobs[at]!;
        if ("leg" in msg) {
          this.answerLeg(worker, job, msg);
          return;
        }
        this.lanes.done(job.lane, performance.now() - job.startedAt);
        slot.jobs.splice(at, 1);
        this.pump();
        if (msg.ok) job.resolve(msg.data);
        else if (msg.loadPlan)
          job.reject(new LoadPlanError(msg.loadPlan.code, msg.message, msg.loadPlan.field));
        else if (msg.code) job.reject(new EngineError(msg.code, msg.message, msg.extra));
        else job.reject(new Error(`route worker: ${msg.message}`));
      });
      worker.on("exit", () => {
        if (slot.worker !== worker) return;
        const wasReady = slot.ready;
        const jobs = slot.jobs;
        slot.ready = false;
        slot.jobs = [];
        for (const job of jobs)
          job.reject(new Overloaded("The route worker planning this request stopped; retry shortly.", 1));
        // A heavy job lost frees a heavy worker's place for another worker.
        if (!this.closed) this.pump();
        if (!wasReady) {
          const err = failure ?? new Error("route worker exited before loading the router");
          rejectReady(err);
          if (!replace || this.closed) return;
          // No worker left to serve the waiting requests: shed them rather than hold them.
          if (!this.slots.some((s) => s.ready)) {
            for (const j of this.lanes.drain())
              j.reject(new Overloaded(`No route worker: ${err.message}`, 1));
          }
          setTimeout(() => {
            if (!this.closed) this.spawn(slot).catch(() => {});
          }, RESPAWN_DELAY_MS).unref();
          return;
        }
        if (failure) log.error({ err: failure }, "route worker failed");
        if (!this.closed) this.spawn(slot).catch(() => {});
      });
    });
  }
}
