/**
 * ALT landmark tables for a transport graph, computed once by the data build and stored in the
 * graph artifact (sections lm_meta, lm_node, lm_dist: docs/graph-format.md) instead of at every
 * router load. Same algorithm, same heap order and the same f64 sums as the router's
 * `Landmarks::select` (router-wasm/src/landmarks.rs), so the tables are bit-identical to what the
 * router used to compute for itself.
 *
 * Closures: distances are edge lengths with the `baseClosed` gates closed. Closing more gates only
 * lengthens routes, so |d(L,t) - d(L,v)| stays a lower bound for every query whose closed mask
 * contains `baseClosed`; the router uses the table only for those (other queries fall back to the
 * great-circle bound). A time query divides the bound by the fastest speed it may use.
 */
import { bytesOf, fnv1a64 } from "../../formats/container.ts";

export const LANDMARK_COUNT = 24;

/** The CSR graph sections the tables depend on (and are tied to by checksum). */
export interface LandmarkGraph {
  arcStart: Uint32Array;
  arcHead: Uint32Array;
  arcEdge: Uint32Array;
  edgeLen: Float64Array;
  edgeGate: Uint8Array;
}

export interface LandmarkTable {
  count: number;
  baseClosed: number;
  /** FNV-1a 64 of arc_start, arc_head, arc_edge, edge_len, edge_gate bytes, concatenated. */
  checksum: bigint;
  nodes: Uint32Array;
  /** dist[v * count + k] = metres from landmark k to node v (Infinity if unreachable). */
  dist: Float64Array;
}

export function topologyChecksum(g: LandmarkGraph): bigint {
  const parts = [g.arcStart, g.arcHead, g.arcEdge, g.edgeLen, g.edgeGate].map(bytesOf);
  const all = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.length;
  }
  return fnv1a64(all);
}

/** Binary min-heap on (distance, node), the order of Rust's BinaryHeap<Reverse<(bits, node)>>. */
class Heap {
  private d: number[] = [];
  private v: number[] = [];
  get size(): number {
    return this.d.length;
  }
  private less(i: number, j: number): boolean {
    const a = this.d[i]!;
    const b = this.d[j]!;
    return a < b || (a === b && this.v[i]! < this.v[j]!);
  }
  private swap(i: number, j: number): void {
    [this.d[i], this.d[j]] = [this.d[j]!, this.d[i]!];
    [this.v[i], this.v[j]] = [this.v[j]!, this.v[i]!];
  }
  push(d: number, v: number): void {
    this.d.push(d);
    this.v.push(v);
    let i = this.d.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.less(i, p)) break;
      this.swap(i, p);
      i = p;
    }
  }
  /** Pops the minimum into `out` = [d, v]. */
  pop(out: [number, number]): void {
    out[0] = this.d[0]!;
    out[1] = this.v[0]!;
    const lastD = this.d.pop()!;
    const lastV = this.v.pop()!;
    if (this.d.length === 0) return;
    this.d[0] = lastD;
    this.v[0] = lastV;
    let i = 0;
    const n = this.d.length;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < n && this.less(l, m)) m = l;
      if (r < n && this.less(r, m)) m = r;
      if (m === i) break;
      this.swap(i, m);
      i = m;
    }
  }
}

/** Single-source Dijkstra over the edges whose gate is not in `closed` (router's `dijkstra`). */
export function dijkstra(g: LandmarkGraph, source: number, closed: number): Float64Array {
  const n = g.arcStart.length - 1;
  const dist = new Float64Array(n).fill(Infinity);
  const heap = new Heap();
  const top: [number, number] = [0, 0];
  dist[source] = 0;
  heap.push(0, source);
  while (heap.size > 0) {
    heap.pop(top);
    const [du, u] = top;
    if (du > dist[u]!) continue;
    for (let a = g.arcStart[u]!; a < g.arcStart[u + 1]!; a++) {
      const e = g.arcEdge[a]! >>> 1;
      const gate = g.edgeGate[e]!;
      if (gate !== 0 && (closed & (1 << (gate - 1))) !== 0) continue;
      const v = g.arcHead[a]!;
      const dv = du + g.edgeLen[e]!;
      if (dv < dist[v]!) {
        dist[v] = dv;
        heap.push(dv, v);
      }
    }
  }
  return dist;
}

/** Farthest-first landmark selection (router's `Landmarks::select`). */
export function selectLandmarks(g: LandmarkGraph, baseClosed: number, count = LANDMARK_COUNT): LandmarkTable {
  const n = g.arcStart.length - 1;
  const k = Math.min(count, n);
  const nodes: number[] = [];
  const tables: Float64Array[] = [];
  const nearest = new Float64Array(n).fill(Infinity);
  const farthest = (d: Float64Array): number => {
    let best = 0;
    let bestD = -1;
    for (let v = 0; v < d.length; v++) {
      const x = d[v]!;
      if (Number.isFinite(x) && x > bestD) {
        best = v;
        bestD = x;
      }
    }
    return best;
  };
  if (n > 0) {
    let next = farthest(dijkstra(g, 0, baseClosed));
    while (nodes.length < k) {
      const d = dijkstra(g, next, baseClosed);
      for (let v = 0; v < n; v++) nearest[v] = Math.min(nearest[v]!, d[v]!);
      nodes.push(next);
      tables.push(d);
      next = farthest(nearest);
    }
  }
  const dist = new Float64Array(n * k);
  tables.forEach((t, j) => {
    for (let v = 0; v < n; v++) dist[v * k + j] = t[v]!;
  });
  return {
    count: k,
    baseClosed: baseClosed >>> 0,
    checksum: topologyChecksum(g),
    nodes: Uint32Array.from(nodes),
    dist,
  };
}

/** The three landmark sections of a graph artifact. */
export function landmarkSections(t: LandmarkTable): Array<{ name: string; bytes: Uint8Array }> {
  const meta = new Uint8Array(16);
  const dv = new DataView(meta.buffer);
  dv.setUint32(0, t.count, true);
  dv.setUint32(4, t.baseClosed, true);
  dv.setBigUint64(8, t.checksum, true);
  return [
    { name: "lm_meta", bytes: meta },
    { name: "lm_node", bytes: bytesOf(t.nodes) },
    { name: "lm_dist", bytes: bytesOf(t.dist) },
  ];
}
