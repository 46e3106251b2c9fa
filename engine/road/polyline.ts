/**
 * Encoded polyline decoding (Google's algorithm). OSRM answers `geometries=polyline` (precision 5)
 * or `polyline6`; Valhalla's leg `shape` is always precision 6. Output is [lat, lng] pairs, the order
 * the distance API uses for paths.
 */

import type { PathPoint } from "../../common/geo.ts";
import { EngineError } from "../errors.ts";

export function decodePolyline(encoded: string, precision: 5 | 6 = 5): PathPoint[] {
  const factor = 10 ** precision;
  const out: PathPoint[] = [];
  let index = 0;
  let lat = 0;
  let lng = 0;
  const next = (): number => {
    let result = 0;
    let shift = 0;
    let byte: number;
    do {
      if (index >= encoded.length) throw new EngineError("invalid_request", "truncated encoded polyline");
      byte = encoded.charCodeAt(index++) - 63;
      if (byte < 0 || byte > 63)
        throw new EngineError("invalid_request", "invalid character in encoded polyline");
      // Multiplication, not <<, so values past 2^31 (precision 6 near +-180) do not overflow.
      result += (byte & 0x1f) * 2 ** shift;
      shift += 5;
    } while (byte >= 0x20);
    return result % 2 === 1 ? -(result + 1) / 2 : result / 2;
  };
  while (index < encoded.length) {
    lat += next();
    lng += next();
    out.push([lat / factor, lng / factor]);
  }
  return out;
}

/** Encodes [lat, lng] pairs (tests and fixtures build engine answers with it). */
export function encodePolyline(points: PathPoint[], precision: 5 | 6 = 5): string {
  const factor = 10 ** precision;
  let prevLat = 0;
  let prevLng = 0;
  let out = "";
  const put = (delta: number) => {
    let v = delta < 0 ? -2 * delta - 1 : 2 * delta;
    while (v >= 0x20) {
      out += String.fromCharCode((0x20 | (v % 0x20)) + 63);
      v = Math.floor(v / 0x20);
    }
    out += String.fromCharCode(v + 63);
  };
  for (const [la, ln] of points) {
    const lat = Math.round(la * factor);
    const lng = Math.round(ln * factor);
    put(lat - prevLat);
    put(lng - prevLng);
    prevLat = lat;
    prevLng = lng;
  }
  return out;
}
