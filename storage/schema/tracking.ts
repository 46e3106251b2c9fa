/**
 * Ocean tracking: tracked references, the carrier events they are derived from, and the
 * free-time terms their demurrage is reckoned with. Part of the one schema (storage/schema.ts).
 */
import { sql } from "drizzle-orm";
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { orgs } from "./accounts.ts";

/**
 * Tracked references. A bill of lading or booking is a root row; the boxes it resolves to are child
 * rows (parent_id set), each with its own derived state.
 */
export const tracked = sqliteTable(
  "tracked",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => orgs.id),
    parentId: text("parent_id"),
    identifier: text("identifier").notNull(),
    identifierType: text("identifier_type").notNull(),
    containerNumber: text("container_number"),
    blNumber: text("bl_number"),
    bookingNumber: text("booking_number"),
    carrierCode: text("carrier_code"),
    carrierName: text("carrier_name"),
    carrierHintCode: text("carrier_hint_code"),
    equipmentOwner: text("equipment_owner"),
    /** The BIC owner is a leasing company: lessor data is looked up, the line is only ever a hint. */
    ownerIsLessor: integer("owner_is_lessor", { mode: "boolean" }).notNull().default(false),
    equipmentLessor: text("equipment_lessor"),
    lesseeName: text("lessee_name"),
    lessorStatus: text("lessor_status"),
    lessorCheckedAt: text("lessor_checked_at"),
    lessorContractNumber: text("lessor_contract_number"),
    lessorContractType: text("lessor_contract_type"),
    redeliveryReference: text("redelivery_reference"),
    redeliveryDate: text("redelivery_date"),
    redeliveryLocation: text("redelivery_location"),
    redeliveryYard: text("redelivery_yard"),
    equipmentManufacturer: text("equipment_manufacturer"),
    connectorStatus: text("connector_status"),
    connectorNotifyRequestedAt: text("connector_notify_requested_at"),
    tags: text("tags", { mode: "json" }).$type<string[]>().notNull().default([]),
    status: text("status").notNull().default("unknown"),
    stage: text("stage").notNull().default("unknown"),
    eta: text("eta"),
    etaIsEstimated: integer("eta_is_estimated", { mode: "boolean" }),
    plannedDepartureAt: text("planned_departure_at"),
    currentVesselImo: text("current_vessel_imo"),
    currentVesselName: text("current_vessel_name"),
    originUnlocode: text("origin_unlocode"),
    destinationUnlocode: text("destination_unlocode"),
    routePorts: text("route_ports", { mode: "json" }).$type<Array<{ unlocode: string; role: string }>>(),
    routeAlert: text("route_alert"),
    delayBars: text("delay_bars", { mode: "json" }).$type<Array<number | null>>(),
    firstPlans: text("first_plans", { mode: "json" }).$type<
      Record<string, { at: string; vesselImo: string | null; createdAt: string }>
    >(),
    customsHoldReason: text("customs_hold_reason"),
    customsHoldSince: text("customs_hold_since"),
    isoTypeCode: text("iso_type_code"),
    containerSize: text("container_size"),
    equipmentType: text("equipment_type"),
    dischargedAt: text("discharged_at"),
    /** Actual gate-out full at the destination: stops the demurrage clock. */
    deliveredAt: text("delivered_at"),
    /** none, free, warning or accruing: the last demurrage phase the poller saw (edges raise events). */
    demurragePhase: text("demurrage_phase").notNull().default("none"),
    isDemo: integer("is_demo", { mode: "boolean" }).notNull().default(false),
    pollPriority: text("poll_priority").notNull().default("pre_departure"),
    nextPollAt: text("next_poll_at"),
    pollFailures: integer("poll_failures").notNull().default(0),
    lastPolledAt: text("last_polled_at"),
    lastRecheckAt: text("last_recheck_at"),
    /** Moves whenever the derived state changes: lists sort on it (most recently updated first). */
    updatedAt: text("updated_at").notNull(),
    addedAt: text("added_at").notNull(),
    /** Set while the first carrier fetch of an add runs: concurrent adds answer CONTAINER_ADD_IN_PROGRESS. */
    adding: integer("adding", { mode: "boolean" }).notNull().default(false),
    archivedAt: text("archived_at"),
    archivedReason: text("archived_reason"),
    unresolvableSince: text("unresolvable_since"),
    unresolvedReason: text("unresolved_reason"),
    /**
     * Moves (+1) in the same statement as every write that can change how the record renders: its
     * row, and the events of its tree (storage/trackings.ts, events.ts). Rendered list items and
     * milestones are cached per process under it (api/ocean/versioned-cache.ts).
     */
    version: integer("version").notNull().default(1),
    /**
     * The record's milestones as the spec's JSON array, rendered by the refresh that last wrote its
     * root's events, so a read need not parse and derive them (storage/timelines.ts). `milestonesOf`
     * names what else the rendering depends on (renderForStore, ingest/tracking/timeline.ts); a
     * reader whose record it no longer fits (storedFits) derives the milestones itself. An event
     * added or corrected clears its tree's (events.ts). Columns of the row, not a table of their
     * own: a first lookup reads them with the row instead of probing a second table (about a tenth
     * of its server CPU, docs/tracking.md). Every other read of tracked rows leaves them out
     * (trackedRow, trackings.ts).
     */
    milestonesOf: text("milestones_of"),
    milestonesJson: text("milestones_json"),
  },
  (t) => [
    uniqueIndex("tracked_active_identifier")
      .on(t.orgId, t.identifierType, t.identifier)
      .where(sql`${t.archivedAt} is null and ${t.parentId} is null`),
    // The list order (updated_at desc, id desc) straight from the index, no sort step; with the
    // version, a page's (id, version) pairs come from the index alone (the list cache's key), and
    // with status and tags a filtered page's too (PostgreSQL keeps the json tags out, pg-schema.ts).
    index("tracked_org_updated").on(t.orgId, t.archivedAt, t.updatedAt, t.id, t.version, t.status, t.tags),
    // A lookup's (id, version) from the index alone: a record whose rendering the process holds
    // under that version is not read again (api/ocean/record-reads.ts).
    index("tracked_org_identifier").on(t.orgId, t.identifier, t.archivedAt, t.parentId, t.id, t.version),
    index("tracked_org_container").on(t.orgId, t.containerNumber, t.archivedAt, t.parentId, t.id, t.version),
    // The lane's on-time share (laneArrivals) from the index alone: stage, box and arrival delay
    // included, no row reads. PostgreSQL keeps the json column out of the key (pg-schema.ts).
    index("tracked_lane").on(
      t.carrierCode,
      t.originUnlocode,
      t.destinationUnlocode,
      t.stage,
      t.containerNumber,
      t.delayBars,
    ),
    index("tracked_parent").on(t.parentId),
    index("tracked_next_poll").on(t.nextPollAt),
  ],
);

/** Raw carrier events by eventID, per root record; everything shown is derived from these. */
export const carrierEvents = sqliteTable(
  "carrier_events",
  {
    trackedId: text("tracked_id")
      .notNull()
      .references(() => tracked.id, { onDelete: "cascade" }),
    eventId: text("event_id").notNull(),
    payload: text("payload", { mode: "json" }).notNull(),
    firstSeenAt: text("first_seen_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.trackedId, t.eventId] })],
);

/** A carrier changed an event it had already sent under the same id: kept for audit. */
export const corrections = sqliteTable(
  "corrections",
  {
    id: text("id").primaryKey(),
    trackedId: text("tracked_id").notNull(),
    eventId: text("event_id").notNull(),
    before: text("before", { mode: "json" }).notNull(),
    after: text("after", { mode: "json" }).notNull(),
    recordedAt: text("recorded_at").notNull(),
  },
  // A record's corrections, deleted with it (CarrierEvents.deleteFor).
  (t) => [index("corrections_tracked").on(t.trackedId)],
);

/**
 * Free-time terms an organisation holds with its carriers. The most specific match wins (carrier,
 * port and equipment each count); equipment is a container_size or its length prefix ("40").
 */
export const freeTimeTerms = sqliteTable(
  "free_time_terms",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => orgs.id),
    carrierCode: text("carrier_code"),
    portUnlocode: text("port_unlocode"),
    equipment: text("equipment"),
    freeDays: integer("free_days").notNull(),
    /** null: terms without a rate (free days known, cost not). */
    dailyRateUsd: real("daily_rate_usd"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [index("free_time_terms_org").on(t.orgId)],
);
