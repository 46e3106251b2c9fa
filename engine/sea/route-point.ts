/**
 * Where a sea route really starts and ends: the lane point each asked point snapped to and how far
 * from it (OSRM's waypoint location and distance), shown on the answer's from and to.
 */
import { round } from "../../common/round.ts";
import type { SnappedNode } from "../../router-wasm/binding/router.ts";
import type { RoutePoint } from "../route-point.ts";

/** Below this a point is on the lane: no note. */
const ON_LANE_KM = 1;

/** An end's route point; `port` is whether the end is planned as a sea port (places.ts seaEnd). */
export function routePoint(
  side: "from" | "to",
  end: { name?: string | null; port: boolean },
  snapped: SnappedNode,
): RoutePoint {
  const distance_km = round(snapped.snapM / 1000, 1);
  const point = { lat: round(snapped.lat, 5), lng: round(snapped.lng, 5), distance_km };
  if (end.port || distance_km < ON_LANE_KM) return point;
  const verb = side === "from" ? "starts" : "ends";
  const place = end.name ?? `the ${side} point`;
  return { ...point, note: `the sea route ${verb} at the nearest sea lane, ${distance_km} km from ${place}` };
}
