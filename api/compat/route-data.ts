/**
 * route_data: the legs between port calls drawn on our sea router, the pin (where the box is now:
 * the AIS fix when there is one) and the vendor's AIS block.
 */

import type { PathPoint } from "../../common/geo.ts";
import type { SeaRouteData, SeaRouteRequest } from "../../engine/sea/router.ts";
import type { VesselPosition } from "../../ingest/ais/positions.ts";
import type { Books, Mapped } from "./containers.ts";
import { utcDate } from "./dates.ts";
import type { Ais, Leg, Location, PortCall, Route } from "./shapes.ts";

export interface SeaPlanner {
  plan(req: SeaRouteRequest): SeaRouteData;
}

type LatLng = PathPoint;

interface PortCallGroup {
  locode: string;
  location: Location;
  moves: Mapped[];
}

/** The ports a timeline calls at by vessel, first appearance first (like the record's route_ports). */
function portCalls(moves: readonly Mapped[], books: Books): PortCallGroup[] {
  const calls = new Map<number, PortCallGroup>();
  for (const m of moves) {
    const id = m.event.location;
    if (id === null || m.locode === null) continue;
    const call = calls.get(id) ?? { locode: m.locode, location: books.places.locations[id - 1]!, moves: [] };
    call.moves.push(m);
    calls.set(id, call);
  }
  return [...calls.values()];
}

const coords = (l: Location): LatLng | null => (l.lat === null || l.lng === null ? null : [l.lat, l.lng]);
const same = (a: LatLng, b: LatLng | undefined) => b !== undefined && a[0] === b[0] && a[1] === b[1];

/** The sea path between two ports, ending exactly on both; a straight segment when the router has none. */
function seaPath(sea: SeaPlanner, a: LatLng, b: LatLng): LatLng[] {
  let path: LatLng[];
  try {
    path =
      sea.plan({
        from: { lat: a[0], lng: a[1], kind: "port" },
        to: { lat: b[0], lng: b[1], kind: "port" },
        path: true,
        alternatives: false,
      }).route.path ?? [];
  } catch {
    path = [];
  }
  if (!same(a, path[0])) path.unshift(a);
  if (!same(b, path.at(-1))) path.push(b);
  return path;
}

export interface DrawnLeg {
  leg: Leg;
  departure: Mapped | undefined;
  arrival: Mapped | undefined;
}

export function legsOf(moves: readonly Mapped[], books: Books, sea: SeaPlanner): DrawnLeg[] {
  const calls = portCalls(moves, books);
  const legs: DrawnLeg[] = [];
  for (let i = 0; i + 1 < calls.length; i++) {
    const from = calls[i]!;
    const to = calls[i + 1]!;
    const a = coords(from.location);
    const b = coords(to.location);
    if (!a || !b) continue;
    // The hull that leaves `from`: its departure, else its loading.
    const departure =
      from.moves.find((m) => m.event.event_code === "DEPA" && m.event.vessel !== null) ??
      from.moves.find((m) => m.event.vessel !== null);
    const vesselId = departure?.event.vessel ?? null;
    const arrival =
      to.moves.find((m) => m.event.event_code === "ARRI" && m.event.vessel === vesselId) ??
      to.moves.find((m) => m.event.event_code === "DISC");
    const { id: _f, ...fromPlace } = from.location;
    const { id: _t, ...toPlace } = to.location;
    legs.push({
      leg: {
        path: seaPath(sea, a, b),
        type: "SEA",
        transport_type: departure?.event.transport_type ?? "VESSEL",
        from: fromPlace,
        to: toPlace,
        vessel: vesselId === null ? null : books.vessels.fields(vesselId),
      },
      departure,
      arrival,
    });
  }
  return legs;
}

/** Longitude difference the short way round (paths cross the antimeridian). */
const dLng = (a: number, b: number) => ((((b - a + 540) % 360) + 360) % 360) - 180;
const wrap = (lng: number) => ((((lng + 540) % 360) + 360) % 360) - 180;

/** The point a fraction of the way along a path, by planar length (adequate between waypoints). */
function along(path: readonly LatLng[], fraction: number): LatLng {
  const seg = path.slice(1).map((p, i) => Math.hypot(p[0] - path[i]![0], dLng(path[i]![1], p[1])));
  let left = seg.reduce((a, b) => a + b, 0) * Math.min(1, Math.max(0, fraction));
  for (let i = 0; i < seg.length; i++) {
    const len = seg[i]!;
    if (left <= len && len > 0) {
      const [a, b] = [path[i]!, path[i + 1]!];
      const f = left / len;
      return [a[0] + (b[0] - a[0]) * f, wrap(a[1] + dLng(a[1], b[1]) * f)];
    }
    left -= len;
  }
  return path.at(-1)!;
}

/**
 * Where the box is now: the carrying hull's AIS fix; else an estimate along the leg under way
 * (by time between its departure and arrival); else the port of the last actual event.
 */
export function pinOf(
  position: VesselPosition | null,
  legs: readonly DrawnLeg[],
  mapped: readonly Mapped[],
  books: Books,
  now: number,
): LatLng | null {
  if (position && position.lat !== null && position.lng !== null) return [position.lat, position.lng];
  const underway = legs.find((l) => l.departure?.event.actual && l.arrival && !l.arrival.event.actual);
  if (underway?.departure && underway.arrival) {
    const span = underway.arrival.at - underway.departure.at;
    return along(underway.leg.path, span > 0 ? (now - underway.departure.at) / span : 0);
  }
  const last = mapped.filter((m) => m.event.actual && m.event.location !== null).at(-1);
  return last ? coords(books.places.locations[last.event.location! - 1]!) : null;
}

function portCall(m: Mapped, books: Books, arrival: boolean): PortCall {
  const l = m.event.location === null ? null : books.places.locations[m.event.location - 1]!;
  const label = arrival ? (m.event.actual ? "ATA" : "ETA") : m.event.actual ? "ATD" : "ETD";
  return {
    country_code: l?.country_code ?? null,
    code: l?.locode?.slice(2) ?? null,
    date: m.event.date,
    date_label: label,
  };
}

/**
 * The vendor's AIS block: OK with the hull, its fix and its port calls while the box is aboard a
 * vessel we have a fix for; NOT_ON_BOARD otherwise (clients branch on exactly these two values,
 * and OK promises a position).
 */
export function aisOf(
  position: VesselPosition | null,
  vesselImo: string | null,
  mapped: readonly Mapped[],
  route: Route,
  books: Books,
  now: number,
): Ais {
  if (!position || position.lat === null || position.lng === null || !vesselImo) {
    return { status: "NOT_ON_BOARD", data: null };
  }
  const vesselId = books.vessels.id({ imo: vesselImo, name: position.name ?? undefined })!;
  const hull = mapped.filter((m) => m.event.vessel === vesselId);
  const departure =
    hull.filter((m) => m.event.event_code === "DEPA" && m.event.actual).at(-1) ??
    hull.find((m) => m.event.event_code === "DEPA");
  const arrival = hull.find(
    (m) => m.event.event_code === "ARRI" && (departure === undefined || m.at > departure.at),
  );
  const lastEvent = mapped.filter((m) => m.event.actual).at(-1) ?? mapped.at(-1)!;
  const voyage =
    lastEvent.event.voyage ?? hull.filter((m) => m.event.voyage !== null).at(-1)?.event.voyage ?? null;
  const pod = route.pod.location === null ? null : books.places.locations[route.pod.location - 1]!;
  return {
    status: "OK",
    data: {
      last_event: { description: lastEvent.event.description, date: lastEvent.event.date, voyage },
      discharge_port: pod
        ? {
            name: pod.name,
            country_code: pod.country_code,
            code: pod.locode?.slice(2) ?? null,
            date: route.pod.date,
            date_label: route.pod.actual ? "ATA" : "ETA",
          }
        : null,
      vessel: books.vessels.fields(vesselId),
      last_vessel_position: {
        lat: position.lat,
        lng: position.lng,
        updated_at: utcDate(position.position_fix_at ?? now),
      },
      departure_port: departure ? portCall(departure, books, false) : null,
      arrival_port: arrival ? portCall(arrival, books, true) : null,
      updated_at: utcDate(now),
    },
  };
}
