/**
 * Redis sliding log shared by several API processes. One Lua script does trim, count, admit and
 * expire atomically, on Redis's own clock so processes with skewed clocks still agree.
 */
import { createClient } from "redis";
import { randomBase62 } from "../crypto.ts";
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

const makeClient = (url: string) => createClient({ url });
type Client = ReturnType<typeof makeClient>;

export class RedisRateLimiter implements RateLimiter {
  private constructor(
    private readonly client: Client,
    private readonly windowMs: number,
    private readonly sha: string,
  ) {}

  static async connect(url: string, windowMs: number): Promise<RedisRateLimiter> {
    const client = makeClient(url);
    client.on("error", (err) => console.error(`redis: ${err.message}`));
    await client.connect();
    const sha = await client.scriptLoad(SCRIPT);
    return new RedisRateLimiter(client, windowMs, sha);
  }

  async hit(bucket: string, limit: number): Promise<RateDecision> {
    const args = {
      keys: [`portolan:rl:${bucket}`],
      arguments: [String(limit), String(this.windowMs), randomBase62(12)],
    };
    let reply: unknown;
    try {
      reply = await this.client.evalSha(this.sha, args);
    } catch (err) {
      // After a Redis restart the script cache is empty: load it once more.
      if (!String(err).includes("NOSCRIPT")) throw err;
      reply = await this.client.eval(SCRIPT, args);
    }
    const [allowed, remaining, reset] = reply as [number, number, number];
    return { allowed: allowed === 1, limit, remaining: Math.max(0, remaining), resetAtMs: reset };
  }

  async close(): Promise<void> {
    await this.client.quit();
  }
}
