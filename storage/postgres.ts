/**
 * PostgreSQL adapter: the only file that knows the driver (postgres.js, which runs under Bun, Node
 * and Deno). Opens a pool on a postgres:// URL, applies the committed migrations (one process at a
 * time, under an advisory lock) and listens for account changes other processes make; its
 * transactions go through pg-transaction.ts, which keeps a closed connection clear of a fault of
 * the driver.
 *
 * A `schema` query parameter (postgres://.../db?schema=tenant_a) puts every table, and drizzle's
 * migration journal, in that schema instead of `public`: one database can hold several
 * installations, and the test suite gives each platform its own.
 */
import { fileURLToPath } from "node:url";
import { drizzle } from "drizzle-orm/postgres-js";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import type { Db } from "./database.ts";
import { pgSchema } from "./pg-schema.ts";
import { pgTransaction, type Transactional } from "./pg-transaction.ts";
import type { StatementGate } from "./runner.ts";

export const PG_MIGRATIONS = fileURLToPath(new URL("./migrations-pg", import.meta.url));
/** NOTIFY channel account writes signal on: other processes drop their key caches. */
export const ACCOUNTS_CHANNEL = "portolan_accounts";
/** Any constant: serialises migrations of processes starting together on a fresh database. */
const MIGRATION_LOCK = 7_305_112_015;

export interface OpenPg {
  /** The drizzle database, typed as the SQLite one the repositories are written against. */
  db: Db;
  /**
   * Runs `work` in a transaction on one connection of the pool, each statement through `gate`
   * (pg-transaction.ts). Rejects with the connection's error as soon as it closes.
   */
  transaction<T>(work: (tx: Db, gate: StatementGate) => Promise<T>): Promise<T>;
  /** Moves when a process (this one too) committed an account change, and on every new LISTEN. */
  dataVersion(): number;
  close(): Promise<void>;
}

/** The longest wait, in seconds, before a closed connection (the LISTEN one too) tries again. */
const RECONNECT_MAX_S = 1;
/** Seconds a connection attempt may take, TLS and authentication included. */
const CONNECT_TIMEOUT_S = 10;

/**
 * Seconds before the next connection attempt after `retries` failed ones, the whole pool counting:
 * the driver's own curve (3^retries / 100, taken at 50 to 100 %), capped at RECONNECT_MAX_S instead
 * of its 20 s, so a process is back within about a second of the server, however long it was away.
 */
function reconnectDelay(retries: number): number {
  return (0.5 + Math.random() / 2) * Math.min(3 ** retries / 100, RECONNECT_MAX_S);
}

export const isPostgresUrl = (target: string) => /^postgres(ql)?:\/\//i.test(target);

/** The URL without its `schema` parameter, and the schema ("public" when none). */
export function splitSchema(url: string): { url: string; schema: string } {
  const u = new URL(url);
  const schema = u.searchParams.get("schema") ?? "public";
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) {
    throw new Error(`PORTOLAN_DB: schema "${schema}" must be lower-case letters, digits and _`);
  }
  u.searchParams.delete("schema");
  return { url: u.toString(), schema };
}

export async function openPostgres(target: string, opts: { poolSize?: number } = {}): Promise<OpenPg> {
  const { url, schema } = splitSchema(target);
  const client = postgres(url, {
    // Two at least: starting holds one for the migration lock while another migrates.
    max: Math.max(2, opts.poolSize ?? 10),
    idle_timeout: 30,
    // A connection attempt the server never answers (one it took as it went down) fails after this
    // many seconds instead of the driver's 30, and so does the request waiting on it (503).
    connect_timeout: CONNECT_TIMEOUT_S,
    backoff: reconnectDelay,
    // The driver's array-type lookup on each new connection runs on a promise nobody awaits: the
    // connection closing during it (a restart) is an unhandled rejection, and the process exits.
    // No statement here passes or reads a PostgreSQL array.
    fetch_types: false,
    onnotice: () => {},
    connection: { search_path: schema, application_name: "portolan" },
  });
  try {
    await client.unsafe(`create schema if not exists "${schema}"`);
    const db = drizzle(client, { schema: pgSchema });
    // The lock is held by one reserved session while the pool's connections migrate: another
    // process starting now waits for it, then finds the migrations applied. When migrating fails
    // the lock ends with its session as the client ends below; no unlock goes to a session that
    // may have closed (see pg-transaction.ts).
    const lock = await client.reserve();
    await lock`select pg_advisory_lock(${MIGRATION_LOCK})`;
    await migrate(db, { migrationsFolder: PG_MIGRATIONS, migrationsSchema: schema });
    await lock`select pg_advisory_unlock(${MIGRATION_LOCK})`;
    lock.release();
    let version = 0;
    const moved = () => {
      version++;
    };
    // A NOTIFY sent while the LISTEN connection is away (a restart) is lost: every LISTEN the
    // driver makes again on a new connection moves the version too.
    const listener = await client.listen(ACCOUNTS_CHANNEL, moved, moved);
    return {
      db: db as unknown as Db,
      transaction: (work) => pgTransaction(db as unknown as Transactional, work),
      dataVersion: () => version,
      close: async () => {
        await listener.unlisten().catch(() => {});
        await client.end({ timeout: 2 });
      },
    };
  } catch (err) {
    await client.end({ timeout: 1 });
    throw err;
  }
}
