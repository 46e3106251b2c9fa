/**
 * How a SQLite repository runs one statement: against the shared connection (waiting for an open
 * async transaction to finish first, so nothing slips into it), or inside a transaction. Either way
 * the answer is a Promise and duplicate keys come back typed, as a PostgreSQL pool would give them.
 */
import type { Db } from "./database.ts";

export interface Runner {
  run<T>(query: (db: Db) => T): Promise<T>;
}
