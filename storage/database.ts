/**
 * Runtime-neutral database opening: drizzle's synchronous SQLite session over any client with the
 * bun:sqlite surface (exec, prepare -> run/all/values, transaction). storage/sqlite.ts hands it
 * Bun's Database; api/runtime/deno-sqlite.ts hands it a node:sqlite shim, so one repository code
 * path serves both runtimes.
 */
import { createTableRelationsHelpers, extractTablesRelationalConfig } from "drizzle-orm";
import { SQLiteBunSession } from "drizzle-orm/bun-sqlite/session";
import { readMigrationFiles } from "drizzle-orm/migrator";
import { BaseSQLiteDatabase, SQLiteSyncDialect } from "drizzle-orm/sqlite-core";
import * as schema from "./schema.ts";

export type Db = BaseSQLiteDatabase<"sync", void, typeof schema>;

/** The slice of bun:sqlite's Database that drizzle's session uses. */
export interface SyncSqliteClient {
  exec(sql: string): void;
  prepare(sql: string): {
    run(...params: unknown[]): unknown;
    all(...params: unknown[]): unknown[];
    values(...params: unknown[]): unknown[][];
  };
  transaction(fn: () => void): { deferred(): void; immediate(): void; exclusive(): void };
  close(): void;
}

export interface OpenDb {
  db: Db;
  /** The file (absolute), or null for an in-memory database: connections to one file share a queue. */
  file: string | null;
  /** Changes whenever another connection (the CLI, another process) commits: a cheap cache validator. */
  dataVersion(): number;
  /** Storage.changeToken. */
  changeToken(): string;
  /**
   * BEGIN IMMEDIATE, COMMIT and ROLLBACK, prepared once: built through drizzle, each write
   * transaction prepared both again (a fifth of a repeated compat poll's CPU, docs/compat.md).
   */
  begin(): void;
  commit(): void;
  rollback(): void;
  close(): void;
}

/**
 * How long a writer waits for another connection's write transaction before SQLITE_BUSY. Waiting
 * only works for transactions that take the write lock up front (BEGIN IMMEDIATE, or a first
 * statement that writes): a deferred transaction that read first and then writes fails at once
 * when another connection committed in between, so every read-then-write transaction here is
 * opened with { behavior: "immediate" }.
 */
export const BUSY_TIMEOUT_MS = 5000;

/** Bytes of the file read through mmap: SQLite's default ceiling (SQLITE_MAX_MMAP_SIZE), address space only. */
const MMAP_BYTES = 0x7fff0000;

export function openWith(client: SyncSqliteClient, migrationsFolder: string, file: string | null): OpenDb {
  // busy_timeout first: switching a fresh file to WAL takes a lock another process may hold.
  // WAL lets the API read while a poller, a dispatcher or another API process writes.
  // mmap: reads come from the OS page cache without a read() and a copy per page; a lookup reads
  // a record's events from pages scattered over the file, where that halves the time (bench/tracking.ts).
  client.exec(
    `PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}; PRAGMA journal_mode = WAL; PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL; PRAGMA mmap_size = ${MMAP_BYTES};`,
  );
  const dialect = new SQLiteSyncDialect();
  const tables = extractTablesRelationalConfig(schema, createTableRelationsHelpers);
  const relational = { fullSchema: schema, schema: tables.tables, tableNamesMap: tables.tableNamesMap };
  // biome-ignore lint/suspicious/noExplicitAny: drizzle's session takes bun's Database type; the shim has its shape.
  const session = new SQLiteBunSession(client as any, dialect, relational);
  const db = new BaseSQLiteDatabase("sync", dialect, session, relational) as unknown as Db;
  migrate(client, migrationsFolder);
  const version = client.prepare("PRAGMA data_version");
  // total_changes: rows this connection wrote (data_version never moves for its own commits). Two
  // statements: the pragma as a table-valued function costs 1.5x the two together.
  const written = client.prepare("SELECT total_changes()");
  const begin = client.prepare("BEGIN IMMEDIATE");
  const commit = client.prepare("COMMIT");
  const rollback = client.prepare("ROLLBACK");
  return {
    db,
    file,
    dataVersion: () => Number(version.values()[0]![0]),
    changeToken: () => `${version.values()[0]![0]}:${written.values()[0]![0]}`,
    begin: () => void begin.run(),
    commit: () => void commit.run(),
    rollback: () => void rollback.run(),
    close: () => client.close(),
  };
}

/**
 * drizzle's migrator (same table, same rows), but reading what is applied and applying the rest in
 * one IMMEDIATE transaction: two processes starting on a fresh file would otherwise both see no
 * migrations and the second fail with "table already exists" or SQLITE_BUSY.
 */
function migrate(client: SyncSqliteClient, migrationsFolder: string): void {
  const migrations = readMigrationFiles({ migrationsFolder });
  client.exec("BEGIN IMMEDIATE");
  try {
    client.exec(
      'CREATE TABLE IF NOT EXISTS "__drizzle_migrations" (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at numeric)',
    );
    const last = client
      .prepare('SELECT created_at FROM "__drizzle_migrations" ORDER BY created_at DESC LIMIT 1')
      .values()[0];
    for (const m of migrations) {
      if (last && Number(last[0]) >= m.folderMillis) continue;
      for (const statement of m.sql) client.exec(statement);
      client
        .prepare('INSERT INTO "__drizzle_migrations" ("hash", "created_at") VALUES (?, ?)')
        .run(m.hash, m.folderMillis);
    }
    client.exec("COMMIT");
  } catch (err) {
    client.exec("ROLLBACK");
    throw err;
  }
}
