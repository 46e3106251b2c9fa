/**
 * Databases as an older version of the product left them: migrated up to just before a given
 * migration and holding the rows that version wrote, for tests of what the migration (and the
 * product opening the database) does with them. Statements use $1, $2, ... (PostgreSQL's form;
 * SQLite reads them as ?1, ?2, ...).
 */
import { Database } from "bun:sqlite";
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { drizzle } from "drizzle-orm/postgres-js";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import { openWith, type SyncSqliteClient } from "../../storage/database.ts";
import { MIGRATIONS } from "../../storage/sqlite.ts";
import { freshSchema } from "./database.ts";

export type OldRows = Array<[statement: string, params: Array<string | number>]>;

const PG_MIGRATIONS = join(import.meta.dir, "../../storage/migrations-pg");

/** A copy (in `dir`) of a migrations folder whose journal stops before the migration tagged `last`. */
function migrationsBefore(dir: string, folder: string, last: string): string {
  const out = join(dir, `${last}-before`);
  cpSync(folder, out, { recursive: true });
  const journalPath = join(out, "meta/_journal.json");
  const journal = JSON.parse(readFileSync(journalPath, "utf8")) as { entries: Array<{ tag: string }> };
  const at = journal.entries.findIndex((e) => e.tag === last);
  if (at <= 0) throw new Error(`no migration ${last} after the first in ${folder}`);
  journal.entries = journal.entries.slice(0, at);
  writeFileSync(journalPath, JSON.stringify(journal));
  return out;
}

/** The SQLite file `dir`/`name`, migrated up to before `last`, holding `rows`; its path. */
export function sqliteBefore(dir: string, name: string, last: string, rows: OldRows): string {
  const file = join(dir, name);
  const before = openWith(
    new Database(file, { create: true, strict: true }) as unknown as SyncSqliteClient,
    migrationsBefore(dir, MIGRATIONS, last),
    file,
  );
  before.close();
  const raw = new Database(file);
  for (const [statement, params] of rows) raw.prepare(statement.replace(/\$(\d+)/g, "?$1")).run(...params);
  raw.close();
  return file;
}

/** A fresh schema on the PostgreSQL `server`, migrated up to before `last`, holding `rows`; its URL. */
export async function postgresBefore(
  dir: string,
  server: string,
  last: string,
  rows: OldRows,
): Promise<string> {
  const target = freshSchema(server);
  const schema = new URL(target).searchParams.get("schema")!;
  const client = postgres(server, { max: 1, onnotice: () => {}, connection: { search_path: schema } });
  try {
    await client.unsafe(`create schema "${schema}"`);
    await migrate(drizzle(client), {
      migrationsFolder: migrationsBefore(dir, PG_MIGRATIONS, last),
      migrationsSchema: schema,
    });
    for (const [statement, params] of rows) await client.unsafe(statement, params);
  } finally {
    await client.end({ timeout: 2 });
  }
  return target;
}
