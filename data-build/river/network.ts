/**
 * Edits of a noded river network: merging the pieces a source split a river into, densifying long
 * edges, and cutting edges at given points (navigable limits, ports, gateways) so those points
 * become nodes.
 */
import { polylineM } from "../../common/geo.ts";
import { tagKey } from "./inputs.ts";
import { compactNodes, type NetEdge, type RiverNet } from "./noding.ts";
import { SegmentIndex } from "./segments.ts";

/**
 * No edge is longer than this after densifying: a node at most 4 km along the water from any
 * point of it (ports, gateways and limits get their own nodes anyway), while the graph stays
 * near 173,000 nodes (above the spec's 143,070) for the router's landmark table and search times.
 */
export const MAX_EDGE_M = 8_000;
/** A cut this close to a node or to the previous cut on its edge reuses that node. */
export const REUSE_M = 50;

/** Flat [lat, lng, ...] of an edge from its `from` node to its `to` node. */
export function edgePolyline(net: RiverNet, e: NetEdge): number[] {
  return [net.lat[e.from]!, net.lng[e.from]!, ...e.inner, net.lat[e.to]!, net.lng[e.to]!];
}

/**
 * Merges the two edges at every node that joins exactly two edges of the same water (same source,
 * kind and name) unless the node is kept: what is left are junctions, ends and name changes.
 */
export function contractDegreeTwo(net: RiverNet, keep: (node: number) => boolean = () => false): RiverNet {
  const at: number[][] = net.lat.map(() => []);
  net.edges.forEach((e, i) => {
    at[e.from]!.push(i);
    at[e.to]!.push(i);
  });
  const dead = new Uint8Array(net.edges.length);
  for (let n = 0; n < at.length; n++) {
    const list = at[n]!;
    if (list.length !== 2 || list[0] === list[1] || keep(n)) continue;
    const e1 = net.edges[list[0]!]!;
    const e2 = net.edges[list[1]!]!;
    if (tagKey(e1.tag) !== tagKey(e2.tag)) continue;
    const a = e1.from === n ? e1.to : e1.from;
    const b = e2.from === n ? e2.to : e2.from;
    if (a === b) continue;
    // e1 oriented a -> n, then n, then e2 oriented n -> b.
    const inner1 = e1.to === n ? e1.inner : reversePoints(e1.inner);
    const inner2 = e2.from === n ? e2.inner : reversePoints(e2.inner);
    e1.from = a;
    e1.to = b;
    e1.inner = [...inner1, net.lat[n]!, net.lng[n]!, ...inner2];
    e1.metres += e2.metres;
    dead[list[1]!] = 1;
    const atB = at[b]!;
    atB[atB.indexOf(list[1]!)] = list[0]!;
    list.length = 0;
  }
  return compactNodes({ ...net, edges: net.edges.filter((_, i) => !dead[i]) });
}

export function reversePoints(flat: number[]): number[] {
  const out: number[] = [];
  for (let i = flat.length - 2; i >= 0; i -= 2) out.push(flat[i]!, flat[i + 1]!);
  return out;
}

/**
 * Splits every edge longer than maxM into equal pieces (new nodes on the line). Returns how many
 * nodes it added.
 */
export function densifyNet(net: RiverNet, maxM = MAX_EDGE_M): number {
  const before = net.lat.length;
  const out: NetEdge[] = [];
  for (const e of net.edges) {
    if (e.metres <= maxM) {
      out.push(e);
      continue;
    }
    const pieces = Math.ceil(e.metres / maxM);
    const pts = edgePolyline(net, e);
    const total = polylineM(pts);
    const marks: Array<{ seg: number; t: number }> = [];
    let along = 0;
    let k = 1;
    for (let i = 0; i + 3 < pts.length && k < pieces; i += 2) {
      const seg = polylineM(pts.slice(i, i + 4));
      while (k < pieces && along + seg >= (total * k) / pieces) {
        marks.push({ seg: i / 2, t: seg === 0 ? 0 : ((total * k) / pieces - along) / seg });
        k++;
      }
      along += seg;
    }
    out.push(...splitEdge(net, e, marks).edges);
  }
  net.edges = out;
  return net.lat.length - before;
}

/**
 * Splits edge `e` at the given marks (segment index along its polyline, fraction along that
 * segment; sorted). Adds a node per mark, or reuses the edge end / previous mark within REUSE_M.
 * Returns the pieces and the node of each mark.
 */
export function splitEdge(
  net: RiverNet,
  e: NetEdge,
  marks: Array<{ seg: number; t: number }>,
): { edges: NetEdge[]; nodes: number[] } {
  const pts = edgePolyline(net, e);
  const last = pts.length / 2 - 1;
  const nodes: number[] = [];
  const edges: NetEdge[] = [];
  let from = e.from;
  let cur: number[] = [pts[0]!, pts[1]!];
  let vertex = 1;
  const close = (to: number) => {
    const inner = cur.slice(2);
    const metres = polylineM([...cur, net.lat[to]!, net.lng[to]!]);
    edges.push({ from, to, inner, metres, tag: e.tag });
    from = to;
    cur = [net.lat[to]!, net.lng[to]!];
  };
  for (const { seg, t } of marks) {
    while (vertex <= seg && vertex < last) {
      cur.push(pts[vertex * 2]!, pts[vertex * 2 + 1]!);
      vertex++;
    }
    const aLat = pts[seg * 2]!;
    const aLng = pts[seg * 2 + 1]!;
    const lat = aLat + t * (pts[seg * 2 + 2]! - aLat);
    const lng = aLng + t * (pts[seg * 2 + 3]! - aLng);
    const sinceLast = polylineM([...cur, lat, lng]);
    const rest = polylineM([lat, lng, ...pts.slice((seg + 1) * 2)]);
    if (sinceLast <= REUSE_M) {
      nodes.push(from);
      continue;
    }
    if (rest <= REUSE_M) {
      nodes.push(e.to);
      continue;
    }
    const n = net.lat.length;
    net.lat.push(lat);
    net.lng.push(lng);
    close(n);
    nodes.push(n);
  }
  while (vertex < last) {
    cur.push(pts[vertex * 2]!, pts[vertex * 2 + 1]!);
    vertex++;
  }
  close(e.to);
  return { edges, nodes };
}

/** Segment index over the edges' polylines: the nearest network point to a place. */
export class NetIndex {
  readonly index: SegmentIndex;
  /** Polyline vertex -> edge. */
  readonly edgeOf: Int32Array;
  /** First polyline vertex of each edge. */
  readonly start: Int32Array;

  constructor(readonly net: RiverNet) {
    let total = 0;
    for (const e of net.edges) total += e.inner.length / 2 + 2;
    const lat = new Float64Array(total);
    const lng = new Float64Array(total);
    this.edgeOf = new Int32Array(total);
    this.start = new Int32Array(net.edges.length + 1);
    const segs: number[] = [];
    let v = 0;
    net.edges.forEach((e, i) => {
      this.start[i] = v;
      const pts = edgePolyline(net, e);
      for (let k = 0; k < pts.length; k += 2, v++) {
        lat[v] = pts[k]!;
        lng[v] = pts[k + 1]!;
        this.edgeOf[v] = i;
        if (k + 2 < pts.length) segs.push(v);
      }
    });
    this.start[net.edges.length] = v;
    this.index = new SegmentIndex(lat, lng, segs);
  }

  /** Nearest point of an accepted edge within maxM: edge, segment within it, fraction, metres. */
  nearest(lat: number, lng: number, maxM: number, accept: (edge: number) => boolean = () => true) {
    const p = this.index.nearest(lat, lng, maxM, (s) => accept(this.edgeOf[s]!));
    if (!p) return null;
    const edge = this.edgeOf[p.seg]!;
    return { edge, seg: p.seg - this.start[edge]!, t: p.t, lat: p.lat, lng: p.lng, m: p.m };
  }
}

export interface CutRequest {
  edge: number;
  seg: number;
  t: number;
}

/**
 * Cuts edges at the requested points in one pass (indexes stay valid while requests are
 * gathered); returns the node each request became.
 */
export function cutEdges(net: RiverNet, requests: CutRequest[]): number[] {
  const byEdge = new Map<number, number[]>();
  requests.forEach((r, i) => {
    const list = byEdge.get(r.edge);
    if (list) list.push(i);
    else byEdge.set(r.edge, [i]);
  });
  const out = new Array<number>(requests.length);
  const replaced = new Map<number, NetEdge[]>();
  for (const [edge, ids] of byEdge) {
    ids.sort((a, b) => requests[a]!.seg - requests[b]!.seg || requests[a]!.t - requests[b]!.t);
    const { edges, nodes } = splitEdge(
      net,
      net.edges[edge]!,
      ids.map((i) => requests[i]!),
    );
    ids.forEach((i, k) => {
      out[i] = nodes[k]!;
    });
    replaced.set(edge, edges);
  }
  net.edges = net.edges.flatMap((e, i) => replaced.get(i) ?? [e]);
  return out;
}
