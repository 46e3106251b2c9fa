/**
 * Pages of an organisation's rows, most recently updated first: the one keyset paging the tracked
 * tables' list endpoints share (tracked containers, air waybills).
 */
import { and, desc, eq, isNotNull, isNull, lt, or, type SQL } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Runner } from "./runner.ts";

export interface PageFilter {
  archived: boolean;
  status?: string;
  /** Rows strictly after this one in (updated_at desc, id desc) order. */
  after?: { updatedAt: string; id: string };
  limit: number;
}

/** The columns a paged table has. */
export type PagedTable = SQLiteTable & {
  id: SQLiteColumn;
  orgId: SQLiteColumn;
  status: SQLiteColumn;
  updatedAt: SQLiteColumn;
  archivedAt: SQLiteColumn;
};

/** A page of the organisation's rows matching the filter and every `extra` condition. */
export function listPage<T extends PagedTable>(
  x: Runner,
  table: T,
  orgId: string,
  filter: PageFilter,
  extra: readonly SQL[] = [],
): Promise<T["$inferSelect"][]> {
  const conditions: SQL[] = [
    eq(table.orgId, orgId),
    filter.archived ? isNotNull(table.archivedAt) : isNull(table.archivedAt),
  ];
  if (filter.status !== undefined) conditions.push(eq(table.status, filter.status));
  conditions.push(...extra);
  if (filter.after) {
    const { updatedAt, id } = filter.after;
    conditions.push(
      or(lt(table.updatedAt, updatedAt), and(eq(table.updatedAt, updatedAt), lt(table.id, id)))!,
    );
  }
  return x.run(
    (db) =>
      db
        .select()
        .from(table as SQLiteTable)
        .where(and(...conditions))
        .orderBy(desc(table.updatedAt), desc(table.id))
        .limit(filter.limit) as Promise<T["$inferSelect"][]>,
  );
}
