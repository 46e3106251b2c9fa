/**
 * Tracked records: roots (a container, bill of lading or booking a customer added) and the boxes a
 * B/L or booking names (children). Every statement on the tracked table the engine and the ocean
 * handlers need; the rules deciding what to write stay with them.
 */
import {
  and,
  count,
  desc,
  eq,
  gt,
  inArray,
  isNotNull,
  isNull,
  like,
  lt,
  lte,
  ne,
  or,
  type SQL,
  sql,
} from "drizzle-orm";
import type { Runner } from "./runner.ts";
import { tracked } from "./schema.ts";

export type TrackedRow = typeof tracked.$inferSelect;
export type NewTracked = typeof tracked.$inferInsert;

/** Reason of a root archived because the carrier rejected its number's form (its charge refunded). */
export const REJECTED_REASON = "rejected: invalid number";
/** Reason of a box of a B/L or booking held back for want of a container slot (taken up when one frees). */
export const PARKED_REASON = "not tracked: no container slot free";

export interface ListFilter {
  archived: boolean;
  status?: string;
  /** A row must carry all of them. */
  tags: readonly string[];
  /** Rows strictly after this one in (updated_at desc, id desc) order. */
  after?: { updatedAt: string; id: string };
  limit: number;
}

export interface Trackings {
  byId(id: string): Promise<TrackedRow | undefined>;
  /** A record of the organisation (another organisation's id reads as absent). */
  get(orgId: string, id: string): Promise<TrackedRow | undefined>;
  /** Active records carrying the identifier as their own reference or as their container number. */
  activeCarrying(orgId: string, identifier: string): Promise<TrackedRow[]>;
  children(parentId: string): Promise<TrackedRow[]>;
  /** Container numbers of a B/L's or booking's boxes parked for want of a slot. */
  parkedBoxes(rootId: string): Promise<Set<string>>;
  /** The latest root record of the identifier, archived or not. */
  latestRoot(orgId: string, identifier: string): Promise<TrackedRow | undefined>;
  /**
   * The latest record archived as completed that carries the identifier (as its reference or its
   * container number).
   */
  lastCompleted(orgId: string, identifier: string): Promise<TrackedRow | undefined>;
  insert(row: NewTracked): Promise<TrackedRow>;
  update(id: string, fields: Partial<TrackedRow>): Promise<void>;
  /** Updates a record only while it is marked as adding. */
  updateWhileAdding(id: string, fields: Partial<TrackedRow>): Promise<void>;
  /** Updates a root and its boxes (only those not archived yet, with `activeOnly`). */
  updateTree(rootId: string, fields: Partial<TrackedRow>, activeOnly?: boolean): Promise<void>;
  /** Updates a root's parked boxes. */
  updateParked(rootId: string, fields: Partial<TrackedRow>): Promise<void>;
  /** Ids of a root and its boxes. */
  treeIds(rootId: string): Promise<string[]>;
  delete(ids: readonly string[]): Promise<void>;
  /** A root and its boxes whose owner is a lessor, parked boxes left out. */
  leasedInTree(rootId: string): Promise<TrackedRow[]>;
  /** Makes adds started before `startedBefore` and still marked due at `now`; returns how many. */
  recoverInterruptedAdds(now: string, startedBefore: string): Promise<number>;
  /**
   * Claims up to `limit` root records due at `now` (oldest due first) by moving their next poll to
   * `until` in one statement, so several pollers on one database never take the same record.
   */
  claimDue(now: string, until: string, limit: number): Promise<string[]>;
  /** A page of the organisation's records, most recently updated first. */
  list(orgId: string, filter: ListFilter): Promise<TrackedRow[]>;
  /** Active boxes (records with a container number), most recently updated first. */
  activeBoxes(orgId: string, limit: number): Promise<TrackedRow[]>;
  /** Active boxes by status. */
  activeBoxesByStatus(orgId: string): Promise<Record<string, number>>;
  /**
   * Boxes that arrived on a lane (discharged or later, with a first-plan arrival delay): how many,
   * and how many within `onTimeDays` of the first plan.
   */
  laneArrivals(lane: Lane, onTimeDays: number): Promise<{ total: number; onTime: number }>;
}

export interface Lane {
  carrierCode: string;
  originUnlocode: string;
  destinationUnlocode: string;
}

const treeOf = (rootId: string) => or(eq(tracked.id, rootId), eq(tracked.parentId, rootId));
const activeBoxFilter = (orgId: string) =>
  and(eq(tracked.orgId, orgId), isNull(tracked.archivedAt), isNotNull(tracked.containerNumber));

export class SqliteTrackings implements Trackings {
  constructor(private readonly x: Runner) {}

  byId(id: string): Promise<TrackedRow | undefined> {
    return this.x.run((db) => db.select().from(tracked).where(eq(tracked.id, id)).get());
  }

  get(orgId: string, id: string): Promise<TrackedRow | undefined> {
    return this.x.run((db) =>
      db
        .select()
        .from(tracked)
        .where(and(eq(tracked.id, id), eq(tracked.orgId, orgId)))
        .get(),
    );
  }

  activeCarrying(orgId: string, identifier: string): Promise<TrackedRow[]> {
    return this.x.run((db) => {
      // Two indexed lookups: SQLite's planner serves an OR of the two columns with a scan.
      const active = (column: typeof tracked.identifier | typeof tracked.containerNumber) =>
        db
          .select()
          .from(tracked)
          .where(and(eq(tracked.orgId, orgId), eq(column, identifier), isNull(tracked.archivedAt)))
          .all();
      return [...active(tracked.identifier), ...active(tracked.containerNumber)];
    });
  }

  children(parentId: string): Promise<TrackedRow[]> {
    return this.x.run((db) => db.select().from(tracked).where(eq(tracked.parentId, parentId)).all());
  }

  parkedBoxes(rootId: string): Promise<Set<string>> {
    return this.x.run(
      (db) =>
        new Set(
          db
            .select({ n: tracked.containerNumber })
            .from(tracked)
            .where(and(eq(tracked.parentId, rootId), eq(tracked.archivedReason, PARKED_REASON)))
            .all()
            .map((r) => r.n!),
        ),
    );
  }

  latestRoot(orgId: string, identifier: string): Promise<TrackedRow | undefined> {
    return this.x.run((db) =>
      db
        .select()
        .from(tracked)
        .where(and(eq(tracked.orgId, orgId), eq(tracked.identifier, identifier), isNull(tracked.parentId)))
        .orderBy(desc(tracked.addedAt))
        .limit(1)
        .get(),
    );
  }

  lastCompleted(orgId: string, identifier: string): Promise<TrackedRow | undefined> {
    return this.x.run((db) =>
      db
        .select()
        .from(tracked)
        .where(
          and(
            eq(tracked.orgId, orgId),
            or(eq(tracked.identifier, identifier), eq(tracked.containerNumber, identifier)),
            like(tracked.archivedReason, "completed%"),
          ),
        )
        .orderBy(desc(tracked.archivedAt))
        .limit(1)
        .get(),
    );
  }

  insert(row: NewTracked): Promise<TrackedRow> {
    return this.x.run((db) => db.insert(tracked).values(row).returning().get());
  }

  update(id: string, fields: Partial<TrackedRow>): Promise<void> {
    return this.x.run((db) => {
      db.update(tracked).set(fields).where(eq(tracked.id, id)).run();
    });
  }

  updateWhileAdding(id: string, fields: Partial<TrackedRow>): Promise<void> {
    return this.x.run((db) => {
      db.update(tracked)
        .set(fields)
        .where(and(eq(tracked.id, id), eq(tracked.adding, true)))
        .run();
    });
  }

  updateTree(rootId: string, fields: Partial<TrackedRow>, activeOnly = false): Promise<void> {
    return this.x.run((db) => {
      db.update(tracked)
        .set(fields)
        .where(activeOnly ? and(treeOf(rootId), isNull(tracked.archivedAt)) : treeOf(rootId))
        .run();
    });
  }

  updateParked(rootId: string, fields: Partial<TrackedRow>): Promise<void> {
    return this.x.run((db) => {
      db.update(tracked)
        .set(fields)
        .where(and(eq(tracked.parentId, rootId), eq(tracked.archivedReason, PARKED_REASON)))
        .run();
    });
  }

  treeIds(rootId: string): Promise<string[]> {
    return this.x.run((db) =>
      db
        .select({ id: tracked.id })
        .from(tracked)
        .where(treeOf(rootId))
        .all()
        .map((r) => r.id),
    );
  }

  delete(ids: readonly string[]): Promise<void> {
    return this.x.run((db) => {
      db.delete(tracked)
        .where(inArray(tracked.id, [...ids]))
        .run();
    });
  }

  leasedInTree(rootId: string): Promise<TrackedRow[]> {
    return this.x.run((db) =>
      db
        .select()
        .from(tracked)
        .where(
          and(
            treeOf(rootId),
            eq(tracked.ownerIsLessor, true),
            or(isNull(tracked.archivedReason), ne(tracked.archivedReason, PARKED_REASON)),
          ),
        )
        .all(),
    );
  }

  recoverInterruptedAdds(now: string, startedBefore: string): Promise<number> {
    return this.x.run(
      (db) =>
        db
          .update(tracked)
          .set({ nextPollAt: now })
          .where(
            and(
              eq(tracked.adding, true),
              isNull(tracked.archivedAt),
              lte(tracked.addedAt, startedBefore),
              or(isNull(tracked.nextPollAt), gt(tracked.nextPollAt, now)),
            ),
          )
          .returning({ id: tracked.id })
          .all().length,
    );
  }

  claimDue(now: string, until: string, limit: number): Promise<string[]> {
    return this.x.run((db) => {
      const due = db
        .select({ id: tracked.id })
        .from(tracked)
        .where(and(isNull(tracked.archivedAt), isNull(tracked.parentId), lte(tracked.nextPollAt, now)))
        .orderBy(tracked.nextPollAt)
        .limit(limit)
        .all()
        .map((r) => r.id);
      if (due.length === 0) return [];
      return db
        .update(tracked)
        .set({ nextPollAt: until })
        .where(and(inArray(tracked.id, due), lte(tracked.nextPollAt, now)))
        .returning({ id: tracked.id })
        .all()
        .map((r) => r.id);
    });
  }

  list(orgId: string, filter: ListFilter): Promise<TrackedRow[]> {
    const conditions: SQL[] = [
      eq(tracked.orgId, orgId),
      filter.archived ? isNotNull(tracked.archivedAt) : isNull(tracked.archivedAt),
    ];
    if (filter.status !== undefined) conditions.push(eq(tracked.status, filter.status));
    for (const tag of filter.tags) {
      conditions.push(sql`exists (select 1 from json_each(${tracked.tags}) where value = ${tag})`);
    }
    if (filter.after) {
      const { updatedAt, id } = filter.after;
      conditions.push(
        or(lt(tracked.updatedAt, updatedAt), and(eq(tracked.updatedAt, updatedAt), lt(tracked.id, id)))!,
      );
    }
    return this.x.run((db) =>
      db
        .select()
        .from(tracked)
        .where(and(...conditions))
        .orderBy(desc(tracked.updatedAt), desc(tracked.id))
        .limit(filter.limit)
        .all(),
    );
  }

  activeBoxes(orgId: string, limit: number): Promise<TrackedRow[]> {
    return this.x.run((db) =>
      db
        .select()
        .from(tracked)
        .where(activeBoxFilter(orgId))
        .orderBy(desc(tracked.updatedAt))
        .limit(limit)
        .all(),
    );
  }

  laneArrivals(lane: Lane, onTimeDays: number): Promise<{ total: number; onTime: number }> {
    // delay_bars[3]: the arrival's delay against the first plan, in days.
    const arrival = sql<number>`json_extract(${tracked.delayBars}, '$[3]')`;
    return this.x.run((db) => {
      const row = db
        .select({
          total: sql<number>`count(*)`,
          onTime: sql<number | null>`sum(abs(${arrival}) <= ${onTimeDays})`,
        })
        .from(tracked)
        .where(
          and(
            eq(tracked.carrierCode, lane.carrierCode),
            eq(tracked.originUnlocode, lane.originUnlocode),
            eq(tracked.destinationUnlocode, lane.destinationUnlocode),
            isNotNull(tracked.containerNumber),
            inArray(tracked.stage, ["discharged", "available", "delivered", "returned_empty"]),
            sql`${arrival} is not null`,
          ),
        )
        .get();
      return { total: row?.total ?? 0, onTime: Number(row?.onTime ?? 0) };
    });
  }

  activeBoxesByStatus(orgId: string): Promise<Record<string, number>> {
    return this.x.run((db) =>
      Object.fromEntries(
        db
          .select({ status: tracked.status, n: count() })
          .from(tracked)
          .where(activeBoxFilter(orgId))
          .groupBy(tracked.status)
          .all()
          .map((s) => [s.status, s.n]),
      ),
    );
  }
}
