/**
 * Reads LineString features from a GeoPackage: each geometry blob is a GeoPackage binary header
 * (magic "GP", version, flags, srs id, optional envelope) followed by standard WKB.
 */
import { Database } from "bun:sqlite";

/** Envelope byte length by the flags' envelope indicator (bits 1-3). */
const ENVELOPE_BYTES = [0, 32, 48, 48, 64];

/** Decodes a GeoPackage LineString blob into flat [lat, lng, ...] (WKB stores x = lng, y = lat). */
export function decodeLineString(blob: Uint8Array): Float64Array {
  if (blob[0] !== 0x47 || blob[1] !== 0x50) throw new Error("geometry is not a GeoPackage blob");
  const flags = blob[3]!;
  const envelope = ENVELOPE_BYTES[(flags >> 1) & 7];
  if (envelope === undefined) throw new Error(`bad GeoPackage envelope flags ${flags}`);
  const dv = new DataView(blob.buffer, blob.byteOffset, blob.byteLength);
  const wkb = 8 + envelope;
  const little = blob[wkb] === 1;
  const type = dv.getUint32(wkb + 1, little);
  // ISO (1000/2000/3000) and EWKB-style (high bits) Z/M flags both add ordinates per point.
  const base = type & 0xffff;
  const dims =
    2 + (base >= 3000 ? 2 : base >= 1000 ? 1 : 0) + (type & 0x80000000 ? 1 : 0) + (type & 0x40000000 ? 1 : 0);
  if (base % 1000 !== 2) throw new Error(`WKB type ${type} is not a LineString`);
  const n = dv.getUint32(wkb + 5, little);
  const out = new Float64Array(n * 2);
  let p = wkb + 9;
  for (let i = 0; i < n; i++) {
    out[i * 2 + 1] = dv.getFloat64(p, little);
    out[i * 2] = dv.getFloat64(p + 8, little);
    p += 8 * dims;
  }
  return out;
}

export interface LaneFeature {
  coords: Float64Array;
  pass: string | null;
}

export function readMarnet(path: string): LaneFeature[] {
  const db = new Database(path, { readonly: true });
  try {
    const rows = db.query("SELECT geometry, pass FROM type ORDER BY fid").all() as Array<{
      geometry: Uint8Array;
      pass: string | null;
    }>;
    return rows.map((r) => ({ coords: decodeLineString(r.geometry), pass: r.pass }));
  } finally {
    db.close();
  }
}

export function readPassageIds(path: string): Array<{ id: string; name: string }> {
  const db = new Database(path, { readonly: true });
  try {
    return db.query("SELECT id, name FROM pass ORDER BY fid").all() as Array<{ id: string; name: string }>;
  } finally {
    db.close();
  }
}
