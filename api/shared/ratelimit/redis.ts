/**
 * Redis sliding log shared by several API processes. One Lua script does trim, count, admit and
 * expire atomically, on Redis's own clock so processes with skewed clocks still agree.
 */
import { LuaScript } from "../../../common/lua-script.ts";
import { randomBase62 } from "../crypto.ts";
import { acquireRedis, type RedisLink, releaseRedis } from "../redis-link.ts";
import { MemoryRateLimiter } from "./memory.ts";
import type { RateDecision, RateLimiter } from "./types.ts";

const SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[1])
local allowed = 0
if count < limit then
  redis.call('ZADD', KEYS[1], now, ARGV[3])
  count = count + 1
  allowed = 1
end
redis.call('PEXPIRE', KEYS[1], window)
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
local reset = now + window
if oldest[2] then reset = tonumber(oldest[2]) + window end
return {allowed, limit - count, reset}
`;

const WINDOW_HIT = new LuaScript(SCRIPT);

/**
 * Fails open: while Redis is unreachable (or slow, or erroring) decisions come from an in-process
 * sliding window of the same length, so each process enforces the limit on its own (N processes
 * admit up to N times the limit) and counts from before the outage are not carried over. The shared
 * window is used again as soon as the link is back (redis-link.ts).
 */
export class RedisRateLimiter implements RateLimiter {
  private readonly fallback: MemoryRateLimiter;

  private constructor(
    private readonly url: string,
    private readonly link: RedisLink,
    private readonly windowMs: number,
    now: () => number,
  ) {
    this.fallback = new MemoryRateLimiter(windowMs, now);
  }

  static async connect(
    url: string,
    windowMs: number,
    now: () => number = Date.now,
  ): Promise<RedisRateLimiter> {
    return new RedisRateLimiter(url, await acquireRedis(url), windowMs, now);
  }

  /** Whether decisions currently come from the shared window. */
  get shared(): boolean {
    return this.link.state === "up";
  }

  async hit(bucket: string, limit: number): Promise<RateDecision> {
    const args = {
      keys: [`portolan:rl:${bucket}`],
      arguments: [String(limit), String(this.windowMs), randomBase62(12)],
    };
    return this.link.run(
      async (client) => {
        const reply = await WINDOW_HIT.run(client, args);
        const [allowed, remaining, reset] = reply as [number, number, number];
        return { allowed: allowed === 1, limit, remaining: Math.max(0, remaining), resetAtMs: reset };
      },
      () => this.fallback.hit(bucket, limit),
    );
  }

  async close(): Promise<void> {
    await this.fallback.close();
    await releaseRedis(this.url);
  }
}
