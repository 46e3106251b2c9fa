/**
 * Typed storage errors, recognised from the database's own error codes rather than message text:
 * SQLite's extended result codes and PostgreSQL's SQLSTATE 23505 map to the same class, so callers
 * branch on it whatever the database; the driver's connection failures, PostgreSQL's shutdown
 * codes and SQLite's busy one to another.
 */

/** An insert or update hit a primary-key or unique constraint. */
export class DuplicateKeyError extends Error {
  override readonly name = "DuplicateKeyError";
  constructor(
    /** "table.column[, table.column]" as SQLite names it, or PostgreSQL's constraint name. */
    readonly constraint: string | null,
    options: { cause: unknown },
  ) {
    super(`duplicate key${constraint ? ` on ${constraint}` : ""}`, options);
  }
}

/** bun:sqlite's `code` strings for duplicate keys (extended result codes). */
const DUPLICATE_CODES = new Set(["SQLITE_CONSTRAINT_UNIQUE", "SQLITE_CONSTRAINT_PRIMARYKEY"]);
/** node:sqlite (Deno) carries the same extended result codes as numbers in `errcode`. */
const DUPLICATE_ERRCODES = new Set([2067, 1555]);
/** PostgreSQL's SQLSTATE unique_violation (postgres.js puts it in `code`). */
const UNIQUE_VIOLATION = "23505";

/** `err` and the errors it wraps: drizzle wraps the driver's error in a DrizzleQueryError whose `cause` carries the code. */
function* causeChain(err: unknown): Generator<Error> {
  for (let e = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) yield e;
}

/** The DuplicateKeyError `err` stands for, or undefined (read from the codes along its cause chain). */
export function duplicateKey(err: unknown): DuplicateKeyError | undefined {
  for (const e of causeChain(err)) {
    if (e instanceof DuplicateKeyError) return e;
    const { code, errcode, constraint_name } = e as {
      code?: unknown;
      errcode?: unknown;
      constraint_name?: unknown;
    };
    if (code === UNIQUE_VIOLATION) {
      return new DuplicateKeyError(typeof constraint_name === "string" ? constraint_name : null, {
        cause: err,
      });
    }
    if (DUPLICATE_CODES.has(String(code)) || DUPLICATE_ERRCODES.has(Number(errcode))) {
      // The constraint's name is detail for logs only; detection went by the code above.
      const named = /constraint failed: (.+)$/.exec(e.message)?.[1] ?? null;
      return new DuplicateKeyError(named, { cause: err });
    }
  }
  return undefined;
}

/**
 * The database could not take the statement for the moment: PostgreSQL restarting, failing over,
 * refusing or dropping connections or out of disk, or SQLite locked beyond its busy timeout or out
 * of disk. Nothing the caller asked for is wrong; a retry later may succeed.
 */
export class StorageUnavailableError extends Error {
  override readonly name = "StorageUnavailableError";
  constructor(options: { cause: unknown }) {
    super("the database is unavailable", options);
  }

  /**
   * The driver's or the socket's own words (the innermost cause), for logs: drizzle's wrapping
   * error repeats the statement with its parameters (key hashes, sealed secrets, customer data).
   */
  get reason(): string {
    let e: unknown = this;
    for (const cause of causeChain(this)) e = cause;
    return e instanceof Error ? e.message : String(e);
  }
}

/**
 * postgres.js's connection failures, the socket's own, and SQLite's busy and full codes
 * (bun:sqlite's `code`; node:sqlite's `errcode` 5 and 13).
 */
const UNAVAILABLE_CODES = new Set([
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "CONNECT_TIMEOUT",
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "SQLITE_BUSY",
  "SQLITE_FULL",
]);
/** node:sqlite's primary result codes (the low byte of an extended one): SQLITE_BUSY, SQLITE_FULL. */
const UNAVAILABLE_ERRCODES = new Set([5, 13]);
/**
 * SQLSTATE class 08 (connection exception), 57P01-57P03 (shutting down, cannot connect now) and
 * class 53 (insufficient resources: disk full, out of memory, too many connections).
 */
const UNAVAILABLE_SQLSTATE = /^(08...|57P0[123]|53...)$/;

/** The StorageUnavailableError `err` stands for, or undefined (read like duplicateKey). */
function unavailable(err: unknown): StorageUnavailableError | undefined {
  for (const e of causeChain(err)) {
    if (e instanceof StorageUnavailableError) return e;
    const { code, errcode } = e as { code?: unknown; errcode?: unknown };
    if (
      UNAVAILABLE_CODES.has(String(code)) ||
      UNAVAILABLE_SQLSTATE.test(String(code)) ||
      UNAVAILABLE_ERRCODES.has(Number(errcode) & 0xff)
    ) {
      return new StorageUnavailableError({ cause: err });
    }
  }
  return undefined;
}

/**
 * A statement that failed, named by its SQL text alone. drizzle's error prints every value it was
 * sent (a webhook's sealed secret, a key's hash) and PostgreSQL's `detail` may quote a whole row;
 * neither reaches a message, an inspection or a log line from here on.
 */
export class StatementError extends Error {
  override readonly name = "StatementError";
  constructor(
    readonly sql: string,
    options: { cause: unknown },
  ) {
    super(`Failed query: ${sql}`, options);
  }
}

/** The driver's error reduced to what says why without quoting data: its message and codes. */
class DriverError extends Error {
  override readonly name: string;
  readonly code?: unknown;
  readonly errcode?: unknown;
  readonly constraint_name?: unknown;
  constructor(original: Error) {
    super(original.message);
    const { code, errcode, constraint_name } = original as DriverError;
    this.name = original.name;
    this.code = code;
    this.errcode = errcode;
    this.constraint_name = constraint_name;
    this.stack = original.stack;
  }
}

/**
 * drizzle's DrizzleQueryError (query text, params, the driver's error as cause) without the params,
 * and a bare PostgreSQL error without its `detail` (a statement sent through postgres.js directly).
 */
function redacted(err: unknown): unknown {
  if (!(err instanceof Error) || err instanceof StatementError) return err;
  const { query, params, detail } = err as { query?: unknown; params?: unknown; detail?: unknown };
  if (typeof query === "string" && params !== undefined) {
    return new StatementError(query, {
      cause: err.cause instanceof Error ? new DriverError(err.cause) : undefined,
    });
  }
  return detail === undefined ? err : new DriverError(err);
}

/**
 * `err` as the typed storage error it stands for, else unchanged but for the statement's values,
 * which are dropped: for rethrowing at the layer's edge.
 */
export function storageError(err: unknown): unknown {
  const safe = redacted(err);
  return duplicateKey(safe) ?? unavailable(safe) ?? safe;
}
