/** Opens the database PORTOLAN_DB names under Bun: a file path or ":memory:" (SQLite), or a postgres:// URL. */
import { openTarget } from "./open-target.ts";
import { openDatabase } from "./sqlite.ts";
import type { Storage } from "./storage.ts";

export function openStorage(target: string, opts: { poolSize?: number } = {}): Promise<Storage> {
  return openTarget(target, openDatabase, opts);
}
