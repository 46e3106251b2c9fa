/**
 * The ocean resources as the spec shows them: the tracked record (list item, every field always
 * present), the lookup record (single read) and milestone events. Rendering only; state comes from
 * the tracking engine.
 */
import type { VesselPosition } from "../../ingest/ais/positions.ts";
import type { Demurrage } from "../../ingest/tracking/demurrage.ts";
import type { TrackedRow, TrackingEngine } from "../../ingest/tracking/engine.ts";
import { type Milestone, toMilestone } from "../../ingest/tracking/timeline.ts";
import type { Storage } from "../../storage/storage.ts";
import { PARKED_REASON } from "../../storage/trackings.ts";
import { RenderedJson } from "../shared/envelopes.ts";
import type { TimelineCache } from "./timeline-cache.ts";

export type Source = "direct_carrier" | "warm_db";

/** The spec's milestone fields, in its order. */
export function milestoneView(m: Milestone) {
  return {
    type: m.type,
    classifier: m.classifier,
    is_actual: m.is_actual,
    label: m.label,
    timestamp: m.timestamp,
    event_local_datetime: m.event_local_datetime,
    utc_offset_minutes: m.utc_offset_minutes,
    event_timezone: m.event_timezone,
    location: m.location,
  };
}

/** The spec's vessel position: null without an IMO aboard or a usable fix. */
function positionView(row: TrackedRow, p: VesselPosition | null) {
  if (!p) return null;
  return {
    imo: row.currentVesselImo,
    name: p.name ?? row.currentVesselName,
    lat: p.lat,
    lng: p.lng,
    speed_knots: p.speed_knots,
    heading_deg: p.heading_deg,
    nav_status: p.nav_status,
    position_updated_at: p.position_updated_at,
    position_fix_at: p.position_fix_at,
    position_age_hours: p.position_age_hours,
    position_freshness: p.position_freshness,
  };
}

/** Port name, falling back to the UN/LOCODE; "Unknown" when the carrier named no port yet. */
function portName(engine: TrackingEngine, locode: string | null): string {
  return locode ? (engine.places.name(locode) ?? locode) : "Unknown";
}

export function trackedRecord(engine: TrackingEngine, row: TrackedRow, source: Source, demurrage: Demurrage) {
  return {
    id: row.id,
    org_id: row.orgId,
    identifier: row.identifier,
    identifier_type: row.identifierType,
    carrier_code: row.carrierCode,
    carrier_name: row.carrierName,
    tags: row.tags,
    status: row.status,
    eta: row.eta,
    eta_is_estimated: row.eta === null ? null : row.etaIsEstimated,
    planned_departure_at: row.plannedDepartureAt,
    current_vessel_imo: row.currentVesselImo,
    poll_priority: row.pollPriority,
    demurrage_at_risk: demurrage.atRisk,
    demurrage_accrued_usd: demurrage.accruedUsd,
    demurrage_last_free_day: demurrage.lastFreeDay,
    customs_hold_reason: row.customsHoldReason,
    customs_hold_since: row.customsHoldSince,
    origin_unlocode: row.originUnlocode,
    destination_unlocode: row.destinationUnlocode,
    destination_name: portName(engine, row.destinationUnlocode),
    container_size: row.containerSize,
    equipment_type: row.equipmentType,
    iso_type_code: row.isoTypeCode,
    equipment_owner: row.equipmentOwner,
    equipment_lessor: row.equipmentLessor,
    lessee_name: row.lesseeName,
    carrier_hint_code: row.carrierHintCode,
    lessor_status: row.lessorStatus,
    lessor_checked_at: row.lessorCheckedAt,
    connector_status: row.connectorStatus,
    connector_notify_requested_at: row.connectorNotifyRequestedAt,
    redelivery_reference: row.redeliveryReference,
    redelivery_date: row.redeliveryDate,
    redelivery_location: row.redeliveryLocation,
    redelivery_yard: row.redeliveryYard,
    lessor_contract_number: row.lessorContractNumber,
    lessor_contract_type: row.lessorContractType,
    equipment_manufacturer: row.equipmentManufacturer,
    last_polled_at: row.lastPolledAt ?? row.addedAt,
    added_at: row.addedAt,
    archived_at: row.archivedAt,
    archived_reason: row.archivedReason,
    unresolvable_since: row.unresolvableSince,
    unresolved_reason: row.unresolvedReason,
    route_alert: row.routeAlert,
    source,
    delay_bars: row.delayBars ?? [null, null, null, null, null],
    route_ports: row.routePorts?.length
      ? row.routePorts.map((p) => ({
          unlocode: p.unlocode,
          name: portName(engine, p.unlocode),
          role: p.role,
        }))
      : null,
    is_demo: row.isDemo,
    vessel_position: positionView(row, engine.vesselPosition(row)),
  };
}

type Provenance = {
  state: "resolved" | "contract_required" | "not_published" | "not_applicable" | "awaiting_carrier";
  action: "supply_terms" | "wait" | "do_not_expect" | "none";
  source: string | null;
  confidence: number | null;
  evidence: string;
};

function demurrageProvenance(
  engine: TrackingEngine,
  row: TrackedRow,
  dem: Demurrage,
  carrier: string,
): Provenance {
  const port = portName(engine, row.destinationUnlocode);
  if (dem.stopped) {
    return {
      state: "not_applicable",
      action: "none",
      source: null,
      confidence: null,
      evidence: "The box has left the terminal: the clock stopped at gate-out.",
    };
  }
  if (!dem.terms) {
    return {
      state: "contract_required",
      action: "supply_terms",
      source: null,
      confidence: null,
      evidence: `No free-time terms are on file for ${carrier} at ${port}.`,
    };
  }
  if (!dem.lastFreeDay) {
    return {
      state: "awaiting_carrier",
      action: "wait",
      source: "terms",
      confidence: null,
      evidence: `Free time starts at discharge in ${port}, which ${carrier} has not reported yet.`,
    };
  }
  const zoneKnown =
    row.destinationUnlocode !== null && engine.places.timezone(row.destinationUnlocode) !== null;
  return {
    state: "resolved",
    action: "none",
    source: "terms",
    confidence: zoneKnown ? 1 : 0.8,
    evidence: `${dem.terms.freeDays} free days from discharge in ${port}: last free day ${dem.lastFreeDay}.`,
  };
}

function lessorProvenance(row: TrackedRow): Provenance {
  if (!row.ownerIsLessor) {
    return {
      state: "not_applicable",
      action: "none",
      source: "bic_registry",
      confidence: row.equipmentOwner ? 1 : null,
      evidence: row.equipmentOwner
        ? `The box belongs to ${row.equipmentOwner}, not a leasing company.`
        : "The box's owner is not a leasing company.",
    };
  }
  if (row.equipmentLessor) {
    return {
      state: "resolved",
      action: "none",
      source: "lessor",
      confidence: 1,
      evidence: `${row.equipmentLessor} reports the lease${row.lesseeName ? ` to ${row.lesseeName}` : ""}.`,
    };
  }
  return {
    state: "not_published",
    action: "do_not_expect",
    source: "lessor",
    confidence: null,
    evidence: `${row.equipmentOwner ?? "The lessor"} does not publish lease data to us for this box.`,
  };
}

function redeliveryProvenance(row: TrackedRow): Provenance {
  if (!row.ownerIsLessor || !row.equipmentLessor) return { ...lessorProvenance(row) };
  if (row.redeliveryDate) {
    return {
      state: "resolved",
      action: "none",
      source: "lessor",
      confidence: 1,
      evidence: `One-way lease: the empty goes back to ${row.redeliveryYard ?? row.redeliveryLocation}.`,
    };
  }
  return {
    state: "not_applicable",
    action: "none",
    source: "lessor",
    confidence: 1,
    evidence: `A ${row.lessorContractType ?? "term"} lease has no redelivery booked for this trip.`,
  };
}

/** Why each enrichment field is filled or empty: one sentence each (docs/tracking.md lists the rules). */
function provenance(
  engine: TrackingEngine,
  row: TrackedRow,
  dem: Demurrage,
  position: VesselPosition | null,
): Record<string, Provenance> {
  const carrier = row.carrierName ?? row.carrierCode ?? "the carrier";
  const dest = portName(engine, row.destinationUnlocode);
  return {
    eta: row.eta
      ? {
          state: "resolved",
          action: "none",
          source: "carrier",
          confidence: row.etaIsEstimated ? 0.7 : 1,
          evidence: row.etaIsEstimated
            ? `Latest ${carrier} estimate for arrival at ${dest}.`
            : `Actual arrival at ${dest} reported by ${carrier}.`,
        }
      : {
          state: "awaiting_carrier",
          action: "wait",
          source: "carrier",
          confidence: null,
          evidence: `${carrier} has not published an arrival time yet.`,
        },
    vessel_position: position
      ? {
          state: "resolved",
          action: "none",
          source: "ais",
          confidence:
            position.position_freshness === "live" ? 1 : position.position_freshness === "recent" ? 0.8 : 0.5,
          evidence: `AIS fix of ${position.name ?? row.currentVesselName ?? "the carrying vessel"} ${position.position_age_hours ?? "?"} h ago (${position.position_freshness}).`,
        }
      : row.currentVesselImo
        ? {
            state: "awaiting_carrier",
            action: "wait",
            source: "ais",
            confidence: null,
            evidence: "No AIS fix received for the carrying vessel yet.",
          }
        : {
            state: "not_applicable",
            action: "none",
            source: null,
            confidence: null,
            evidence: "The box is not aboard a vessel right now.",
          },
    customs_hold_reason: row.customsHoldSince
      ? row.customsHoldReason
        ? {
            state: "resolved",
            action: "none",
            source: "carrier",
            confidence: 1,
            evidence: `${carrier} reported the hold with its reason.`,
          }
        : {
            state: "not_published",
            action: "do_not_expect",
            source: "carrier",
            confidence: null,
            evidence: `${carrier} reported a hold without naming its reason.`,
          }
      : {
          state: "not_applicable",
          action: "none",
          source: null,
          confidence: null,
          evidence: "No customs hold is active.",
        },
    // One rule per family, shared by the fields it explains.
    ...same(
      demurrageProvenance(engine, row, dem, carrier),
      "demurrage_free_days_left",
      "demurrage_last_free_day",
      "demurrage_accrued_usd",
    ),
    ...same(
      lessorProvenance(row),
      "equipment_lessor",
      "lessee_name",
      "lessor_status",
      "lessor_contract_number",
      "lessor_contract_type",
      "equipment_manufacturer",
    ),
    ...same(
      redeliveryProvenance(row),
      "redelivery_reference",
      "redelivery_date",
      "redelivery_location",
      "redelivery_yard",
    ),
    ...same(
      row.containerSize
        ? {
            state: "resolved",
            action: "none",
            source: "carrier",
            confidence: 1,
            evidence: "Derived from the ISO 6346 size-type code the carrier reported.",
          }
        : {
            state: "awaiting_carrier",
            action: "wait",
            source: "carrier",
            confidence: null,
            evidence: "The carrier has not reported the size-type code yet.",
          },
      "container_size",
      "iso_type_code",
      "equipment_type",
    ),
    equipment_owner: row.equipmentOwner
      ? {
          state: "resolved",
          action: "none",
          source: "bic_registry",
          confidence: 1,
          evidence: `BIC owner prefix ${row.identifier.slice(0, 4)} is registered to ${row.equipmentOwner}.`,
        }
      : {
          state: "not_published",
          action: "do_not_expect",
          source: "bic_registry",
          confidence: null,
          evidence: row.containerNumber
            ? `Owner prefix ${row.containerNumber.slice(0, 4)} is not in the BIC registry we hold.`
            : "No container number yet.",
        },
  };
}

const same = (entry: Provenance, ...fields: string[]): Record<string, Provenance> =>
  Object.fromEntries(fields.map((f) => [f, entry]));

/** Share of on-time arrivals (within a day of the first plan) on the lane; null under five voyages. */
export type LaneConfidence = (row: TrackedRow) => Promise<number | null>;

export type MilestoneView = Readonly<ReturnType<typeof milestoneView>>;

/** A record's rendered milestones and their JSON text (what a lookup response splices in). */
export interface Timeline {
  readonly views: readonly MilestoneView[];
  readonly json: string;
}

/** What a lookup record is read from. */
export interface LookupSources {
  engine: TrackingEngine;
  storage: Storage;
  confidence: LaneConfidence;
  timelines: TimelineCache<Timeline>;
}

/**
 * The record's milestones, rendered once per version (see TimelineCache). `stamp` is the events
 * stamp of the record's root, read before this: a render may see newer events than the stamp says
 * (it is then stored under the older stamp and rendered again at the next read), never older ones.
 * A record's share of its root's events: its box's (none while parked) or, for a B/L or booking, all
 * but those of its parked boxes. A parked set only shrinks while the events stay the same (a box is
 * parked only when the carrier first names it), so a version never comes back to an earlier value.
 */
async function milestonesOf(
  t: LookupSources,
  r: TrackedRow,
  stamp: string,
  parkedBoxes: string,
): Promise<Timeline> {
  const version = `${r.parentId ?? r.id}@${stamp}|${r.containerNumber}|${r.archivedReason === PARKED_REASON}|${parkedBoxes}`;
  const cached = stamp ? t.timelines.get(r.id, version) : undefined;
  if (cached) return cached;
  // Frozen: one rendering is shared by every response until the version moves.
  const views = Object.freeze(
    (await t.engine.timeline(r)).map((e) => Object.freeze(milestoneView(toMilestone(e, t.engine.places)))),
  );
  const rendered = Object.freeze({ views, json: JSON.stringify(views) });
  if (stamp) t.timelines.set(r.id, version, rendered);
  return rendered;
}

/** The lookup record (the single read): `record` holds every field but the last, `events`. */
async function lookupParts(t: LookupSources, row: TrackedRow) {
  const { engine } = t;
  // The stamp first: see milestonesOf.
  const stamp = await t.storage.trackings.eventsStamp(row.parentId ?? row.id);
  const dem = await engine.demurrage(row);
  const position = engine.vesselPosition(row);
  const fixAt = position?.position_fix_at ?? null;
  // last_updated_at: the more recent of the carrier check and the AIS fix.
  const aisNewer =
    fixAt !== null && (row.lastPolledAt === null || Date.parse(fixAt) > Date.parse(row.lastPolledAt));
  const kids = row.identifierType === "container_id" ? null : await engine.children(row.id);
  const parked = (kids ?? [])
    .filter((c) => c.archivedReason === PARKED_REASON)
    .map((c) => c.containerNumber)
    .sort()
    .join(",");
  const timeline = await milestonesOf(t, row, stamp, parked);
  const children = kids
    ? await Promise.all(kids.map(async (c) => ({ c, events: (await milestonesOf(t, c, stamp, "")).views })))
    : null;
  const record = {
    id: row.id,
    container_number: row.containerNumber,
    bl_number: row.blNumber,
    booking_number: row.bookingNumber,
    identifier: row.identifier,
    identifier_type: row.identifierType,
    container_size: row.containerSize,
    equipment_type: row.equipmentType,
    iso_type_code: row.isoTypeCode,
    // Keyed by container number, each box with its own timeline.
    child_containers: children
      ? Object.fromEntries(
          children.map(({ c, events }) => [
            c.containerNumber,
            {
              id: c.id,
              status: c.status,
              eta: c.eta,
              container_size: c.containerSize,
              iso_type_code: c.isoTypeCode,
              vessel_imo: c.currentVesselImo,
              // Why a box is not tracked (deleted, or parked for want of a container slot); null while it is.
              archived_reason: c.archivedReason,
              events,
            },
          ]),
        )
      : null,
    status: row.status,
    carrier: row.carrierName ?? row.carrierCode ?? row.carrierHintCode ?? "Unknown",
    vessel_name: row.currentVesselName,
    vessel_imo: row.currentVesselImo,
    vessel_position: positionView(row, position),
    origin_name: portName(engine, row.originUnlocode),
    destination_name: portName(engine, row.destinationUnlocode),
    eta: row.eta,
    eta_confidence_pct: await t.confidence(row),
    last_updated_at: aisNewer ? fixAt : (row.lastPolledAt ?? row.addedAt),
    last_updated_source: aisNewer ? "ais_vessel_position" : row.lastPolledAt ? "carrier_poll" : null,
    last_polled_at: row.lastPolledAt ?? row.addedAt,
    last_ais_fix_at: fixAt,
    field_provenance: provenance(engine, row, dem, position),
    demurrage_free_days_left: dem.freeDaysLeft,
    ai_narrative: null,
  };
  return { record, timeline };
}

export async function lookupRecord(t: LookupSources, row: TrackedRow) {
  const { record, timeline } = await lookupParts(t, row);
  return { ...record, events: timeline.views };
}

/**
 * The lookup record as JSON text, byte for byte JSON.stringify(lookupRecord(...)): the milestones'
 * text comes from the cache with them, so only the per-request fields are serialised.
 */
export async function lookupRecordJson(t: LookupSources, row: TrackedRow): Promise<RenderedJson> {
  const { record, timeline } = await lookupParts(t, row);
  const head = JSON.stringify(record);
  return new RenderedJson(`${head.slice(0, -1)},"events":${timeline.json}}`);
}
