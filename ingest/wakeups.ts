/**
 * Wake-ups between deployment roles. A process that leaves work for another role signals a topic,
 * and that role's loop, listening on it, looks at once instead of at its next timer tick.
 *
 * A wake-up is a hint, not the work: it carries no data, several may be handled as one, and one
 * can be lost (Redis down, a process restarting), so every role keeps its timer as the backstop and
 * reads the work from the database. `LocalWakeups` serves one process; `RedisWakeups` (REDIS_URL)
 * carries signals between processes over pub/sub and wakes the signalling process's own listeners
 * directly, so they never wait on Redis and still wake while it is down.
 */

import { log } from "../common/log.ts";
import { type SharedRedis, type Subscription, subscribe } from "./redis-pubsub.ts";

export const WAKE_TOPICS = [
  /** A webhook outbox row was written: the dispatcher fans it out and delivers. */
  "webhooks.outbox",
  /** A tracked record is due for a poll now: the poller claims it. */
  "tracking.due",
] as const;
export type WakeTopic = (typeof WAKE_TOPICS)[number];

export interface Wakeups {
  signal(topic: WakeTopic): void;
  /** Calls `fn` on each wake-up of `topic`; returns the unsubscribe. */
  on(topic: WakeTopic, fn: () => void): () => void;
  close(): Promise<void>;
}

export class LocalWakeups implements Wakeups {
  private readonly listeners = new Map<WakeTopic, Set<() => void>>();

  /** Each listener runs in a microtask of its own: a signaller never runs, or fails on, a role's code. */
  signal(topic: WakeTopic): void {
    for (const fn of this.listeners.get(topic) ?? []) {
      queueMicrotask(() => {
        try {
          fn();
        } catch (err) {
          log.error({ component: "wakeups", err }, topic);
        }
      });
    }
  }

  on(topic: WakeTopic, fn: () => void): () => void {
    const set = this.listeners.get(topic) ?? new Set();
    this.listeners.set(topic, set);
    set.add(fn);
    return () => void set.delete(fn);
  }

  async close(): Promise<void> {
    this.listeners.clear();
  }
}

const CHANNEL = "portolan:wake";
const isTopic = (t: string): t is WakeTopic => (WAKE_TOPICS as readonly string[]).includes(t);

export class RedisWakeups implements Wakeups {
  /** Marks this instance's own messages: its listeners were woken directly. */
  private readonly id = crypto.randomUUID();
  private readonly local = new LocalWakeups();
  private readonly subscription: Subscription;
  private closed = false;

  private constructor(
    private readonly link: SharedRedis,
    private readonly release: () => Promise<void>,
  ) {
    this.subscription = subscribe(
      link,
      [CHANNEL],
      (message) => this.receive(message),
      () => this.missed(),
    );
  }

  /** Subscribes (waiting briefly when Redis is up); `release` gives the link back on close. */
  static async open(link: SharedRedis, release: () => Promise<void>): Promise<RedisWakeups> {
    const w = new RedisWakeups(link, release);
    await w.subscription.ready;
    return w;
  }

  signal(topic: WakeTopic): void {
    if (this.closed) return;
    this.local.signal(topic);
    void this.link.run(
      (c) => c.publish(CHANNEL, `${topic} ${this.id}`),
      () => 0,
    );
  }

  on(topic: WakeTopic, fn: () => void): () => void {
    return this.local.on(topic, fn);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.subscription.close();
    await this.local.close();
    await this.release();
  }

  private receive(message: string): void {
    const [topic = "", origin] = message.split(" ");
    if (origin !== this.id && isTopic(topic)) this.local.signal(topic);
  }

  /** (Re)subscribed: a signal may have been lost meanwhile, so every listener looks once. */
  private missed(): void {
    for (const topic of WAKE_TOPICS) this.local.signal(topic);
  }
}
