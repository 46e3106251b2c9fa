/**
 * The storage layer's front door: repositories with async methods, and `transaction(async (tx) =>
 * ...)` handing repositories bound to one transaction. One implementation of each repository serves
 * both databases (storage/dialect.ts holds what differs); this file runs them on SQLite (one
 * connection, statements queued) or on a PostgreSQL pool (a connection per transaction).
 * storage/open.ts opens the one PORTOLAN_DB names.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { type Accounts, SqlAccounts } from "./accounts.ts";
import { type AirWaybills, SqlAirWaybills } from "./air-waybills.ts";
import { type Backlog, SqlBacklog } from "./backlog.ts";
import type { Db, OpenDb } from "./database.ts";
import { type Dialect, postgresDialect, sqliteDialect } from "./dialect.ts";
import { storageError } from "./errors.ts";
import { type CarrierEvents, SqlCarrierEvents } from "./events.ts";
import { type Follows, SqlFollows } from "./follows.ts";
import { type LoadPlans, SqlLoadPlans } from "./load-plans.ts";
import { type Orgs, SqlOrgs } from "./orgs.ts";
import { type Outbox, SqlOutbox } from "./outbox.ts";
import { pgSchema } from "./pg-schema.ts";
import type { OpenPg } from "./postgres.ts";
import { type Quotas, SqlQuotas } from "./quotas.ts";
import { type RateSheets, SqlRateSheets } from "./rates.ts";
import type { Runner, StatementGate, Tables } from "./runner.ts";
import { type Sailings, SqlSailings } from "./sailings.ts";
import { type ScheduleNotices, SqlScheduleNotices } from "./schedule-notices.ts";
import * as schema from "./schema.ts";
import { SqlTerms, type Terms } from "./terms.ts";
import { SqlTimelines, type Timelines } from "./timelines.ts";
import { SqlTrackings, type Trackings } from "./trackings.ts";
import { type CallCounters, SqlCallCounters } from "./usage.ts";
import { SqlWebhooks, type Webhooks } from "./webhooks.ts";

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
  airWaybills: AirWaybills;
  sailings: Sailings;
  follows: Follows;
  scheduleNotices: ScheduleNotices;
  rateSheets: RateSheets;
  loadPlans: LoadPlans;
  timelines: Timelines;
  backlog: Backlog;
}

export interface Storage extends Repositories {
  readonly dialect: Dialect;
  /**
   * Runs `fn` in one read-then-write transaction and commits what it wrote, or rolls it all back
   * when it throws. Use only `tx`'s repositories inside. Counts read inside hold at commit: SQLite
   * takes the write lock first; on PostgreSQL lock the rows they depend on (`tx.orgs.lock`).
   * Duplicate keys throw DuplicateKeyError.
   */
  transaction<T>(fn: (tx: Repositories) => Promise<T>): Promise<T>;
  /** Moves whenever account data may have changed in another process: a key cache's validator. */
  dataVersion(): number;
  /**
   * SQLite: text that changes whenever another connection commits or this one writes, whatever
   * the table. What was read after a token was taken is what the database holds while the token
   * stays the same, so a rendering kept under it needs no other check. PostgreSQL: null (no such
   * cheap counter; readers check record versions instead).
   */
  changeToken(): string | null;
  /**
   * Statements and transactions running now: each holds a pool connection on PostgreSQL; SQLite's
   * one connection is in use (1) or not (0).
   */
  inUse(): number;
  /** The tables and the drizzle database, for tests and benches that check what was written. */
  readonly t: Tables;
  readonly db: Db;
  close(): Promise<void>;
}

function repositories(x: Runner): Repositories {
  return {
    trackings: new SqlTrackings(x),
    events: new SqlCarrierEvents(x),
    outbox: new SqlOutbox(x),
    quotas: new SqlQuotas(x),
    orgs: new SqlOrgs(x),
    terms: new SqlTerms(x),
    webhooks: new SqlWebhooks(x),
    accounts: new SqlAccounts(x),
    usage: new SqlCallCounters(x),
    airWaybills: new SqlAirWaybills(x),
    sailings: new SqlSailings(x),
    follows: new SqlFollows(x),
    scheduleNotices: new SqlScheduleNotices(x),
    rateSheets: new SqlRateSheets(x),
    loadPlans: new SqlLoadPlans(x),
    timelines: new SqlTimelines(x),
    backlog: new SqlBacklog(x),
  };
}

async function guarded<T>(query: () => Promise<T> | T): Promise<T> {
  try {
    return await query();
  } catch (err) {
    throw storageError(err);
  }
}

/** SQLite's transactions take every statement: the connection is the process's own. */
const open: StatementGate = (statement) => statement();

const INSIDE_MESSAGE =
  "storage: inside a transaction, use the repositories it hands over (tx), not the outer ones";

/** Shared by both: the repository getters, and refusing the outer repositories inside a transaction. */
abstract class BaseStorage implements Storage {
  /** Set while code runs inside one of this storage's transactions (across its awaits). */
  protected readonly inside = new AsyncLocalStorage<true>();
  protected readonly root: Repositories;

  constructor(
    readonly db: Db,
    readonly t: Tables,
    readonly dialect: Dialect,
  ) {
    this.root = repositories({
      t,
      dialect,
      root: db,
      run: (query) => this.run(query),
      atomic: (work) => this.atomic(work),
    });
  }

  /** Runs statements outside any transaction. */
  protected abstract run<T>(query: (db: Db) => Promise<T> | T): Promise<T>;
  /** Runs `work` in a transaction of its own, each of its statements through `gate`. */
  protected abstract atomic<T>(work: (db: Db, gate: StatementGate) => Promise<T>): Promise<T>;
  abstract dataVersion(): number;
  abstract changeToken(): string | null;
  abstract inUse(): number;
  abstract close(): Promise<void>;

  /** A runner for code already inside the transaction `tx`, its statements through `gate`. */
  protected bound(tx: Db, gate: StatementGate): Repositories {
    return repositories({
      t: this.t,
      dialect: this.dialect,
      root: this.db,
      run: (query) => guarded(() => gate(() => query(tx))),
      atomic: (work) => guarded(() => gate(() => work(tx))),
    });
  }

  /** The outer repositories, or a second transaction, used inside a transaction would wait forever. */
  protected refuseInside(): void {
    if (this.inside.getStore()) throw new Error(INSIDE_MESSAGE);
  }

  transaction<T>(fn: (tx: Repositories) => Promise<T>): Promise<T> {
    return this.atomic((tx, gate) => this.inside.run(true, () => fn(this.bound(tx, gate))));
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
  get airWaybills() {
    return this.root.airWaybills;
  }
  get sailings() {
    return this.root.sailings;
  }
  get follows() {
    return this.root.follows;
  }
  get scheduleNotices() {
    return this.root.scheduleNotices;
  }
  get rateSheets() {
    return this.root.rateSheets;
  }
  get loadPlans() {
    return this.root.loadPlans;
  }
  get timelines() {
    return this.root.timelines;
  }
  get backlog() {
    return this.root.backlog;
  }
}

/**
 * Whose turn it is, per SQLite file (connections to one file in one process take turns too): held
 * or not, and the units waiting for it, first come first served. A unit hands the turn straight to
 * the next one.
 */
class Turn {
  private held = false;
  private readonly waiting: (() => void)[] = [];

  get idle(): boolean {
    return !this.held;
  }

  /** Takes the turn now when idle (undefined), else when the units before have had theirs. */
  take(): Promise<void> | undefined {
    if (!this.held) {
      this.held = true;
      return undefined;
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  pass(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.held = false;
  }
}
const turns = new Map<string, Turn>();

/**
 * SQLite: one connection per process. An async unit of work leaves the connection between its
 * awaits, so units (single statements and transactions alike) take turns: a statement never
 * slips into another caller's open transaction. Two connections to one file in one process (tests
 * with two platforms) share the queue: a BEGIN IMMEDIATE blocks the thread while it waits for the
 * lock, so the other connection's open transaction could never commit.
 */
class SqliteStorage extends BaseStorage {
  private readonly turn: Turn;

  constructor(private readonly opened: OpenDb) {
    super(opened.db, schema, sqliteDialect);
    const shared = opened.file === null ? undefined : turns.get(opened.file);
    this.turn = shared ?? new Turn();
    if (opened.file !== null && !shared) turns.set(opened.file, this.turn);
  }

  private async exclusive<T>(work: () => Promise<T>): Promise<T> {
    this.refuseInside();
    await this.turn.take();
    try {
      return await guarded(work);
    } finally {
      this.turn.pass();
    }
  }

  protected run<T>(query: (db: Db) => Promise<T> | T): Promise<T> {
    this.refuseInside();
    if (!this.turn.idle) return this.exclusive(async () => query(this.db));
    // An idle connection: the statement starts now, without the queue's promises (about 4 us of a
    // 30 us cached read, bench/tracking.ts); the turn is held until the query has settled.
    this.turn.take();
    let result: Promise<T> | T;
    try {
      result = query(this.db);
    } catch (err) {
      this.turn.pass();
      return Promise.reject(storageError(err));
    }
    if (!isThenable(result)) {
      this.turn.pass();
      return Promise.resolve(result);
    }
    return result.then(
      (value) => {
        this.turn.pass();
        return value;
      },
      (err) => {
        this.turn.pass();
        throw storageError(err);
      },
    );
  }

  protected atomic<T>(work: (db: Db, gate: StatementGate) => Promise<T>): Promise<T> {
    return this.exclusive(async () => {
      // IMMEDIATE: a deferred read-then-write fails at once (SQLITE_BUSY_SNAPSHOT) when another
      // process commits in between; taking the write lock first waits for it (busy_timeout).
      this.opened.begin();
      try {
        const result = await work(this.db, open);
        this.opened.commit();
        return result;
      } catch (err) {
        // Also after a failed COMMIT, which leaves the transaction open.
        try {
          this.opened.rollback();
        } catch {
          // Nothing open: SQLite already rolled back (it does on some errors).
        }
        throw err;
      }
    });
  }

  dataVersion(): number {
    return this.opened.dataVersion();
  }

  changeToken(): string {
    return this.opened.changeToken();
  }

  inUse(): number {
    return this.turn.idle ? 0 : 1;
  }

  async close(): Promise<void> {
    // After the units queued before it; the connection is gone for any after.
    await this.turn.take();
    this.opened.close();
    this.turn.pass();
  }
}

/** PostgreSQL: a pool; every transaction holds one connection of it until it ends. */
class PostgresStorage extends BaseStorage {
  private running = 0;

  constructor(private readonly opened: OpenPg) {
    super(opened.db, pgSchema, postgresDialect);
  }

  private async counted<T>(unit: () => Promise<T> | T): Promise<T> {
    this.running++;
    try {
      return await guarded(unit);
    } finally {
      this.running--;
    }
  }

  protected run<T>(query: (db: Db) => Promise<T> | T): Promise<T> {
    this.refuseInside();
    return this.counted(() => query(this.db));
  }

  protected atomic<T>(work: (db: Db, gate: StatementGate) => Promise<T>): Promise<T> {
    this.refuseInside();
    return this.counted(() => this.opened.transaction(work));
  }

  inUse(): number {
    return this.running;
  }

  dataVersion(): number {
    return this.opened.dataVersion();
  }

  changeToken(): null {
    return null;
  }

  close(): Promise<void> {
    return this.opened.close();
  }
}

/** The storage over an open SQLite database (Bun's, or the Deno runtime's own client). */
export function sqliteStorage(opened: OpenDb): Storage {
  return new SqliteStorage(opened);
}

export function postgresStorage(opened: OpenPg): Storage {
  return new PostgresStorage(opened);
}

function isThenable<T>(value: Promise<T> | T): value is Promise<T> {
  return typeof (value as { then?: unknown } | null)?.then === "function";
}
