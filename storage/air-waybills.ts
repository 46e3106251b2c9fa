/**
 * Tracked air waybills and their stored airline events: every statement air-waybill tracking
 * (ingest/air-tracking/) and the air-cargo routes need. The rules deciding what to write stay there.
 */
import { and, asc, eq, isNull, sql } from "drizzle-orm";
import { claimDue, lockRow } from "./claims.ts";
import type { Statement } from "./dialect.ts";
import { listPage, type PageFilter } from "./pages.ts";
import { perConnection, type Runner } from "./runner.ts";
import type { airWaybills } from "./schema.ts";

export type AirWaybillRow = typeof airWaybills.$inferSelect;
export type NewAirWaybill = typeof airWaybills.$inferInsert;

export interface StoredAirEvent {
  eventId: string;
  /** Order first seen: earlier polls first, then the airline's list order within a poll. */
  seq: number;
  payload: unknown;
}

export type AirWaybillFilter = PageFilter;

export interface AirWaybills {
  byId(id: string): Promise<AirWaybillRow | undefined>;
  /** A waybill of the organisation (another organisation's id reads as absent). */
  get(orgId: string, id: string): Promise<AirWaybillRow | undefined>;
  /** The organisation's active (not archived) row of this AWB. */
  active(orgId: string, awb: string): Promise<AirWaybillRow | undefined>;
  /**
   * Locks a waybill's row until the enclosing transaction ends: refreshes of one waybill from
   * several processes take turns (PostgreSQL; SQLite's write lock, taken at BEGIN, already does).
   */
  lock(id: string): Promise<void>;
  insert(row: NewAirWaybill): Promise<AirWaybillRow>;
  update(id: string, fields: Partial<AirWaybillRow>): Promise<void>;
  /** Updates a waybill only while it is marked as adding. */
  updateWhileAdding(id: string, fields: Partial<AirWaybillRow>): Promise<void>;
  /** A page of the organisation's waybills, most recently updated first. */
  list(orgId: string, filter: AirWaybillFilter): Promise<AirWaybillRow[]>;
  /**
   * Claims up to `limit` active waybills due at `now` (oldest due first) by moving their next poll
   * to `until` in one statement, so several pollers on one database never take the same one.
   */
  claimDue(now: string, until: string, limit: number): Promise<string[]>;
  /** A waybill's stored events in the order first seen. */
  events(waybillId: string): Promise<StoredAirEvent[]>;
  insertEvent(waybillId: string, event: StoredAirEvent, at: string): Promise<void>;
  /** The airline re-published an event id with other content: the latest wins. */
  replaceEvent(waybillId: string, eventId: string, payload: unknown): Promise<void>;
}

/**
 * The reads every waybill lookup, read and refresh makes, prepared once per connection (built per
 * call, each cost more than its row: docs/storage.md).
 */
const statementsFor = perConnection((x) => {
  const { airWaybills: table, airWaybillEvents: events } = x.t;
  const p = sql.placeholder;
  const one = (name: string, where: ReturnType<typeof and>) =>
    x.dialect.statement(name, x.root, (db) => db.select().from(table).where(where).limit(1)) as Statement<
      AirWaybillRow[]
    >;
  return {
    byId: one("air_waybills_by_id", eq(table.id, p("id"))),
    get: one("air_waybills_get", and(eq(table.id, p("id")), eq(table.orgId, p("orgId")))),
    active: one(
      "air_waybills_active",
      and(eq(table.orgId, p("orgId")), eq(table.awb, p("awb")), isNull(table.archivedAt)),
    ),
    events: x.dialect.statement("air_waybills_events", x.root, (db) =>
      db
        .select({ eventId: events.eventId, seq: events.seq, payload: events.payload })
        .from(events)
        .where(eq(events.waybillId, p("waybillId")))
        .orderBy(asc(events.seq)),
    ) as Statement<StoredAirEvent[]>,
  };
});

export class SqlAirWaybills implements AirWaybills {
  constructor(private readonly x: Runner) {}

  private get table() {
    return this.x.t.airWaybills;
  }

  private one(
    statement: Statement<AirWaybillRow[]>,
    params: Record<string, unknown>,
  ): Promise<AirWaybillRow | undefined> {
    return this.x.run(async (db) => (await statement.execute(db, params))[0]);
  }

  byId(id: string): Promise<AirWaybillRow | undefined> {
    return this.one(statementsFor(this.x).byId, { id });
  }

  get(orgId: string, id: string): Promise<AirWaybillRow | undefined> {
    return this.one(statementsFor(this.x).get, { id, orgId });
  }

  active(orgId: string, awb: string): Promise<AirWaybillRow | undefined> {
    return this.one(statementsFor(this.x).active, { orgId, awb });
  }

  lock(id: string): Promise<void> {
    return lockRow(this.x, this.table, id);
  }

  insert(row: NewAirWaybill): Promise<AirWaybillRow> {
    const table = this.table;
    return this.x.run(async (db) => (await db.insert(table).values(row).returning())[0]!);
  }

  update(id: string, fields: Partial<AirWaybillRow>): Promise<void> {
    const table = this.table;
    return this.x.run(async (db) => {
      await db.update(table).set(fields).where(eq(table.id, id));
    });
  }

  updateWhileAdding(id: string, fields: Partial<AirWaybillRow>): Promise<void> {
    const table = this.table;
    return this.x.run(async (db) => {
      await db
        .update(table)
        .set(fields)
        .where(and(eq(table.id, id), eq(table.adding, true)));
    });
  }

  list(orgId: string, filter: AirWaybillFilter): Promise<AirWaybillRow[]> {
    return listPage(this.x, this.table, "air_waybills", orgId, filter);
  }

  claimDue(now: string, until: string, limit: number): Promise<string[]> {
    return claimDue(this.x, this.table, now, until, limit);
  }

  events(waybillId: string): Promise<StoredAirEvent[]> {
    const { events } = statementsFor(this.x);
    return this.x.run((db) => events.execute(db, { waybillId }));
  }

  insertEvent(waybillId: string, event: StoredAirEvent, at: string): Promise<void> {
    const { airWaybillEvents } = this.x.t;
    return this.x.run(async (db) => {
      await db.insert(airWaybillEvents).values({ waybillId, ...event, firstSeenAt: at });
    });
  }

  replaceEvent(waybillId: string, eventId: string, payload: unknown): Promise<void> {
    const { airWaybillEvents } = this.x.t;
    return this.x.run(async (db) => {
      await db
        .update(airWaybillEvents)
        .set({ payload })
        .where(and(eq(airWaybillEvents.waybillId, waybillId), eq(airWaybillEvents.eventId, eventId)));
    });
  }
}
