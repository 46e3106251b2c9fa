/** bun:sqlite adapter: the only file that knows the embedded database is Bun's. */
import { Database } from "bun:sqlite";
import { mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { type OpenDb, openWith, type SyncSqliteClient } from "./database.ts";

export type { Db, OpenDb } from "./database.ts";

export const MIGRATIONS = join(import.meta.dir, "migrations");

/** Opens (creating if needed) the database at `path` (":memory:" for tests) and applies migrations. */
export function openDatabase(path: string): OpenDb {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  return openWith(
    new Database(path, { create: true, strict: true }) as unknown as SyncSqliteClient,
    MIGRATIONS,
    path === ":memory:" ? null : resolve(path),
  );
}
