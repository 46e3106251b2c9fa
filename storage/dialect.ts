/**
 * What the repositories write differently for SQLite and PostgreSQL: JSON access, row locks and
 * prepared statements. Everything else is drizzle's query builder, the same for both (the
 * PostgreSQL tables mirror schema.ts's with values of the same shape: storage/pg-schema.ts).
 */
import { type Column, type SQL, sql, type Table } from "drizzle-orm";
import type { Db } from "./database.ts";
import { type PreparedSelect, rowMapper } from "./row-mapper.ts";

/** A statement built with sql.placeholder()s, run with their values. */
export interface Statement<T> {
  execute(db: Db, params: Record<string, unknown>): Promise<T>;
}

export interface Preparable<T> {
  prepare(name?: string): { execute(params?: Record<string, unknown>): PromiseLike<T> | T };
}

/** drizzle's prepared SQLite query (bun-sqlite session) as the SQLite statement reads it. */
interface SqlitePrepared extends PreparedSelect {
  executeMethod: string;
  values(params?: Record<string, unknown>): unknown[][];
}

export interface Dialect {
  readonly name: "sqlite" | "postgres";
  /** True when the JSON array of strings in `column` holds `value` (a string or a placeholder). */
  jsonArrayHas(column: Column, value: string | SQL): SQL<boolean>;
  /** True when `column` is one of the strings of a JSON array given as text (a placeholder). */
  inJsonList(column: Column, list: SQL | string): SQL<boolean>;
  /** The text at `path` (keys) of a JSON object column, or null. */
  jsonText(column: Column, path: readonly string[]): SQL<string | null>;
  /** The number at `index` of a JSON array column, or null. */
  jsonNumberAt(column: Column, index: number): SQL<number | null>;
  /**
   * A select that locks the rows it reads until the transaction ends (PostgreSQL FOR NO KEY UPDATE,
   * SKIP LOCKED to pass rows another worker holds). SQLite takes the database's write lock at BEGIN,
   * so there it is the select unchanged. `of` limits the locks to that table's rows (a join
   * otherwise locks, and with SKIP LOCKED passes over, the joined rows too). NO KEY: lockers still
   * exclude each other, but a foreign-key check on the row (an insert or update of a row pointing
   * at it, which takes KEY SHARE) does not queue behind them: the org row lock of an add and a
   * tracked row's update in another transaction could otherwise deadlock.
   */
  forUpdate<Q>(query: Q, opts?: { skipLocked?: boolean; of?: Table }): Q;
  /**
   * A statement prepared once per connection where the driver allows it (SQLite); PostgreSQL builds
   * it per call on the given connection or transaction (the driver caches the server-side plan).
   */
  statement<T>(name: string, root: Db, build: (db: Db) => Preparable<T>): Statement<T>;
  /** The rows of a statement the query builder cannot say (WITH RECURSIVE), written with sql``. */
  rows<T>(db: Db, query: SQL): Promise<T[]>;
  /**
   * Tells other processes that keys, organisations or entitlements changed, so they drop their key
   * caches (PostgreSQL NOTIFY, delivered when the transaction commits). SQLite: nothing to send;
   * readers see the change through the database's data_version.
   */
  accountsChanged(db: Db): Promise<void>;
}

export const sqliteDialect: Dialect = {
  name: "sqlite",
  jsonArrayHas: (column, value) => sql`exists (select 1 from json_each(${column}) where value = ${value})`,
  inJsonList: (column, list) => sql`${column} in (select value from json_each(${list}))`,
  // The path inline, as SQL text: an expression index matches only the same expression.
  jsonText: (column, path) => sql`json_extract(${column}, ${sql.raw(`'$.${path.join(".")}'`)})`,
  jsonNumberAt: (column, index) => sql`json_extract(${column}, ${sql.raw(`'$[${Math.trunc(index)}]'`)})`,
  forUpdate: (query) => query,
  statement<T>(_name: string, root: Db, build: (db: Db) => Preparable<T>): Statement<T> {
    // One connection per process: the statement prepared on it serves its transactions too.
    const prepared = build(root).prepare() as ReturnType<Preparable<T>["prepare"]> & SqlitePrepared;
    const map = prepared.executeMethod === "all" ? rowMapper(prepared) : undefined;
    if (!map) return { execute: async (_db, params) => await prepared.execute(params) };
    // A select's rows taken as arrays and mapped here (row-mapper.ts), as drizzle's all() would
    // map them, without its result promise around a synchronous read.
    return { execute: async (_db, params) => prepared.values(params).map(map) as T };
  },
  rows: async <T>(db: Db, query: SQL) => db.all<T>(query),
  accountsChanged: () => Promise.resolve(),
};

const pgPath = (path: readonly string[]) => sql.raw(`'{${path.join(",")}}'`);

export const postgresDialect: Dialect = {
  name: "postgres",
  jsonArrayHas: (column, value) => sql`${column}::jsonb @> jsonb_build_array(${value}::text)`,
  inJsonList: (column, list) => sql`${column} in (select jsonb_array_elements_text(${list}::jsonb))`,
  jsonText: (column, path) => sql`(${column} #>> ${pgPath(path)})`,
  jsonNumberAt: (column, index) => sql`((${column} ->> ${sql.raw(String(Math.trunc(index)))})::float8)`,
  forUpdate<Q>(query: Q, opts: { skipLocked?: boolean; of?: Table } = {}): Q {
    return (query as unknown as { for(s: string, c: object): Q }).for("no key update", opts);
  },
  statement<T>(name: string, root: Db, build: (db: Db) => Preparable<T>): Statement<T> {
    // Built once for the pool (the root): building a select costs several times its round trip
    // (docs/storage.md). A transaction's statements run on its own connection: built there per call.
    let pooled: ReturnType<Preparable<T>["prepare"]> | undefined;
    return {
      execute: async (db, params) => {
        if (db !== root) return await build(db).prepare(name).execute(params);
        pooled ??= build(root).prepare(name);
        return await pooled.execute(params);
      },
    };
  },
  async rows<T>(db: Db, query: SQL): Promise<T[]> {
    return [...(await (db as unknown as { execute(q: SQL): Promise<Iterable<T>> }).execute(query))];
  },
  async accountsChanged(db) {
    // db is typed as the SQLite Db; on PostgreSQL it is the postgres-js database or transaction.
    await (db as unknown as { execute(q: SQL): Promise<unknown> }).execute(
      sql`select pg_notify('portolan_accounts', '')`,
    );
  },
};
