/**
 * Tracked records: roots (a container, bill of lading or booking a customer added) and the boxes a
 * B/L or booking names (children). Every statement on the tracked table the engine and the ocean
 * handlers need; the rules deciding what to write stay with them. The writes are here; the single
 * reads are in tracked-reads.ts, the lists in tracked-lists.ts, what all share in tracked-rows.ts.
 */
import { and, eq, gt, inArray, isNull, lte, ne, or, type SQL } from "drizzle-orm";
import { claimDue, lockRow } from "./claims.ts";
import type { Runner } from "./runner.ts";
import { type Lane, type ListFilter, type PageKeys, RecordLists } from "./tracked-lists.ts";
import { type RecordKey, type RecordRead, RecordReads } from "./tracked-reads.ts";
import {
  type NewTracked,
  nextVersion,
  PARKED_REASON,
  type TrackedRow,
  trackedRow,
  treeOf,
} from "./tracked-rows.ts";

export type { Lane, ListFilter, PageKey, PageKeys } from "./tracked-lists.ts";
export type { RecordKey, RecordRead } from "./tracked-reads.ts";
export type { NewTracked, TrackedRow } from "./tracked-rows.ts";
export {
  NO_SLOTS_REASON,
  PARKED_REASON,
  REFUNDED_REASONS,
  REJECTED_REASON,
  treeEventsChanged,
  treeOf,
} from "./tracked-rows.ts";

export interface Trackings {
  byId(id: string): Promise<TrackedRow | undefined>;
  /**
   * Locks a record's row until the enclosing transaction ends: refreshes of one record from
   * several processes take turns (PostgreSQL; SQLite's write lock, taken at BEGIN, already does).
   * Take it before the organisation's lock (Orgs.lock) when a unit needs both.
   */
  lock(id: string): Promise<void>;
  /** A record of the organisation (another organisation's id reads as absent). */
  get(orgId: string, id: string): Promise<TrackedRow | undefined>;
  /** Active records carrying the identifier as their own reference or as their container number. */
  activeCarrying(orgId: string, identifier: string): Promise<TrackedRow[]>;
  /**
   * The one of activeCarrying's rows a lookup answers with: a root tracked by that very identifier
   * wins over a box of some B/L, otherwise the first row. Reads the container column only when
   * the identifier column names no root.
   */
  firstActiveCarrying(orgId: string, identifier: string): Promise<TrackedRow | undefined>;
  /** The key of the row firstActiveCarrying answers, from the indexes alone. */
  firstActiveKey(orgId: string, identifier: string): Promise<RecordKey | undefined>;
  /**
   * get's and firstActiveCarrying's rows with their stored milestones, read in the same statement:
   * a lookup of a record not read before takes one random read of the file, not two.
   */
  readOwn(orgId: string, id: string): Promise<RecordRead | undefined>;
  readFirstActive(orgId: string, identifier: string): Promise<RecordRead | undefined>;
  /** The key of a record of the organisation (another organisation's id reads as absent). */
  keyOf(orgId: string, id: string): Promise<RecordKey | undefined>;
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
  /**
   * The same page as list's, only each row's key and version (from the index when unfiltered),
   * and whether the organisation has terms.
   */
  listKeys(orgId: string, filter: ListFilter): Promise<PageKeys>;
  /** The organisation's records of these ids (another organisation's ids read as absent), any order. */
  byIds(orgId: string, ids: readonly string[]): Promise<TrackedRow[]>;
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

export class SqlTrackings implements Trackings {
  private readonly reads: RecordReads;
  private readonly lists: RecordLists;

  constructor(private readonly x: Runner) {
    this.reads = new RecordReads(x);
    this.lists = new RecordLists(x);
  }

  private get tracked() {
    return this.x.t.tracked;
  }

  /** Every update of tracked rows: the version moves with the change (see schema/tracking.ts). */
  private set(where: SQL | undefined, fields: Partial<TrackedRow>): Promise<void> {
    const tracked = this.tracked;
    return this.x.run(async (db) => {
      await db
        .update(tracked)
        .set({ ...fields, version: nextVersion(tracked) })
        .where(where);
    });
  }

  byId(id: string): Promise<TrackedRow | undefined> {
    return this.reads.byId(id);
  }

  get(orgId: string, id: string): Promise<TrackedRow | undefined> {
    return this.reads.get(orgId, id);
  }

  activeCarrying(orgId: string, identifier: string): Promise<TrackedRow[]> {
    return this.reads.activeCarrying(orgId, identifier);
  }

  firstActiveCarrying(orgId: string, identifier: string): Promise<TrackedRow | undefined> {
    return this.reads.firstActiveCarrying(orgId, identifier);
  }

  firstActiveKey(orgId: string, identifier: string): Promise<RecordKey | undefined> {
    return this.reads.firstActiveKey(orgId, identifier);
  }

  readOwn(orgId: string, id: string): Promise<RecordRead | undefined> {
    return this.reads.readOwn(orgId, id);
  }

  readFirstActive(orgId: string, identifier: string): Promise<RecordRead | undefined> {
    return this.reads.readFirstActive(orgId, identifier);
  }

  keyOf(orgId: string, id: string): Promise<RecordKey | undefined> {
    return this.reads.keyOf(orgId, id);
  }

  children(parentId: string): Promise<TrackedRow[]> {
    return this.reads.children(parentId);
  }

  parkedBoxes(rootId: string): Promise<Set<string>> {
    return this.reads.parkedBoxes(rootId);
  }

  latestRoot(orgId: string, identifier: string): Promise<TrackedRow | undefined> {
    return this.reads.latestRoot(orgId, identifier);
  }

  lastCompleted(orgId: string, identifier: string): Promise<TrackedRow | undefined> {
    return this.reads.lastCompleted(orgId, identifier);
  }

  lock(id: string): Promise<void> {
    return lockRow(this.x, this.tracked, id);
  }

  insert(row: NewTracked): Promise<TrackedRow> {
    const tracked = this.tracked;
    return this.x.run(
      async (db) => (await db.insert(tracked).values(row).returning(trackedRow(tracked)))[0]!,
    );
  }

  update(id: string, fields: Partial<TrackedRow>): Promise<void> {
    return this.set(eq(this.tracked.id, id), fields);
  }

  updateWhileAdding(id: string, fields: Partial<TrackedRow>): Promise<void> {
    const tracked = this.tracked;
    return this.set(and(eq(tracked.id, id), eq(tracked.adding, true)), fields);
  }

  updateTree(rootId: string, fields: Partial<TrackedRow>, activeOnly = false): Promise<void> {
    const tracked = this.tracked;
    const tree = treeOf(tracked, rootId);
    return this.set(activeOnly ? and(tree, isNull(tracked.archivedAt)) : tree, fields);
  }

  updateParked(rootId: string, fields: Partial<TrackedRow>): Promise<void> {
    const tracked = this.tracked;
    return this.set(and(eq(tracked.parentId, rootId), eq(tracked.archivedReason, PARKED_REASON)), fields);
  }

  treeIds(rootId: string): Promise<string[]> {
    const tracked = this.tracked;
    return this.x.run(async (db) =>
      (await db.select({ id: tracked.id }).from(tracked).where(treeOf(tracked, rootId))).map((r) => r.id),
    );
  }

  delete(ids: readonly string[]): Promise<void> {
    const tracked = this.tracked;
    return this.x.run(async (db) => {
      await db.delete(tracked).where(inArray(tracked.id, [...ids]));
    });
  }

  leasedInTree(rootId: string): Promise<TrackedRow[]> {
    const tracked = this.tracked;
    const where = and(
      treeOf(tracked, rootId),
      eq(tracked.ownerIsLessor, true),
      or(isNull(tracked.archivedReason), ne(tracked.archivedReason, PARKED_REASON)),
    );
    return this.x.run((db) => db.select(trackedRow(tracked)).from(tracked).where(where));
  }

  recoverInterruptedAdds(now: string, startedBefore: string): Promise<number> {
    const tracked = this.tracked;
    return this.x.run(
      async (db) =>
        (
          await db
            .update(tracked)
            .set({ nextPollAt: now, version: nextVersion(tracked) })
            .where(
              and(
                eq(tracked.adding, true),
                isNull(tracked.archivedAt),
                lte(tracked.addedAt, startedBefore),
                or(isNull(tracked.nextPollAt), gt(tracked.nextPollAt, now)),
              ),
            )
            .returning({ id: tracked.id })
        ).length,
    );
  }

  claimDue(now: string, until: string, limit: number): Promise<string[]> {
    // Roots only: a B/L's or booking's boxes are polled with their root.
    return claimDue(this.x, this.tracked, now, until, limit, isNull(this.tracked.parentId));
  }

  list(orgId: string, filter: ListFilter): Promise<TrackedRow[]> {
    return this.lists.list(orgId, filter);
  }

  listKeys(orgId: string, filter: ListFilter): Promise<PageKeys> {
    return this.lists.listKeys(orgId, filter);
  }

  byIds(orgId: string, ids: readonly string[]): Promise<TrackedRow[]> {
    return this.lists.byIds(orgId, ids);
  }

  activeBoxes(orgId: string, limit: number): Promise<TrackedRow[]> {
    return this.lists.activeBoxes(orgId, limit);
  }

  activeBoxesByStatus(orgId: string): Promise<Record<string, number>> {
    return this.lists.activeBoxesByStatus(orgId);
  }

  laneArrivals(lane: Lane, onTimeDays: number): Promise<{ total: number; onTime: number }> {
    return this.lists.laneArrivals(lane, onTimeDays);
  }
}
