/**
 * WDB II lines: merged where the source split them at its bin edges, then clipped against Natural
 * Earth.
 *
 * WDB II repeats most Natural Earth rivers a few hundred metres to a few kilometres off. Keeping
 * both would give every big river a parallel twin, so a WDB II line keeps only its runs of
 * vertices farther than DEDUPE_M from every Natural Earth line and hand-digitised canal: the
 * rivers and canals Natural Earth lacks. Each kept run is extended by one vertex at each end, so
 * it ends within DEDUPE_M of the line it leaves, where noding joins it (WDB_JOIN_M).
 */
import { polylineM } from "../../common/geo.ts";
import { type SourceLine, tagKey } from "./inputs.ts";
import { SegmentIndex, segmentsOf, vertexArrays } from "./segments.ts";

/** A WDB II vertex this close to a reference line is the same river. */
export const DEDUPE_M = 2_000;
/** Kept runs shorter than this are digitising noise along a reference river, not a river. */
export const MIN_RUN_M = 2_500;

/** Exact end position key (~1 m). */
const endKey = (lat: number, lng: number) => `${Math.round(lat * 1e5)}:${Math.round(lng * 1e5)}`;

/**
 * Joins lines whose ends meet exactly where no third line ends: WDB II cuts its lines at the edges
 * of its 1-degree bins, so one river arrives as many pieces touching end to end.
 */
export function mergeAtSharedEnds(lines: SourceLine[]): SourceLine[] {
  const ends = new Map<string, number[]>();
  const keyOf = (li: number, end: 0 | 1) => {
    const c = lines[li]!.coords;
    const i = end === 0 ? 0 : c.length - 2;
    return endKey(c[i]!, c[i + 1]!);
  };
  lines.forEach((_, li) => {
    for (const end of [0, 1] as const) {
      const k = keyOf(li, end);
      const list = ends.get(k);
      if (list) list.push(li * 2 + end);
      else ends.set(k, [li * 2 + end]);
    }
  });
  // The other line end meeting this one, when exactly two ends meet there.
  const partner = (li: number, end: 0 | 1): number | null => {
    const list = ends.get(keyOf(li, end))!;
    if (list.length !== 2) return null;
    const other = list[0] === li * 2 + end ? list[1]! : list[0]!;
    return other >> 1 === li || tagKey(lines[other >> 1]!.tag) !== tagKey(lines[li]!.tag) ? null : other;
  };
  const used = new Uint8Array(lines.length);
  const out: SourceLine[] = [];
  const walk = (first: number): void => {
    // Go back to the chain's first line, then forward collecting coordinates.
    let li = first;
    let reversed = false;
    for (let steps = 0; steps < lines.length; steps++) {
      const p = partner(li, reversed ? 1 : 0);
      if (p === null || p >> 1 === first) break;
      li = p >> 1;
      reversed = (p & 1) === 0;
    }
    const coords: number[] = [];
    for (;;) {
      used[li] = 1;
      const c = lines[li]!.coords;
      const pts: number[] = [];
      for (let i = 0; i < c.length; i += 2) pts.push(c[i]!, c[i + 1]!);
      if (reversed) for (let i = pts.length - 2; i >= 0; i -= 2) push(coords, pts[i]!, pts[i + 1]!);
      else for (let i = 0; i < pts.length; i += 2) push(coords, pts[i]!, pts[i + 1]!);
      const p = partner(li, reversed ? 0 : 1);
      if (p === null || used[p >> 1]) break;
      li = p >> 1;
      reversed = (p & 1) === 1;
    }
    out.push({ coords, tag: lines[first]!.tag });
  };
  for (let li = 0; li < lines.length; li++) if (!used[li]) walk(li);
  return out;
}

function push(coords: number[], lat: number, lng: number): void {
  const n = coords.length;
  if (n > 0 && coords[n - 2] === lat && coords[n - 1] === lng) return;
  coords.push(lat, lng);
}

/** The parts of `lines` (WDB II) that do not repeat `reference`; returns them and the km dropped. */
export function clipRepeats(
  lines: SourceLine[],
  reference: SourceLine[],
  dedupeM = DEDUPE_M,
  minRunM = MIN_RUN_M,
): { kept: SourceLine[]; droppedKm: number } {
  const ref = vertexArrays(reference);
  const index = new SegmentIndex(ref.lat, ref.lng, segmentsOf(ref.start));
  const kept: SourceLine[] = [];
  let droppedKm = 0;
  for (const line of lines) {
    const c = line.coords;
    const n = c.length / 2;
    const far = new Uint8Array(n);
    for (let i = 0; i < n; i++) far[i] = index.nearest(c[i * 2]!, c[i * 2 + 1]!, dedupeM) ? 0 : 1;
    let keptM = 0;
    for (let i = 0; i < n; ) {
      if (!far[i]) {
        i++;
        continue;
      }
      let j = i;
      while (j + 1 < n && far[j + 1]) j++;
      const a = Math.max(0, i - 1);
      const b = Math.min(n - 1, j + 1);
      const coords = c.slice(a * 2, b * 2 + 2);
      const m = polylineM(coords);
      if (b > a && m >= minRunM) {
        kept.push({ coords, tag: line.tag });
        keptM += m;
      }
      i = j + 1;
    }
    droppedKm += (polylineM(c) - keptM) / 1000;
  }
  return { kept, droppedKm };
}
