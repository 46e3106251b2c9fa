/**
 * Lines -> a noded network. Nodes are line ends, vertices shared by several lines, crossings
 * (two lines that cross without a shared vertex get a node at the crossing on both) and the
 * points where a free line end is snapped onto another line: Natural Earth, its regional files and
 * WDB II were digitised separately, so a tributary often stops short of, or overshoots, the river
 * it joins. Other vertices stay edge geometry.
 */
import { polylineM } from "../../common/geo.ts";
import { UnionFind } from "../../common/union-find.ts";
import type { LineTag, SourceLine } from "./inputs.ts";
import { SegmentIndex, segmentIntersection, segmentsOf, vertexArrays } from "./segments.ts";

/** A free line end this close to another line joins it (NE regional files vs the global one). */
export const JOIN_M = 1_000;
/** WDB II run ends (clipped DEDUPE_M from a Natural Earth river) join within this distance. */
export const WDB_JOIN_M = 2_500;
/** Hand-digitised canal ends (positions ~1-5 km, README) join the water they lead to within this. */
export const CANAL_JOIN_M = 5_000;

const EPS = 1e-9;

export interface NetEdge {
  from: number;
  to: number;
  /** Intermediate points, flat [lat, lng, ...], from `from` towards `to`. */
  inner: number[];
  metres: number;
  tag: LineTag;
}

/** A mutable river network: node coordinates and edges (each traversable both ways). */
export interface RiverNet {
  lat: number[];
  lng: number[];
  edges: NetEdge[];
}

export interface NodingStats {
  lines: number;
  sharedVertexJoins: number;
  crossings: number;
  endSnaps: number;
  loopsDropped: number;
  parallelDropped: number;
}

interface Cut {
  /** First vertex of the cut segment (global vertex id). */
  seg: number;
  t: number;
  point: number;
}

/** What noding collects: the source vertices, the points it adds, and the joins and cuts between them. */
class NodingState {
  readonly lineOf: Int32Array;
  readonly V: number;
  /** Points beyond the vertices: the crossing and snap points noding adds. */
  readonly xLat: number[] = [];
  readonly xLng: number[] = [];
  readonly isNode: Uint8Array;
  readonly attached: Uint8Array;
  readonly joins: Array<[number, number]> = [];
  readonly cuts = new Map<number, Cut[]>();

  constructor(
    readonly vLat: Float64Array,
    readonly vLng: Float64Array,
    readonly start: Int32Array,
    lineCount: number,
    readonly stats: NodingStats,
  ) {
    this.V = vLat.length;
    this.lineOf = new Int32Array(this.V);
    for (let li = 0; li < lineCount; li++) this.lineOf.fill(li, start[li]!, start[li + 1]!);
    this.isNode = new Uint8Array(this.V);
    this.attached = new Uint8Array(this.V);
  }

  addPoint(lat: number, lng: number): number {
    this.xLat.push(lat);
    this.xLng.push(lng);
    return this.V + this.xLat.length - 1;
  }

  cut(seg: number, t: number, point: number): void {
    const li = this.lineOf[seg]!;
    const list = this.cuts.get(li);
    if (list) list.push({ seg, t, point });
    else this.cuts.set(li, [{ seg, t, point }]);
  }
}

/** Vertices shared exactly (~1 m) by two lines, or twice by one, are junctions. */
function joinSharedVertices(st: NodingState): void {
  const seen = new Map<number, number>();
  for (let v = 0; v < st.V; v++) {
    const key = Math.round((st.vLat[v]! + 90) * 1e5) * 4e7 + Math.round((st.vLng[v]! + 180) * 1e5);
    const first = seen.get(key);
    if (first === undefined) seen.set(key, v);
    else {
      st.joins.push([v, first]);
      st.isNode[v] = 1;
      st.isNode[first] = 1;
      if (st.lineOf[v] !== st.lineOf[first]) {
        st.attached[v] = 1;
        st.attached[first] = 1;
      }
      st.stats.sharedVertexJoins++;
    }
  }
  seen.clear();
}

/** Crossings: segments of different lines (or far apart on one) that intersect. */
function nodeCrossings(st: NodingState, index: SegmentIndex): void {
  index.pairs((a, b) => {
    if (st.lineOf[a] === st.lineOf[b] && b - a <= 1) return;
    const hit = segmentIntersection(
      st.vLat[a]!,
      st.vLng[a]!,
      st.vLat[a + 1]!,
      st.vLng[a + 1]!,
      st.vLat[b]!,
      st.vLng[b]!,
      st.vLat[b + 1]!,
      st.vLng[b + 1]!,
    );
    if (!hit) return;
    const [t, u] = hit;
    const tEnd = t <= EPS ? a : t >= 1 - EPS ? a + 1 : -1;
    const uEnd = u <= EPS ? b : u >= 1 - EPS ? b + 1 : -1;
    const other = st.lineOf[a] !== st.lineOf[b];
    if (tEnd < 0 && uEnd < 0) {
      const p = st.addPoint(
        st.vLat[a]! + t * (st.vLat[a + 1]! - st.vLat[a]!),
        st.vLng[a]! + t * (st.vLng[a + 1]! - st.vLng[a]!),
      );
      st.cut(a, t, p);
      st.cut(b, u, p);
      st.stats.crossings++;
    } else if (tEnd >= 0 && uEnd >= 0) {
      if (tEnd !== uEnd && (st.vLat[tEnd] !== st.vLat[uEnd] || st.vLng[tEnd] !== st.vLng[uEnd])) {
        st.joins.push([tEnd, uEnd]);
        st.isNode[tEnd] = 1;
        st.isNode[uEnd] = 1;
        if (other) st.attached[tEnd] = st.attached[uEnd] = 1;
      }
    } else if (tEnd >= 0) {
      // A vertex of a's line lies on segment b.
      st.cut(b, u, tEnd);
      st.isNode[tEnd] = 1;
      if (other) st.attached[tEnd] = 1;
    } else {
      st.cut(a, t, uEnd);
      st.isNode[uEnd] = 1;
      if (other) st.attached[uEnd] = 1;
    }
  });
}

/** Free line ends: joined to the nearest point of another line within the tolerance. */
function snapFreeEnds(
  st: NodingState,
  index: SegmentIndex,
  lines: SourceLine[],
  tolerance: Record<string, number>,
): void {
  for (let li = 0; li < lines.length; li++) {
    const tol = tolerance[lines[li]!.tag.source] ?? tolerance.ne!;
    for (const end of [st.start[li]!, st.start[li + 1]! - 1]) {
      st.isNode[end] = 1;
      if (st.attached[end]) continue;
      const p = index.nearest(st.vLat[end]!, st.vLng[end]!, tol, (s) => st.lineOf[s] !== li);
      if (!p) continue;
      st.stats.endSnaps++;
      st.attached[end] = 1;
      if (p.t <= EPS || p.t >= 1 - EPS) {
        const w = p.t <= EPS ? p.seg : p.seg + 1;
        st.joins.push([end, w]);
        st.isNode[w] = 1;
        st.attached[w] = 1;
      } else {
        const q = st.addPoint(p.lat, p.lng);
        st.cut(p.seg, p.t, q);
        // Joined with the snap point as representative: the node sits on the line joined.
        st.joins.push([end, q]);
      }
    }
  }
}

/** The network: joined points become nodes, each line is cut into edges at its nodes. */
function edgesOf(st: NodingState, lines: SourceLine[]): RiverNet {
  const { vLat, vLng, xLat, xLng, V, start, isNode, stats } = st;
  const P = V + xLat.length;
  const uf = new UnionFind(P);
  for (const [a, b] of st.joins) uf.union(a, b);
  const latOf = (p: number) => (p < V ? vLat[p]! : xLat[p - V]!);
  const lngOf = (p: number) => (p < V ? vLng[p]! : xLng[p - V]!);
  const net: RiverNet = { lat: [], lng: [], edges: [] };
  const nodeOfRoot = new Map<number, number>();
  const nodeOf = (p: number): number => {
    const root = uf.find(p);
    let id = nodeOfRoot.get(root);
    if (id === undefined) {
      id = net.lat.length;
      nodeOfRoot.set(root, id);
      net.lat.push(latOf(root));
      net.lng.push(lngOf(root));
    }
    return id;
  };
  const parallel = new Map<string, number[]>();
  lines.forEach((line, li) => {
    const list = (st.cuts.get(li) ?? []).sort((x, y) => x.seg - y.seg || x.t - y.t);
    const seq: number[] = [];
    let c = 0;
    for (let v = start[li]!; v < start[li + 1]!; v++) {
      seq.push(v);
      while (c < list.length && list[c]!.seg === v) {
        const p = list[c++]!.point;
        // A vertex lying on both segments around another line's vertex cuts it twice.
        if (p !== seq[seq.length - 1]) seq.push(p);
      }
    }
    let from = nodeOf(seq[0]!);
    let inner: number[] = [];
    for (let i = 1; i < seq.length; i++) {
      const p = seq[i]!;
      if (p < V && !isNode[p]) {
        inner.push(vLat[p]!, vLng[p]!);
        continue;
      }
      const to = nodeOf(p);
      const metres = polylineM([net.lat[from]!, net.lng[from]!, ...inner, net.lat[to]!, net.lng[to]!]);
      const key = from < to ? `${from}:${to}` : `${to}:${from}`;
      const same = parallel.get(key);
      if (from === to) stats.loopsDropped++;
      else if (same?.some((m) => Math.abs(m - metres) < 1)) stats.parallelDropped++;
      else {
        parallel.set(key, [...(same ?? []), metres]);
        net.edges.push({ from, to, inner, metres, tag: line.tag });
      }
      from = to;
      inner = [];
    }
  });
  return net;
}

export function nodeLines(
  lines: SourceLine[],
  opts: { joinM?: number; wdbJoinM?: number; canalJoinM?: number } = {},
): { net: RiverNet; stats: NodingStats } {
  const tolerance = {
    ne: opts.joinM ?? JOIN_M,
    wdb: opts.wdbJoinM ?? WDB_JOIN_M,
    canal: opts.canalJoinM ?? CANAL_JOIN_M,
  } as Record<string, number>;
  const { lat: vLat, lng: vLng, start } = vertexArrays(lines);
  const stats: NodingStats = {
    lines: lines.length,
    sharedVertexJoins: 0,
    crossings: 0,
    endSnaps: 0,
    loopsDropped: 0,
    parallelDropped: 0,
  };
  const st = new NodingState(vLat, vLng, start, lines.length, stats);
  joinSharedVertices(st);
  const index = new SegmentIndex(vLat, vLng, segmentsOf(start));
  nodeCrossings(st, index);
  snapFreeEnds(st, index, lines, tolerance);
  return { net: compactNodes(edgesOf(st, lines)), stats };
}

/** Renumbers away nodes no edge uses. */
export function compactNodes(net: RiverNet): RiverNet {
  const used = new Int32Array(net.lat.length).fill(-1);
  const out: RiverNet = { lat: [], lng: [], edges: net.edges };
  const id = (n: number) => {
    if (used[n] === -1) {
      used[n] = out.lat.length;
      out.lat.push(net.lat[n]!);
      out.lng.push(net.lng[n]!);
    }
    return used[n]!;
  };
  for (const e of net.edges) {
    e.from = id(e.from);
    e.to = id(e.to);
  }
  return out;
}
