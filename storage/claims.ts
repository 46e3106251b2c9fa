/**
 * Row locks and poll claims of the polled tables (tracked containers, air waybills): several
 * processes refresh and poll the same database, and these keep them off each other's rows.
 */
import { and, eq, inArray, isNull, lte, type SQL } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Runner } from "./runner.ts";

export type PolledTable = SQLiteTable & {
  id: SQLiteColumn;
  nextPollAt: SQLiteColumn;
  archivedAt: SQLiteColumn;
};

/**
 * Locks a row until the enclosing transaction ends, so refreshes of one row from several processes
 * take turns (PostgreSQL; SQLite's write lock, taken at BEGIN, already does).
 */
export async function lockRow(
  x: Runner,
  table: SQLiteTable & { id: SQLiteColumn },
  id: string,
): Promise<void> {
  await x.run(async (db) => {
    await x.dialect.forUpdate(db.select({ id: table.id }).from(table).where(eq(table.id, id)));
  });
}

/**
 * Claims up to `limit` active rows (and within `scope`) due at `now`, oldest due first, by moving
 * their next poll to `until` in one statement, so several pollers never take the same row.
 */
export function claimDue(
  x: Runner,
  table: PolledTable,
  now: string,
  until: string,
  limit: number,
  scope?: SQL,
): Promise<string[]> {
  return x.atomic(async (db) => {
    // Rows another poller is claiming right now are passed over, not waited for (PostgreSQL SKIP
    // LOCKED); the update re-checks that each is still due, so a row is never taken twice either way.
    const due = (
      await x.dialect.forUpdate(
        db
          .select({ id: table.id })
          .from(table)
          .where(and(isNull(table.archivedAt), scope, lte(table.nextPollAt, now)))
          .orderBy(table.nextPollAt)
          .limit(limit),
        { skipLocked: true },
      )
    ).map((r) => r.id as string);
    if (due.length === 0) return [];
    return (
      await db
        .update(table)
        .set({ nextPollAt: until })
        .where(and(inArray(table.id, due), lte(table.nextPollAt, now)))
        .returning({ id: table.id })
    ).map((r) => r.id as string);
  });
}
