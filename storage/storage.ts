/**
 * The storage layer's front door: repositories with async methods, and `transaction(async (tx) =>
 * ...)` handing repositories bound to one transaction. Callers see only these interfaces, so a
 * PostgreSQL implementation (a pool, one connection per transaction) can slot in behind them; the
 * SQLite one below runs bun:sqlite's synchronous calls underneath.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { sql } from "drizzle-orm";
import { type Accounts, SqliteAccounts } from "./accounts.ts";
import type { Db } from "./database.ts";
import { storageError } from "./errors.ts";
import { type CarrierEvents, SqliteCarrierEvents } from "./events.ts";
import { type Orgs, SqliteOrgs } from "./orgs.ts";
import { type Outbox, SqliteOutbox } from "./outbox.ts";
import { type Quotas, SqliteQuotas } from "./quotas.ts";
import type { Runner } from "./runner.ts";
import { SqliteTerms, type Terms } from "./terms.ts";
import { SqliteTrackings, type Trackings } from "./trackings.ts";
import { type CallCounters, SqliteCallCounters } from "./usage.ts";
import { SqliteWebhooks, type Webhooks } from "./webhooks.ts";

export interface Repositories {
  trackings: Trackings;
  events: CarrierEvents;
  outbox: Outbox;
  quotas: Quotas;
  orgs: Orgs;
  terms: Terms;
  webhooks: Webhooks;
  accounts: Accounts;
  usage: CallCounters;
}

export interface Storage extends Repositories {
  /**
   * Runs `fn` in one read-then-write transaction (it takes the write lock first, so the reads still
   * hold at commit, also with other processes on the database) and commits what it wrote, or rolls
   * it all back when it throws. Use only `tx`'s repositories inside: the outer ones wait for the
   * transaction to end. Duplicate keys throw DuplicateKeyError.
   */
  transaction<T>(fn: (tx: Repositories) => Promise<T>): Promise<T>;
}

function repositories(db: Db, x: Runner): Repositories {
  return {
    trackings: new SqliteTrackings(x),
    events: new SqliteCarrierEvents(x),
    outbox: new SqliteOutbox(x),
    quotas: new SqliteQuotas(x),
    orgs: new SqliteOrgs(x),
    terms: new SqliteTerms(x),
    webhooks: new SqliteWebhooks(db, x),
    accounts: new SqliteAccounts(db, x),
    usage: new SqliteCallCounters(x),
  };
}

function direct<T>(db: Db, query: (db: Db) => T): Promise<T> {
  try {
    return Promise.resolve(query(db));
  } catch (err) {
    return Promise.reject(storageError(err));
  }
}

/**
 * SQLite: one connection per process. An async transaction leaves the connection between its
 * awaits, so while one is open every other statement through this storage waits for it to end
 * (else it would run inside the transaction), and transactions run one after another.
 */
class SqliteStorage implements Storage {
  private open: Promise<void> | null = null;
  /** Set while code runs inside one of this storage's transactions (across its awaits). */
  private readonly inside = new AsyncLocalStorage<true>();
  private readonly root: Repositories;
  private readonly bound: Repositories;

  constructor(private readonly db: Db) {
    this.root = repositories(db, { run: (query) => this.whenIdle(query) });
    this.bound = repositories(db, { run: (query) => direct(db, query) });
  }

  get trackings() {
    return this.root.trackings;
  }
  get events() {
    return this.root.events;
  }
  get outbox() {
    return this.root.outbox;
  }
  get quotas() {
    return this.root.quotas;
  }
  get orgs() {
    return this.root.orgs;
  }
  get terms() {
    return this.root.terms;
  }
  get webhooks() {
    return this.root.webhooks;
  }
  get accounts() {
    return this.root.accounts;
  }
  get usage() {
    return this.root.usage;
  }

  /** The outer repositories, or a second transaction, used inside a transaction would wait forever. */
  private refuseInside(): void {
    if (this.inside.getStore()) {
      throw new Error(
        "storage: inside a transaction, use the repositories it hands over (tx), not the outer ones",
      );
    }
  }

  private async whenIdle<T>(query: (db: Db) => T): Promise<T> {
    this.refuseInside();
    while (this.open) await this.open;
    return direct(this.db, query);
  }

  async transaction<T>(fn: (tx: Repositories) => Promise<T>): Promise<T> {
    this.refuseInside();
    while (this.open) await this.open;
    let end!: () => void;
    this.open = new Promise((resolve) => {
      end = resolve;
    });
    try {
      // IMMEDIATE: a deferred read-then-write fails at once (SQLITE_BUSY_SNAPSHOT) when another
      // process commits in between; taking the write lock first waits for it (busy_timeout).
      this.db.run(sql`BEGIN IMMEDIATE`);
      try {
        const result = await this.inside.run(true, () => fn(this.bound));
        this.db.run(sql`COMMIT`);
        return result;
      } catch (err) {
        // Also after a failed COMMIT, which leaves the transaction open.
        this.rollback();
        throw err;
      }
    } catch (err) {
      throw storageError(err);
    } finally {
      this.open = null;
      end();
    }
  }

  private rollback(): void {
    try {
      this.db.run(sql`ROLLBACK`);
    } catch {
      // Nothing open: SQLite already rolled back (it does on some errors).
    }
  }
}

const opened = new WeakMap<Db, Storage>();

/** The storage over an open SQLite database: one per connection, so all its users share one queue. */
export function sqliteStorage(db: Db): Storage {
  let storage = opened.get(db);
  if (!storage) {
    storage = new SqliteStorage(db);
    opened.set(db, storage);
  }
  return storage;
}
