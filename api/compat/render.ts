/**
 * One tracked record in the vendor's shape. The snapshot holds everything but the per-call plan
 * counters and is what the answer cache keeps; `present` fits it to one request's flags.
 */
import type { PathPoint } from "../../common/geo.ts";
import type { PositionStore } from "../../ingest/ais/positions.ts";
import type { CarrierDirectory } from "../../ingest/carriers/resolve.ts";
import type { RecordViews } from "../../ingest/tracking/record-views.ts";
import type { TrackedRow } from "../../storage/trackings.ts";
import { type Books, containerOf, type Mapped, mapEvents, routeOf, vesselMoves } from "./containers.ts";
import { utcDate } from "./dates.ts";
import { boxStatus, type RawEvent, shipmentStatus, voyageEnds } from "./milestones.ts";
import { PlaceBook, type PortDirectory } from "./places.ts";
import { aisOf, legsOf, pinOf, type SeaPlanner } from "./route-data.ts";
import type { Ais, Counter, Data, Kind, Leg, Metadata } from "./shapes.ts";
import { VesselBook } from "./vessels.ts";

export interface RenderDeps {
  views: RecordViews;
  ports: PortDirectory;
  sea: SeaPlanner;
  positions: PositionStore;
  carriers: CarrierDirectory;
  now: () => number;
}

/** cache_expires: updated_at plus 12 hours (spec, Limits). */
const CACHE_EXPIRES_MS = 12 * 3_600_000;

export const KIND_OF: Record<string, Kind> = {
  container_id: "CT",
  bill_of_lading: "BL",
  booking: "BK",
};

export interface Snapshot {
  message: string;
  metadata: Omit<Metadata, "number" | "api_calls" | "unique_shipments">;
  body: Omit<Data, "metadata" | "route_data">;
  legs: Leg[];
  pin: PathPoint | null;
  ais: Ais;
}

export interface Flags {
  route: boolean;
  ais: boolean;
}

/**
 * The operating line: the record's carrier; else the line the container prefix names; else auto
 * (spec, metadata.sealine).
 */
function sealineOf(deps: RenderDeps, row: TrackedRow): string {
  if (row.carrierCode) return row.carrierCode;
  const box = row.containerNumber;
  return (box && deps.carriers.resolve({ reference: box, kind: "container" }).carrier?.scac) || "auto";
}

/**
 * The name of the line metadata.sealine names, and only of it: an unresolved sealine ("auto") is
 * Unknown even when a lessee's line is known as an unconfirmed hint.
 */
function sealineName(deps: RenderDeps, row: TrackedRow, sealine: string): string {
  if (sealine === "auto") return "Unknown";
  return (
    deps.carriers.carrier(sealine)?.name ??
    (sealine === row.carrierCode ? row.carrierName : null) ??
    "Unknown"
  );
}

/** A record the carrier has no connector for: resolved, but nothing will come (spec: a short sentence). */
const UNTRACKABLE = "The carrier of this reference is not connected; no events are available for it.";

export async function snapshotOf(deps: RenderDeps, row: TrackedRow): Promise<Snapshot> {
  const { views } = deps;
  const books: Books = {
    places: new PlaceBook(deps.ports),
    vessels: new VesselBook((imo) => deps.positions.byImo(imo, deps.now())?.mmsi ?? null),
    lookup: views.places,
  };
  const mapOf = async (r: TrackedRow): Promise<Mapped[]> => {
    const events = (await views.timeline(r)) as RawEvent[];
    return mapEvents(events, voyageEnds(events, r.originUnlocode, r.destinationUnlocode), books);
  };
  const whole = await mapOf(row);
  const boxes = row.identifierType === "container_id" ? [row] : await views.children(row.id);
  const containers = [];
  // One box at a time: the books fill in event order, as before.
  for (const b of boxes) containers.push(containerOf(b, b === row ? whole : await mapOf(b)));
  const own = boxStatus(
    row.status,
    whole.map((m) => m.event),
  );
  const route = routeOf(whole);
  const position = views.vesselPosition(row);
  const drawn = legsOf(vesselMoves(whole), books, deps.sea);
  const now = deps.now();
  const pin = pinOf(position, drawn, whole, books, now);
  const ais = aisOf(position, row.currentVesselImo, whole, route, books, now);
  const sealine = sealineOf(deps, row);
  return {
    message: row.connectorStatus === null ? "OK" : UNTRACKABLE,
    metadata: {
      type: KIND_OF[row.identifierType]!,
      sealine,
      sealine_name: sealineName(deps, row, sealine),
      status: shipmentStatus(
        row.identifierType === "container_id" ? [] : containers.map((c) => c.status),
        own,
      ),
      is_status_from_sealine: false,
      from_cache: false,
      updated_at: row.lastPolledAt ? utcDate(row.lastPolledAt) : null,
      cache_expires: row.lastPolledAt ? utcDate(Date.parse(row.lastPolledAt) + CACHE_EXPIRES_MS) : null,
    },
    body: {
      locations: books.places.locations,
      facilities: books.places.facilities,
      route,
      vessels: books.vessels.vessels,
      containers,
    },
    legs: drawn.map((d) => d.leg),
    pin,
    ais,
  };
}

/**
 * The answer's data for one call: the snapshot, the number as queried, this call's counters, and
 * route_data: legs and pin whenever a route is plottable (null otherwise, or with route=false), the
 * AIS block with ais=true (then route_data is always an object: known clients read
 * route_data.ais.status unguarded). The snapshot holds the legs either way, so one cached snapshot
 * serves both renderings.
 */
export function present(
  s: Snapshot,
  call: Flags & { number: string; counters: { api_calls: Counter; unique_shipments: Counter } },
): Data {
  const plottable = s.legs.length > 0;
  const { type, ...rest } = s.metadata;
  const routeData = call.ais
    ? { route: call.route ? s.legs : [], pin: s.pin, ais: s.ais }
    : call.route && plottable
      ? { route: s.legs, pin: s.pin }
      : null;
  return {
    metadata: { type, number: call.number, ...rest, ...call.counters },
    ...s.body,
    route_data: routeData,
  };
}
