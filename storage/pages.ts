/**
 * Pages of an organisation's rows, most recently updated first: the one keyset paging the tracked
 * tables' list endpoints share (tracked containers, air waybills).
 */
import { and, desc, eq, isNotNull, isNull, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Db } from "./database.ts";
import type { Statement } from "./dialect.ts";
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

/**
 * Conditions a caller adds, written with placeholders (`param(name)`) so the statement is prepared
 * once per shape; `params` gives their values and `shape` names the variant (say, how many tags).
 */
export interface ExtraConditions {
  shape: string;
  build(param: (name: string) => SQL): SQL[];
  params: Record<string, unknown>;
}

/**
 * Statements per connection, then per table and filter shape (archived, status or not, cursor or
 * not, the caller's shape): a handful of variants, each prepared once instead of built per request.
 */
const prepared = new WeakMap<Db, Map<string, Statement<unknown[]>>>();

/**
 * Only these columns of each row (named `shape` in the statement's variant): a page's keys, read
 * from the index alone when it covers them, instead of whole rows. An expression may use the
 * placeholder "orgId" (the organisation the page is of).
 */
export interface PageColumns {
  shape: string;
  columns: Record<string, SQLiteColumn | SQL>;
}

/** A page of the organisation's rows matching the filter and every extra condition. */
export function listPage<T extends PagedTable>(
  x: Runner,
  table: T,
  name: string,
  orgId: string,
  filter: PageFilter,
  extra?: ExtraConditions,
): Promise<T["$inferSelect"][]>;
export function listPage<T extends PagedTable, R>(
  x: Runner,
  table: T,
  name: string,
  orgId: string,
  filter: PageFilter,
  extra: ExtraConditions | undefined,
  only: PageColumns,
): Promise<R[]>;
export function listPage<T extends PagedTable>(
  x: Runner,
  table: T,
  name: string,
  orgId: string,
  filter: PageFilter,
  extra?: ExtraConditions,
  only?: PageColumns,
): Promise<unknown[]> {
  const shape = [
    name,
    filter.archived ? "archived" : "active",
    filter.status === undefined ? "" : "status",
    filter.after ? "after" : "",
    extra?.shape ?? "",
    only?.shape ?? "",
  ].join("_");
  let statements = prepared.get(x.root);
  if (!statements) {
    statements = new Map();
    prepared.set(x.root, statements);
  }
  let statement = statements.get(shape);
  if (!statement) {
    const p = sql.placeholder;
    const conditions: SQL[] = [
      eq(table.orgId, p("orgId")),
      filter.archived ? isNotNull(table.archivedAt) : isNull(table.archivedAt),
    ];
    if (filter.status !== undefined) conditions.push(eq(table.status, p("status")));
    if (extra) conditions.push(...extra.build((param) => sql`${p(param)}`));
    // A row value, not `updated_at < a or (updated_at = a and id < b)`: PostgreSQL then starts the
    // index scan at the cursor instead of filtering every row before it (both columns are not null).
    if (filter.after) {
      conditions.push(sql`(${table.updatedAt}, ${table.id}) < (${p("afterUpdatedAt")}, ${p("afterId")})`);
    }
    // Active rows: archived_at (null in all of them) leads the order so that PostgreSQL reads the
    // (org_id, archived_at, updated_at, id) index backwards; it does not take IS NULL as a constant
    // when matching an order, and would otherwise sort the whole organisation for each page.
    const order = [desc(table.updatedAt), desc(table.id)];
    if (!filter.archived) order.unshift(desc(table.archivedAt));
    statement = x.dialect.statement(`page_${shape}`, x.root, (db) =>
      (only ? db.select(only.columns) : db.select())
        .from(table as SQLiteTable)
        .where(and(...conditions))
        .orderBy(...order)
        .limit(p("limit")),
    ) as Statement<unknown[]>;
    statements.set(shape, statement);
  }
  const params: Record<string, unknown> = {
    orgId,
    status: filter.status,
    afterUpdatedAt: filter.after?.updatedAt,
    afterId: filter.after?.id,
    limit: filter.limit,
    ...extra?.params,
  };
  const run = statement;
  return x.run((db) => run.execute(db, params));
}
