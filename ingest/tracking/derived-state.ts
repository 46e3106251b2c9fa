/**
 * A record's state from its carrier events: a refresh's step from the events before and after the
 * snapshot to the record's new fields (status, ETA, route, poll schedule, close-out, the carrier's
 * document numbers, updated_at when something a user sees moved). Pure: the refresh's transaction
 * reads the record and writes what this returns.
 */
import type { TrackedRow } from "../../storage/trackings.ts";
import { withoutBoxes } from "./box-slots.ts";
import type { DcsaEventLike } from "./dcsa.ts";
import { bookingEvidence, documentNumbers, pick } from "./documents.ts";
import { equipmentFromIso } from "./equipment.ts";
import type { FetchOptions } from "./refresh.ts";
import type { IdentifierType } from "./registration.ts";
import { type PollPriority, pollPriority } from "./schedule.ts";
import {
  aggregateBoxes,
  currentEvents,
  type Derived,
  derive,
  eventsForContainer,
  type FirstPlan,
  recordFirstPlans,
} from "./timeline.ts";
import { TRACKED_VISIBLE, visiblyChanged } from "./visible.ts";

/** A B/L's or booking's kind and numbers as the carrier's events show them. */
export interface Documents {
  identifierType: IdentifierType;
  blNumber: string | null;
  bookingNumber: string | null;
}

/**
 * A B/L or booking record's kind and numbers from what the carrier says: TRD numbers are the
 * B/L, BKG numbers the booking. A reference registered as a B/L becomes a booking when the
 * carrier knows it only as one (see FetchOptions, bookingEvidence); never the other way, so an
 * explicit booking stays one. The identifier always stays its own kind's number.
 */
export function documentsOf(
  root: TrackedRow,
  events: readonly DcsaEventLike[],
  opts: FetchOptions,
): Documents {
  const numbers = documentNumbers(events);
  const evidence = bookingEvidence(numbers, root.identifier);
  const isBooking =
    root.identifierType === "booking" ||
    opts.answeredAsBooking === true ||
    evidence === "certain" ||
    (evidence === "likely" && opts.kindGuessed === true && root.adding);
  if (isBooking) {
    // Unnamed as TRD while it was registered as a B/L: no B/L number is known for it.
    const bl = pick(numbers.transportDocuments, root.identifier);
    return {
      identifierType: "booking",
      bookingNumber: root.identifier,
      blNumber: bl ?? (root.identifierType === "booking" ? root.blNumber : null),
    };
  }
  return {
    identifierType: root.identifierType as IdentifierType,
    blNumber: root.identifier,
    bookingNumber: pick(numbers.bookings, root.identifier) ?? root.bookingNumber,
  };
}

/** Record fields from a derivation, with the poll schedule and automatic close-out. */
export function stateUpdate(
  row: TrackedRow,
  d: Derived,
  plans: Record<string, FirstPlan>,
  nowIso: string,
  cadence: Record<PollPriority, number>,
): Partial<TrackedRow> {
  const now = Date.parse(nowIso);
  const destinationChanged =
    row.destinationUnlocode !== null &&
    d.destinationUnlocode !== null &&
    row.destinationUnlocode !== d.destinationUnlocode;
  const routeAlert = destinationChanged
    ? "destination_change"
    : d.missedConnection
      ? "missed_connection"
      : row.routeAlert;
  const equipment = equipmentFromIso(d.isoEquipmentCode);
  const priority = pollPriority(d, now);
  const closeOut = d.stage === "returned_empty" && row.archivedAt === null;
  return {
    status: d.status,
    stage: d.stage,
    eta: d.eta,
    etaIsEstimated: d.etaIsEstimated,
    plannedDepartureAt: d.plannedDepartureAt,
    currentVesselImo: d.currentVesselImo,
    currentVesselName: d.currentVesselName,
    originUnlocode: d.originUnlocode,
    destinationUnlocode: d.destinationUnlocode,
    routePorts: d.routePorts,
    routeAlert,
    delayBars: d.delayBars,
    firstPlans: plans,
    customsHoldReason: d.customsHoldReason,
    customsHoldSince: d.customsHoldSince,
    dischargedAt: d.dischargedAt,
    deliveredAt: d.deliveredAt,
    isoTypeCode: equipment?.isoTypeCode ?? row.isoTypeCode,
    containerSize: equipment?.size ?? row.containerSize,
    equipmentType: equipment?.type ?? row.equipmentType,
    pollPriority: priority,
    pollFailures: 0,
    lastPolledAt: nowIso,
    nextPollAt: new Date(now + cadence[priority]).toISOString(),
    // Every refresh write ends an add, in the same statement that moves the next poll: a crash can
    // never leave a record marked as adding with its next poll hours away.
    adding: false,
    ...(closeOut ? { archivedAt: nowIso, archivedReason: "completed: empty returned" } : {}),
  };
}

export interface RecordInput {
  row: TrackedRow;
  /** The root's stored events before and after the snapshot (all of its boxes'). */
  before: DcsaEventLike[];
  after: DcsaEventLike[];
  /** The B/L or booking root itself: its state aggregates its boxes'. */
  rootOfMany: boolean;
  /** A B/L's or booking's parked boxes: their equipment events stay out of its state. */
  parked: ReadonlySet<string>;
  /** The states derived for the root's boxes before it (what a root of many aggregates). */
  boxStates: readonly Derived[];
  /** The carrier's document numbers, for a B/L or booking and each of its boxes. */
  documents: Documents | null;
  nowIso: string;
  cadence: Record<PollPriority, number>;
}

export interface RecordState {
  derived: Derived;
  update: Partial<TrackedRow>;
  /** The record's current events before and after the snapshot. */
  previous: DcsaEventLike[];
  current: DcsaEventLike[];
}

/** One record's new state from its share of its root's events. */
export function recordState(input: RecordInput): RecordState {
  const { row, before, after, rootOfMany, documents, nowIso } = input;
  const box = rootOfMany ? null : row.containerNumber;
  const mine = (events: DcsaEventLike[]) =>
    box ? eventsForContainer(events, box) : withoutBoxes(events, input.parked);
  const plans: Record<string, FirstPlan> = { ...(row.firstPlans ?? {}) };
  recordFirstPlans(plans, mine(after));
  const previous = currentEvents(mine(before));
  const current = currentEvents(mine(after));
  let derived = derive(current, (k) => plans[k] ?? null);
  if (rootOfMany && input.boxStates.length > 0) derived = aggregateBoxes(derived, [...input.boxStates]);
  const update = stateUpdate(row, derived, plans, nowIso, input.cadence);
  // The carrier has events for it after all: resolution is no longer given up.
  if (after.length > 0) {
    update.unresolvableSince = null;
    update.unresolvedReason = null;
  }
  if (documents) {
    update.blNumber = documents.blNumber;
    update.bookingNumber = documents.bookingNumber;
    if (rootOfMany) update.identifierType = documents.identifierType;
  }
  // What users see moved (a field, or the timeline: a new or corrected event): the list's "most
  // recently updated first" follows it. Polls that find nothing new leave it.
  if (visiblyChanged(TRACKED_VISIBLE, row, update) || JSON.stringify(previous) !== JSON.stringify(current)) {
    update.updatedAt = nowIso;
  }
  return { derived, update, previous, current };
}
