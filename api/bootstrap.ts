/** Wires a Platform from configuration: database, accounts, rate limiter (memory or Redis). */

import { startAisFeeds } from "../ingest/ais/feeds.ts";
import { isDemoReference } from "../ingest/sandbox/demo.ts";
import { openStorage } from "../storage/open.ts";
import { AccountsRepo } from "./accounts/repo.ts";
import { airServices } from "./air/services.ts";
import type { Config } from "./config.ts";
import { trackingServices } from "./ocean/services.ts";
import type { FullPlatform } from "./shared/platform.ts";
import { MemoryRateLimiter } from "./shared/ratelimit/memory.ts";
import { RedisRateLimiter } from "./shared/ratelimit/redis.ts";

export interface Running extends FullPlatform {
  close(): Promise<void>;
}

export async function bootstrap(config: Config, now: () => number = Date.now): Promise<Running> {
  const storage = await openStorage(config.database);
  const limiter = config.redisUrl
    ? await RedisRateLimiter.connect(config.redisUrl, config.rateWindowMs, now)
    : new MemoryRateLimiter(config.rateWindowMs, now);
  const tracking = await trackingServices(config, storage, now, {
    isDemo: config.sandbox ? isDemoReference : undefined,
  });
  const air = await airServices(config, storage, now, tracking.wakeups);
  // Feeds only where the ais role runs; other processes read positions (shared through Redis).
  const ais = startAisFeeds(config.roles.has("ais") ? config.aisFeeds : [], tracking.positions, now);
  return {
    config,
    storage,
    tracking,
    air,
    accounts: new AccountsRepo(storage, now),
    limiter,
    now,
    close: async () => {
      await ais.close();
      await tracking.positions.close();
      await tracking.wakeups.close();
      await limiter.close();
      await storage.close();
    },
  };
}
