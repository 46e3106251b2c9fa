/**
 * Our carrier events (DCSA 2.2) in the vendor's vocabulary: the 3-letter milestone status of each
 * event, land or sea, its transport type, and the shipment status the vendor derives from them.
 * Pure functions; docs/compat.md has the table.
 */
import type { DcsaEventLike } from "../../ingest/tracking/dcsa.ts";
import { codeOf, locationOf } from "../../ingest/tracking/timeline.ts";
import type { EventStatus, ShipmentStatus, TransportType } from "./shapes.ts";

/** What the carrier sends beyond the engine's slice: vessel flag and call sign, facility codes. */
export type RawEvent = DcsaEventLike & {
  eventLocation?: { latitude?: string; longitude?: string; facilityCodeListProvider?: string };
  transportCall?: {
    facilityCodeListProvider?: string;
    location?: { locationName?: string; facilityCode?: string };
    vessel?: { vesselFlag?: string; vesselCallSignNumber?: string };
  };
};

/** Where a box's voyage starts and ends (UN/LOCODEs as the carrier sends them). */
export interface VoyageEnds {
  origin: string | null;
  destination: string | null;
  /** First loading onto a vessel and the discharge at the destination, epoch ms. */
  loadedAt: number | null;
  dischargedAt: number | null;
}

const VESSEL_MOVES = new Set(["LOAD", "DISC", "DEPA", "ARRI"]);

export const isSeaEvent = (e: DcsaEventLike) => VESSEL_MOVES.has(codeOf(e));

/** Container movements only: document events (booking, B/L issue, customs) have no vendor milestone. */
export const isMovement = (e: DcsaEventLike) => e.eventType !== "SHIPMENT";

export function voyageEnds(
  events: readonly DcsaEventLike[],
  origin: string | null,
  destination: string | null,
) {
  const at = (e: DcsaEventLike | undefined) => (e ? Date.parse(e.eventDateTime) : null);
  return {
    origin,
    destination,
    loadedAt: at(events.find((e) => codeOf(e) === "LOAD")),
    dischargedAt: at(events.find((e) => codeOf(e) === "DISC" && locationOf(e) === destination)),
  } satisfies VoyageEnds;
}

/** The vendor's milestone code for one of our events (UNK when the dictionary has none). */
export function milestoneStatus(e: DcsaEventLike, ends: VoyageEnds): EventStatus {
  const code = codeOf(e);
  const at = locationOf(e);
  const t = Date.parse(e.eventDateTime);
  const empty = e.emptyIndicatorCode === "EMPTY";
  const beforeLoad = ends.loadedAt === null || t < ends.loadedAt;
  const afterDischarge = ends.dischargedAt !== null && t >= ends.dischargedAt;
  const atOrigin = at !== null && at === ends.origin;
  const atDestination = at !== null && at === ends.destination;
  if (VESSEL_MOVES.has(code) && e.transportCall?.modeOfTransport === "BARGE") return "BTS";
  switch (code) {
    case "LOAD":
      return atOrigin ? "CLL" : "CLT";
    case "DEPA":
      return atOrigin ? "VDL" : atDestination ? "UNK" : "VDT";
    case "ARRI":
      return atDestination ? "VAD" : atOrigin ? "UNK" : "VAT";
    case "DISC":
      return atDestination ? "CDD" : "CDT";
    case "PICK":
    case "GTOT":
      if (empty) return beforeLoad ? "CEP" : "UNK";
      if (afterDischarge) return "CGO";
      return beforeLoad ? "CPS" : "UNK";
    case "STUF":
      return "CPS";
    case "GTIN":
      if (empty) return afterDischarge ? "CER" : "UNK";
      if (beforeLoad) return atOrigin ? "CGI" : "LTS";
      return afterDischarge && !atDestination ? "LTS" : "UNK";
    case "DROP":
      if (empty) return afterDischarge ? "CER" : "UNK";
      return afterDischarge ? "CDC" : "UNK";
    case "STRP":
      return afterDischarge ? "CDC" : "UNK";
    default:
      return "UNK";
  }
}

const MODES: Record<string, TransportType> = {
  VESSEL: "VESSEL",
  BARGE: "BARGE",
  RAIL: "RAIL",
  TRUCK: "TRUCK",
};

/** VESSEL for vessel moves (or the call's own mode), null on land. */
export function transportType(e: DcsaEventLike): TransportType | null {
  if (!isSeaEvent(e)) return null;
  return MODES[e.transportCall?.modeOfTransport ?? "VESSEL"] ?? "VESSEL";
}

/** Milestones that mean the box is under way (the vendor's IN_TRANSIT rule). */
const MOVING = new Set<EventStatus>([
  "CGI",
  "LTS",
  "BTS",
  "CLL",
  "VDL",
  "VAT",
  "CDT",
  "TSD",
  "CLT",
  "VDT",
  "VAD",
  "CDD",
  "CGO",
]);
const DONE = new Set<EventStatus>(["CDC", "CER"]);

/**
 * A box's status in the vendor's words: DELIVERED once our stage says so (or a delivery milestone
 * happened), IN_TRANSIT after the first actual movement, PLANNED with only plans or an empty
 * pick-up, UNKNOWN without events.
 */
export function boxStatus(
  recordStatus: string,
  events: ReadonlyArray<{ status: EventStatus; actual: boolean }>,
): ShipmentStatus {
  if (recordStatus === "delivered" || recordStatus === "returned_empty") return "DELIVERED";
  if (events.some((e) => e.actual && DONE.has(e.status))) return "DELIVERED";
  if (events.some((e) => e.actual && MOVING.has(e.status))) return "IN_TRANSIT";
  return events.length > 0 ? "PLANNED" : "UNKNOWN";
}

/** A bill of lading or booking: IN_TRANSIT if any box is, DELIVERED when all are. */
export function shipmentStatus(boxes: readonly ShipmentStatus[], own: ShipmentStatus): ShipmentStatus {
  if (boxes.length === 0) return own;
  if (boxes.includes("IN_TRANSIT")) return "IN_TRANSIT";
  if (boxes.every((s) => s === "DELIVERED")) return "DELIVERED";
  if (boxes.includes("DELIVERED")) return "IN_TRANSIT";
  return boxes.includes("PLANNED") ? "PLANNED" : "UNKNOWN";
}
