/**
 * The ocean resources' shapes as the OpenAPI document names them: the tracked record (list item),
 * the lookup record (single read), the milestone event, the vessel position, free-time terms.
 * records.ts renders them; the routes declare them (app.ts) and the test helpers check every
 * answer against them.
 */
import { t } from "elysia";
import { DateTime, Int, LOCAL_MOMENT, nullable, strict, Text, Uuid } from "../shared/openapi/responses.ts";

const oneOf = (values: readonly string[], options: Record<string, unknown> = {}) =>
  t.Union(
    values.map((v) => t.Literal(v)),
    options,
  );

export const STATUS_VALUES = [
  "unknown",
  "in_transit",
  "discharged",
  "available",
  "customs_hold",
  "delivered",
  "returned_empty",
] as const;
const Status = oneOf(STATUS_VALUES, { description: "Shipment status" });
const IdentifierType = oneOf(["container_id", "bill_of_lading", "booking"]);

export const VesselPosition = strict(
  {
    imo: Text,
    name: Text,
    lat: nullable(t.Number({ minimum: -90, maximum: 90 })),
    lng: nullable(t.Number({ minimum: -180, maximum: 180 })),
    speed_knots: nullable(t.Number()),
    heading_deg: nullable(t.Number()),
    nav_status: Text,
    position_updated_at: nullable(DateTime),
    position_fix_at: nullable(DateTime),
    position_age_hours: nullable(t.Number()),
    position_freshness: oneOf(["live", "recent", "stale", "outdated", "unknown"]),
  },
  { $id: "VesselPosition", description: "The vessel's last AIS fix" },
);

export const MilestoneEvent = strict(
  {
    type: t.String(),
    classifier: oneOf(["ACT", "EST", "PLN"]),
    ...LOCAL_MOMENT,
  },
  { $id: "MilestoneEvent" },
);

export const TrackedRecord = strict(
  {
    id: t.String({ description: "The record's UUID (the container number in the portfolio summary)" }),
    org_id: t.String(),
    identifier: t.String(),
    identifier_type: IdentifierType,
    carrier_code: Text,
    carrier_name: Text,
    tags: t.Array(t.String()),
    status: Status,
    eta: Text,
    eta_is_estimated: nullable(t.Boolean()),
    planned_departure_at: Text,
    current_vessel_imo: Text,
    poll_priority: t.String(),
    demurrage_at_risk: t.Boolean(),
    demurrage_accrued_usd: nullable(t.Number({ minimum: 0 })),
    demurrage_last_free_day: Text,
    customs_hold_reason: Text,
    customs_hold_since: Text,
    origin_unlocode: Text,
    destination_unlocode: Text,
    destination_name: t.String(),
    container_size: Text,
    equipment_type: Text,
    iso_type_code: Text,
    equipment_owner: Text,
    equipment_lessor: Text,
    lessee_name: Text,
    carrier_hint_code: Text,
    lessor_status: Text,
    lessor_checked_at: Text,
    connector_status: Text,
    connector_notify_requested_at: Text,
    redelivery_reference: Text,
    redelivery_date: Text,
    redelivery_location: Text,
    redelivery_yard: Text,
    lessor_contract_number: Text,
    lessor_contract_type: Text,
    equipment_manufacturer: Text,
    last_polled_at: DateTime,
    added_at: DateTime,
    archived_at: nullable(DateTime),
    archived_reason: Text,
    unresolvable_since: Text,
    unresolved_reason: Text,
    route_alert: Text,
    source: oneOf(["direct_carrier", "warm_db"]),
    delay_bars: t.Array(nullable(t.Number()), { minItems: 5, maxItems: 5 }),
    route_ports: nullable(
      t.Array(strict({ unlocode: t.String(), name: t.String(), role: t.String() }), { minItems: 1 }),
    ),
    is_demo: t.Boolean(),
    vessel_position: nullable(VesselPosition),
  },
  { $id: "TrackedRecord", description: "A tracked container, bill of lading or booking (list item)" },
);

const Provenance = strict({
  state: oneOf(["resolved", "contract_required", "not_published", "not_applicable", "awaiting_carrier"]),
  action: oneOf(["supply_terms", "wait", "do_not_expect", "none"]),
  source: Text,
  confidence: nullable(t.Number({ minimum: 0, maximum: 1 })),
  evidence: t.String(),
});

const ChildContainer = strict({
  id: t.String(),
  status: Status,
  eta: Text,
  container_size: Text,
  iso_type_code: Text,
  vessel_imo: Text,
  archived_reason: Text,
  events: t.Array(MilestoneEvent),
});

export const LookupRecord = strict(
  {
    id: t.String(),
    container_number: Text,
    bl_number: Text,
    booking_number: Text,
    identifier: t.String(),
    identifier_type: IdentifierType,
    container_size: Text,
    equipment_type: Text,
    iso_type_code: Text,
    child_containers: nullable(
      t.Record(t.String(), ChildContainer, { description: "A B/L's or booking's boxes by container number" }),
    ),
    status: Status,
    route_alert: Text,
    carrier: t.String(),
    vessel_name: Text,
    vessel_imo: Text,
    vessel_position: nullable(VesselPosition),
    origin_name: t.String(),
    destination_name: t.String(),
    eta: Text,
    eta_confidence_pct: nullable(t.Number({ minimum: 0, maximum: 100 })),
    last_updated_at: DateTime,
    last_updated_source: nullable(oneOf(["ais_vessel_position", "carrier_poll"])),
    last_polled_at: DateTime,
    last_ais_fix_at: nullable(DateTime),
    field_provenance: t.Record(t.String(), Provenance, { description: "How each field was established" }),
    demurrage_free_days_left: nullable(t.Number()),
    ai_narrative: t.Null(),
    events: t.Array(MilestoneEvent),
  },
  { $id: "LookupRecord", description: "One tracked record with its timeline (single read)" },
);

export const FreeTimeTerms = strict(
  {
    id: Uuid,
    carrier_code: Text,
    port_unlocode: Text,
    equipment: Text,
    free_days: Int({ minimum: 0, maximum: 365 }),
    daily_rate_usd: nullable(t.Number({ minimum: 0 })),
    created_at: DateTime,
  },
  { $id: "FreeTimeTerms" },
);

/** The open lookup's answer (public-lookup.ts). */
export const PublicLookup = strict(
  {
    identifier: t.String(),
    identifier_type: oneOf(["container_id", "booking_number", "bill_of_lading"]),
    carrier: Text,
    status: Status,
    eta: Text,
    eta_is_estimated: nullable(t.Boolean()),
    origin_name: t.String(),
    destination_name: t.String(),
    vessel_name: Text,
    events: t.Array(MilestoneEvent),
  },
  { $id: "PublicLookup" },
);

/** The add's answer: the new record's head. */
export const AddedRecord = strict({ id: Uuid, identifier: t.String(), status: Status, carrier_code: Text });

/** A lookup of a reference just registered: come back after retry_after_seconds. */
export const InProgress = strict(
  {
    ok: t.Literal(false),
    error: strict({
      code: t.Literal("TRACKING_IN_PROGRESS"),
      message: t.String(),
      severity: t.Literal("info"),
      retry_after_seconds: Int({ minimum: 1 }),
    }),
  },
  { $id: "TrackingInProgress" },
);
