/**
 * The poller role: every tick, refresh the records whose next_poll_at has passed. In-process by
 * default; at scale run it as its own process with PORTOLAN_ROLES=poller.
 */
import type { Wakeups } from "../wakeups.ts";
import type { TrackingEngine } from "./engine.ts";

export function startPoller(
  engine: TrackingEngine,
  intervalMs: number,
  opts: { wakeups?: Wakeups; log?: (...args: unknown[]) => void } = {},
): { stop(): void } {
  const log = opts.log ?? console.error;
  let running = false;
  let again = false;
  const tick = async (woken: boolean) => {
    if (running) {
      // A slow tick never overlaps the next; a wake-up meanwhile runs one more right after it.
      again ||= woken;
      return;
    }
    running = true;
    try {
      do {
        again = false;
        await engine.pollDue();
      } while (again);
    } catch (err) {
      log("[poller]", err);
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void tick(false), intervalMs);
  // A record made due by another process (an add whose first fetch failed) is polled now.
  const unsubscribe = opts.wakeups?.on("tracking.due", () => void tick(true));
  return {
    stop: () => {
      clearInterval(timer);
      unsubscribe?.();
    },
  };
}
