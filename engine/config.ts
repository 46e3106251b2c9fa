/**
 * Route worker settings (docs/sea-routing.md, "Route workers" and "Lanes"). Read from the
 * environment when the first sea route is asked for; what the environment leaves out takes the
 * pool's defaults (sea/lanes.ts).
 */
import { availableParallelism } from "node:os";
import { type OtherLane, WAIT_MS_MAX } from "./sea/lanes.ts";

export interface RouteConfig {
  /** Worker threads planning sea routes; 0 plans on the serving thread (no pool, no shedding). */
  workers: number;
  /** Routes (every mode) that may wait for a free worker; one more answers 503 overloaded. */
  queue: number;
  /** Bounds of the other lanes' queues (load plans, pictures, batch chunks). */
  lanes?: Partial<Record<OtherLane, number>>;
  /** Workers that may run load plans and pictures at once (default workers - 1, at least 1). */
  heavyWorkers?: number;
  /** How long a job may wait in its queue before it answers 503 overloaded, ms (Infinity: no bound). */
  waitMs?: number;
}

/** Waiting requests allowed per worker by default: ~0.5 s of backlog at ~17 ms a search. */
export const QUEUE_PER_WORKER = 32;

export function routeConfig(env: Record<string, string | undefined>): RouteConfig {
  const count = (name: string, min = 0, max = Number.MAX_SAFE_INTEGER): number | undefined => {
    const raw = env[name];
    if (raw === undefined || raw === "") return undefined;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min || n > max)
      throw new Error(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
    return n;
  };
  // One core stays with the event loop that serves all six products; at least two workers, so
  // one is always free of load plans and pictures for routes (sea/lanes.ts).
  const workers = count("PORTOLAN_ROUTE_WORKERS") ?? Math.max(2, availableParallelism() - 1);
  const config: RouteConfig = {
    workers,
    queue: count("PORTOLAN_ROUTE_QUEUE") ?? QUEUE_PER_WORKER * Math.max(1, workers),
  };
  const loadplan = count("PORTOLAN_LOADPLAN_QUEUE");
  const picture = count("PORTOLAN_PICTURE_QUEUE");
  if (loadplan !== undefined || picture !== undefined)
    config.lanes = {
      ...(loadplan === undefined ? {} : { loadplan }),
      ...(picture === undefined ? {} : { picture }),
    };
  const heavyWorkers = count("PORTOLAN_HEAVY_WORKERS", 1);
  if (heavyWorkers !== undefined) config.heavyWorkers = heavyWorkers;
  // A waiting request answers before the server's idle timeout closes its connection (10 s).
  const waitMs = count("PORTOLAN_QUEUE_WAIT_MS", 1, WAIT_MS_MAX);
  if (waitMs !== undefined) config.waitMs = waitMs;
  return config;
}
