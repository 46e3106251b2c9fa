/**
 * The poller role: every tick, refresh the records whose next_poll_at has passed. In-process by
 * default; at scale run it as its own process with PORTOLAN_ROLES=poller.
 */
import type { TrackingEngine } from "./engine.ts";

export function startPoller(
  engine: TrackingEngine,
  intervalMs: number,
  log = console.error,
): { stop(): void } {
  let running = false;
  const timer = setInterval(async () => {
    if (running) return; // a slow tick never overlaps the next
    running = true;
    try {
      await engine.pollDue();
    } catch (err) {
      log("[poller]", err);
    } finally {
      running = false;
    }
  }, intervalMs);
  return { stop: () => clearInterval(timer) };
}
