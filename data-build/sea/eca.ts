/**
 * ECA zone splitting. The zone polygons close over land, so they only ever split lengths of
 * sea-lane segments; they are never used to decide where a ship can go.
 */
import { haversineM } from "../../common/geo.ts";

export interface EcaZone {
  id: string;
  name: string;
  /** Rings as flat [lng, lat, ...]; the first ring of each polygon is the outer one, the rest are holes. */
  polygons: Float64Array[][];
  bbox: [number, number, number, number];
}

interface GeoJsonFeature {
  id?: string;
  properties: { id: string; name: string };
  geometry:
    | { type: "Polygon"; coordinates: number[][][] }
    | { type: "MultiPolygon"; coordinates: number[][][][] };
}

export function parseEcaZones(geojson: { features: GeoJsonFeature[] }): EcaZone[] {
  return geojson.features.map((f) => {
    const polys = f.geometry.type === "Polygon" ? [f.geometry.coordinates] : f.geometry.coordinates;
    const bbox: [number, number, number, number] = [180, 90, -180, -90];
    const polygons = polys.map((rings) =>
      rings.map((ring) => {
        const flat = new Float64Array(ring.length * 2);
        ring.forEach(([lng, lat], i) => {
          flat[i * 2] = lng!;
          flat[i * 2 + 1] = lat!;
          bbox[0] = Math.min(bbox[0], lng!);
          bbox[1] = Math.min(bbox[1], lat!);
          bbox[2] = Math.max(bbox[2], lng!);
          bbox[3] = Math.max(bbox[3], lat!);
        });
        return flat;
      }),
    );
    return { id: f.properties.id, name: f.properties.name, polygons, bbox };
  });
}

function inRing(ring: Float64Array, lng: number, lat: number): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 2; i < ring.length; j = i, i += 2) {
    const xi = ring[i]!;
    const yi = ring[i + 1]!;
    const xj = ring[j]!;
    const yj = ring[j + 1]!;
    if (yi > lat !== yj > lat && lng < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** Index of the first zone containing the point, or -1. */
export function zoneAt(zones: EcaZone[], lat: number, lng: number): number {
  for (let z = 0; z < zones.length; z++) {
    const zone = zones[z]!;
    const [x0, y0, x1, y1] = zone.bbox;
    if (lng < x0 || lng > x1 || lat < y0 || lat > y1) continue;
    for (const rings of zone.polygons) {
      if (inRing(rings[0]!, lng, lat) && !rings.slice(1).some((hole) => inRing(hole, lng, lat))) return z;
    }
  }
  return -1;
}

/** Piece length used to split segments; finer than the 20 km network, coarse enough to stay fast. */
const STEP_M = 1000;

/**
 * Metres of a polyline (flat [lat, lng, ...]) inside each zone, as sorted [zoneIndex, metres] pairs.
 * Segments are cut into ~1 km pieces classified by their midpoint (linear in lat/lng, which at
 * 20 km segment lengths is indistinguishable from the great circle).
 */
export function splitByZone(zones: EcaZone[], flat: ArrayLike<number>): Array<[number, number]> {
  const acc = new Map<number, number>();
  for (let i = 2; i < flat.length; i += 2) {
    const lat0 = flat[i - 2]!;
    const lng0 = flat[i - 1]!;
    const lat1 = flat[i]!;
    const lng1 = flat[i + 1]!;
    const len = haversineM(lat0, lng0, lat1, lng1);
    const pieces = Math.max(1, Math.ceil(len / STEP_M));
    // Segments crossing the antimeridian interpolate the short way round.
    const dLng = lng1 - lng0 > 180 ? lng1 - lng0 - 360 : lng1 - lng0 < -180 ? lng1 - lng0 + 360 : lng1 - lng0;
    for (let k = 0; k < pieces; k++) {
      const t = (k + 0.5) / pieces;
      const lng = lng0 + dLng * t;
      const z = zoneAt(zones, lat0 + (lat1 - lat0) * t, lng > 180 ? lng - 360 : lng < -180 ? lng + 360 : lng);
      if (z >= 0) acc.set(z, (acc.get(z) ?? 0) + len / pieces);
    }
  }
  return [...acc].sort((a, b) => a[0] - b[0]);
}
