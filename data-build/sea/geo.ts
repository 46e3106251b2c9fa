/** Spherical geometry shared by the sea graph build and its tests. */

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
