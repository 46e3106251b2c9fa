/**
 * PostgreSQL transactions that never write to a closed connection. postgres.js (3.4) writes a
 * statement given to a transaction's connection after that connection's socket closed from a
 * setImmediate, onto the null socket: a TypeError no caller can catch, and the process exits
 * (porsager/postgres#1066, #1208). The driver itself gives it one: the ROLLBACK after a statement
 * failed because the server went away (a restart, a failover), or the COMMIT after work that
 * awaited something else meanwhile. So once the connection is gone nothing more goes to it: the
 * gate refuses further statements, and work that then fails or ends never settles for the driver
 * (no ROLLBACK, no COMMIT; the server rolled the transaction back as its session ended). The
 * caller gets the connection's error at once.
 */
import type { Db } from "./database.ts";
import { StorageUnavailableError, storageError } from "./errors.ts";
import type { StatementGate } from "./runner.ts";

/** The drizzle postgres-js database, as far as transactions go. */
export interface Transactional {
  transaction<R>(work: (tx: Db) => Promise<R>): Promise<R>;
}

/**
 * Every unavailable code met inside an open transaction means its session is over: the server ends
 * it (SQLSTATE 08, 57P0x) or the driver's socket closed.
 */
const sessionOver = (err: unknown) => storageError(err) instanceof StorageUnavailableError;

export async function pgTransaction<T>(
  db: Transactional,
  work: (tx: Db, gate: StatementGate) => Promise<T>,
): Promise<T> {
  let lost: unknown;
  let abandon: (err: unknown) => void = () => {};
  const abandoned = new Promise<never>((_, reject) => {
    abandon = reject;
  });
  const gate: StatementGate = async (statement) => {
    if (lost !== undefined) throw new StorageUnavailableError({ cause: lost });
    try {
      return await statement();
    } catch (err) {
      // Marked before the error reaches `work`, which may catch it and go on.
      if (sessionOver(err)) lost ??= err;
      throw err;
    }
  };
  const run = db.transaction(async (tx) => {
    try {
      const result = await work(tx, gate);
      if (lost === undefined) return result;
    } catch (err) {
      if (lost === undefined && !sessionOver(err)) throw err;
      lost ??= err;
    }
    abandon(lost);
    // One of its own each time: nothing holds it, so it goes with the transaction's closures.
    return new Promise<never>(() => {});
  });
  // The driver rejects the transaction when its connection closes, while `work` may still run.
  run.catch((err) => {
    lost ??= err;
  });
  return await Promise.race([run, abandoned]);
}
