/**
 * What an attempt's answer does to its delivery and its endpoint (docs/webhooks.md, Response rules,
 * retries and disabling), as pure functions of the configuration: the retry delay from the ladder,
 * delivered / pending / dead, and when an endpoint is disabled. Storage records what these decide
 * (Webhooks.record asks them inside its transaction, with the endpoint's streak as it stands there).
 */
import type {
  AttemptPolicy,
  AttemptResult,
  DisabledReason,
  FailureStreak,
  Settlement,
} from "../../storage/webhooks.ts";
import type { WebhookConfig } from "./config.ts";

type Ladder = Pick<WebhookConfig, "scheduleMs" | "jitter">;
type DisableRule = Pick<WebhookConfig, "disableAfterFailures" | "disableAfterMs">;

/** A uniform number in [0, 1): Math.random, or a fixed one in tests. */
export type Random = () => number;

/** Whether a receiver accepted the delivery: any 2xx. */
export const accepted = (statusCode: number | null): boolean =>
  statusCode !== null && statusCode >= 200 && statusCode < 300;

/** 410 Gone: the receiver says the URL is gone for good. */
export const gone = (statusCode: number | null): boolean => statusCode === 410;

/** The wait after failed attempt `attempt` (1-based): its rung of the ladder, ± the jitter fraction. */
export function retryDelayMs(ladder: Ladder, attempt: number, random: Random): number {
  const rung = ladder.scheduleMs[attempt] ?? 0;
  return Math.round(rung * (1 + ladder.jitter * (2 * random() - 1)));
}

/** Delivered on a 2xx; dead on 410 or when the ladder has no rung left; else due again after its delay. */
export function settle(ladder: Ladder, r: AttemptResult, nowMs: number, random: Random): Settlement {
  if (accepted(r.statusCode)) return { status: "delivered", nextAttemptAt: 0 };
  if (gone(r.statusCode) || r.attempt >= ladder.scheduleMs.length)
    return { status: "dead", nextAttemptAt: 0 };
  return { status: "pending", nextAttemptAt: nowMs + retryDelayMs(ladder, r.attempt, random) };
}

/**
 * After a failed attempt (counted in `streak`): "gone" on 410; "failing" once the streak is both
 * long enough and old enough (Svix's "failing for 5 days", with a floor of failed attempts so sparse
 * traffic does not trip it); else null. An endpoint already off stays as it is.
 */
export function disableReason(
  rule: DisableRule,
  r: AttemptResult,
  streak: FailureStreak,
  nowMs: number,
): DisabledReason | null {
  if (!streak.active) return null;
  if (gone(r.statusCode)) return "gone";
  const long = streak.failureCount >= rule.disableAfterFailures;
  const old = nowMs - (streak.failingSince ?? nowMs) >= rule.disableAfterMs;
  return long && old ? "failing" : null;
}

/** The configuration's policy, as Webhooks.record asks for it. */
export function attemptPolicy(cfg: Ladder & DisableRule, random: Random = Math.random): AttemptPolicy {
  return {
    settle: (r, nowMs) => settle(cfg, r, nowMs, random),
    disable: (r, streak, nowMs) => disableReason(cfg, r, streak, nowMs),
  };
}
