/**
 * What ingest needs from the process's Redis link (api/shared/redis-link.ts, handed in by api/ so
 * that ingest never imports api/), and the pub/sub connection beside it on which the AIS positions
 * and the wake-ups listen.
 */
import type { RedisClientType } from "redis";
import { log } from "../common/log.ts";

/** The process's shared, fail-open Redis connection: api/shared/redis-link.ts `RedisLink`. */
export interface SharedRedis {
  readonly client: RedisClientType;
  readonly state: "up" | "down";
  /** `op` against Redis, or `fallback` when Redis is down, slow or failing; never throws for Redis. */
  run<T>(op: (client: RedisClientType) => Promise<T>, fallback: () => T | Promise<T>): Promise<T>;
  /** Calls `listener` on every down→up transition; returns the unsubscribe. */
  whenUp(listener: () => void): () => void;
}

/** How long opening waits for the first subscription while Redis is up. */
const SUBSCRIBE_WAIT_MS = 1_000;

export interface Subscription {
  /** True once subscribed; false if Redis is down or slow at start (the subscription follows). */
  readonly ready: Promise<boolean>;
  close(): Promise<void>;
}

/**
 * Subscribes on a connection of its own (a subscribed connection can send nothing else). node-redis
 * subscribes again after every reconnect, but what was published while the connection was down is
 * lost, so `onSubscribed` runs after the first subscription and after each re-subscription: callers
 * re-read what they may have missed. Outages are logged by the link, not here.
 */
export function subscribe(
  link: SharedRedis,
  channels: string[],
  onMessage: (message: string, channel: string) => void,
  onSubscribed: () => void,
): Subscription {
  // Unlike the link's commands, SUBSCRIBE may wait for the server: no request waits on it.
  const client = link.client.duplicate({ disableOfflineQueue: false });
  let subscribed = false;
  let closed = false;
  client.on("error", () => {});
  // After a reconnect "ready" follows the re-subscription; the first "ready" precedes ours.
  client.on("ready", () => {
    if (subscribed && !closed) onSubscribed();
  });
  const done = client
    .connect()
    .then(() => client.subscribe(channels, onMessage))
    .then(
      () => {
        subscribed = true;
        if (!closed) onSubscribed();
        return true;
      },
      (err: Error) => {
        if (!closed) log.warn(`redis subscription to ${channels.join(", ")} failed: ${err.message}`);
        return false;
      },
    );
  let timer: ReturnType<typeof setTimeout> | undefined;
  const ready =
    link.state === "up"
      ? Promise.race([
          done,
          new Promise<false>((resolve) => {
            timer = setTimeout(resolve, SUBSCRIBE_WAIT_MS, false);
          }),
        ]).finally(() => clearTimeout(timer))
      : Promise.resolve(false);
  return {
    ready,
    close: async () => {
      closed = true;
      clearTimeout(timer);
      client.destroy();
      await done;
    },
  };
}
