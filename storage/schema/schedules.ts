/**
 * Sailing schedules: the sailings, their changes, each carrier's feed, and what organisations
 * follow and were told. Part of the one schema (storage/schema.ts).
 */
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

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
