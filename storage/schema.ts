/**
 * Relational schema (drizzle, SQLite dialect). Migrations under storage/migrations are generated from
 * this file with `npm run db:generate` and committed; the server applies them at start.
 */
import { sql } from "drizzle-orm";
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

export const orgs = sqliteTable("orgs", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  /** Plan name, e.g. free, starter, pro, payg. */
  plan: text("plan").notNull().default("free"),
  /** Paid plans get the higher rate window (120 instead of 40). */
  paid: integer("paid", { mode: "boolean" }).notNull().default(false),
  /** Unique shipments allowed per billing month; null = uncapped. */
  shipmentQuota: integer("shipment_quota"),
  /** Concurrently tracked containers; null = uncapped. */
  containerSlots: integer("container_slots"),
  /** Pay-as-you-go only: spend cap and unit price in USD; null = not pay-as-you-go. */
  paygSpendCapUsd: real("payg_spend_cap_usd"),
  paygUnitPriceUsd: real("payg_unit_price_usd"),
  /** Per-account ceiling arranged by support; overrides the plan's 40 / 120 per window. */
  rateLimit: integer("rate_limit"),
  createdAt: text("created_at").notNull(),
});

export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => orgs.id),
    /** Product that issued the key: ocean, air, schedules, loading, rates, distance. */
    product: text("product").notNull(),
    /** SHA-256 (hex) of the whole key; keys are 190-bit random, so a fast hash is safe here. */
    hash: text("hash").notNull(),
    /** First characters and last four, for display; never enough to use the key. */
    hint: text("hint").notNull(),
    label: text("label"),
    createdAt: text("created_at").notNull(),
    expiresAt: text("expires_at"),
    revokedAt: text("revoked_at"),
  },
  (t) => [uniqueIndex("api_keys_hash").on(t.hash), index("api_keys_org").on(t.orgId)],
);

export const entitlements = sqliteTable(
  "entitlements",
  {
    orgId: text("org_id")
      .notNull()
      .references(() => orgs.id),
    product: text("product").notNull(),
    /** ISO 8601; null = no expiry. */
    expiresAt: text("expires_at"),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.product] })],
);

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
 * Webhook outbox: written in the same transaction as the state change that raised the event; the
 * dispatcher (webhooks module) fans it out in sequence order, marking what it took. id is the event
 * id receivers deduplicate on.
 */
export const outbox = sqliteTable(
  "outbox",
  {
    /** Append order (PostgreSQL: an identity column). */
    seq: integer("seq").primaryKey({ autoIncrement: true }),
    id: text("id").notNull(),
    orgId: text("org_id").notNull(),
    product: text("product").notNull(),
    type: text("type").notNull(),
    occurredAt: text("occurred_at").notNull(),
    data: text("data", { mode: "json" }).notNull(),
    createdAt: text("created_at").notNull(),
    /** Turned into deliveries. A flag, not a cursor: on PostgreSQL sequence values commit out of order. */
    fannedOut: integer("fanned_out", { mode: "boolean" }).notNull().default(false),
  },
  (t) => [
    uniqueIndex("outbox_id").on(t.id),
    index("outbox_org_created").on(t.orgId, t.createdAt),
    index("outbox_pending").on(t.seq).where(sql`not ${t.fannedOut}`),
  ],
);

/** Unique shipments started per organisation and month (the shipment quota counts these). */
export const shipmentUsage = sqliteTable(
  "shipment_usage",
  {
    orgId: text("org_id").notNull(),
    month: text("month").notNull(),
    identifier: text("identifier").notNull(),
    chargedUsd: real("charged_usd").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.month, t.identifier] })],
);

/**
 * How many shipment_usage rows each organisation has per month, moved in the transaction that adds
 * or removes one (storage/quotas.ts): the month's count is one row read, where counting the rows
 * read every one of them (an organisation with 100,000 shipments in the month paid 4-5 ms a
 * compat answer, and a count per add).
 */
export const shipmentMonths = sqliteTable(
  "shipment_months",
  {
    orgId: text("org_id").notNull(),
    month: text("month").notNull(),
    shipments: integer("shipments").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.month] })],
);

/** Webhook endpoints, per organisation and product (docs/webhooks.md). */
export const webhookEndpoints = sqliteTable(
  "webhook_endpoints",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id").notNull(),
    product: text("product").notNull(),
    url: text("url").notNull(),
    /** [] = every event the product emits. */
    eventTypes: text("event_types", { mode: "json" }).$type<string[]>().notNull(),
    description: text("description").notNull().default(""),
    active: integer("active", { mode: "boolean" }).notNull().default(true),
    /** Why the dispatcher turned it off (gone, failing); null when paused by the caller or active. */
    disabledReason: text("disabled_reason"),
    /** Consecutive failed attempts; zero after any success. */
    failureCount: integer("failure_count").notNull().default(0),
    /** Epoch ms of the first failure of the current streak; null without a streak. */
    failingSince: integer("failing_since"),
    lastDeliveryAt: text("last_delivery_at"),
    createdAt: text("created_at").notNull(),
    /** SHA-256 hex of the whsec_ secret; the clear secret is never stored. */
    secretHash: text("secret_hash").notNull(),
    /** AES-256-GCM copy for signing: key id from PORTOLAN_WEBHOOK_KEYS, base64(iv || ciphertext). */
    secretKeyId: text("secret_key_id").notNull(),
    secretSealed: text("secret_sealed").notNull(),
    /**
     * PEM of the throwaway CA of a `portolan webhooks listen` receiver: the endpoint's only trust
     * anchor, and its URL must resolve to loopback. Null on endpoints registered over HTTP.
     */
    localCa: text("local_ca"),
  },
  (t) => [index("webhook_endpoints_org").on(t.orgId, t.product, t.createdAt)],
);

/**
 * One event (or ping) for one endpoint. body holds the exact bytes sent on every attempt, so the
 * signature and the id are stable across retries. A dispatcher owns a row while lease_until is in
 * the future; attempt_count doubles as the fencing token of that lease.
 */
export const webhookDeliveries = sqliteTable(
  "webhook_deliveries",
  {
    id: text("id").primaryKey(),
    endpointId: text("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    /** outbox id; null for pings. */
    eventId: text("event_id"),
    eventType: text("event_type").notNull(),
    body: text("body").notNull(),
    /** pending, delivered or dead. */
    status: text("status").notNull().default("pending"),
    attemptCount: integer("attempt_count").notNull().default(0),
    /** Epoch ms when the next attempt is due. */
    nextAttemptAt: integer("next_attempt_at").notNull().default(0),
    /** Epoch ms until which a dispatcher holds the row; 0 = free. */
    leaseUntil: integer("lease_until").notNull().default(0),
    leaseOwner: text("lease_owner"),
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
    createdAt: text("created_at").notNull(),
    deliveredAt: text("delivered_at"),
  },
  (t) => [
    uniqueIndex("webhook_deliveries_event").on(t.endpointId, t.eventId),
    index("webhook_deliveries_due").on(t.status, t.nextAttemptAt),
    // Each endpoint's due head: the claim steps over full endpoints' backlogs by these (a seek per
    // endpoint with pending deliveries) instead of walking the backlogs in due order.
    index("webhook_deliveries_pending").on(t.status, t.endpointId, t.nextAttemptAt),
    index("webhook_deliveries_endpoint").on(t.endpointId, t.createdAt),
  ],
);

/** Every attempt, for operators: what the receiver answered and how long it took. */
export const webhookAttempts = sqliteTable(
  "webhook_attempts",
  {
    deliveryId: text("delivery_id")
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: "cascade" }),
    attempt: integer("attempt").notNull(),
    startedAt: text("started_at").notNull(),
    durationMs: integer("duration_ms").notNull(),
    statusCode: integer("status_code"),
    error: text("error"),
    /** First KiB of the response body at most. */
    responseExcerpt: text("response_excerpt"),
    dispatcher: text("dispatcher").notNull(),
  },
  (t) => [primaryKey({ columns: [t.deliveryId, t.attempt] })],
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

/**
 * Calls on the vendor-compatible surface (X-Usage-* headers per key, metadata.api_calls per
 * organisation). scope is key:<id> or org:<id>; period a month (2026-11), day (2026-11-21), ISO
 * week (2026-W47) or "all".
 */
export const compatUsage = sqliteTable(
  "compat_usage",
  {
    scope: text("scope").notNull(),
    period: text("period").notNull(),
    calls: integer("calls").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.scope, t.period] })],
);

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

/**
 * Sailings of the configured carriers' schedules (DCSA Commercial Schedules vessel schedules), one
 * per carrier, service and voyage, kept fresh by ingest/schedules/sync.ts: docs/schedules.md.
 */
export const sailings = sqliteTable(
  "sailings",
  {
    /** `${carrier}/${serviceCode}/${voyage}`: the same sailing from any process. */
    id: text("id").primaryKey(),
    /** SCAC of the publishing carrier. */
    carrier: text("carrier").notNull(),
    serviceCode: text("service_code").notNull(),
    serviceName: text("service_name").notNull(),
    /** The carrier's voyage number the calls depart on (export voyage). */
    voyage: text("voyage").notNull(),
    vesselImo: text("vessel_imo"),
    vesselName: text("vessel_name"),
    /** The calls as the CS client maps them (ScheduleCall[]): times as published, cut-offs. */
    calls: text("calls", { mode: "json" }).$type<unknown[]>().notNull(),
    /** Planned departure from the first call (UTC ISO): the window a refresh compares over. */
    departsAt: text("departs_at").notNull(),
    /** Planned arrival at the last call (UTC ISO). */
    arrivesAt: text("arrives_at").notNull(),
    /** active, or withdrawn (a blank sailing: absent from a fetch whose window it lies in). */
    status: text("status").notNull().default("active"),
    firstSeenAt: text("first_seen_at").notNull(),
    /** When a refresh last found a difference (firstSeenAt until then). */
    changedAt: text("changed_at").notNull(),
    /**
     * The first call's expected departure (UTC ISO) as first seen or as the last sailing_slipped
     * reported it: the next slip is measured from here (docs/schedules.md, Events).
     */
    slipBaselineAt: text("slip_baseline_at"),
    /** Moves (+1) with every write to the sailing: parsed rows are cached under it (sailing-cache.ts). */
    version: integer("version").notNull().default(1),
  },
  (t) => [index("sailings_carrier_departs").on(t.carrier, t.departsAt)],
);

/** Each difference a schedule refresh found in a sailing, appended in the order seen. */
export const sailingChanges = sqliteTable(
  "sailing_changes",
  {
    /** Append order (PostgreSQL: an identity column). */
    seq: integer("seq").primaryKey({ autoIncrement: true }),
    sailingId: text("sailing_id")
      .notNull()
      .references(() => sailings.id, { onDelete: "cascade" }),
    /** The call's key (transport call reference, else UN/LOCODE#n); null for the sailing itself. */
    call: text("call"),
    /** status, vessel, call (added / omitted), arrival.estimated, departure.actual, cutoff.FCO, ... */
    field: text("field").notNull(),
    before: text("before", { mode: "json" }),
    after: text("after", { mode: "json" }),
    seenAt: text("seen_at").notNull(),
  },
  (t) => [
    index("sailing_changes_sailing").on(t.sailingId, t.seq),
    index("sailing_changes_seen").on(t.seenAt),
  ],
);

/** Per carrier: the last schedule refresh applied (its clock reading) and the last failure. */
export const scheduleFeeds = sqliteTable("schedule_feeds", {
  carrier: text("carrier").primaryKey(),
  /** Clock reading at the start of the fetch last applied; an older fetch is not applied after it. */
  lastSyncedAt: text("last_synced_at"),
  lastAttemptAt: text("last_attempt_at"),
  /** CarrierError kind and message of the latest attempt; null after a good one. */
  lastError: text("last_error"),
  failures: integer("failures").notNull().default(0),
});

/**
 * What an organisation follows on the schedules host (POST /v1/follows): one sailing, a lane
 * (origin and destination, carrier optional) or a service (carrier and service code), with the
 * lead time and cut-off codes of its cutoff_approaching notices. docs/schedules.md, "Follows".
 */
export const scheduleFollows = sqliteTable(
  "schedule_follows",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id").notNull(),
    /** sailing, lane or service. */
    kind: text("kind").notNull(),
    sailingId: text("sailing_id"),
    carrier: text("carrier"),
    origin: text("origin"),
    destination: text("destination"),
    serviceCode: text("service_code"),
    leadHours: integer("lead_hours").notNull(),
    /** Cut-off codes notified (DCO, VCO, FCO, ...); [] = every code. */
    cutOffCodes: text("cut_off_codes", { mode: "json" }).$type<string[]>().notNull(),
    /** The follow's canonical form: posting the same follow again answers this row. */
    identity: text("identity").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("schedule_follows_identity").on(t.orgId, t.identity),
    index("schedule_follows_org").on(t.orgId, t.createdAt),
  ],
);

/**
 * Each cutoff_approaching raised: once per organisation, sailing, call and cut-off code, across
 * sweeps and processes (the key); cutOffAt is the time the last notice gave, so a cut-off moved
 * earlier after it is told again (ingest/schedules/cutoffs.ts).
 */
export const cutoffNotices = sqliteTable(
  "cutoff_notices",
  {
    orgId: text("org_id").notNull(),
    sailingId: text("sailing_id").notNull(),
    /** The call's key within the sailing (as sailing_changes names it). */
    call: text("call").notNull(),
    code: text("code").notNull(),
    /** UTC ISO: the cut-off time the last notice gave. */
    cutOffAt: text("cut_off_at").notNull(),
    notifiedAt: text("notified_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.sailingId, t.call, t.code] })],
);

/**
 * The reliability_drop watch per scope (a carrier, or a followed lane with or without a carrier):
 * armed until a drop is raised, re-armed once the reliability recovers past threshold + margin.
 */
export const reliabilityStates = sqliteTable("reliability_states", {
  /** carrier:{SCAC} or lane:{SCAC or *}:{origin}:{destination}. */
  scope: text("scope").primaryKey(),
  armed: integer("armed", { mode: "boolean" }).notNull().default(true),
  /** The last measurement: reliability (null: nothing measured), measured calls and when. */
  reliability: real("reliability"),
  calls: integer("calls").notNull().default(0),
  measuredAt: text("measured_at"),
  /** When the last reliability_drop for the scope was raised. */
  droppedAt: text("dropped_at"),
});

/**
 * Rate sheets an operator imported for an organisation (`portolan rates import`): one carrier, mode,
 * currency and validity; a re-import under the same identity (org, carrier, mode, name) replaces the
 * lines and surcharges in place. docs/rates.md.
 */
export const rateSheets = sqliteTable(
  "rate_sheets",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => orgs.id),
    name: text("name").notNull(),
    carrier: text("carrier").notNull(),
    /** OCEAN_FCL, OCEAN_LCL, AIR, ROAD or RAIL. */
    mode: text("mode").notNull(),
    currency: text("currency").notNull(),
    /** UTC dates YYYY-MM-DD, both inclusive. */
    validFrom: text("valid_from").notNull(),
    validTo: text("valid_to").notNull(),
    sourceFile: text("source_file").notNull(),
    /** When the current content was imported (a no-op re-import leaves it). */
    importedAt: text("imported_at").notNull(),
    createdAt: text("created_at").notNull(),
    /** sha256 of the canonical content: an identical re-import changes nothing. */
    digest: text("digest").notNull(),
    /** 1 at the first import, +1 per replacing re-import. */
    version: integer("version").notNull().default(1),
    lineCount: integer("line_count").notNull(),
    surchargeCount: integer("surcharge_count").notNull(),
    /** The valid_to a rate_expiring was raised for (once per sheet and end date, across processes). */
    expiringRaisedFor: text("expiring_raised_for"),
  },
  (t) => [
    uniqueIndex("rate_sheets_identity").on(t.orgId, t.carrier, t.mode, t.name),
    index("rate_sheets_org_mode").on(t.orgId, t.mode, t.validTo),
    index("rate_sheets_org_imported").on(t.orgId, t.importedAt),
    index("rate_sheets_valid_to").on(t.validTo),
  ],
);

/** A sheet's priced lanes: one row per origin, destination and equipment. */
export const rateLines = sqliteTable(
  "rate_lines",
  {
    seq: integer("seq").primaryKey({ autoIncrement: true }),
    sheetId: text("sheet_id")
      .notNull()
      .references(() => rateSheets.id, { onDelete: "cascade" }),
    /** UN/LOCODE, IATA airport code (air) or ISO country code. */
    origin: text("origin").notNull(),
    destination: text("destination").notNull(),
    /** Container type (FCL), free equipment text (road, rail) or null. */
    equipment: text("equipment"),
    /** per_container, per_wm, weight_break, per_km or per_lane. */
    basis: text("basis").notNull(),
    rate: real("rate"),
    minimum: real("minimum"),
    /** Air: rate per kg by break label ("-45", "+45", ...). */
    breaks: text("breaks", { mode: "json" }).$type<Record<string, number>>(),
    transitDays: real("transit_days"),
    distanceKm: real("distance_km"),
  },
  (t) => [index("rate_lines_sheet").on(t.sheetId), index("rate_lines_lane").on(t.origin, t.destination)],
);

/** A sheet's surcharges, each optionally narrowed to equipment, origin, destination and dates. */
export const rateSurcharges = sqliteTable(
  "rate_surcharges",
  {
    seq: integer("seq").primaryKey({ autoIncrement: true }),
    sheetId: text("sheet_id")
      .notNull()
      .references(() => rateSheets.id, { onDelete: "cascade" }),
    code: text("code").notNull(),
    /** per_container, per_shipment, per_kg, per_wm or percent (of the base freight). */
    basis: text("basis").notNull(),
    amount: real("amount").notNull(),
    equipment: text("equipment"),
    origin: text("origin"),
    destination: text("destination"),
    validFrom: text("valid_from"),
    validTo: text("valid_to"),
  },
  (t) => [index("rate_surcharges_sheet").on(t.sheetId)],
);

/**
 * Load plans per organisation (the load-plan host, /v1/load-plans): the request's input as the
 * caller sent it (snake_case JSON) and the planner's result, re-planned when the input changes.
 * Deleting a plan removes its row (plan_deleted carries what receivers need). docs/loadplan.md,
 * "The load-plan product".
 */
export const loadPlans = sqliteTable(
  "load_plans",
  {
    /** Time-ordered (common/ids.ts). */
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => orgs.id),
    name: text("name").notNull(),
    /** The caller's own reference (booking, order), optional. */
    reference: text("reference"),
    input: text("input", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    /** engine/loadplan/types.ts LoadPlanResult. */
    result: text("result", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    /** complete (every piece placed) or partial. */
    status: text("status").notNull(),
    /** 1 when created, +1 per change. */
    version: integer("version").notNull().default(1),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [index("load_plans_org_updated").on(t.orgId, t.updatedAt, t.id)],
);
