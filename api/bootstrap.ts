/** Wires a Platform from configuration: database, accounts, rate limiter (memory or Redis). */
import { AccountsRepo } from "./accounts/repo.ts";
import type { Config } from "./config.ts";
import { openDatabase } from "./db/sqlite.ts";
import type { Platform } from "./shared/platform.ts";
import { MemoryRateLimiter } from "./shared/ratelimit/memory.ts";
import { RedisRateLimiter } from "./shared/ratelimit/redis.ts";

export interface Running extends Platform {
  close(): Promise<void>;
}

export async function bootstrap(config: Config, now: () => number = Date.now): Promise<Running> {
  const { db, dataVersion, close: closeDb } = openDatabase(config.dbPath);
  const limiter = config.redisUrl
    ? await RedisRateLimiter.connect(config.redisUrl, config.rateWindowMs)
    : new MemoryRateLimiter(config.rateWindowMs, now);
  return {
    config,
    accounts: new AccountsRepo(db, now, dataVersion),
    limiter,
    now,
    close: async () => {
      await limiter.close();
      closeDb();
    },
  };
}
