/**
 * What several processes (of any role) share when REDIS_URL is set, on the process's Redis link:
 * AIS vessel positions and wake-ups between roles. Without Redis, the one-process versions.
 */
import { MemoryPositionStore, type PositionStore } from "../../ingest/ais/positions.ts";
import { RedisPositionStore } from "../../ingest/ais/redis-positions.ts";
import { LocalWakeups, RedisWakeups, type Wakeups } from "../../ingest/wakeups.ts";
import { acquireRedis, releaseRedis } from "./redis-link.ts";

export async function positionStore(config: { redisUrl: string | null }): Promise<PositionStore> {
  const url = config.redisUrl;
  if (!url) return new MemoryPositionStore();
  return RedisPositionStore.open(await acquireRedis(url), () => releaseRedis(url));
}

export async function wakeups(config: { redisUrl: string | null }): Promise<Wakeups> {
  const url = config.redisUrl;
  if (!url) return new LocalWakeups();
  return RedisWakeups.open(await acquireRedis(url), () => releaseRedis(url));
}
