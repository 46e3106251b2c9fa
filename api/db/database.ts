/**
 * Runtime-neutral database opening: drizzle's synchronous SQLite session over any client with the
 * bun:sqlite surface (exec, prepare -> run/all/values, transaction). api/db/sqlite.ts hands it
 * Bun's Database; api/runtime/deno-sqlite.ts hands it a node:sqlite shim, so one repository code
 * path serves both runtimes.
 */
import { createTableRelationsHelpers, extractTablesRelationalConfig } from "drizzle-orm";
import { migrate } from "drizzle-orm/bun-sqlite/migrator";
import { SQLiteBunSession } from "drizzle-orm/bun-sqlite/session";
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
  /** Changes whenever another connection (the CLI, another process) commits: a cheap cache validator. */
  dataVersion(): number;
  close(): void;
}

export function openWith(client: SyncSqliteClient, migrationsFolder: string): OpenDb {
  // WAL lets the API read while a poller or dispatcher writes; busy_timeout rides out their commits.
  client.exec(
    "PRAGMA journal_mode = WAL; PRAGMA busy_timeout = 5000; PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL;",
  );
  const dialect = new SQLiteSyncDialect();
  const tables = extractTablesRelationalConfig(schema, createTableRelationsHelpers);
  const relational = { fullSchema: schema, schema: tables.tables, tableNamesMap: tables.tableNamesMap };
  // biome-ignore lint/suspicious/noExplicitAny: drizzle's session takes bun's Database type; the shim has its shape.
  const session = new SQLiteBunSession(client as any, dialect, relational);
  const db = new BaseSQLiteDatabase("sync", dialect, session, relational) as unknown as Db;
  migrate(db as never, { migrationsFolder });
  const version = client.prepare("PRAGMA data_version");
  return {
    db,
    dataVersion: () => Number(version.values()[0]![0]),
    close: () => client.close(),
  };
}
