/**
 * node:sqlite (Deno) adapter with the bun:sqlite surface drizzle's session calls. Two statements
 * per query: object rows for all(), array rows (column order kept, duplicate names intact) for values().
 */
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { type OpenDb, openWith, type SyncSqliteClient } from "../../storage/database.ts";

type Param = null | number | bigint | string | Uint8Array;

function shim(db: DatabaseSync): SyncSqliteClient {
  const inTransaction = (mode: string, fn: () => void) => () => {
    db.exec(`BEGIN ${mode}`);
    try {
      fn();
      db.exec("COMMIT");
    } catch (err) {
      db.exec("ROLLBACK");
      throw err;
    }
  };
  return {
    exec: (sql) => db.exec(sql),
    prepare: (sql) => {
      const objects = db.prepare(sql);
      const arrays = db.prepare(sql);
      (arrays as unknown as { setReturnArrays(on: boolean): void }).setReturnArrays(true);
      return {
        run: (...params) => objects.run(...(params as Param[])),
        all: (...params) => objects.all(...(params as Param[])),
        values: (...params) => arrays.all(...(params as Param[])) as unknown as unknown[][],
      };
    },
    transaction: (fn) => ({
      deferred: inTransaction("DEFERRED", fn),
      immediate: inTransaction("IMMEDIATE", fn),
      exclusive: inTransaction("EXCLUSIVE", fn),
    }),
    close: () => db.close(),
  };
}

export function openDenoDatabase(path: string, migrationsFolder: string): OpenDb {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  return openWith(shim(new DatabaseSync(path)), migrationsFolder, path === ":memory:" ? null : path);
}
