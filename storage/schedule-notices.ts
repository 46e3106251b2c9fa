/**
 * Bookkeeping of the time- and measure-driven schedules events: the cut-off notices given
 * (cutoff_approaching, once per organisation, sailing, call and code) and the reliability_drop
 * state per scope. Each write is conditional on the stored row, so concurrent sweeps in several
 * processes claim each notice or drop once: on PostgreSQL a second writer waits on the row (or the
 * key) and then finds it taken; SQLite's write lock makes the whole sweep exclusive anyway.
 */
import { and, eq, gt, inArray } from "drizzle-orm";
import type { Runner } from "./runner.ts";
import type { cutoffNotices, reliabilityStates } from "./schema.ts";

export type CutoffNoticeRow = typeof cutoffNotices.$inferSelect;
export type ReliabilityStateRow = typeof reliabilityStates.$inferSelect;

export type NoticeKey = Pick<CutoffNoticeRow, "orgId" | "sailingId" | "call" | "code">;

export interface Measured {
  reliability: number | null;
  calls: number;
  measuredAt: string;
}

export interface ScheduleNotices {
  /** Inserts the notices not given yet (in key order) and answers those it inserted. */
  claimCutoffs(rows: readonly CutoffNoticeRow[]): Promise<CutoffNoticeRow[]>;
  /** The notices already given for these sailings. */
  cutoffsOf(sailingIds: readonly string[]): Promise<CutoffNoticeRow[]>;
  /**
   * Moves a notice to an earlier cut-off time when the stored one is later than `laterThan`
   * (cutOffAt + the re-notice threshold): true when this call moved it, false when it was not
   * (any more) that much later.
   */
  moveCutoff(key: NoticeKey, cutOffAt: string, laterThan: string, notifiedAt: string): Promise<boolean>;
  /** The states of these scopes, each made (armed) when missing. */
  states(scopes: readonly string[]): Promise<ReliabilityStateRow[]>;
  /** Records the measurement; with `armed` also moves the flag, true only if it changed it. */
  measure(scope: string, m: Measured, armed?: boolean): Promise<boolean>;
}

export class SqlScheduleNotices implements ScheduleNotices {
  constructor(private readonly x: Runner) {}

  claimCutoffs(rows: readonly CutoffNoticeRow[]): Promise<CutoffNoticeRow[]> {
    const { cutoffNotices: n } = this.x.t;
    if (rows.length === 0) return Promise.resolve([]);
    // One order for every sweep: two inserting the same keys wait on each other, never deadlock.
    const sorted = [...rows].sort((a, b) =>
      [a.orgId, a.sailingId, a.call, a.code].join("\u0000") <
      [b.orgId, b.sailingId, b.call, b.code].join("\u0000")
        ? -1
        : 1,
    );
    return this.x.atomic(async (db) => {
      const out: CutoffNoticeRow[] = [];
      for (let i = 0; i < sorted.length; i += 200) {
        out.push(
          ...(await db
            .insert(n)
            .values(sorted.slice(i, i + 200))
            .onConflictDoNothing()
            .returning()),
        );
      }
      return out;
    });
  }

  cutoffsOf(sailingIds: readonly string[]): Promise<CutoffNoticeRow[]> {
    const { cutoffNotices: n } = this.x.t;
    if (sailingIds.length === 0) return Promise.resolve([]);
    return this.x.run(async (db) => {
      const out: CutoffNoticeRow[] = [];
      const ids = [...new Set(sailingIds)];
      for (let i = 0; i < ids.length; i += 500) {
        out.push(
          ...(await db
            .select()
            .from(n)
            .where(inArray(n.sailingId, ids.slice(i, i + 500)))),
        );
      }
      return out;
    });
  }

  moveCutoff(key: NoticeKey, cutOffAt: string, laterThan: string, notifiedAt: string): Promise<boolean> {
    const { cutoffNotices: n } = this.x.t;
    return this.x.run(
      async (db) =>
        (
          await db
            .update(n)
            .set({ cutOffAt, notifiedAt })
            .where(
              and(
                eq(n.orgId, key.orgId),
                eq(n.sailingId, key.sailingId),
                eq(n.call, key.call),
                eq(n.code, key.code),
                gt(n.cutOffAt, laterThan),
              ),
            )
            .returning({ code: n.code })
        ).length > 0,
    );
  }

  states(scopes: readonly string[]): Promise<ReliabilityStateRow[]> {
    const { reliabilityStates: r } = this.x.t;
    if (scopes.length === 0) return Promise.resolve([]);
    const sorted = [...new Set(scopes)].sort();
    return this.x.atomic(async (db) => {
      await db
        .insert(r)
        .values(sorted.map((scope) => ({ scope })))
        .onConflictDoNothing();
      return db.select().from(r).where(inArray(r.scope, sorted)).orderBy(r.scope);
    });
  }

  measure(scope: string, m: Measured, armed?: boolean): Promise<boolean> {
    const { reliabilityStates: r } = this.x.t;
    return this.x.run(async (db) => {
      const set = {
        ...m,
        ...(armed === undefined ? {} : { armed }),
        ...(armed === false ? { droppedAt: m.measuredAt } : {}),
      };
      // The flag moves only from its other value: of two sweeps, only the first changes it.
      const flag = armed === undefined ? undefined : eq(r.armed, !armed);
      const changed = await db
        .update(r)
        .set(set)
        .where(and(eq(r.scope, scope), flag))
        .returning({ scope: r.scope });
      if (armed !== undefined && changed.length === 0) {
        await db.update(r).set(m).where(eq(r.scope, scope));
      }
      return armed !== undefined && changed.length > 0;
    });
  }
}
