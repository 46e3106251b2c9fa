/**
 * `portolan db copy`: moves a SQLite database into an empty PostgreSQL one. Every table of
 * schema.ts is copied, parents before children, in batches, inside one PostgreSQL transaction: the
 * target ends up with all of it or none of it. Rows go through drizzle on both sides (schema.ts's
 * tables in, pg-schema.ts's mirrors out), so JSON and boolean columns arrive as the values the
 * repositories wrote.
 */
import { existsSync } from "node:fs";
import { count, getTableColumns, getTableName, is, type SQL, sql } from "drizzle-orm";
import { getTableConfig, type SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Db } from "./database.ts";
import { postgresDialect } from "./dialect.ts";
import { pgSchema } from "./pg-schema.ts";
import { isPostgresUrl, openPostgres, splitSchema } from "./postgres.ts";
import * as schema from "./schema.ts";
import { openDatabase } from "./sqlite.ts";

/** The copy was not attempted (bad source or target, or a target holding rows): nothing changed. */
export class CopyRefused extends Error {
  override readonly name = "CopyRefused";
}

export interface CopiedTable {
  table: string;
  rows: number;
}

export interface CopyOptions {
  /** Rows per INSERT (fewer for wide tables: PostgreSQL takes at most 65,535 parameters). */
  batchRows?: number;
  /** Called after each table is written, before the commit. */
  onTable?: (copied: CopiedTable) => void;
}

/** One table of schema.ts and its PostgreSQL mirror. */
export interface TablePair {
  /** The table's name in both databases. */
  name: string;
  sqlite: SQLiteTable;
  pg: SQLiteTable;
}

const MAX_PARAMETERS = 65_535;

/**
 * schema.ts's tables, each after every table its foreign keys reference; otherwise in the order of
 * the module's namespace, which lists exports alphabetically, not as declared.
 */
export function copyOrder(): TablePair[] {
  const tables = (Object.entries(schema) as Array<[string, unknown]>).filter(
    (e): e is [string, SQLiteTable] => is(e[1], SQLiteTable),
  );
  const parents = new Map(
    tables.map(([, table]) => [
      table,
      getTableConfig(table)
        .foreignKeys.map((fk) => fk.reference().foreignTable)
        .filter((parent) => parent !== table),
    ]),
  );
  const order: TablePair[] = [];
  const placed = new Set<SQLiteTable>();
  while (order.length < tables.length) {
    const next = tables.find(([, t]) => !placed.has(t) && parents.get(t)!.every((p) => placed.has(p)));
    if (!next) throw new Error("copy: the foreign keys of schema.ts form a cycle");
    const [key, table] = next;
    placed.add(table);
    order.push({
      name: getTableName(table),
      sqlite: table,
      pg: (pgSchema as Record<string, SQLiteTable>)[key]!,
    });
  }
  return order;
}

/** The driver's own message (drizzle's wrapper repeats the whole statement and its parameters). */
function driverMessage(err: unknown): string {
  let e = err;
  while (e instanceof Error && e.cause instanceof Error) e = e.cause;
  return e instanceof Error ? e.message : String(e);
}

/** A table's rows in rowid order, `size` at a time, without holding the whole table in memory. */
function* batches(db: Db, table: SQLiteTable, size: number): Generator<Record<string, unknown>[]> {
  // Every table here is a rowid table; "_rowid" is no column name of schema.ts.
  const fields = { ...getTableColumns(table), _rowid: sql<number>`rowid` };
  let after: number | null = null;
  for (;;) {
    const query = db.select(fields).from(table);
    const rows = (after === null ? query : query.where(sql`rowid > ${after}`))
      .orderBy(sql`rowid`)
      .limit(size)
      .all() as Array<Record<string, unknown> & { _rowid: number }>;
    if (rows.length === 0) return;
    after = rows.at(-1)!._rowid;
    yield rows.map(({ _rowid, ...row }) => row);
  }
}

/** The postgres-js database or transaction: drizzle's `execute` on top of the shared Db typing. */
type PgDb = Db & { execute(q: SQL): Promise<unknown[]> };

/**
 * Copies the SQLite database at `from` into the PostgreSQL database `to` (a postgres:// URL,
 * optionally with ?schema=), whose tables must all be empty. Opening either applies its
 * migrations. The source is read in one read transaction (a WAL snapshot), so a server still
 * writing to it cannot leave a child row without its parent; the target's tables are locked
 * against writers until the commit. Returns the rows copied per table, in copy order.
 */
export async function copySqliteToPostgres(
  from: string,
  to: string,
  opts: CopyOptions = {},
): Promise<CopiedTable[]> {
  if (isPostgresUrl(from) || from === ":memory:") {
    throw new CopyRefused(`the source must be a SQLite file, not ${isPostgresUrl(from) ? "a URL" : from}`);
  }
  if (!existsSync(from)) throw new CopyRefused(`no SQLite database at ${from}`);
  if (!isPostgresUrl(to)) throw new CopyRefused("the target must be a postgres:// URL");
  const pgName = (() => {
    try {
      return splitSchema(to).schema;
    } catch (err) {
      // splitSchema speaks of PORTOLAN_DB; here the URL is the target's.
      throw new CopyRefused(`the target URL: ${(err as Error).message.replace(/^PORTOLAN_DB: /, "")}`);
    }
  })();
  const order = copyOrder();
  const qualified = (t: TablePair) => `"${pgName}"."${t.name}"`;

  const source = openDatabase(from);
  try {
    const target = await openPostgres(to, { poolSize: 2 });
    try {
      source.db.run(sql`BEGIN`);
      try {
        const copied = await target.transaction(async (db) => {
          const tx = db as PgDb;
          await tx.execute(sql.raw(`lock table ${order.map(qualified).join(", ")} in exclusive mode`));
          const held: string[] = [];
          for (const t of order) {
            if ((await tx.select({ one: sql`1` }).from(t.pg).limit(1)).length > 0) held.push(t.name);
          }
          if (held.length > 0) {
            throw new CopyRefused(
              `the target already has rows in ${held.join(", ")}: db copy only fills an empty database`,
            );
          }

          const copied: CopiedTable[] = [];
          for (const t of order) {
            const table = t.name;
            const columns = Object.keys(getTableColumns(t.sqlite)).length;
            const size = Math.min(opts.batchRows ?? 500, Math.floor(MAX_PARAMETERS / columns));
            let rows = 0;
            for (const batch of batches(source.db, t.sqlite, size)) {
              try {
                await tx.insert(t.pg).values(batch as never);
              } catch (err) {
                throw new Error(`${table}: ${driverMessage(err)}`, { cause: err });
              }
              rows += batch.length;
            }
            const [sourceRows] = source.db.select({ n: count() }).from(t.sqlite).all();
            const [targetRows] = await tx.select({ n: count() }).from(t.pg);
            if (sourceRows!.n !== rows || targetRows!.n !== rows) {
              throw new Error(
                `${table}: counts differ (source ${sourceRows!.n}, read ${rows}, target ${targetRows!.n})`,
              );
            }
            if (rows > 0) await continueIdentities(tx, qualified(t), t.sqlite);
            copied.push({ table, rows });
            opts.onTable?.({ table, rows });
          }
          // Processes already serving the target drop their key caches when this commits.
          await postgresDialect.accountsChanged(tx);
          return copied;
        });
        // Fresh tables have no planner statistics until autovacuum gets to them: without these a
        // lookup's events were read by a sequential scan (about 9 ms each on 100,000 records).
        await (target.db as PgDb).execute(sql.raw(`analyze ${order.map(qualified).join(", ")}`));
        return copied;
      } finally {
        source.db.run(sql`ROLLBACK`);
      }
    } finally {
      await target.close();
    }
  } finally {
    source.close();
  }
}

/** Identity columns (outbox.seq) continue after the copied values instead of colliding with them. */
async function continueIdentities(
  tx: { execute(q: SQL): Promise<unknown[]> },
  table: string,
  sqliteTable: SQLiteTable,
): Promise<void> {
  for (const column of Object.values(getTableColumns(sqliteTable)) as SQLiteColumn[]) {
    if ((column as { autoIncrement?: boolean }).autoIncrement !== true) continue;
    const name = `"${column.name}"`;
    await tx.execute(
      sql.raw(
        `select setval(pg_get_serial_sequence('${table}', '${column.name}'), (select max(${name}) from ${table}))`,
      ),
    );
  }
}
