/** Raw carrier events of a root record, and the corrections a carrier made to them. */
import { and, asc, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { Runner } from "./runner.ts";
import { carrierEvents, corrections, tracked } from "./schema.ts";

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

export class SqliteCarrierEvents implements CarrierEvents {
  constructor(private readonly x: Runner) {}

  feed(orgId: string, f: FeedFilter): Promise<FeedEvent[]> {
    // The path inline, as SQL text: an expression index matches only the same expression.
    const field = (path: string) => sql<string>`json_extract(${carrierEvents.payload}, '${sql.raw(path)}')`;
    const created = field("$.eventCreatedDateTime");
    const conditions: SQL[] = [eq(tracked.orgId, orgId)];
    if (f.types.length > 0) {
      conditions.push(
        sql`${field("$.eventType")} in (${sql.join(
          f.types.map((ty) => sql`${ty}`),
          sql`, `,
        )})`,
      );
    }
    if (f.equipment) {
      conditions.push(
        sql`(${field("$.equipmentReference")} = ${f.equipment} or (${field("$.eventType")} != 'EQUIPMENT' and exists (select 1 from tracked c where (c.id = ${tracked.id} or c.parent_id = ${tracked.id}) and c.container_number = ${f.equipment})))`,
      );
    }
    if (f.document) conditions.push(eq(tracked.blNumber, f.document));
    if (f.booking) conditions.push(eq(tracked.bookingNumber, f.booking));
    if (f.after) {
      const { created: c, id } = f.after;
      conditions.push(sql`(${created} > ${c} or (${created} = ${c} and ${carrierEvents.eventId} > ${id}))`);
    }
    return this.x.run((db) =>
      db
        .select({ id: carrierEvents.eventId, payload: carrierEvents.payload, created })
        .from(carrierEvents)
        .innerJoin(tracked, eq(tracked.id, carrierEvents.trackedId))
        .where(and(...conditions))
        .groupBy(carrierEvents.eventId)
        .orderBy(asc(created), asc(carrierEvents.eventId))
        .limit(f.limit)
        .all(),
    );
  }
  forRecord(trackedId: string): Promise<StoredEvent[]> {
    return this.x.run((db) =>
      db
        .select({ eventId: carrierEvents.eventId, payload: carrierEvents.payload })
        .from(carrierEvents)
        .where(eq(carrierEvents.trackedId, trackedId))
        .all(),
    );
  }
  hasAny(trackedId: string): Promise<boolean> {
    return this.x.run(
      (db) =>
        db
          .select({ id: carrierEvents.eventId })
          .from(carrierEvents)
          .where(eq(carrierEvents.trackedId, trackedId))
          .limit(1)
          .get() !== undefined,
    );
  }
  insert(trackedId: string, eventId: string, payload: unknown, at: string): Promise<void> {
    return this.x.run((db) => {
      db.insert(carrierEvents).values({ trackedId, eventId, payload, firstSeenAt: at }).run();
    });
  }
  correct(trackedId: string, eventId: string, before: unknown, after: unknown, at: string): Promise<void> {
    return this.x.run((db) => {
      db.insert(corrections)
        .values({ id: crypto.randomUUID(), trackedId, eventId, before, after, recordedAt: at })
        .run();
      db.update(carrierEvents)
        .set({ payload: after })
        .where(and(eq(carrierEvents.trackedId, trackedId), eq(carrierEvents.eventId, eventId)))
        .run();
    });
  }
  deleteFor(trackedIds: readonly string[]): Promise<void> {
    return this.x.run((db) => {
      db.delete(corrections)
        .where(inArray(corrections.trackedId, [...trackedIds]))
        .run();
      db.delete(carrierEvents)
        .where(inArray(carrierEvents.trackedId, [...trackedIds]))
        .run();
    });
  }
}
