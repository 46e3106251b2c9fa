/**
 * In-process sliding log: the default when REDIS_URL is not set (one API process), and the Redis
 * limiter's fallback while Redis is unreachable.
 */
import type { RateDecision, RateLimiter } from "./types.ts";

const SWEEP_EVERY = 10_000;

export class MemoryRateLimiter implements RateLimiter {
  private readonly logs = new Map<string, number[]>();
  private hits = 0;

  constructor(
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  async hit(bucket: string, limit: number): Promise<RateDecision> {
    const now = this.now();
    if (++this.hits % SWEEP_EVERY === 0) this.sweep(now);
    let log = this.logs.get(bucket);
    if (!log) {
      log = [];
      this.logs.set(bucket, log);
    }
    const horizon = now - this.windowMs;
    let expired = 0;
    while (expired < log.length && log[expired]! <= horizon) expired++;
    if (expired > 0) log.splice(0, expired);
    const allowed = log.length < limit;
    if (allowed) log.push(now);
    return {
      allowed,
      limit,
      remaining: Math.max(0, limit - log.length),
      resetAtMs: (log[0] ?? now) + this.windowMs,
    };
  }

  /** Forget idle buckets so per-IP logs do not grow without bound. */
  private sweep(now: number): void {
    for (const [bucket, log] of this.logs) {
      if ((log[log.length - 1] ?? 0) <= now - this.windowMs) this.logs.delete(bucket);
    }
  }

  async close(): Promise<void> {}
}
