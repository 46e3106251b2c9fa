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
  const V = vLat.length;
  const lineOf = new Int32Array(V);
  for (let li = 0; li < lines.length; li++) lineOf.fill(li, start[li]!, start[li + 1]!);
  // Points: the vertices, then the crossing / snap points noding adds.
  const xLat: number[] = [];
  const xLng: number[] = [];
  const addPoint = (lat: number, lng: number): number => {
    xLat.push(lat);
    xLng.push(lng);
    return V + xLat.length - 1;
  };
  const isNode = new Uint8Array(V);
  const attached = new Uint8Array(V);
  const joins: Array<[number, number]> = [];
  const cuts = new Map<number, Cut[]>();
  const cut = (seg: number, t: number, point: number) => {
    const li = lineOf[seg]!;
    const list = cuts.get(li);
    if (list) list.push({ seg, t, point });
    else cuts.set(li, [{ seg, t, point }]);
  };
  const stats: NodingStats = {
    lines: lines.length,
    sharedVertexJoins: 0,
    crossings: 0,
    endSnaps: 0,
    loopsDropped: 0,
    parallelDropped: 0,
  };

  // Vertices shared exactly (~1 m) by two lines, or twice by one, are junctions.
  const seen = new Map<number, number>();
  for (let v = 0; v < V; v++) {
    const key = Math.round((vLat[v]! + 90) * 1e5) * 4e7 + Math.round((vLng[v]! + 180) * 1e5);
    const first = seen.get(key);
    if (first === undefined) seen.set(key, v);
    else {
      joins.push([v, first]);
      isNode[v] = 1;
      isNode[first] = 1;
      if (lineOf[v] !== lineOf[first]) {
        attached[v] = 1;
        attached[first] = 1;
      }
      stats.sharedVertexJoins++;
    }
  }
  seen.clear();

  // Crossings: segments of different lines (or far apart on one) that intersect.
  const index = new SegmentIndex(vLat, vLng, segmentsOf(start));
  index.pairs((a, b) => {
    if (lineOf[a] === lineOf[b] && b - a <= 1) return;
    const hit = segmentIntersection(
      vLat[a]!,
      vLng[a]!,
      vLat[a + 1]!,
      vLng[a + 1]!,
      vLat[b]!,
      vLng[b]!,
      vLat[b + 1]!,
      vLng[b + 1]!,
    );
    if (!hit) return;
    const [t, u] = hit;
    const tEnd = t <= EPS ? a : t >= 1 - EPS ? a + 1 : -1;
    const uEnd = u <= EPS ? b : u >= 1 - EPS ? b + 1 : -1;
    const other = lineOf[a] !== lineOf[b];
    if (tEnd < 0 && uEnd < 0) {
      const p = addPoint(vLat[a]! + t * (vLat[a + 1]! - vLat[a]!), vLng[a]! + t * (vLng[a + 1]! - vLng[a]!));
      cut(a, t, p);
      cut(b, u, p);
      stats.crossings++;
    } else if (tEnd >= 0 && uEnd >= 0) {
      if (tEnd !== uEnd && (vLat[tEnd] !== vLat[uEnd] || vLng[tEnd] !== vLng[uEnd])) {
        joins.push([tEnd, uEnd]);
        isNode[tEnd] = 1;
        isNode[uEnd] = 1;
        if (other) attached[tEnd] = attached[uEnd] = 1;
      }
    } else if (tEnd >= 0) {
      // A vertex of a's line lies on segment b.
      cut(b, u, tEnd);
      isNode[tEnd] = 1;
      if (other) attached[tEnd] = 1;
    } else {
      cut(a, t, uEnd);
      isNode[uEnd] = 1;
      if (other) attached[uEnd] = 1;
    }
  });

  // Free line ends: joined to the nearest point of another line within the tolerance.
  for (let li = 0; li < lines.length; li++) {
    const tol = tolerance[lines[li]!.tag.source] ?? tolerance.ne!;
    for (const end of [start[li]!, start[li + 1]! - 1]) {
      isNode[end] = 1;
      if (attached[end]) continue;
      const p = index.nearest(vLat[end]!, vLng[end]!, tol, (s) => lineOf[s] !== li);
      if (!p) continue;
      stats.endSnaps++;
      attached[end] = 1;
      if (p.t <= EPS || p.t >= 1 - EPS) {
        const w = p.t <= EPS ? p.seg : p.seg + 1;
        joins.push([end, w]);
        isNode[w] = 1;
        attached[w] = 1;
      } else {
        const q = addPoint(p.lat, p.lng);
        cut(p.seg, p.t, q);
        // Joined with the snap point as representative: the node sits on the line joined.
        joins.push([end, q]);
      }
    }
  }

  const P = V + xLat.length;
  const uf = new UnionFind(P);
  for (const [a, b] of joins) uf.union(a, b);
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
    const list = (cuts.get(li) ?? []).sort((x, y) => x.seg - y.seg || x.t - y.t);
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
  return { net: compactNodes(net), stats };
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
