/** Shortest paths on a river network with a caller-chosen edge cost (null = not usable). */
import type { RiverNet } from "./noding.ts";

/** CSR adjacency: arcs of node n are arcStart[n] .. arcStart[n + 1]; arcEdge = edge << 1 | reversed. */
export interface Adjacency {
  arcStart: Int32Array;
  arcEdge: Int32Array;
}

export function adjacency(net: RiverNet): Adjacency {
  const n = net.lat.length;
  const arcStart = new Int32Array(n + 1);
  for (const e of net.edges) {
    arcStart[e.from + 1]!++;
    arcStart[e.to + 1]!++;
  }
  for (let i = 0; i < n; i++) arcStart[i + 1]! += arcStart[i]!;
  const fill = arcStart.slice(0, n);
  const arcEdge = new Int32Array(net.edges.length * 2);
  net.edges.forEach((e, i) => {
    arcEdge[fill[e.from]!++] = i << 1;
    arcEdge[fill[e.to]!++] = (i << 1) | 1;
  });
  return { arcStart, arcEdge };
}

export interface PathStep {
  edge: number;
  /** True when the path runs the edge from `to` to `from`. */
  reversed: boolean;
}

/** Dijkstra from `source` to `target`; the steps in travel order, or null when unreachable. */
export function shortestPath(
  net: RiverNet,
  adj: Adjacency,
  source: number,
  target: number,
  cost: (edge: number) => number | null,
): PathStep[] | null {
  if (source === target) return [];
  const dist = new Map<number, number>([[source, 0]]);
  const via = new Map<number, number>();
  const heap = new MinHeap();
  heap.push(0, source);
  while (heap.size > 0) {
    const [d, u] = heap.pop();
    if (d > dist.get(u)!) continue;
    if (u === target) break;
    for (let a = adj.arcStart[u]!; a < adj.arcStart[u + 1]!; a++) {
      const arc = adj.arcEdge[a]!;
      const edge = arc >> 1;
      const c = cost(edge);
      if (c === null) continue;
      const e = net.edges[edge]!;
      const v = arc & 1 ? e.from : e.to;
      const dv = d + c;
      if (dv < (dist.get(v) ?? Infinity)) {
        dist.set(v, dv);
        via.set(v, arc);
        heap.push(dv, v);
      }
    }
  }
  if (!via.has(target)) return null;
  const steps: PathStep[] = [];
  for (let v = target; v !== source; ) {
    const arc = via.get(v)!;
    const e = net.edges[arc >> 1]!;
    steps.push({ edge: arc >> 1, reversed: (arc & 1) === 1 });
    v = arc & 1 ? e.to : e.from;
  }
  return steps.reverse();
}

/**
 * Multi-source Dijkstra, each source starting at its own offset: for every node, the source
 * minimising offset + the cost along the water (`origin`, -1 when none reaches it), that cost,
 * and the real metres of the path taken.
 */
export function nearestSource(
  net: RiverNet,
  adj: Adjacency,
  sources: Array<{ node: number; offset: number }>,
  cost: (edge: number) => number = (e) => net.edges[e]!.metres,
): { cost: Float64Array; metres: Float64Array; origin: Int32Array } {
  const best = new Float64Array(net.lat.length).fill(Infinity);
  const metres = new Float64Array(net.lat.length);
  const origin = new Int32Array(net.lat.length).fill(-1);
  const heap = new MinHeap();
  for (const { node, offset } of sources) {
    if (offset >= best[node]!) continue;
    best[node] = offset;
    origin[node] = node;
    heap.push(offset, node);
  }
  while (heap.size > 0) {
    const [d, u] = heap.pop();
    if (d > best[u]!) continue;
    for (let a = adj.arcStart[u]!; a < adj.arcStart[u + 1]!; a++) {
      const arc = adj.arcEdge[a]!;
      const e = net.edges[arc >> 1]!;
      const v = arc & 1 ? e.from : e.to;
      const dv = d + cost(arc >> 1);
      if (dv < best[v]!) {
        best[v] = dv;
        metres[v] = metres[u]! + e.metres;
        origin[v] = origin[u]!;
        heap.push(dv, v);
      }
    }
  }
  return { cost: best, metres, origin };
}

class MinHeap {
  private readonly d: number[] = [];
  private readonly v: number[] = [];
  get size(): number {
    return this.d.length;
  }
  push(d: number, v: number): void {
    let i = this.d.length;
    this.d.push(d);
    this.v.push(v);
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (this.d[p]! <= d) break;
      this.d[i] = this.d[p]!;
      this.v[i] = this.v[p]!;
      i = p;
    }
    this.d[i] = d;
    this.v[i] = v;
  }
  pop(): [number, number] {
    const top: [number, number] = [this.d[0]!, this.v[0]!];
    const d = this.d.pop()!;
    const v = this.v.pop()!;
    const n = this.d.length;
    if (n === 0) return top;
    let i = 0;
    for (;;) {
      let c = 2 * i + 1;
      if (c >= n) break;
      if (c + 1 < n && this.d[c + 1]! < this.d[c]!) c++;
      if (this.d[c]! >= d) break;
      this.d[i] = this.d[c]!;
      this.v[i] = this.v[c]!;
      i = c;
    }
    this.d[i] = d;
    this.v[i] = v;
    return top;
  }
}
