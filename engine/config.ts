/**
 * Route worker settings (docs/sea-routing.md, "Route workers"). Read from the environment when the
 * first sea route is asked for.
 */
import { availableParallelism } from "node:os";

export interface RouteConfig {
  /** Worker threads planning sea routes; 0 plans on the serving thread (no pool, no shedding). */
  workers: number;
  /** Requests that may wait for a free worker, in total; one more answers 503 overloaded. */
  queue: number;
}

/** Waiting requests allowed per worker by default: ~0.5 s of backlog at ~17 ms a search. */
export const QUEUE_PER_WORKER = 32;

export function routeConfig(env: Record<string, string | undefined>): RouteConfig {
  const count = (name: string, fallback: number): number => {
    const raw = env[name];
    if (raw === undefined || raw === "") return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 0)
      throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
    return n;
  };
  // One core stays with the event loop that serves all six products.
  const workers = count("PORTOLAN_ROUTE_WORKERS", Math.max(1, availableParallelism() - 1));
  return { workers, queue: count("PORTOLAN_ROUTE_QUEUE", QUEUE_PER_WORKER * Math.max(1, workers)) };
}
