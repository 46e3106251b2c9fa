/**
 * Call counters of the compat surface: per key for the X-Usage-* headers, per organisation for
 * metadata.api_calls (and its optional monthly cap). In SQLite (compat_usage) by default, in Redis
 * when REDIS_URL is set so several API processes count together (counting locally while Redis is
 * down: RedisUsageStore). Periods are UTC.
 */
import { Lru } from "../../common/lru.ts";
import { monthOf } from "../../common/plans.ts";
import type { Quotas } from "../../storage/quotas.ts";
import type { CallCounters } from "../../storage/usage.ts";
import { acquireRedis, type RedisLink, releaseRedis } from "../shared/redis-link.ts";
import type { Counter } from "./shapes.ts";

export interface Periods {
  day: string;
  week: string;
  month: string;
  total: "all";
}

/** ISO 8601 week of a UTC instant: "2026-W47" (weeks start on Monday; week 1 holds the first Thursday). */
export function isoWeek(now: number): string {
  const d = new Date(now);
  const day = (d.getUTCDay() + 6) % 7;
  const thursday = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() - day + 3);
  const year = new Date(thursday).getUTCFullYear();
  const week = 1 + Math.floor((thursday - Date.UTC(year, 0, 1)) / (7 * 86_400_000));
  return `${year}-W${String(week).padStart(2, "0")}`;
}

export function periodsOf(now: number): Periods {
  return {
    day: new Date(now).toISOString().slice(0, 10),
    week: isoWeek(now),
    month: monthOf(now),
    total: "all",
  };
}

export interface Usage {
  /** The key's calls in each period, this one included. */
  key: Record<keyof Periods, number>;
  /** The organisation's calls this month, this one included. */
  orgMonth: number;
}

export interface UsageStore {
  /** Counts one call of the key (and its organisation) in every period. */
  hit(keyId: string, orgId: string, now: number): Promise<Usage>;
  /** The organisation's calls this month so far. */
  orgMonth(orgId: string, now: number): Promise<number>;
  close(): Promise<void>;
}

const PERIOD_NAMES = ["day", "week", "month", "total"] as const;

/** The counters in the database (storage/usage.ts): one process, or several on one SQLite file. */
export class SqliteUsageStore implements UsageStore {
  constructor(private readonly counters: CallCounters) {}

  async hit(keyId: string, orgId: string, now: number): Promise<Usage> {
    const p = periodsOf(now);
    // One statement: the key's four counters and the organisation's move together.
    const [day, week, month, total, orgMonth] = (await this.counters.bump([
      ...PERIOD_NAMES.map((n) => ({ scope: `key:${keyId}`, period: p[n] })),
      { scope: `org:${orgId}`, period: p.month },
    ])) as [number, number, number, number, number];
    return { key: { day, week, month, total }, orgMonth };
  }

  orgMonth(orgId: string, now: number): Promise<number> {
    return this.counters.calls({ scope: `org:${orgId}`, period: monthOf(now) });
  }

  async close(): Promise<void> {}
}

/** Day, week and month counters outlive their period by a margin, then Redis drops them. */
const TTL_MS: Record<keyof Periods, number | null> = {
  day: 2 * 86_400_000,
  week: 8 * 86_400_000,
  month: 32 * 86_400_000,
  total: null,
};

/** Counters remembered for the fallback; beyond this the oldest are forgotten (they restart at 0 locally). */
const KNOWN_COUNTERS = 50_000;

const counterKey = (scope: string, period: string) => `portolan:compat:usage:${scope}:${period}`;

/**
 * Fails open: while Redis is unreachable a call is counted in this process on top of the last value
 * it saw in Redis, so the X-Usage-* headers and the monthly cap keep working from this process's
 * point of view (other processes' calls during the outage are not seen). The calls counted locally
 * are added to Redis as soon as it is back, so the shared counters catch up; they are lost only if
 * the process exits before that.
 */
export class RedisUsageStore implements UsageStore {
  /** Last value seen in Redis per counter (or reached locally on top of it). */
  private readonly known = new Lru<string, number>(KNOWN_COUNTERS);
  /** Calls counted while Redis was unreachable, not yet added to it; with the counter's TTL. */
  private readonly pending = new Map<string, { calls: number; ttlMs: number | null }>();
  private readonly unsubscribe: () => void;

  private constructor(
    private readonly url: string,
    private readonly link: RedisLink,
  ) {
    this.unsubscribe = link.whenUp(() => void this.flush());
  }

  static async connect(url: string): Promise<RedisUsageStore> {
    return new RedisUsageStore(url, await acquireRedis(url));
  }

  private remember(key: string, value: number): void {
    this.known.set(key, value);
  }

  /** Adds the locally counted calls to Redis; on failure they stay pending for the next recovery. */
  private async flush(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = [...this.pending];
    this.pending.clear();
    const ok = await this.link.run(
      async (c) => {
        const multi = c.multi();
        for (const [k, { calls, ttlMs }] of batch) {
          multi.incrBy(k, calls);
          if (ttlMs !== null) multi.pExpire(k, ttlMs);
        }
        await multi.exec();
        return true;
      },
      () => false,
    );
    if (ok) return;
    for (const [k, p] of batch) {
      const now = this.pending.get(k);
      this.pending.set(k, { calls: p.calls + (now?.calls ?? 0), ttlMs: p.ttlMs });
    }
  }

  async hit(keyId: string, orgId: string, now: number): Promise<Usage> {
    const p = periodsOf(now);
    const names = [
      ...PERIOD_NAMES.map((n) => [`key:${keyId}`, n] as const),
      [`org:${orgId}`, "month"] as const,
    ];
    const keys = names.map(([scope, n]) => counterKey(scope, p[n]));
    // Outage counts first (if Redis is back), so the answer below includes them.
    if (this.pending.size > 0) await this.flush();
    const counts = await this.link.run(
      async (c) => {
        const multi = c.multi();
        names.forEach(([, n], i) => {
          multi.incr(keys[i]!);
          const ttl = TTL_MS[n];
          if (ttl !== null) multi.pExpire(keys[i]!, ttl);
        });
        const replies = (await multi.exec()) as unknown[];
        // incr replies sit before each pExpire reply (none after "total").
        const out: number[] = [];
        let i = 0;
        for (const [, n] of names) {
          out.push(Number(replies[i]));
          i += TTL_MS[n] === null ? 1 : 2;
        }
        return out;
      },
      () =>
        names.map(([, n], i) => {
          const k = keys[i]!;
          const pending = this.pending.get(k);
          this.pending.set(k, { calls: (pending?.calls ?? 0) + 1, ttlMs: TTL_MS[n] });
          return (this.known.peek(k) ?? 0) + 1;
        }),
    );
    for (const [i, k] of keys.entries()) this.remember(k, counts[i]!);
    const [day, week, month, total, orgMonth] = counts as [number, number, number, number, number];
    return { key: { day, week, month, total }, orgMonth };
  }

  async orgMonth(orgId: string, now: number): Promise<number> {
    const k = counterKey(`org:${orgId}`, monthOf(now));
    const stored = await this.link.run(
      async (c) => Number((await c.get(k)) ?? 0),
      () => null,
    );
    if (stored === null) return this.known.peek(k) ?? 0;
    // Calls counted during an outage that are not in Redis yet still count against the cap.
    return stored + (this.pending.get(k)?.calls ?? 0);
  }

  async close(): Promise<void> {
    this.unsubscribe();
    await this.flush();
    await releaseRedis(this.url);
  }
}

/** Plan counter: total and remaining null when no cap is configured (spec, metadata). */
export const counter = (used: number, cap: number | null): Counter => ({
  total: cap,
  used,
  remaining: cap === null ? null : Math.max(0, cap - used),
});

/** Unique shipments started this month: the same count the 402 quota checks. */
export function uniqueShipmentsUsed(quotas: Quotas, orgId: string, now: number): Promise<number> {
  return quotas.shipments(orgId, monthOf(now));
}
