/**
 * Wires a Platform from configuration and an open database: accounts, rate limiter (memory or
 * Redis), tracking and air services, readiness. Runtime neutral: the entry opens the database with
 * its runtime's SQLite driver (api/bootstrap.ts under Bun, api/start.ts under either).
 */

import { startAisFeeds } from "../ingest/ais/feeds.ts";
import { isDemoReference } from "../ingest/sandbox/demo.ts";
import { StorageUnavailableError } from "../storage/errors.ts";
import type { Storage } from "../storage/storage.ts";
import { AccountsRepo } from "./accounts/repo.ts";
import { airServices } from "./air/services.ts";
import type { Config } from "./config.ts";
import { trackingServices } from "./ocean/services.ts";
import { redisState } from "./shared/health.ts";
import type { FullPlatform } from "./shared/platform.ts";
import { MemoryRateLimiter } from "./shared/ratelimit/memory.ts";
import { RedisRateLimiter } from "./shared/ratelimit/redis.ts";
import { type CheckResult, Readiness } from "./shared/readiness.ts";

export interface Running extends FullPlatform {
  readiness: Readiness;
  close(): Promise<void>;
}

async function databaseCheck(storage: Storage): Promise<CheckResult> {
  try {
    await storage.backlog.ping();
    return { status: "up" };
  } catch (err) {
    const reason = err instanceof StorageUnavailableError ? err.reason : (err as Error).name;
    return { status: "down", detail: reason };
  }
}

export async function wirePlatform(
  config: Config,
  storage: Storage,
  now: () => number = Date.now,
): Promise<Running> {
  const limiter = config.redisUrl
    ? await RedisRateLimiter.connect(config.redisUrl, config.rateWindowMs, now)
    : new MemoryRateLimiter(config.rateWindowMs, now);
  const tracking = await trackingServices(config, storage, now, {
    isDemo: config.sandbox ? isDemoReference : undefined,
  });
  const air = await airServices(config, storage, now, tracking.wakeups);
  // Feeds only where the ais role runs; other processes read positions (shared through Redis).
  const ais = startAisFeeds(config.roles.has("ais") ? config.aisFeeds : [], tracking.positions, now);
  const readiness = new Readiness().add("database", () => databaseCheck(storage));
  const { redisUrl } = config;
  // Redis down is reported, not disqualifying: every use of it falls back (redis-link.ts).
  if (redisUrl) readiness.add("redis", () => ({ status: redisState(redisUrl) === "up" ? "up" : "degraded" }));
  return {
    config,
    storage,
    tracking,
    air,
    accounts: new AccountsRepo(storage, now),
    limiter,
    now,
    readiness,
    close: async () => {
      await ais.close();
      await tracking.positions.close();
      await tracking.wakeups.close();
      await limiter.close();
      await storage.close();
    },
  };
}
