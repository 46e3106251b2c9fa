/**
 * The per-organisation answer cache (about 90 s, spec rule 4) with single-flight: concurrent
 * requests for one reference share one computation, so the carrier is asked once per window. In
 * memory by default; in Redis when REDIS_URL is set, where a short claim key also stops other
 * processes from asking the carrier at the same time (they wait for the claimant's answer). With
 * Redis down it falls back to memory (RedisCacheStore).
 * Freshness is judged on the platform clock, so tests with a manual clock see windows move.
 */
import { Lru } from "../../common/lru.ts";
import { watchCaches } from "../../common/metrics.ts";
import { acquireRedis, type RedisLink, releaseRedis } from "../shared/redis-link.ts";

interface Entry<T> {
  value: T;
  at: number;
}

export interface CacheStore<T> {
  get(key: string): Promise<Entry<T> | null>;
  set(key: string, entry: Entry<T>, ttlMs: number): Promise<void>;
  /** Claims the right to compute `key` for at most ttlMs; false when another process holds it. */
  claim(key: string, ttlMs: number): Promise<boolean>;
  release(key: string): Promise<void>;
  close(): Promise<void>;
}

/** Entries beyond this are dropped oldest first (the window is short; this only bounds memory). */
const MEMORY_ENTRIES = 10_000;

export class MemoryCacheStore<T> implements CacheStore<T> {
  private readonly entries = new Lru<string, Entry<T>>(MEMORY_ENTRIES);

  async get(key: string) {
    return this.entries.peek(key) ?? null;
  }

  async set(key: string, entry: Entry<T>) {
    this.entries.set(key, entry);
  }

  // One process: the in-process single-flight map is the whole story.
  async claim() {
    return true;
  }

  async release() {}

  async close() {}
}

/**
 * Fails open like the rate limiter: while Redis is unreachable answers are cached in this process's
 * memory and claims always succeed (the in-process single-flight still holds), so processes may each
 * ask the carrier once per window until it is back; then Redis is used again (entries cached in
 * memory meanwhile are not copied over, the next poll refills Redis).
 */
export class RedisCacheStore<T> implements CacheStore<T> {
  private readonly memory = new MemoryCacheStore<T>();

  private constructor(
    private readonly url: string,
    private readonly link: RedisLink,
  ) {}

  static async connect<T>(url: string): Promise<RedisCacheStore<T>> {
    return new RedisCacheStore<T>(url, await acquireRedis(url));
  }

  async get(key: string) {
    // Parsing stays outside run(): only Redis's own failures mean falling back.
    const reply = await this.link.run(
      async (c) => ({ raw: await c.get(`portolan:compat:answer:${key}`) }),
      () => null,
    );
    if (!reply) return this.memory.get(key);
    return reply.raw === null ? null : (JSON.parse(reply.raw) as Entry<T>);
  }

  async set(key: string, entry: Entry<T>, ttlMs: number) {
    await this.link.run(
      async (c) => void (await c.set(`portolan:compat:answer:${key}`, JSON.stringify(entry), { PX: ttlMs })),
      () => this.memory.set(key, entry),
    );
  }

  async claim(key: string, ttlMs: number) {
    return this.link.run(
      async (c) => (await c.set(`portolan:compat:claim:${key}`, "1", { NX: true, PX: ttlMs })) === "OK",
      () => true,
    );
  }

  async release(key: string) {
    // A claim left behind by an outage expires on its own after ttlMs.
    await this.link.run(
      async (c) => void (await c.del(`portolan:compat:claim:${key}`)),
      () => {},
    );
  }

  async close() {
    await releaseRedis(this.url);
  }
}

/** How often a process waiting on another's claim looks for the answer. */
const CLAIM_POLL_MS = 100;

export class AnswerCache<T> {
  private readonly inflight = new Map<string, Promise<T>>();
  /** Lookups answered from the cache, and those that were not (portolan_cache_*_total). */
  hits = 0;
  misses = 0;

  constructor(
    private readonly store: CacheStore<T>,
    private readonly now: () => number,
    private readonly ttlMs: number,
    /** Longest a computation may take (the live-resolution ceiling plus a margin). */
    private readonly claimMs: number,
    /** Only answers worth repeating are kept (not "still resolving"). */
    private readonly cacheable: (value: T) => boolean,
  ) {
    // One compat surface per process: the latest one built is the one counted.
    watchCaches({ compat_answers: this });
  }

  private async fresh(key: string): Promise<T | null> {
    const hit = await this.store.get(key);
    return hit && this.now() - hit.at < this.ttlMs ? hit.value : null;
  }

  /** The cached answer, or the one being computed, or a new computation; `force` skips the cached one. */
  async fetch(key: string, force: boolean, compute: () => Promise<T>): Promise<T> {
    if (!force) {
      const hit = await this.fresh(key);
      if (hit !== null) {
        this.hits++;
        return hit;
      }
      this.misses++;
    }
    const running = this.inflight.get(key);
    if (running) return running;
    const started = this.run(key, compute).finally(() => this.inflight.delete(key));
    this.inflight.set(key, started);
    return started;
  }

  private async run(key: string, compute: () => Promise<T>): Promise<T> {
    // Another process is computing: take its answer, or the claim once it lets go without one.
    const deadline = Date.now() + this.claimMs;
    while (!(await this.store.claim(key, this.claimMs)) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, CLAIM_POLL_MS));
      const hit = await this.fresh(key);
      if (hit !== null) return hit;
    }
    try {
      const value = await compute();
      if (this.cacheable(value)) await this.store.set(key, { value, at: this.now() }, this.ttlMs);
      return value;
    } finally {
      await this.store.release(key);
    }
  }

  close(): Promise<void> {
    return this.store.close();
  }
}
