/**
 * Opens the database PORTOLAN_DB names, a file path or ":memory:" (SQLite) or a postgres:// URL,
 * with the SQLite opener of the runtime (storage/sqlite.ts under Bun, node:sqlite under Deno).
 */
import type { OpenDb } from "./database.ts";
import { isPostgresUrl, openPostgres } from "./postgres.ts";
import { postgresStorage, type Storage, sqliteStorage } from "./storage.ts";

export type SqliteOpener = (path: string) => OpenDb;

export async function openTarget(
  target: string,
  openSqlite: SqliteOpener,
  opts: { poolSize?: number } = {},
): Promise<Storage> {
  if (isPostgresUrl(target)) return postgresStorage(await openPostgres(target, opts));
  return sqliteStorage(openSqlite(target));
}
