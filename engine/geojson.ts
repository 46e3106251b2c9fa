/**
 * Route geometry as GeoJSON (RFC 7946), for `geometry=geojson` on the distance routes: each chain
 * as a FeatureCollection with one feature per section, the section's own fields (but its path) as
 * the feature's properties. Positions are [lng, lat], where a path is [lat, lng]. A line that
 * crosses the antimeridian is cut there into a MultiLineString, as RFC 7946 section 3.1.9 asks,
 * so no part spans the map's width. Pure functions of the rendered answer: the API (sea routes in
 * the route workers, chains on the serving thread) and any other renderer share them.
 */
import type { PathPoint } from "../common/geo.ts";

/** The `geometry` parameter's values: the formats a chain's geometry can be rendered in. */
export const GEOMETRY_FORMATS = ["geojson"] as const;
export type GeometryFormat = (typeof GEOMETRY_FORMATS)[number];

type Position = [number, number];
export type LineGeometry =
  | { type: "LineString"; coordinates: Position[] }
  | { type: "MultiLineString"; coordinates: Position[][] };

export interface Feature {
  type: "Feature";
  /** null where the section has no drawn path (an inland sea leg that cannot be verified). */
  geometry: LineGeometry | null;
  properties: Record<string, unknown>;
}

export interface FeatureCollection {
  type: "FeatureCollection";
  features: Feature[];
}

/** Which copy of the map an unwrapped longitude lies on: 0 for [-180, 180), 1 for [180, 540) ... */
const copyOf = (lng: number) => Math.floor((lng + 180) / 360);

/** Adds a position unless it repeats the last one (a cut exactly on a path point). */
function push(part: Position[], p: Position): void {
  const last = part[part.length - 1];
  if (!last || last[0] !== p[0] || last[1] !== p[1]) part.push(p);
}

/**
 * The path's parts between antimeridian crossings, as [lng, lat] within [-180, 180]. Longitudes
 * are first continued (each step taken the short way round, as every planner draws them), then the
 * line is cut where it passes 180 + 360k, the crossing's latitude interpolated along the step.
 */
function antimeridianParts(path: readonly PathPoint[]): Position[][] {
  const parts: Position[][] = [[]];
  let prev: { lng: number; lat: number } | null = null;
  for (const [lat, given] of path) {
    // Whole turns added to continue the line; the shown longitude subtracts its copy's again.
    const turns: number = prev ? Math.round((prev.lng - given) / 360) : 0;
    const lng: number = given + 360 * turns;
    const copy = copyOf(lng);
    if (prev && copyOf(prev.lng) !== copy) {
      const east = copy > copyOf(prev.lng);
      const cut = 180 + 360 * Math.min(copy, copyOf(prev.lng));
      const at = prev.lat + ((cut - prev.lng) / (lng - prev.lng)) * (lat - prev.lat);
      push(parts[parts.length - 1]!, [east ? 180 : -180, at]);
      parts.push([[east ? -180 : 180, at]]);
    }
    push(parts[parts.length - 1]!, [given + 360 * (turns - copy), lat]);
    prev = { lng, lat };
  }
  return parts.filter((part) => part.length >= 2);
}

/** A [lat, lng] path as a LineString, or a MultiLineString cut at the antimeridian; null when not a line. */
export function lineGeometry(path: readonly PathPoint[]): LineGeometry | null {
  const parts = antimeridianParts(path);
  if (parts.length === 0) return null;
  if (parts.length === 1) return { type: "LineString", coordinates: parts[0]! };
  return { type: "MultiLineString", coordinates: parts };
}

/** Something drawn: a chain's section or a sea route, its path among its fields. */
type Drawn = { path?: readonly PathPoint[] };

/** Every field but the path; a drawn thing's path is optional, so T still describes the rest. */
function withoutPath<T extends Drawn>(drawn: T): T {
  const { path: _, ...fields } = drawn;
  return fields as T;
}

const feature = (drawn: Drawn, properties: Record<string, unknown>): Feature => ({
  type: "Feature",
  geometry: lineGeometry(drawn.path ?? []),
  properties,
});

/** A chain's sections as features, each with the section's fields but its path. */
export function chainGeometry(chain: { sections: readonly Drawn[] }): FeatureCollection {
  return { type: "FeatureCollection", features: chain.sections.map((s) => feature(s, withoutPath(s))) };
}

/** A sea route (one leg, no sections) as one SEA feature with the route's fields but its path. */
export function seaRouteGeometry(route: Drawn): FeatureCollection {
  const properties = { transport_mode: "SEA", ...withoutPath(route) };
  return { type: "FeatureCollection", features: [feature(route, properties)] };
}

type WithGeometry<T> = T & { geometry: FeatureCollection };

/** A chain with its geometry last; the sections keep their paths only when `keepPath` (path=true). */
export function chainWithGeometry<C extends { sections: readonly Drawn[] }>(
  chain: C,
  keepPath: boolean,
): WithGeometry<C> {
  const sections = keepPath ? chain.sections : chain.sections.map(withoutPath);
  return { ...chain, sections, geometry: chainGeometry(chain) };
}

/** A sea route with its geometry last; it keeps its path only when `keepPath` (path=true). */
export function seaRouteWithGeometry<R extends Drawn>(route: R, keepPath: boolean): WithGeometry<R> {
  return { ...(keepPath ? route : withoutPath(route)), geometry: seaRouteGeometry(route) };
}

/** An answer's route and alternatives, each given its geometry by `add` (other fields kept). */
export function answerWithGeometry<T extends { route: R; alternatives: R[] }, R>(
  answer: T,
  add: (route: R) => WithGeometry<R>,
): T {
  return { ...answer, route: add(answer.route), alternatives: answer.alternatives.map(add) };
}
