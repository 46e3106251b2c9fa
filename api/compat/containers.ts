/**
 * A box's timeline in the vendor's shape (containers[].events), and the route object
 * (prepol, pol, pod, postpod) read off a timeline. Places and hulls go through the shared books
 * so every id points into locations[], facilities[] and vessels[].
 */

import { equipmentFromIso } from "../../ingest/tracking/equipment.ts";
import { codeOf, locationOf, type PlaceLookup, toMilestone } from "../../ingest/tracking/timeline.ts";
import type { TrackedRow } from "../../storage/trackings.ts";
import { localDate } from "./dates.ts";
import {
  boxStatus,
  isMovement,
  isSeaEvent,
  milestoneStatus,
  type RawEvent,
  transportType,
  type VoyageEnds,
} from "./milestones.ts";
import type { PlaceBook } from "./places.ts";
import type { Container, Event, Route, RoutePoint } from "./shapes.ts";
import type { VesselBook } from "./vessels.ts";

export interface Books {
  places: PlaceBook;
  vessels: VesselBook;
  /** Our place names and zones (ocean tracking's place lookup). */
  lookup: PlaceLookup;
}

/** A vendor event with what route building still needs: the UN/LOCODE and the instant. */
export interface Mapped {
  event: Event;
  locode: string | null;
  at: number;
  raw: RawEvent;
}

const num = (s: string | undefined) => (s === undefined || s === "" ? null : Number(s));

export function mapEvents(events: readonly RawEvent[], ends: VoyageEnds, books: Books): Mapped[] {
  return events.filter(isMovement).map((e, i) => {
    const locode = locationOf(e);
    const call = e.transportCall;
    const facilityName = e.eventLocation?.locationName ?? call?.location?.locationName ?? null;
    const facility =
      facilityName === null
        ? null
        : books.places.facilityId({
            name: facilityName,
            locode,
            code: e.eventLocation?.facilityCode ?? call?.facilityCode ?? null,
            codeList: e.eventLocation?.facilityCodeListProvider ?? call?.facilityCodeListProvider ?? null,
            lat: num(e.eventLocation?.latitude),
            lng: num(e.eventLocation?.longitude),
          });
    const sea = isSeaEvent(e);
    const vessel = sea
      ? books.vessels.id({
          imo: call?.vessel?.vesselIMONumber,
          name: call?.vessel?.vesselName,
          callSign: call?.vessel?.vesselCallSignNumber,
          flag: call?.vessel?.vesselFlag,
        })
      : null;
    const event: Event = {
      order_id: i + 1,
      location: books.places.locationId(locode),
      facility,
      description: toMilestone(e, books.lookup).label,
      event_type: e.eventType,
      event_code: codeOf(e),
      status: milestoneStatus(e, ends),
      date: localDate(e, locode ? books.lookup.timezone(locode) : null),
      actual: e.eventClassifierCode === "ACT",
      is_date_from_sealine: true,
      is_additional_event: false,
      type: sea ? "sea" : "land",
      transport_type: transportType(e),
      vessel,
      voyage: sea ? (call?.exportVoyageNumber ?? call?.carrierVoyageNumber ?? null) : null,
    };
    return { event, locode, at: Date.parse(e.eventDateTime), raw: e };
  });
}

/** "40' High Cube Dry", "20' Dry Standard": the vendor's size_type label of an ISO 6346 code. */
export function sizeTypeLabel(iso: string | null): string | null {
  const eq = equipmentFromIso(iso);
  if (!eq) return null;
  const length = /^\d+/.exec(eq.size)?.[0];
  return /HC$|RH$/.test(eq.size) ? `${length}' High Cube ${eq.type}` : `${length}' ${eq.type} Standard`;
}

export function containerOf(row: TrackedRow, mapped: readonly Mapped[]): Container {
  const iso =
    mapped
      .map((m) => m.raw.ISOEquipmentCode)
      .filter((c) => c !== undefined)
      .at(-1) ?? null;
  const events = mapped.map((m) => m.event);
  return {
    number: row.containerNumber ?? row.identifier,
    iso_code: iso,
    size_type: sizeTypeLabel(iso),
    status: boxStatus(row.status, events),
    is_status_from_sealine: false,
    events_mirrored: false,
    events,
  };
}

const NO_POINT: RoutePoint = { location: null, date: null, actual: null };
const point = (m: Mapped | undefined): RoutePoint =>
  m ? { location: m.event.location, date: m.event.date, actual: m.event.actual } : NO_POINT;

/**
 * pol: the departure from the first port of loading (else the loading); pod: the arrival at the
 * final port (else the discharge); prepol and postpod: an inland first or last place when the
 * timeline has one, otherwise the port itself (the vendor's convention).
 */
export function routeOf(mapped: readonly Mapped[]): Route {
  const first = (status: string) => mapped.find((m) => m.event.status === status);
  const last = (status: string) => mapped.filter((m) => m.event.status === status).at(-1);
  const pol = first("VDL") ?? first("CLL");
  const pod = last("VAD") ?? last("CDD");
  const inland = (m: Mapped, port: Mapped | undefined) =>
    port !== undefined && m.event.location !== null && m.event.location !== port.event.location;
  const prepol = pol ? mapped.find((m) => m.at < pol.at && inland(m, pol)) : undefined;
  const delivery = pod
    ? mapped.filter((m) => m.at > pod.at && ["CDC", "CGO"].includes(m.event.status) && inland(m, pod)).at(-1)
    : undefined;
  const podPoint = point(pod);
  return {
    prepol: point(prepol ?? pol),
    pol: point(pol),
    pod: { ...podPoint, predictive_eta: null },
    postpod: point(delivery ?? pod),
  };
}

/** Vessel moves only, in time order: the port calls route legs are drawn between. */
export const vesselMoves = (mapped: readonly Mapped[]) =>
  mapped.filter((m) => m.event.type === "sea" && m.locode !== null);
