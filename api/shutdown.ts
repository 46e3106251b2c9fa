/**
 * Stopping on SIGTERM or SIGINT: /readyz turns not ready, the product listeners stop accepting and
 * the requests in flight are answered, while the background roles finish their current work
 * (claims not reached are left to their lease); all within the drain deadline
 * (PORTOLAN_DRAIN_MS), past which the connections still open are closed. Then the route workers,
 * the sandbox, the database. A second signal stops at once.
 */
import { log } from "../common/log.ts";
import type { BackgroundRole } from "./background-roles.ts";
import type { Readiness } from "./shared/readiness.ts";

export interface Listener {
  /** Stops accepting; resolves once the requests in flight are answered (force: closes them now). */
  stop(force?: boolean): Promise<void>;
}

export interface StopPlan {
  readiness: Readiness;
  drainMs: number;
  listeners: Listener[];
  roles: BackgroundRole[];
  /** Everything closed once the drain is over, in order: workers, sandbox, admin, database. */
  close: () => Promise<void>;
}

/** Resolves true when `work` settles within `ms`, false when the deadline comes first. */
async function within(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([work.then(() => true), deadline]);
  } finally {
    clearTimeout(timer);
  }
}

export async function drainAndStop(plan: StopPlan, signal: string): Promise<void> {
  log.info({ signal, drain_ms: plan.drainMs }, "stopping: draining requests and background work");
  plan.readiness.drain();
  const roles = plan.roles.map(async (role) => {
    await role.stop().catch((err) => log.error({ role: role.name, err }, "role did not stop cleanly"));
    log.info({ role: role.name }, "role stopped");
  });
  const drained = await within(Promise.all([...plan.listeners.map((l) => l.stop()), ...roles]), plan.drainMs);
  if (!drained) {
    log.warn({ drain_ms: plan.drainMs }, "drain deadline passed: closing the connections still open");
    await Promise.all(plan.listeners.map((l) => l.stop(true)));
  }
  await plan.close();
  log.info("stopped");
}

/** Runs `plan` on SIGTERM and SIGINT, then exits; a second signal exits at once. */
export function stopOnSignals(plan: StopPlan): void {
  let stopping = false;
  const onSignal = (signal: string) => {
    if (stopping) {
      log.warn({ signal }, "second signal: stopping now");
      process.exit(1);
    }
    stopping = true;
    drainAndStop(plan, signal).then(
      () => process.exit(0),
      (err) => {
        log.error({ err }, "stop failed");
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", () => onSignal("SIGINT"));
  process.on("SIGTERM", () => onSignal("SIGTERM"));
}
