/**
 * The route pool's lanes (sea/pool.ts). Every job waits in the queue of its kind's lane, with the
 * lane's own bound, so a burst of load plans cannot take the places of routes, nor routes those
 * of load plans. A free worker takes from the lanes in LANES order: routes first (someone is
 * waiting for milliseconds of work), then unit pictures, load plans and the batch CLI's chunks.
 * Load plans and pictures are heavy (a plan runs up to about a second): a worker on one takes no
 * second job, and at most `heavyWorkers` workers run them at once, so with two workers or more a
 * route always finds one free of them. A job that waits in its queue longer than the wait bound
 * answers Overloaded: no request is left to the server's idle timeout without an answer.
 * docs/sea-routing.md, "Lanes".
 */
import type { PlanTask } from "./pool.ts";

export type Lane = "route" | "picture" | "loadplan" | "batch";

/** The order free workers take jobs in. */
export const LANES: readonly Lane[] = ["route", "picture", "loadplan", "batch"];

const LANE_OF: Record<PlanTask["kind"], Lane> = {
  sea: "route",
  seaJson: "route",
  road: "route",
  rail: "route",
  air: "route",
  river: "route",
  multimodal: "route",
  matrixChunk: "route",
  picture: "picture",
  loadplan: "loadplan",
  seaChunk: "batch",
};

export const laneOf = (kind: PlanTask["kind"]): Lane => LANE_OF[kind];

export const isHeavy = (lane: Lane): boolean => lane === "picture" || lane === "loadplan";

/** What a lane's requests are called in an Overloaded message. */
export const LANE_NOUNS: Record<Lane, string> = {
  route: "routes",
  picture: "pictures",
  loadplan: "load plans",
  batch: "batch chunks",
};

/**
 * How long a job may wait in its queue by default. Bun closes a connection that has sent nothing
 * for 10 s (its idleTimeout, api/runtime/bun-serve.ts); a waiting request answers 503 well before,
 * with room for the job that was running ahead of it.
 */
export const WAIT_MS = 5000;
/** The longest wait bound the settings accept, for the same reason. */
export const WAIT_MS_MAX = 8000;
/** Default bounds of the heavy lanes, per heavy worker: about 4 s of large plans, and pictures. */
const LOADPLAN_QUEUE_PER_HEAVY = 8;
const PICTURE_QUEUE_PER_HEAVY = 16;

/** Wall time of a lane's job before any is measured, for Retry-After. */
const FIRST_GUESS_MS: Record<Lane, number> = { route: 20, picture: 50, loadplan: 500, batch: 20 };

export interface LaneSettings {
  bounds: Record<Lane, number>;
  heavyWorkers: number;
  waitMs: number;
}

/** The lanes a pool's options may bound apart from its `queue`. */
export type OtherLane = Exclude<Lane, "route">;

/** Every lane's bound from the pool's options: `queue` bounds routes, and batch chunks by default. */
export function laneSettings(opts: {
  workers: number;
  queue: number;
  lanes?: Partial<Record<OtherLane, number>>;
  heavyWorkers?: number;
  waitMs?: number;
}): LaneSettings {
  const heavyWorkers = opts.heavyWorkers ?? Math.max(1, opts.workers - 1);
  const heavy = Math.min(heavyWorkers, opts.workers);
  return {
    bounds: {
      route: opts.queue,
      picture: opts.lanes?.picture ?? PICTURE_QUEUE_PER_HEAVY * heavy,
      loadplan: opts.lanes?.loadplan ?? LOADPLAN_QUEUE_PER_HEAVY * heavy,
      batch: opts.lanes?.batch ?? opts.queue,
    },
    heavyWorkers,
    waitMs: opts.waitMs ?? WAIT_MS,
  };
}

/** What a queue holds: a job of a lane, with the timer that ends its wait. */
export interface Queued {
  lane: Lane;
  timer?: ReturnType<typeof setTimeout>;
}

/** One bounded FIFO per lane; a job left waiting past the bound goes to `expire`. */
export class LaneQueues<J extends Queued> {
  private readonly queues: Record<Lane, J[]> = { route: [], picture: [], loadplan: [], batch: [] };
  private readonly avg: Record<Lane, number> = { ...FIRST_GUESS_MS };
  private readonly answered: Record<Lane, number> = { route: 0, picture: 0, loadplan: 0, batch: 0 };

  constructor(
    private readonly settings: LaneSettings,
    private readonly expire: (job: J) => void,
  ) {}

  waiting(lane?: Lane): number {
    return lane ? this.queues[lane].length : LANES.reduce((n, l) => n + this.queues[l].length, 0);
  }

  full(lane: Lane): boolean {
    return this.queues[lane].length >= this.settings.bounds[lane];
  }

  push(job: J): void {
    this.queues[job.lane].push(job);
    if (this.settings.waitMs === Number.POSITIVE_INFINITY) return;
    job.timer = setTimeout(() => {
      const queue = this.queues[job.lane];
      const at = queue.indexOf(job);
      if (at < 0) return;
      queue.splice(at, 1);
      this.expire(job);
    }, this.settings.waitMs);
  }

  /** The first job of the first lane, in LANES order, that has one and that `fits`. */
  take(fits: (lane: Lane) => boolean): J | undefined {
    for (const lane of LANES) {
      if (this.queues[lane].length === 0 || !fits(lane)) continue;
      const job = this.queues[lane].shift()!;
      clearTimeout(job.timer);
      return job;
    }
    return undefined;
  }

  /** Every waiting job, out of the queues. */
  drain(): J[] {
    const all = LANES.flatMap((lane) => this.queues[lane].splice(0));
    for (const job of all) clearTimeout(job.timer);
    return all;
  }

  /** Notes a job answered after `ms` of work (a moving average per lane, for Retry-After). */
  done(lane: Lane, ms: number): void {
    this.avg[lane] = this.avg[lane] * 0.9 + ms * 0.1;
    this.answered[lane]++;
  }

  avgMs(lane: Lane): number {
    return this.avg[lane];
  }

  stats(lane: Lane): { waiting: number; queue: number; answered: number } {
    return {
      waiting: this.queues[lane].length,
      queue: this.settings.bounds[lane],
      answered: this.answered[lane],
    };
  }
}
