/**
 * Which ocean webhook events a state change raises (docs/webhooks.md lists the payloads). Compares a
 * box's stored state with its new derivation, and its current events before and after the snapshot,
 * so re-applying the same snapshot raises nothing.
 */
import type { ProductEvent } from "../../common/events/catalogue.ts";
import type { DemurrageData, OceanMoment, OceanSubject } from "../../common/events/ocean.ts";
import type { TrackedRow } from "../../storage/trackings.ts";
import type { DcsaEventLike } from "./dcsa.ts";
import type { Demurrage, DemurragePhase } from "./demurrage.ts";
import { remarksOf, scheduleDisruptions } from "./disruptions.ts";
import { knownLocalFields } from "./local-time.ts";
import { codeOf, type Derived, locationOf, type PlaceLookup, toMilestone } from "./timeline.ts";

type Row = TrackedRow;

export type Raised = ProductEvent<"ocean">;

/** An ETA move smaller than this is noise, not an eta_changed event. */
export const ETA_CHANGE_MS = 3_600_000;

function subject(row: Row, d: Derived): OceanSubject {
  return {
    id: row.id,
    identifier: row.identifier,
    identifier_type: row.identifierType,
    container_number: row.containerNumber,
    bl_number: row.blNumber,
    booking_number: row.bookingNumber,
    carrier_code: row.carrierCode,
    status: d.status,
    eta: d.eta,
    origin_unlocode: d.originUnlocode,
    destination_unlocode: d.destinationUnlocode,
  };
}

/**
 * The real-world moment of a shipment event: event_date_time is the UTC instant; the local wall
 * clock and offset are added only when the port's zone is known (absent, not null, otherwise).
 */
function moment(e: DcsaEventLike, places: PlaceLookup): OceanMoment {
  const m = toMilestone(e, places);
  return {
    event_type: m.type,
    label: m.label,
    location: m.location,
    vessel_imo: m.vessel_imo,
    vessel_name: m.vessel_name,
    event_date_time: m.timestamp,
    ...knownLocalFields(m),
  };
}

export function raisedEvents(
  row: Row,
  d: Derived,
  before: DcsaEventLike[],
  after: DcsaEventLike[],
  places: PlaceLookup,
): Raised[] {
  const out: Raised[] = [];
  const base = subject(row, d);
  const wasActual = new Set(before.filter((e) => e.eventClassifierCode === "ACT").map((e) => e.eventID));
  const fresh = after.filter((e) => e.eventClassifierCode === "ACT" && !wasActual.has(e.eventID));
  for (const e of fresh) {
    if (codeOf(e) === "DEPA") out.push({ type: "vessel_departed", data: { ...base, ...moment(e, places) } });
    if (codeOf(e) === "ARRI" && locationOf(e) === d.destinationUnlocode) {
      out.push({ type: "container_arrived", data: { ...base, ...moment(e, places) } });
    }
  }
  const latest = (code: string) =>
    [...after].reverse().find((e) => codeOf(e) === code && e.eventClassifierCode === "ACT");
  const entered = (stage: Derived["stage"]) => d.stage === stage && row.stage !== stage;
  if (d.status === "customs_hold" && row.status !== "customs_hold") {
    const hold = [...after].reverse().find((e) => codeOf(e) === "HOLD");
    out.push({
      type: "customs_hold",
      data: {
        ...base,
        reason: d.customsHoldReason,
        since: d.customsHoldSince,
        ...(hold ? moment(hold, places) : {}),
      },
    });
  }
  if (entered("available")) {
    const release = latest("RELS");
    out.push({ type: "container_available", data: { ...base, ...(release ? moment(release, places) : {}) } });
  }
  if (
    entered("delivered") ||
    (d.stage === "returned_empty" && row.stage !== "delivered" && row.stage !== "returned_empty")
  ) {
    const gateOut = after.find(
      (e) => codeOf(e) === "GTOT" && e.eventClassifierCode === "ACT" && e.emptyIndicatorCode !== "EMPTY",
    );
    out.push({ type: "container_delivered", data: { ...base, ...(gateOut ? moment(gateOut, places) : {}) } });
  }
  if (
    row.eta !== null &&
    d.eta !== null &&
    Math.abs(Date.parse(d.eta) - Date.parse(row.eta)) >= ETA_CHANGE_MS
  ) {
    out.push({
      type: "eta_changed",
      data: { ...base, previous_eta: row.eta, eta_is_estimated: d.etaIsEstimated },
    });
  }
  const destinationChanged =
    row.destinationUnlocode !== null &&
    d.destinationUnlocode !== null &&
    row.destinationUnlocode !== d.destinationUnlocode;
  const misrouted = destinationChanged || (d.missedConnection && row.routeAlert !== "missed_connection");
  if (misrouted) {
    out.push({
      type: "container_misrouted",
      data: {
        ...base,
        route_alert: destinationChanged ? "destination_change" : "missed_connection",
        previous_destination_unlocode: row.destinationUnlocode,
      },
    });
  }
  const disruptions = scheduleDisruptions(before, after, {
    container: row.containerNumber,
    destination: d.destinationUnlocode,
    previousDestination: row.destinationUnlocode,
    misrouted,
  });
  for (const x of disruptions) {
    const first = x.calls[0]!;
    out.push({
      type: "schedule_disruption",
      data: {
        ...base,
        ...moment(x.event, places),
        kind: x.kind,
        voyage: x.current.voyage,
        previous_vessel_imo: x.previous.imo,
        previous_vessel_name: x.previous.name,
        previous_voyage: x.previous.voyage,
        previous_time: first.previous_time,
        new_time: first.new_time,
        delay_hours: first.delay_hours,
        ...remarksOf(x),
        calls: x.calls,
      },
    });
  }
  return out;
}

/** demurrage_warning when free time is nearly up, demurrage_started when accrual begins: once each. */
export function demurrageEvents(row: Row, previous: string, dem: Demurrage): Raised[] {
  const order: DemurragePhase[] = ["none", "free", "warning", "accruing"];
  const was = order.indexOf(previous as DemurragePhase);
  const data = (): DemurrageData => ({
    id: row.id,
    identifier: row.identifier,
    container_number: row.containerNumber,
    carrier_code: row.carrierCode,
    destination_unlocode: row.destinationUnlocode,
    demurrage_last_free_day: dem.lastFreeDay,
    demurrage_free_days_left: dem.freeDaysLeft,
    demurrage_accrued_usd: dem.accruedUsd,
    discharged_at: row.dischargedAt,
  });
  const out: Raised[] = [];
  if (dem.phase === "warning" && was < order.indexOf("warning"))
    out.push({ type: "demurrage_warning", data: data() });
  if (dem.phase === "accruing" && was < order.indexOf("accruing"))
    out.push({ type: "demurrage_started", data: data() });
  return out;
}

/** One box's refresh: its row before and after, what it derived, its current events before and after. */
export interface RaisingStep {
  row: Row;
  next: Row;
  derived: Derived;
  previous: DcsaEventLike[];
  current: DcsaEventLike[];
  /** Its demurrage now, from the row after the refresh. */
  demurrage: Demurrage;
  /** No events were stored before this snapshot (the first fetch backfills). */
  backfill: boolean;
  places: PlaceLookup;
}

/**
 * The outbox rows a box's refresh raises (a B/L's or booking's subscribers hear about each of its
 * containers): none for what the first fetch backfills, since webhooks report what happens from
 * then on. Demurrage runs on the clock: evaluated at every poll, its edges raise their events.
 */
export function eventsRaised(step: RaisingStep): Raised[] {
  if (step.backfill) return [];
  return [
    ...demurrageEvents(step.next, step.row.demurragePhase, step.demurrage),
    ...raisedEvents(step.row, step.derived, step.previous, step.current, step.places),
  ];
}
