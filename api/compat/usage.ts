/**
 * Call counters of the compat surface: per key for the X-Usage-* headers, per organisation for
 * metadata.api_calls (and its optional monthly cap). In SQLite (compat_usage) by default, in Redis
 * when REDIS_URL is set so several API processes count together. Periods are UTC.
 */
import { and, count, eq, sql } from "drizzle-orm";
import { createClient } from "redis";
import { monthOf } from "../accounts/quotas.ts";
import type { Db } from "../db/database.ts";
import { compatUsage, shipmentUsage } from "../db/schema.ts";
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

export class SqliteUsageStore implements UsageStore {
  constructor(private readonly db: Db) {}

  private bump(scope: string, period: string): number {
    return this.db
      .insert(compatUsage)
      .values({ scope, period, calls: 1 })
      .onConflictDoUpdate({
        target: [compatUsage.scope, compatUsage.period],
        set: { calls: sql`${compatUsage.calls} + 1` },
      })
      .returning({ calls: compatUsage.calls })
      .get()!.calls;
  }

  async hit(keyId: string, orgId: string, now: number): Promise<Usage> {
    const p = periodsOf(now);
    return this.db.transaction(() => {
      const key = Object.fromEntries(PERIOD_NAMES.map((n) => [n, this.bump(`key:${keyId}`, p[n])]));
      return { key: key as Usage["key"], orgMonth: this.bump(`org:${orgId}`, p.month) };
    });
  }

  async orgMonth(orgId: string, now: number): Promise<number> {
    const row = this.db
      .select({ calls: compatUsage.calls })
      .from(compatUsage)
      .where(and(eq(compatUsage.scope, `org:${orgId}`), eq(compatUsage.period, monthOf(now))))
      .get();
    return row?.calls ?? 0;
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

const makeClient = (url: string) => createClient({ url });
type Client = ReturnType<typeof makeClient>;

export class RedisUsageStore implements UsageStore {
  private constructor(private readonly client: Client) {}

  static async connect(url: string): Promise<RedisUsageStore> {
    const client = makeClient(url);
    client.on("error", (err) => console.error(`redis (compat usage): ${err.message}`));
    await client.connect();
    return new RedisUsageStore(client);
  }

  async hit(keyId: string, orgId: string, now: number): Promise<Usage> {
    const p = periodsOf(now);
    const multi = this.client.multi();
    const names = [
      ...PERIOD_NAMES.map((n) => [`key:${keyId}`, n] as const),
      [`org:${orgId}`, "month"] as const,
    ];
    for (const [scope, n] of names) {
      const k = `portolan:compat:usage:${scope}:${p[n]}`;
      multi.incr(k);
      const ttl = TTL_MS[n];
      if (ttl !== null) multi.pExpire(k, ttl);
    }
    const replies = (await multi.exec()) as unknown[];
    // incr replies sit before each pExpire reply (none after "total").
    const counts: number[] = [];
    let i = 0;
    for (const [, n] of names) {
      counts.push(Number(replies[i]));
      i += TTL_MS[n] === null ? 1 : 2;
    }
    const [day, week, month, total, orgMonth] = counts as [number, number, number, number, number];
    return { key: { day, week, month, total }, orgMonth };
  }

  async orgMonth(orgId: string, now: number): Promise<number> {
    return Number((await this.client.get(`portolan:compat:usage:org:${orgId}:${monthOf(now)}`)) ?? 0);
  }

  async close(): Promise<void> {
    await this.client.quit();
  }
}

/** Plan counter: total and remaining null when no cap is configured (spec, metadata). */
export const counter = (used: number, cap: number | null): Counter => ({
  total: cap,
  used,
  remaining: cap === null ? null : Math.max(0, cap - used),
});

/** Unique shipments started this month: the same count the 402 quota checks. */
export function uniqueShipmentsUsed(db: Db, orgId: string, now: number): number {
  return db
    .select({ n: count() })
    .from(shipmentUsage)
    .where(and(eq(shipmentUsage.orgId, orgId), eq(shipmentUsage.month, monthOf(now))))
    .get()!.n;
}
