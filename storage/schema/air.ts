/**
 * Air cargo tracking: air waybills and their airlines' events. Part of the one schema (storage/schema.ts).
 */
import { sql } from "drizzle-orm";
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { orgs } from "./accounts.ts";

/**
 * Air waybills an organisation tracks (ingest/air-tracking/). One active row per organisation and
 * AWB; a delete archives the row and a later add of the same AWB starts a new one. Everything shown
 * is derived from the airline's events (air_waybill_events) at each poll.
 */
export const airWaybills = sqliteTable(
  "air_waybills",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => orgs.id),
    /** 11 digits, no dash: airline prefix (3) + serial (8). */
    awb: text("awb").notNull(),
    /** The prefix's airline (IATA awb-prefixes table). */
    airlineIata: text("airline_iata").notNull(),
    airlineName: text("airline_name"),
    /** null: a ONE Record connector serves the airline; "not_connected": none configured (yet). */
    connectorStatus: text("connector_status"),
    /** Airports (IATA) of the waybill's route ends, as the airline or its events say. */
    origin: text("origin"),
    destination: text("destination"),
    pieces: integer("pieces"),
    weightKg: real("weight_kg"),
    status: text("status").notNull().default("unknown"),
    /** Active exception flags (offloaded, split, delayed, ...): docs/air-cargo.md. */
    exceptions: text("exceptions", { mode: "json" }).$type<string[]>().notNull().default([]),
    eta: text("eta"),
    etaIsEstimated: integer("eta_is_estimated", { mode: "boolean" }),
    /** The first published plan of the arrival at the destination: what "delayed" compares against. */
    plannedArrivalAt: text("planned_arrival_at"),
    departedAt: text("departed_at"),
    arrivedAt: text("arrived_at"),
    deliveredAt: text("delivered_at"),
    /** awb_* event types raised for this row (or already past at its first fetch): each raised once. */
    notified: text("notified", { mode: "json" }).$type<string[]>().notNull().default([]),
    /** Failure kind of the latest airline call (not_found, unavailable, malformed); null after a good one. */
    lastError: text("last_error"),
    pollFailures: integer("poll_failures").notNull().default(0),
    lastPolledAt: text("last_polled_at"),
    /** null: not polled any more (delivered, or archived). */
    nextPollAt: text("next_poll_at"),
    /** Moves when what a user sees changes: lists sort on it (most recently updated first). */
    updatedAt: text("updated_at").notNull(),
    addedAt: text("added_at").notNull(),
    /** Set while the add's first airline call runs: a concurrent add of the AWB answers 409. */
    adding: integer("adding", { mode: "boolean" }).notNull().default(false),
    archivedAt: text("archived_at"),
    archivedReason: text("archived_reason"),
  },
  (t) => [
    uniqueIndex("air_waybills_active_awb").on(t.orgId, t.awb).where(sql`${t.archivedAt} is null`),
    // The list order (updated_at desc, id desc) straight from the index, no sort step.
    index("air_waybills_org_updated").on(t.orgId, t.archivedAt, t.updatedAt, t.id),
    index("air_waybills_next_poll").on(t.nextPollAt),
  ],
);

/**
 * An air waybill's airline events (ONE Record logistics events, normalised to AwbEvent) by the
 * airline's event id. ONE Record events are immutable and their list append-only, so events are
 * kept in the order first seen (seq): "the latest estimate" is the one published last.
 */
export const airWaybillEvents = sqliteTable(
  "air_waybill_events",
  {
    waybillId: text("waybill_id")
      .notNull()
      .references(() => airWaybills.id, { onDelete: "cascade" }),
    eventId: text("event_id").notNull(),
    seq: integer("seq").notNull(),
    payload: text("payload", { mode: "json" }).notNull(),
    firstSeenAt: text("first_seen_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.waybillId, t.eventId] })],
);
