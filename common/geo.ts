/** Spherical geometry: the one great-circle distance (and its helpers) every folder uses. */

/** IUGG mean Earth radius in metres; the Rust router uses the same value. */
export const EARTH_RADIUS_M = 6_371_008.8;
export const METRES_PER_NM = 1852;

const RAD = Math.PI / 180;

/** Great-circle (haversine) distance in metres. */
export function haversineM(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const dLat = (lat2 - lat1) * RAD;
  const dLng = (lng2 - lng1) * RAD;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * RAD) * Math.cos(lat2 * RAD) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** Length in metres of a polyline given as flat [lat, lng, lat, lng, ...]. */
export function polylineM(flat: ArrayLike<number>): number {
  let total = 0;
  for (let i = 2; i < flat.length; i += 2) {
    total += haversineM(flat[i - 2]!, flat[i - 1]!, flat[i]!, flat[i + 1]!);
  }
  return total;
}

/**
 * A path point as every planner's path has it. Read only: a sea path shares each graph point's
 * pair with every other path through it (router-wasm/binding/router.ts).
 */
export type PathPoint = readonly [number, number];

/** Flat [lat, lng, lat, lng, ...] as [lat, lng] pairs, the shape every planner's path has. */
export function latLngPairs(flat: ArrayLike<number>): PathPoint[] {
  const out: PathPoint[] = new Array(flat.length >> 1);
  for (let i = 0; i + 1 < flat.length; i += 2) out[i >> 1] = [flat[i]!, flat[i + 1]!];
  return out;
}

/**
 * Inserts great-circle points so no segment is longer than `maxM`: the router measures segments
 * as great circles, so drawing them that way keeps path geometry and distances consistent.
 */
export function densify(flat: ArrayLike<number>, maxM: number): Float64Array {
  const out: number[] = [flat[0]!, flat[1]!];
  for (let i = 2; i < flat.length; i += 2) {
    const lat0 = flat[i - 2]!;
    const lng0 = flat[i - 1]!;
    const lat1 = flat[i]!;
    const lng1 = flat[i + 1]!;
    const d = haversineM(lat0, lng0, lat1, lng1);
    const pieces = Math.ceil(d / maxM);
    if (pieces > 1) {
      const a = toUnit(lat0, lng0);
      const b = toUnit(lat1, lng1);
      const omega = d / EARTH_RADIUS_M;
      for (let k = 1; k < pieces; k++) {
        const t = k / pieces;
        const wa = Math.sin((1 - t) * omega) / Math.sin(omega);
        const wb = Math.sin(t * omega) / Math.sin(omega);
        const x = wa * a[0] + wb * b[0];
        const y = wa * a[1] + wb * b[1];
        const z = wa * a[2] + wb * b[2];
        out.push(Math.atan2(z, Math.hypot(x, y)) / RAD, Math.atan2(y, x) / RAD);
      }
    }
    out.push(lat1, lng1);
  }
  return Float64Array.from(out);
}

function toUnit(lat: number, lng: number): [number, number, number] {
  const la = lat * RAD;
  const lo = lng * RAD;
  return [Math.cos(la) * Math.cos(lo), Math.cos(la) * Math.sin(lo), Math.sin(la)];
}
