/**
 * Where a route or one of its legs really starts and ends (OSRM's waypoint location and distance):
 * the point on the leg's network (a road's snapped node, a barge leg's river node, a railhead's
 * track point, an airport) and its great-circle distance from the point the leg was asked from.
 */
import { haversineM } from "../common/geo.ts";
import { round } from "../common/round.ts";

export interface RoutePoint {
  lat: number;
  lng: number;
  /** Great-circle km from the asked point to where the route starts or ends. */
  distance_km: number;
  /** For a sea route's end that is no sea port and at least 1 km off the lanes: that the route stops short of it. */
  note?: string;
}

interface Point {
  lat: number;
  lng: number;
}

/** The route point at `at` for a leg asked from `asked`. */
export const routePointAt = (asked: Point, at: Point): RoutePoint => ({
  lat: round(at.lat, 5),
  lng: round(at.lng, 5),
  distance_km: round(haversineM(asked.lat, asked.lng, at.lat, at.lng) / 1000, 1),
});

/** `p` with the route point of a route starting or ending at `at`; unchanged where that is unknown. */
export function withRoutePoint<P>(p: P, at: Point | undefined): P {
  if (!at) return p;
  return { ...p, route_point: routePointAt(p as Point, at) };
}

/** A section's route points ({route_points: {from, to}}), or nothing where neither end's is known. */
export function sectionRoutePoints(s: { from: unknown; to: unknown; start?: Point; end?: Point }): {
  route_points?: { from?: RoutePoint; to?: RoutePoint };
} {
  if (!s.start && !s.end) return {};
  const at = (p: unknown, q: Point | undefined) => (q ? routePointAt(p as Point, q) : undefined);
  return { route_points: { from: at(s.from, s.start), to: at(s.to, s.end) } };
}

type Section = { route_points?: { from?: RoutePoint; to?: RoutePoint } };

/**
 * An answer's ends with the route points of its chain: where the first section starts and the last
 * ends, measured from the asked points (a chain whose door is its terminal starts there).
 */
export function chainEnds<P extends Point>(
  from: P,
  to: P,
  chain: { sections: ReadonlyArray<unknown> },
): [P, P] {
  const sections = chain.sections as ReadonlyArray<Section>;
  return [
    withRoutePoint(from, sections[0]?.route_points?.from),
    withRoutePoint(to, sections.at(-1)?.route_points?.to),
  ];
}
