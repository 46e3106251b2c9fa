/**
 * The boxes a B/L or booking names and the container slots they take: a refresh's step deciding,
 * box by box, which are tracked and which wait parked for a slot. Pure: the refresh's transaction
 * reads the stored boxes and the slots, and writes what this decides.
 */
import { PARKED_REASON, type TrackedRow } from "../../storage/trackings.ts";
import type { DcsaEventLike } from "./dcsa.ts";
import type { Documents } from "./derived-state.ts";
import type { TrackingError } from "./errors.ts";
import { type Slots, slotRefusal } from "./quotas.ts";

/** The container numbers a carrier's events name, in their order. */
export function boxesNamed(events: readonly DcsaEventLike[]): string[] {
  const named = events.filter((e) => e.eventType === "EQUIPMENT" && e.equipmentReference);
  return [...new Set(named.map((e) => e.equipmentReference!))];
}

/** Events without the equipment events of the given boxes. */
export function withoutBoxes(events: DcsaEventLike[], boxes: ReadonlySet<string>): DcsaEventLike[] {
  if (boxes.size === 0) return events;
  return events.filter((e) => e.eventType !== "EQUIPMENT" || !boxes.has(e.equipmentReference ?? ""));
}

/** What becomes of one box the carrier names. */
export type BoxFate =
  /** It has a record not parked (tracked, or archived otherwise): derived again. */
  | { box: string; fate: "tracked"; child: TrackedRow }
  /** Parked for want of a slot, and one is free now: taken up again. */
  | { box: string; fate: "unpark"; child: TrackedRow }
  /** Parked, and still no slot free. */
  | { box: string; fate: "parked"; child: TrackedRow }
  /** Never seen: a record is made, tracked when it takes a slot, else parked. */
  | { box: string; fate: "new"; tracks: boolean };

/**
 * Each named box's fate, in the carrier's order. At the registration's first answer
 * (`registering`) the manifest follows an add's rule (slotRefusal): all the boxes wanting a slot
 * take one or the registration is refused whole. Later, boxes take free slots in order and the rest
 * are parked. A box the organisation already tracks (alone, or in another B/L) takes no second slot.
 */
export function allocateSlots(
  boxes: readonly string[],
  kids: readonly TrackedRow[],
  slots: Slots,
  registering: boolean,
): { refusal: TrackingError } | { fates: BoxFate[] } {
  const childOf = (box: string) => kids.find((k) => k.containerNumber === box);
  const active = new Set(slots.active);
  // Boxes wanting a slot: new ones and parked ones, the organisation not tracking them already.
  const wanting = boxes.filter((box) => {
    const child = childOf(box);
    return (!child || child.archivedReason === PARKED_REASON) && !active.has(box);
  });
  const refusal = registering ? slotRefusal(slots.org, active.size, wanting.length) : undefined;
  if (refusal) return { refusal };
  let free = slots.free ?? Number.POSITIVE_INFINITY;
  const takesSlot = (box: string) => {
    if (active.has(box)) return true;
    if (free <= 0) return false;
    free--;
    active.add(box);
    return true;
  };
  const fates = boxes.map((box): BoxFate => {
    const child = childOf(box);
    if (!child) return { box, fate: "new", tracks: takesSlot(box) };
    if (child.archivedReason !== PARKED_REASON) return { box, fate: "tracked", child };
    return { box, fate: takesSlot(box) ? "unpark" : "parked", child };
  });
  return { fates };
}

/** A new box's derived fields before its first derivation (a parked box keeps these). */
const UNDERIVED = {
  status: "unknown",
  stage: "unknown",
  eta: null,
  etaIsEstimated: null,
  plannedDepartureAt: null,
  currentVesselImo: null,
  currentVesselName: null,
  originUnlocode: null,
  destinationUnlocode: null,
  routePorts: null,
  routeAlert: null,
  delayBars: null,
  firstPlans: null,
  customsHoldReason: null,
  customsHoldSince: null,
  isoTypeCode: null,
  containerSize: null,
  equipmentType: null,
  dischargedAt: null,
  deliveredAt: null,
  demurragePhase: "none",
  pollFailures: 0,
  lastRecheckAt: null,
  unresolvableSince: null,
  unresolvedReason: null,
} satisfies Partial<TrackedRow>;

/** The record of a box a B/L or booking names for the first time: its root's, as a box of it. */
export function newBox(
  root: TrackedRow,
  box: { id: string; number: string; owner: string | null; ownerIsLessor: boolean; tracks: boolean },
  documents: Documents | null,
  nowIso: string,
): TrackedRow {
  return {
    ...root,
    ...UNDERIVED,
    id: box.id,
    parentId: root.id,
    identifier: box.number,
    identifierType: "container_id",
    containerNumber: box.number,
    blNumber: documents?.blNumber ?? root.blNumber,
    bookingNumber: documents?.bookingNumber ?? root.bookingNumber,
    equipmentOwner: box.owner,
    ownerIsLessor: box.ownerIsLessor,
    adding: false,
    updatedAt: nowIso,
    ...(box.tracks ? {} : { archivedAt: nowIso, archivedReason: PARKED_REASON }),
  };
}
