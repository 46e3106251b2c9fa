/**
 * Carrier sailing schedules: the sailings a schedule refresh keeps, the changes it finds, and the
 * per-carrier feed row that serialises refreshes. The rules deciding what to write stay in
 * ingest/schedules/sync.ts.
 */
import { and, asc, between, eq, gte, inArray, lte, or, sql } from "drizzle-orm";
import type { Runner, Tables } from "./runner.ts";
import { type SailingStamp, sailingCacheFor } from "./sailing-cache.ts";
import type { sailingChanges, sailings, scheduleFeeds } from "./schema.ts";

export type SailingRow = typeof sailings.$inferSelect;
export type NewSailing = typeof sailings.$inferInsert;
export type SailingChangeRow = typeof sailingChanges.$inferSelect;
export type NewSailingChange = typeof sailingChanges.$inferInsert;
export type ScheduleFeedRow = typeof scheduleFeeds.$inferSelect;

/** What the schedules product reads: active sailings overlapping a span, narrowed by columns. */
export interface SailingQuery {
  /** UTC ISO bounds: sailings with departsAt <= to and arrivesAt >= from (planned times). */
  from: string;
  to: string;
  carriers?: readonly string[];
  serviceCode?: string;
  vesselImo?: string;
}

export interface Sailings {
  get(id: string): Promise<SailingRow | undefined>;
  /**
   * Active sailings whose planned span [departsAt, arrivesAt] meets [from, to], by departsAt then
   * id. Calls are JSON: callers filter them in TypeScript, so they keep `to - from` bounded.
   */
  overlapping(q: SailingQuery): Promise<SailingRow[]>;
  /** The carrier's sailings departing (planned) within [from, to] or named in `ids`, any status. */
  forRefresh(carrier: string, from: string, to: string, ids: readonly string[]): Promise<SailingRow[]>;
  insert(row: NewSailing): Promise<void>;
  update(id: string, fields: Partial<SailingRow>): Promise<void>;
  appendChanges(changes: readonly NewSailingChange[]): Promise<void>;
  /** A sailing's changes in the order recorded. */
  changes(sailingId: string): Promise<SailingChangeRow[]>;
  feed(carrier: string): Promise<ScheduleFeedRow | undefined>;
  /**
   * The carrier's feed row, made if missing and locked until the enclosing transaction ends:
   * refreshes of one carrier from several processes take turns (PostgreSQL; SQLite's write lock,
   * taken at BEGIN, already does).
   */
  lockFeed(carrier: string): Promise<ScheduleFeedRow>;
  updateFeed(carrier: string, fields: Partial<ScheduleFeedRow>): Promise<void>;
}

export class SqlSailings implements Sailings {
  constructor(private readonly x: Runner) {}

  get(id: string): Promise<SailingRow | undefined> {
    const { sailings } = this.x.t;
    return this.x.run(
      async (db) => (await db.select().from(sailings).where(eq(sailings.id, id)).limit(1))[0],
    );
  }

  /**
   * Reads the window's (id, version) pairs, then fetches and parses only the rows the process's
   * cache does not hold under that version (storage/sailing-cache.ts).
   */
  async overlapping(q: SailingQuery): Promise<SailingRow[]> {
    const { sailings } = this.x.t;
    const cache = sailingCacheFor(this.x.root);
    const stamps: SailingStamp[] = await this.x.run((db) =>
      db
        .select({ id: sailings.id, version: sailings.version })
        .from(sailings)
        .where(overlaps(sailings, q))
        .orderBy(asc(sailings.departsAt), asc(sailings.id)),
    );
    const held = stamps.map((s) => cache.get(s));
    const missing = stamps.filter((_, i) => !held[i]).map((s) => s.id);
    if (missing.length === 0) return held as SailingRow[];
    const fetched = new Map<string, SailingRow>();
    // Batches stay under SQLite's bound-parameter limit however wide the window.
    for (let i = 0; i < missing.length; i += 500) {
      const batch = missing.slice(i, i + 500);
      const rows = await this.x.run((db) => db.select().from(sailings).where(inArray(sailings.id, batch)));
      for (const row of rows) {
        cache.set(row, row);
        fetched.set(row.id, row);
      }
    }
    // A row a refresh changed between the two reads comes back as it is now, kept if it still
    // matches and put back in the read's order.
    let moved = false;
    const out: SailingRow[] = [];
    stamps.forEach((s, i) => {
      const row = held[i] ?? fetched.get(s.id);
      if (!row || !matches(row, q)) return;
      moved ||= row.version !== s.version;
      out.push(row);
    });
    if (moved) out.sort((a, b) => cmp(a.departsAt, b.departsAt) || cmp(a.id, b.id));
    return out;
  }

  forRefresh(carrier: string, from: string, to: string, ids: readonly string[]): Promise<SailingRow[]> {
    const { sailings } = this.x.t;
    const inWindow = between(sailings.departsAt, from, to);
    return this.x.run((db) =>
      db
        .select()
        .from(sailings)
        .where(
          and(
            eq(sailings.carrier, carrier),
            ids.length ? or(inWindow, inArray(sailings.id, [...ids])) : inWindow,
          ),
        ),
    );
  }

  insert(row: NewSailing): Promise<void> {
    const { sailings } = this.x.t;
    return this.x.run(async (db) => {
      await db.insert(sailings).values(row);
    });
  }

  /** Every write to a sailing moves its version in the same statement (the cache's key). */
  update(id: string, fields: Partial<SailingRow>): Promise<void> {
    const { sailings } = this.x.t;
    return this.x.run(async (db) => {
      await db
        .update(sailings)
        .set({ ...fields, version: sql`${sailings.version} + 1` })
        .where(eq(sailings.id, id));
    });
  }

  appendChanges(changes: readonly NewSailingChange[]): Promise<void> {
    const { sailingChanges } = this.x.t;
    if (changes.length === 0) return Promise.resolve();
    return this.x.run(async (db) => {
      // Batches stay under SQLite's bound-parameter limit whatever a refresh found.
      for (let i = 0; i < changes.length; i += 500) {
        await db.insert(sailingChanges).values(changes.slice(i, i + 500));
      }
    });
  }

  changes(sailingId: string): Promise<SailingChangeRow[]> {
    const { sailingChanges } = this.x.t;
    return this.x.run((db) =>
      db
        .select()
        .from(sailingChanges)
        .where(eq(sailingChanges.sailingId, sailingId))
        .orderBy(asc(sailingChanges.seq)),
    );
  }

  feed(carrier: string): Promise<ScheduleFeedRow | undefined> {
    const { scheduleFeeds } = this.x.t;
    return this.x.run(
      async (db) =>
        (await db.select().from(scheduleFeeds).where(eq(scheduleFeeds.carrier, carrier)).limit(1))[0],
    );
  }

  lockFeed(carrier: string): Promise<ScheduleFeedRow> {
    const { scheduleFeeds } = this.x.t;
    return this.x.atomic(async (db) => {
      await db.insert(scheduleFeeds).values({ carrier }).onConflictDoNothing();
      const rows = await this.x.dialect.forUpdate(
        db.select().from(scheduleFeeds).where(eq(scheduleFeeds.carrier, carrier)),
      );
      return rows[0]!;
    });
  }

  updateFeed(carrier: string, fields: Partial<ScheduleFeedRow>): Promise<void> {
    const { scheduleFeeds } = this.x.t;
    return this.x.run(async (db) => {
      await db
        .insert(scheduleFeeds)
        .values({ carrier, ...fields })
        .onConflictDoUpdate({
          target: scheduleFeeds.carrier,
          set: fields,
        });
    });
  }
}

/** SailingQuery as SQL: what `overlapping` selects. */
function overlaps(sailings: Tables["sailings"], q: SailingQuery) {
  return and(
    eq(sailings.status, "active"),
    lte(sailings.departsAt, q.to),
    gte(sailings.arrivesAt, q.from),
    q.carriers?.length ? inArray(sailings.carrier, [...q.carriers]) : undefined,
    q.serviceCode === undefined ? undefined : eq(sailings.serviceCode, q.serviceCode),
    q.vesselImo === undefined ? undefined : eq(sailings.vesselImo, q.vesselImo),
  );
}

/** SailingQuery in TypeScript, for a row fetched again after its stamp was read. */
function matches(r: SailingRow, q: SailingQuery): boolean {
  return (
    r.status === "active" &&
    r.departsAt <= q.to &&
    r.arrivesAt >= q.from &&
    (!q.carriers?.length || q.carriers.includes(r.carrier)) &&
    (q.serviceCode === undefined || r.serviceCode === q.serviceCode) &&
    (q.vesselImo === undefined || r.vesselImo === q.vesselImo)
  );
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
