/** Opens the database PORTOLAN_DB names: a file path or ":memory:" (SQLite), or a postgres:// URL. */
import { isPostgresUrl, openPostgres } from "./postgres.ts";
import { openDatabase } from "./sqlite.ts";
import { postgresStorage, type Storage, sqliteStorage } from "./storage.ts";

export async function openStorage(target: string, opts: { poolSize?: number } = {}): Promise<Storage> {
  if (isPostgresUrl(target)) return postgresStorage(await openPostgres(target, opts));
  return sqliteStorage(openDatabase(target));
}
