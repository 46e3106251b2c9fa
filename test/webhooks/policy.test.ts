/** The retry and disable policy as tables: what each answer does to the delivery and the endpoint. */
import { describe, expect, test } from "bun:test";
import { DEFAULT_SCHEDULE, parseSchedule } from "../../api/webhooks/config.ts";
import { disableReason, retryDelayMs, settle } from "../../api/webhooks/policy.ts";
import type { AttemptResult } from "../../storage/webhooks.ts";

const ladder = { scheduleMs: parseSchedule(DEFAULT_SCHEDULE), jitter: 0.2 };
const NOW = Date.parse("2026-11-21T12:00:00Z");
const H = 3_600_000;

const result = (attempt: number, statusCode: number | null): AttemptResult => ({
  deliveryId: "d",
  attempt,
  owner: "o",
  startedAt: NOW - 1000,
  durationMs: 10,
  statusCode,
  error: statusCode === null ? "connection refused" : `HTTP ${statusCode}`,
  excerpt: null,
});

describe("retryDelayMs", () => {
  // random 0 is the jitter's low end, 0.5 none, just under 1 its high end.
  const delays: Array<{ attempt: number; random: number; ms: number }> = [
    { attempt: 1, random: 0.5, ms: 5_000 },
    { attempt: 1, random: 0, ms: 4_000 },
    { attempt: 1, random: 0.999_999, ms: 6_000 },
    { attempt: 2, random: 0.5, ms: 300_000 },
    { attempt: 7, random: 0.5, ms: 36_000_000 },
    { attempt: 7, random: 0, ms: 28_800_000 },
  ];
  test.each(delays)(
    "after failed attempt $attempt with random $random: $ms ms",
    ({ attempt, random, ms }) => {
      expect(retryDelayMs(ladder, attempt, () => random)).toBe(ms);
    },
  );

  test("no jitter: the rung itself", () => {
    expect(retryDelayMs({ scheduleMs: [0, 60, 90], jitter: 0 }, 2, Math.random)).toBe(90);
  });
});

describe("settle", () => {
  test.each([
    ["a 2xx delivers", 1, 204, "delivered", 0],
    ["any 2xx delivers, on the last rung too", 8, 299, "delivered", 0],
    ["a 500 waits for the next rung", 1, 500, "pending", NOW + 5_000],
    ["no answer waits for the next rung", 3, null, "pending", NOW + 1_800_000],
    ["a 3xx is a failure", 2, 302, "pending", NOW + 300_000],
    ["410 Gone is dead at once", 1, 410, "dead", 0],
    ["a failure on the last rung is dead", 8, 503, "dead", 0],
  ] as const)("%s", (_, attempt, statusCode, status, nextAttemptAt) => {
    expect(settle(ladder, result(attempt, statusCode), NOW, () => 0.5)).toEqual({ status, nextAttemptAt });
  });
});

describe("disableReason", () => {
  const rule = { disableAfterFailures: 10, disableAfterMs: 120 * H };
  const streak = (failureCount: number, ageMs: number | null, active = true) => ({
    active,
    failureCount,
    failingSince: ageMs === null ? null : NOW - ageMs,
  });

  test.each([
    ["410 disables at once", 410, streak(1, 0), "gone"],
    ["a long and old streak disables", 500, streak(10, 120 * H), "failing"],
    ["long but young keeps it", 500, streak(50, 119 * H), null],
    ["old but short keeps it", null, streak(9, 500 * H), null],
    ["a streak without a start counts as new", 500, streak(10, null), null],
    ["an endpoint already off stays as it is", 410, streak(10, 200 * H, false), null],
  ] as const)("%s", (_, statusCode, s, reason) => {
    expect(disableReason(rule, result(2, statusCode), s, NOW)).toBe(reason);
  });

  test("with no age floor, the count alone decides", () => {
    const noFloor = { disableAfterFailures: 4, disableAfterMs: 0 };
    expect(disableReason(noFloor, result(4, 500), streak(4, null), NOW)).toBe("failing");
    expect(disableReason(noFloor, result(3, 500), streak(3, null), NOW)).toBeNull();
  });
});
