/**
 * The poller role: every tick, refresh the records whose next_poll_at has passed, for each service
 * in turn (ocean records, then air waybills: each claims its own table's due rows). Carrier
 * schedules (ingest/schedules/sync.ts) run through a second poller on their own, longer interval.
 * In-process by default; at scale run it as its own process with PORTOLAN_ROLES=poller.
 */

import { errorLine } from "../../common/log.ts";
import type { Wakeups } from "../wakeups.ts";

/** A service with records to poll: ocean tracking, air-waybill tracking. */
export interface Pollable {
  pollDue(): Promise<number>;
}

export function startPoller(
  engines: readonly Pollable[],
  intervalMs: number,
  opts: {
    wakeups?: Wakeups;
    log?: (...args: unknown[]) => void;
    /** Run a first tick now rather than one interval after start (long intervals: schedules). */
    immediate?: boolean;
  } = {},
): { stop(): Promise<void> } {
  const log = opts.log ?? errorLine("poller");
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  const pass = async () => {
    do {
      again = false;
      for (const engine of engines) {
        // A stop lets the engine at work finish its claimed records and starts no other.
        if (stopped) return;
        // One engine's failure leaves the others' polls alone.
        await engine.pollDue().catch((err) => log("[poller]", err));
      }
    } while (again && !stopped);
  };
  const tick = (woken: boolean) => {
    if (running) {
      // A slow tick never overlaps the next; a wake-up meanwhile runs one more right after it.
      again ||= woken;
      return;
    }
    running = pass().finally(() => {
      running = null;
    });
  };
  const timer = setInterval(() => tick(false), intervalMs);
  if (opts.immediate) tick(false);
  // A record made due by another process (an add whose first fetch failed) is polled now.
  const unsubscribe = opts.wakeups?.on("tracking.due", () => tick(true));
  return {
    /** Resolves once the pass under way, if any, has finished. */
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      unsubscribe?.();
      await running;
    },
  };
}
