/**
 * How a repository runs its statements: on the shared connection (SQLite: waiting for an open
 * async transaction to finish first, so nothing slips into it; PostgreSQL: a pooled connection), or
 * inside a transaction. Either way the answer is a Promise and duplicate keys come back typed.
 */
import type { Db } from "./database.ts";
import type { Dialect } from "./dialect.ts";
import type * as schema from "./schema.ts";

/** The tables of the runner's dialect: schema.ts's, or their PostgreSQL mirror (same shapes). */
export type Tables = typeof schema;

/**
 * `prepare`'s statements made once per connection (x.root) and shared by every repository over it:
 * the storage makes a set of repositories per transaction, and preparing each time would cost what
 * preparing saves (building the SQL cost more than running it).
 */
export function perConnection<T>(prepare: (x: Runner) => T): (x: Runner) => T {
  const made = new WeakMap<Db, T>();
  return (x) => {
    let q = made.get(x.root);
    if (!q) {
      q = prepare(x);
      made.set(x.root, q);
    }
    return q;
  };
}

export interface Runner {
  readonly t: Tables;
  readonly dialect: Dialect;
  /** The connection prepared statements are made on (SQLite); see Dialect.statement. */
  readonly root: Db;
  run<T>(query: (db: Db) => Promise<T> | T): Promise<T>;
  /**
   * Runs several statements as one unit: in a transaction of their own, or as part of the
   * enclosing one when the runner is already inside a transaction.
   */
  atomic<T>(work: (db: Db) => Promise<T>): Promise<T>;
}

/**
 * Runs one statement of a transaction: on PostgreSQL it refuses statements once the transaction's
 * connection has closed (storage/pg-transaction.ts); SQLite's runs it as it is.
 */
export type StatementGate = <R>(statement: () => Promise<R> | R) => Promise<R> | R;
