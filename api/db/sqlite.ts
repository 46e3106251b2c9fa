/** bun:sqlite adapter: the only file that knows the embedded database is Bun's. */
import { Database } from "bun:sqlite";
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { drizzle } from "drizzle-orm/bun-sqlite";
import { migrate } from "drizzle-orm/bun-sqlite/migrator";
import * as schema from "./schema.ts";

export type Db = ReturnType<typeof drizzle<typeof schema>>;

const MIGRATIONS = join(import.meta.dir, "migrations");

export interface OpenDb {
  db: Db;
  /** Changes whenever another connection (the CLI, another process) commits: a cheap cache validator. */
  dataVersion(): number;
  close(): void;
}

/** Opens (creating if needed) the database at `path` (":memory:" for tests) and applies migrations. */
export function openDatabase(path: string): OpenDb {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const sqlite = new Database(path, { create: true, strict: true });
  // WAL lets the API read while a poller or dispatcher writes; busy_timeout rides out their commits.
  sqlite.exec(
    "PRAGMA journal_mode = WAL; PRAGMA busy_timeout = 5000; PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL;",
  );
  const db = drizzle(sqlite, { schema });
  migrate(db, { migrationsFolder: MIGRATIONS });
  const version = sqlite.prepare<{ data_version: number }, []>("PRAGMA data_version");
  return { db, dataVersion: () => version.get()!.data_version, close: () => sqlite.close() };
}
