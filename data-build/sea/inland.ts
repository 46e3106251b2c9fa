/**
 * Inland water the sea graph carries. MARNET runs lanes up rivers and canals (the Rhine to
 * Koblenz, the Maas to Liege, the German canals to Berlin, the Volga); sea-going ships use only
 * some of that water: the estuaries and ship channels the curated table (inland/waterways.csv)
 * classes as seagoing, and the sea canals (already passages). Every other stretch of a lane on
 * inland water gets the "inland" gate, which every sea query closes: barges belong on the river
 * graph. Rule and figures: docs/sea-routing.md, "Inland water".
 *
 * A lane is sampled every SAMPLE_M. A sample is on inland water when no open sea (world-atlas
 * land-10m, where lakes are land) lies within OPEN_SEA_M; it then belongs to the curated stretches
 * whose water it is on (below), and is seagoing when one of them is. A run of non-seagoing
 * samples on curated water becomes its own gated edge (inlandRuns: which runs count), cut at the
 * lane's own vertices; uncurated inland water (small estuary ports, lanes across islands) stays
 * sea.
 *
 * A stretch's water: within LINE_M of its hand-digitised line; within LINE_M of a Natural Earth
 * line carrying one of its aliases (any line, for a seagoing stretch) inside the ellipse around
 * its two ends that holds every route of its length (any point of a route of length L from A to B
 * has |PA| + |PB| <= L), ends widened by END_M; for a stretch with neither line (lakes, some
 * estuaries), the ellipse alone.
 */
import { densify, haversineM } from "../../common/geo.ts";
import { PointGrid } from "../rail/grid.ts";
import type { SourceLine, Stretch } from "../river/inputs.ts";
import type { CoastTest } from "../river/sea.ts";

export const INLAND_GATE = { id: "inland", name: "Inland waterway lanes" } as const;

/** Sample spacing along a lane. */
export const SAMPLE_M = 1_000;
/** No open sea this close: the sample is on inland water (the land raster's cells are ~2 km). */
export const OPEN_SEA_M = 3_000;
/** A lane this close to a river or canal line runs on it (MARNET and Natural Earth are generalised). */
export const LINE_M = 5_000;
/** Curated ends are approximate (README: ~1-3 km): each stretch reaches this much further. */
export const END_M = 3_000;
/** Shorter inland runs stay sea: a lane brushing a river mouth is not a river lane. */
export const MIN_RUN_M = 3_000;
/** Runs this close are one run, and a run this close to a lane end reaches it (no stub edges). */
export const JOIN_M = 5_000;
/**
 * A run this short ending where the lane dead-ends stays sea: MARNET ends lanes at ports, and the
 * last reach to a port up a river is its approach (Bangkok's river quays above Khlong Toei).
 */
export const SPUR_M = 20_000;
/** A stretch without a known route length winds this much over the straight line (README's km). */
const WIND = 1.25;

/**
 * Seagoing water: the curated class says "seagoing", or it is the St Lawrence Seaway and Great
 * Lakes ("Seaway": ocean ships up to 225.5 x 23.8 m), or a US channel of 30 ft or more (Lower
 * Mississippi, Houston, Columbia). "river-sea" and "UDWS" are the Russian river fleet's own water.
 */
export function isSeagoing(s: Stretch): boolean {
  return /seagoing/i.test(s.cemtClass) || /^seaway/i.test(s.cemtClass) || (s.usDepthFt ?? 0) >= 30;
}

/** What a sample of a lane is on. */
export type Water =
  | { kind: "sea" }
  | { kind: "seagoing"; stretch: number }
  | { kind: "inland"; stretch: number }
  /** Inland water no curated stretch covers, near a river line (its name) or not (a lane over land). */
  | { kind: "uncurated"; line: string | null };

/** A piece of a lane: `stretch` >= 0 marks it as inland water, mostly of that stretch (gated). */
export interface LanePiece {
  coords: Float64Array;
  stretch: number;
  /** Of a gated piece: metres per stretch (its uncurated samples count for the main one). */
  metres: Map<number, number>;
}

interface StretchShape {
  a: [number, number];
  b: [number, number];
  /** Largest |PA| + |PB| of its water. */
  reach: number;
  /** Length of AB, and metres per degree of latitude and longitude around A (a local plane). */
  ab: number;
  perLat: number;
  perLng: number;
  aliases: Set<string>;
  /** It has a hand-digitised line (missing_canals.geojson, tagged with its id). */
  canal: boolean;
}

export class InlandWater {
  private readonly shapes: StretchShape[];
  private readonly seagoing: boolean[];
  private readonly grid: PointGrid;
  private readonly lineOf: Int32Array;
  /** Grid points that end a hand-digitised line: a lane beyond them is not on it. */
  private readonly lineEnd: Uint8Array;

  constructor(
    private readonly coast: Pick<CoastTest, "seaWithin">,
    private readonly lines: readonly SourceLine[],
    readonly stretches: readonly Stretch[],
  ) {
    const lat: number[] = [];
    const lng: number[] = [];
    const lineOf: number[] = [];
    const lineEnd: number[] = [];
    lines.forEach((l, i) => {
      const d = densify(l.coords, SAMPLE_M);
      for (let k = 0; k < d.length; k += 2) {
        lat.push(d[k]!);
        lng.push(d[k + 1]!);
        lineOf.push(i);
        lineEnd.push(l.tag.curatedId && (k === 0 || k === d.length - 2) ? 1 : 0);
      }
    });
    this.lineOf = Int32Array.from(lineOf);
    this.lineEnd = Uint8Array.from(lineEnd);
    this.grid = new PointGrid(Float64Array.from(lat), Float64Array.from(lng), 0.1);
    this.seagoing = stretches.map(isSeagoing);
    const digitised = new Set(lines.flatMap((l) => (l.tag.curatedId ? [l.tag.curatedId] : [])));
    this.shapes = stretches.map((s) => {
      const straight = haversineM(s.from.lat, s.from.lng, s.to.lat, s.to.lng);
      const route = Math.max((s.neRouteKm ?? 0) * 1000, straight * WIND);
      const perLat = 111_195;
      const perLng = perLat * Math.cos((((s.from.lat + s.to.lat) / 2) * Math.PI) / 180);
      return {
        a: [s.from.lat, s.from.lng],
        b: [s.to.lat, s.to.lng],
        reach: route + 2 * END_M,
        ab: straight,
        perLat,
        perLng,
        aliases: new Set(s.aliases),
        canal: digitised.has(s.id),
      };
    });
  }

  /** What the point is on (see the module comment). */
  classify(lat: number, lng: number): Water {
    if (this.coast.seaWithin(lat, lng, OPEN_SEA_M)) return { kind: "sea" };
    // Nearest point of each line within LINE_M.
    const near = new Map<number, { m: number; point: number }>();
    this.grid.within(lat, lng, LINE_M, (i, m) => {
      const line = this.lineOf[i]!;
      if (m < (near.get(line)?.m ?? Infinity)) near.set(line, { m, point: i });
    });
    const names = new Set<string>();
    const canals = new Set<string>();
    for (const [l, { point }] of near) {
      const tag = this.lines[l]!.tag;
      for (const name of tag.names) names.add(name);
      // Past a digitised canal's end is other water (the Trave at Luebeck, where the canal ends).
      if (tag.curatedId && !this.lineEnd[point]) canals.add(tag.curatedId);
    }
    let inland = -1;
    let tightest = Infinity;
    for (let s = 0; s < this.shapes.length; s++) {
      const sh = this.shapes[s]!;
      const sum = haversineM(lat, lng, sh.a[0], sh.a[1]) + haversineM(lat, lng, sh.b[0], sh.b[1]);
      const inEllipse = sum <= sh.reach;
      const onCanal = sh.canal && canals.has(this.stretches[s]!.id);
      // Seagoing water takes any river line in its ellipse: its aliases miss side arms (the Ouse at Goole).
      const onLine = this.seagoing[s] ? near.size > 0 : [...sh.aliases].some((a) => names.has(a));
      const bare = !sh.canal && sh.aliases.size === 0;
      // The ellipse also reaches past the ends; a river stretch stops at its ends (Bangkok: the
      // barge reach starts at Khlong Toei, the lane below it is the port's sea approach).
      const inReach = inEllipse && (this.seagoing[s] || withinEnds(sh, lat, lng));
      if (!onCanal && !(inReach && (bare || (sh.aliases.size > 0 && onLine)))) continue;
      // Where a seagoing reach meets a river (Rotterdam, Hamburg, Baton Rouge) the sea side wins.
      if (this.seagoing[s]) return { kind: "seagoing", stretch: s };
      // Of several non-seagoing stretches, the one whose ellipse holds the point most tightly.
      const fit = sum / sh.reach;
      if (fit < tightest) {
        inland = s;
        tightest = fit;
      }
    }
    if (inland >= 0) return { kind: "inland", stretch: inland };
    let line: string | null = null;
    let best = Infinity;
    for (const [l, { m }] of near) {
      if (m >= best) continue;
      best = m;
      line = this.lines[l]!.tag.name || "(unnamed line)";
    }
    return { kind: "uncurated", line };
  }

  /**
   * A lane cut into pieces at its inland runs (the lane itself, whole, when it has none), and what
   * each of its samples is on. Cuts fall on the lane's own vertices, a run widened to the vertices
   * around it: no new point appears for a port to snap to, so a route to the sea side of a cut is
   * the same as before (Amsterdam, Hamburg, St Petersburg).
   */
  split(
    coords: ArrayLike<number>,
    deadEnds?: { start: boolean; end: boolean },
  ): { pieces: LanePiece[]; water: Water[] } {
    const { points, vertex } = samplePoints(coords);
    const water: Water[] = [];
    for (let k = 0; k < points.length; k += 2) water.push(this.classify(points[k]!, points[k + 1]!));
    const runs: Run[] = [];
    for (const r of inlandRuns(water, points, deadEnds)) {
      let from = r.from;
      let to = r.to;
      while (!vertex[from]) from--;
      while (!vertex[to]) to++;
      const prev = runs[runs.length - 1];
      if (prev && from <= prev.to) prev.to = to;
      else runs.push({ from, to, stretch: r.stretch });
    }
    if (runs.length === 0) {
      return { pieces: [{ coords: Float64Array.from(coords), stretch: -1, metres: new Map() }], water };
    }
    const pieces: LanePiece[] = [];
    const piece = (from: number, to: number, stretch: number) => {
      const c: number[] = [points[from * 2]!, points[from * 2 + 1]!];
      const metres = new Map<number, number>();
      for (let k = from + 1; k <= to; k++) {
        if (vertex[k]) c.push(points[k * 2]!, points[k * 2 + 1]!);
        if (stretch < 0) continue;
        const w = water[k - 1]!;
        const s = w.kind === "inland" ? w.stretch : stretch;
        const m = haversineM(points[k * 2 - 2]!, points[k * 2 - 1]!, points[k * 2]!, points[k * 2 + 1]!);
        metres.set(s, (metres.get(s) ?? 0) + m);
      }
      pieces.push({ coords: Float64Array.from(c), stretch, metres });
    };
    let at = 0;
    for (const r of runs) {
      if (r.from > at) piece(at, r.from, -1);
      piece(r.from, r.to, r.stretch);
      at = r.to;
    }
    const last = points.length / 2 - 1;
    if (at < last) piece(at, last, -1);
    return { pieces, water };
  }
}

/** The point's projection on AB (a local plane) falls between the ends, give or take END_M. */
function withinEnds(sh: StretchShape, lat: number, lng: number): boolean {
  if (sh.ab === 0) return true;
  const bx = (sh.b[1] - sh.a[1]) * sh.perLng;
  const by = (sh.b[0] - sh.a[0]) * sh.perLat;
  const along = ((lng - sh.a[1]) * sh.perLng * bx + (lat - sh.a[0]) * sh.perLat * by) / sh.ab;
  return along >= -END_M && along <= sh.ab + END_M;
}

/** Great-circle samples every SAMPLE_M; `vertex[k]` marks the lane's own vertices. */
function samplePoints(coords: ArrayLike<number>): { points: Float64Array; vertex: boolean[] } {
  const out: number[] = [coords[0]!, coords[1]!];
  const vertex = [true];
  for (let i = 2; i < coords.length; i += 2) {
    const seg = densify([coords[i - 2]!, coords[i - 1]!, coords[i]!, coords[i + 1]!], SAMPLE_M);
    for (let k = 2; k < seg.length; k += 2) {
      out.push(seg[k]!, seg[k + 1]!);
      vertex.push(k === seg.length - 2);
    }
  }
  return { points: Float64Array.from(out), vertex };
}

interface Run {
  /** First and last sample of the run. */
  from: number;
  to: number;
  /** The stretch most of its samples are on. */
  stretch: number;
}

/**
 * Runs of inland samples, as sample index ranges. Two runs join when the gap between them is
 * short or holds only uncurated inland water (a lane leaving the Volga's line across a reservoir
 * is still on the Volga); runs shorter than MIN_RUN_M are dropped, and so are runs that join
 * seagoing inland water to the sea or other seagoing water (the Sea Scheldt from Antwerp to the
 * Brussels sea canal: ships bound for Brussels pass it); a run this close to a lane end reaches it,
 * and a run up to SPUR_M long into a dead end (`deadEnds`: the lane's end nodes have no other lane)
 * is dropped.
 */
function inlandRuns(
  water: readonly Water[],
  points: ArrayLike<number>,
  deadEnds: { start: boolean; end: boolean } = { start: false, end: false },
): Run[] {
  const n = water.length;
  const along = new Float64Array(n);
  for (let k = 1; k < n; k++) {
    along[k] =
      along[k - 1]! + haversineM(points[k * 2 - 2]!, points[k * 2 - 1]!, points[k * 2]!, points[k * 2 + 1]!);
  }
  const raw: Array<{ from: number; to: number }> = [];
  for (let k = 0; k < n; k++) {
    if (water[k]!.kind !== "inland") continue;
    const prev = raw[raw.length - 1];
    if (prev && prev.to === k - 1) prev.to = k;
    else raw.push({ from: k, to: k });
  }
  const joined: Array<{ from: number; to: number }> = [];
  for (const r of raw) {
    const prev = joined[joined.length - 1];
    const gapIsInland = () => {
      for (let k = prev!.to + 1; k < r.from; k++) if (water[k]!.kind !== "uncurated") return false;
      return true;
    };
    if (prev && (along[r.from]! - along[prev.to]! <= JOIN_M || gapIsInland())) prev.to = r.to;
    else joined.push({ ...r });
  }
  const runs: Run[] = [];
  for (const r of joined) {
    if (along[r.to]! - along[r.from]! < MIN_RUN_M) continue;
    const before = water[r.from - 1]?.kind;
    const after = water[r.to + 1]?.kind;
    const open = (k: string | undefined) => k === "seagoing" || k === "sea";
    if ((before === "seagoing" || after === "seagoing") && open(before) && open(after)) continue;
    if (along[r.from]! <= JOIN_M) r.from = 0;
    if (along[n - 1]! - along[r.to]! <= JOIN_M) r.to = n - 1;
    const spur = (r.from === 0 && deadEnds.start) || (r.to === n - 1 && deadEnds.end);
    if (spur && along[r.to]! - along[r.from]! <= SPUR_M) continue;
    const count = new Map<number, number>();
    for (let k = r.from; k <= r.to; k++) {
      const w = water[k]!;
      if (w.kind === "inland") count.set(w.stretch, (count.get(w.stretch) ?? 0) + 1);
    }
    const stretch = [...count].sort((a, b) => b[1] - a[1])[0]![0];
    runs.push({ ...r, stretch });
  }
  return runs;
}
