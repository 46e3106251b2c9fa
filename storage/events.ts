/** Raw carrier events of a root record, and the corrections a carrier made to them. */
import { and, asc, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { Db } from "./database.ts";
import type { Statement } from "./dialect.ts";
import { perConnection, type Runner } from "./runner.ts";
import { treeEventsChanged } from "./trackings.ts";

export interface StoredEvent {
  eventId: string;
  payload: unknown;
}

export interface FeedFilter {
  /** DCSA eventType values; [] = all. */
  types: readonly string[];
  /** A box's own equipment events plus the voyage and document events of the references carrying it. */
  equipment?: string;
  /** The B/L number of the carrying reference. */
  document?: string;
  booking?: string;
  /** Events strictly after this one in (eventCreatedDateTime, eventId) order. */
  after?: { created: string; id: string };
  limit: number;
}

export interface FeedEvent {
  id: string;
  payload: unknown;
  /** The event's eventCreatedDateTime: the feed's order. */
  created: string;
}

export interface CarrierEvents {
  /** An organisation's events, once each, oldest created first (the DCSA event feed). */
  feed(orgId: string, filter: FeedFilter): Promise<FeedEvent[]>;
  forRecord(trackedId: string): Promise<StoredEvent[]>;
  hasAny(trackedId: string): Promise<boolean>;
  insert(trackedId: string, eventId: string, payload: unknown, at: string): Promise<void>;
  /** Replaces a stored event's payload, keeping what it was as a correction. */
  correct(trackedId: string, eventId: string, before: unknown, after: unknown, at: string): Promise<void>;
  /** Deletes the events and corrections of these records. */
  deleteFor(trackedIds: readonly string[]): Promise<void>;
}

/** A record's events, read on every lookup. */
const forRecordStatement = perConnection(
  (x): Statement<StoredEvent[]> =>
    x.dialect.statement("events_for_record", x.root, (db) =>
      db
        .select({ eventId: x.t.carrierEvents.eventId, payload: x.t.carrierEvents.payload })
        .from(x.t.carrierEvents)
        .where(eq(x.t.carrierEvents.trackedId, sql.placeholder("trackedId"))),
    ),
);

export class SqlCarrierEvents implements CarrierEvents {
  constructor(private readonly x: Runner) {}

  feed(orgId: string, f: FeedFilter): Promise<FeedEvent[]> {
    const { carrierEvents, tracked } = this.x.t;
    const field = (key: string) => this.x.dialect.jsonText(carrierEvents.payload, [key]);
    const created = field("eventCreatedDateTime");
    const conditions: SQL[] = [eq(tracked.orgId, orgId)];
    if (f.types.length > 0) {
      conditions.push(
        sql`${field("eventType")} in (${sql.join(
          f.types.map((ty) => sql`${ty}`),
          sql`, `,
        )})`,
      );
    }
    if (f.equipment) {
      conditions.push(
        sql`(${field("equipmentReference")} = ${f.equipment} or (${field("eventType")} != 'EQUIPMENT' and exists (select 1 from tracked c where (c.id = ${tracked.id} or c.parent_id = ${tracked.id}) and c.container_number = ${f.equipment})))`,
      );
    }
    if (f.document) conditions.push(eq(tracked.blNumber, f.document));
    if (f.booking) conditions.push(eq(tracked.bookingNumber, f.booking));
    if (f.after) {
      const { created: c, id } = f.after;
      conditions.push(sql`(${created} > ${c} or (${created} = ${c} and ${carrierEvents.eventId} > ${id}))`);
    }
    return this.x.run(async (db) => {
      // An event stored under several records of the organisation (a B/L and its boxes) is listed
      // once: of its matching rows, the one of the first record id. A window function, not GROUP BY
      // with bare columns: PostgreSQL rejects selecting columns that are neither grouped nor
      // aggregated, and SQLite would pick the row arbitrarily.
      const matching = db
        .select({
          id: carrierEvents.eventId,
          payload: carrierEvents.payload,
          created: sql<string>`${created}`.as("created"),
          nth: sql<number>`row_number() over (partition by ${carrierEvents.eventId} order by ${carrierEvents.trackedId})`.as(
            "nth",
          ),
        })
        .from(carrierEvents)
        .innerJoin(tracked, eq(tracked.id, carrierEvents.trackedId))
        .where(and(...conditions))
        .as("matching");
      return await db
        .select({ id: matching.id, payload: matching.payload, created: matching.created })
        .from(matching)
        .where(eq(matching.nth, 1))
        .orderBy(asc(matching.created), asc(matching.id))
        .limit(f.limit);
    });
  }
  forRecord(trackedId: string): Promise<StoredEvent[]> {
    return this.x.run((db) => forRecordStatement(this.x).execute(db, { trackedId }));
  }
  hasAny(trackedId: string): Promise<boolean> {
    const { carrierEvents } = this.x.t;
    return this.x.run(
      async (db) =>
        (
          await db
            .select({ id: carrierEvents.eventId })
            .from(carrierEvents)
            .where(eq(carrierEvents.trackedId, trackedId))
            .limit(1)
        ).length > 0,
    );
  }
  insert(trackedId: string, eventId: string, payload: unknown, at: string): Promise<void> {
    const { carrierEvents } = this.x.t;
    return this.x.atomic(async (db) => {
      await db.insert(carrierEvents).values({ trackedId, eventId, payload, firstSeenAt: at });
      await this.treeChanged(db, trackedId);
    });
  }
  correct(trackedId: string, eventId: string, before: unknown, after: unknown, at: string): Promise<void> {
    const { carrierEvents, corrections } = this.x.t;
    return this.x.atomic(async (db) => {
      await db
        .insert(corrections)
        .values({ id: crypto.randomUUID(), trackedId, eventId, before, after, recordedAt: at });
      await db
        .update(carrierEvents)
        .set({ payload: after })
        .where(and(eq(carrierEvents.trackedId, trackedId), eq(carrierEvents.eventId, eventId)));
      await this.treeChanged(db, trackedId);
    });
  }
  /**
   * An added or corrected event changes how the root and its boxes render: their versions move and
   * their stored milestones go, in the event write's transaction (trackings.ts).
   */
  private async treeChanged(db: Db, rootId: string): Promise<void> {
    await treeEventsChanged(db, this.x.t.tracked, rootId);
  }
  deleteFor(trackedIds: readonly string[]): Promise<void> {
    const { carrierEvents, corrections } = this.x.t;
    return this.x.atomic(async (db) => {
      await db.delete(corrections).where(inArray(corrections.trackedId, [...trackedIds]));
      await db.delete(carrierEvents).where(inArray(carrierEvents.trackedId, [...trackedIds]));
    });
  }
}
