/**
 * Line segments in a grid hash, for the two questions noding asks: the nearest point of any
 * segment to a point (line ends, limits, ports), and which segments cross. Distances use a local
 * equirectangular projection: exact enough at the few kilometres these searches span.
 */
import type { SourceLine } from "./inputs.ts";

const M_PER_DEG = 111_195;
const RAD = Math.PI / 180;

export interface Projection {
  /** Segment id (the index of its first vertex). */
  seg: number;
  /** Position along the segment, 0 at its first vertex, 1 at its second. */
  t: number;
  lat: number;
  lng: number;
  m: number;
}

/** Nearest point of segment a-b to p, in local metres. */
export function projectOnSegment(
  lat: number,
  lng: number,
  aLat: number,
  aLng: number,
  bLat: number,
  bLng: number,
): { t: number; lat: number; lng: number; m: number } {
  const kx = Math.cos(lat * RAD) * M_PER_DEG;
  const ax = (aLng - lng) * kx;
  const ay = (aLat - lat) * M_PER_DEG;
  const dx = (bLng - aLng) * kx;
  const dy = (bLat - aLat) * M_PER_DEG;
  const len2 = dx * dx + dy * dy;
  const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, -(ax * dx + ay * dy) / len2));
  const x = ax + t * dx;
  const y = ay + t * dy;
  return { t, lat: aLat + t * (bLat - aLat), lng: aLng + t * (bLng - aLng), m: Math.hypot(x, y) };
}

/**
 * Where segments p1-p2 and q1-q2 meet (planar in degrees, fine for segments of a few km):
 * [t, u] along each, or null when they do not.
 */
export function segmentIntersection(
  p1Lat: number,
  p1Lng: number,
  p2Lat: number,
  p2Lng: number,
  q1Lat: number,
  q1Lng: number,
  q2Lat: number,
  q2Lng: number,
): [number, number] | null {
  const rx = p2Lng - p1Lng;
  const ry = p2Lat - p1Lat;
  const sx = q2Lng - q1Lng;
  const sy = q2Lat - q1Lat;
  const den = rx * sy - ry * sx;
  if (den === 0) return null;
  const qx = q1Lng - p1Lng;
  const qy = q1Lat - p1Lat;
  const t = (qx * sy - qy * sx) / den;
  const u = (qx * ry - qy * rx) / den;
  if (t < 0 || t > 1 || u < 0 || u > 1) return null;
  return [t, u];
}

export class SegmentIndex {
  private readonly cells = new Map<number, number[]>();
  private readonly cols: number;

  /** `segs`: first-vertex ids of the segments to index (segment s runs from vertex s to s + 1). */
  constructor(
    private readonly lat: ArrayLike<number>,
    private readonly lng: ArrayLike<number>,
    segs: Iterable<number>,
    private readonly cellDeg = 0.05,
  ) {
    this.cols = Math.ceil(360 / cellDeg) + 2;
    for (const s of segs) {
      const [r0, r1, c0, c1] = this.span(
        Math.min(lat[s]!, lat[s + 1]!),
        Math.max(lat[s]!, lat[s + 1]!),
        Math.min(lng[s]!, lng[s + 1]!),
        Math.max(lng[s]!, lng[s + 1]!),
      );
      for (let r = r0; r <= r1; r++) {
        for (let c = c0; c <= c1; c++) {
          const k = r * this.cols + c;
          const list = this.cells.get(k);
          if (list) list.push(s);
          else this.cells.set(k, [s]);
        }
      }
    }
  }

  private span(lat0: number, lat1: number, lng0: number, lng1: number): [number, number, number, number] {
    const d = this.cellDeg;
    return [
      Math.floor((lat0 + 90) / d),
      Math.floor((lat1 + 90) / d),
      Math.max(0, Math.floor((lng0 + 180) / d)),
      Math.min(this.cols - 1, Math.floor((lng1 + 180) / d)),
    ];
  }

  /** Segments whose cells overlap the box around (lat, lng) of radius maxM; each once. */
  near(lat: number, lng: number, maxM: number, visit: (seg: number) => void): void {
    const dLat = maxM / M_PER_DEG;
    const dLng = dLat / Math.max(0.01, Math.cos(Math.min(89, Math.abs(lat) + dLat) * RAD));
    const [r0, r1, c0, c1] = this.span(lat - dLat, lat + dLat, lng - dLng, lng + dLng);
    const seen = new Set<number>();
    for (let r = r0; r <= r1; r++) {
      for (let c = c0; c <= c1; c++) {
        for (const s of this.cells.get(r * this.cols + c) ?? []) {
          if (seen.has(s)) continue;
          seen.add(s);
          visit(s);
        }
      }
    }
  }

  /** Nearest point of an accepted segment within maxM, or null. */
  nearest(lat: number, lng: number, maxM: number, accept: (seg: number) => boolean = () => true) {
    let best: Projection | null = null;
    const { lat: la, lng: ln } = this;
    this.near(lat, lng, maxM, (s) => {
      if (!accept(s)) return;
      const p = projectOnSegment(lat, lng, la[s]!, ln[s]!, la[s + 1]!, ln[s + 1]!);
      if (p.m <= maxM && (!best || p.m < best.m)) best = { seg: s, ...p };
    });
    return best as Projection | null;
  }

  /**
   * Calls `visit(a, b)` once for every pair of indexed segments whose bounding boxes overlap
   * (a < b): a pair sharing several cells is visited in the cell holding its overlap's low corner.
   */
  pairs(visit: (a: number, b: number) => void): void {
    const { lat, lng, cols, cellDeg: d } = this;
    for (const [key, list] of this.cells) {
      const r = Math.floor(key / cols);
      const c = key - r * cols;
      for (let i = 0; i < list.length; i++) {
        const a = list[i]!;
        const aLat0 = Math.min(lat[a]!, lat[a + 1]!);
        const aLat1 = Math.max(lat[a]!, lat[a + 1]!);
        const aLng0 = Math.min(lng[a]!, lng[a + 1]!);
        const aLng1 = Math.max(lng[a]!, lng[a + 1]!);
        for (let j = i + 1; j < list.length; j++) {
          const b = list[j]!;
          const lat0 = Math.max(aLat0, Math.min(lat[b]!, lat[b + 1]!));
          const lng0 = Math.max(aLng0, Math.min(lng[b]!, lng[b + 1]!));
          if (lat0 > Math.min(aLat1, Math.max(lat[b]!, lat[b + 1]!))) continue;
          if (lng0 > Math.min(aLng1, Math.max(lng[b]!, lng[b + 1]!))) continue;
          if (Math.floor((lat0 + 90) / d) !== r || Math.max(0, Math.floor((lng0 + 180) / d)) !== c) continue;
          visit(Math.min(a, b), Math.max(a, b));
        }
      }
    }
  }
}

/** Vertex arrays of many lines, for a SegmentIndex. */
export function vertexArrays(lines: SourceLine[]): {
  lat: Float64Array;
  lng: Float64Array;
  start: Int32Array;
} {
  let total = 0;
  for (const l of lines) total += l.coords.length / 2;
  const lat = new Float64Array(total);
  const lng = new Float64Array(total);
  const start = new Int32Array(lines.length + 1);
  let v = 0;
  lines.forEach((l, li) => {
    start[li] = v;
    for (let i = 0; i < l.coords.length; i += 2, v++) {
      lat[v] = l.coords[i]!;
      lng[v] = l.coords[i + 1]!;
    }
  });
  start[lines.length] = v;
  return { lat, lng, start };
}

/** Segment ids of lines laid out by `vertexArrays` (no segment joins two lines). */
export function* segmentsOf(start: Int32Array): Generator<number> {
  for (let li = 0; li + 1 < start.length; li++) {
    for (let v = start[li]!; v + 1 < start[li + 1]!; v++) yield v;
  }
}
