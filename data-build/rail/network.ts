/**
 * Natural Earth railways -> rail graph (nodes + edges for encodeGraph). Line ends and vertices
 * shared by several lines become nodes; ends within JOIN_M of another line's vertex are joined
 * (the source was rebuilt from vector tiles, positions within ~40 m, so touching lines rarely
 * share exact coordinates); every other vertex stays edge geometry.
 */
import { polylineM } from "../../common/geo.ts";
import { UnionFind } from "../../common/union-find.ts";
import { GRAPH_MODE, type GraphEdge, type GraphSpec } from "../graph/encode.ts";
import { PointGrid } from "./grid.ts";

/** Line ends closer than this to another line's vertex are one node. */
export const JOIN_M = 100;
/** A `..._dup` row whose vertices lie this much (share) on other rows' vertices is a real repeat. */
export const DUPLICATE_COVERAGE = 0.9;
/** Train ferries: no crossing times in the source; ~15 kn, a typical rail-ferry service speed. */
export const FERRY_KMH = 28;
/** The `part` value of Natural Earth's copy of its North America railroads layer. */
export const NA_DUPLICATE_PART = "ne_1d4_north_america_dup";

export interface RailFeature {
  properties: {
    featurecla?: string;
    part?: string;
    continent?: string;
    [key: string]: unknown;
  } | null;
  geometry:
    | { type: "LineString"; coordinates: number[][] }
    | { type: "MultiLineString"; coordinates: number[][][] }
    | null;
}

export interface RailLine {
  /** Flat [lat, lng, ...], consecutive repeats removed. */
  coords: number[];
  ferry: boolean;
  continent: string;
  /** Marked as Natural Earth's North America duplicate part. */
  naDuplicate: boolean;
}

/** One RailLine per LineString part with at least two distinct points. */
export function railLines(features: RailFeature[]): RailLine[] {
  const out: RailLine[] = [];
  for (const f of features) {
    const g = f.geometry;
    if (!g) continue;
    const parts =
      g.type === "LineString" ? [g.coordinates] : g.type === "MultiLineString" ? g.coordinates : [];
    const p = f.properties ?? {};
    for (const part of parts) {
      const coords: number[] = [];
      for (const [lng, lat] of part) {
        if (!Number.isFinite(lat) || !Number.isFinite(lng)) continue;
        const n = coords.length;
        if (n > 0 && coords[n - 2] === lat && coords[n - 1] === lng) continue;
        coords.push(lat!, lng!);
      }
      if (coords.length < 4) continue;
      out.push({
        coords,
        ferry: /ferry/i.test(p.featurecla ?? ""),
        continent: p.continent ?? "",
        naDuplicate: p.part === NA_DUPLICATE_PART,
      });
    }
  }
  return out;
}

/**
 * Drops `part = ne_1d4_north_america_dup` lines that really repeat other lines (>= 90 % of their
 * vertices within JOIN_M of a vertex of a non-duplicate line). In the pinned file none does: those
 * 1,506 rows are the only North American lines (the global part holds 4 Salvadoran rows there),
 * so dropping them by flag alone would erase the US, Canada and Mexico (docs/rail.md).
 */
export function dropRepeatedDuplicates(lines: RailLine[]): { kept: RailLine[]; dropped: number } {
  const dups = lines.filter((l) => l.naDuplicate);
  if (dups.length === 0) return { kept: lines, dropped: 0 };
  const others = lines.filter((l) => !l.naDuplicate);
  const lat: number[] = [];
  const lng: number[] = [];
  for (const l of others) {
    for (let i = 0; i < l.coords.length; i += 2) {
      lat.push(l.coords[i]!);
      lng.push(l.coords[i + 1]!);
    }
  }
  const grid = new PointGrid(lat, lng, 0.01);
  const repeated = new Set<RailLine>();
  for (const l of dups) {
    let covered = 0;
    for (let i = 0; i < l.coords.length; i += 2) {
      let hit = false;
      grid.within(l.coords[i]!, l.coords[i + 1]!, JOIN_M, () => {
        hit = true;
      });
      if (hit) covered++;
    }
    if (covered >= DUPLICATE_COVERAGE * (l.coords.length / 2)) repeated.add(l);
  }
  return { kept: lines.filter((l) => !repeated.has(l)), dropped: repeated.size };
}

export interface RailGraph {
  /** Flat [lat, lng] per node. */
  nodes: Float64Array;
  edges: GraphEdge[];
  /** Continent of the line each edge came from (component regions). */
  edgeContinent: string[];
}

/** The rail graph as the one graph writer takes it (data-build/graph/encode.ts): kind rail-graph. */
export function railGraphSpec(graph: RailGraph): GraphSpec {
  return {
    kind: "rail-graph",
    mode: "rail",
    nodes: graph.nodes,
    edges: graph.edges,
    gates: [],
    zones: [],
    landmarkClosed: 0,
  };
}

export function buildRailGraph(lines: RailLine[], joinM = JOIN_M): RailGraph {
  let total = 0;
  for (const l of lines) total += l.coords.length / 2;
  const lat = new Float64Array(total);
  const lng = new Float64Array(total);
  const lineOf = new Int32Array(total);
  const start: number[] = [];
  let v = 0;
  lines.forEach((l, li) => {
    start.push(v);
    for (let i = 0; i < l.coords.length; i += 2, v++) {
      lat[v] = l.coords[i]!;
      lng[v] = l.coords[i + 1]!;
      lineOf[v] = li;
    }
  });
  start.push(v);
  const uf = new UnionFind(total);
  const isNode = new Uint8Array(total);
  // Vertices shared exactly (to ~1 m) by several lines, or twice by one, are junctions.
  const seen = new Map<number, number>();
  for (let i = 0; i < total; i++) {
    const key = Math.round((lat[i]! + 90) * 1e5) * 4e7 + Math.round((lng[i]! + 180) * 1e5);
    const first = seen.get(key);
    if (first === undefined) seen.set(key, i);
    else {
      uf.union(i, first);
      isNode[i] = 1;
      isNode[first] = 1;
    }
  }
  seen.clear();
  // Every line end is a node, joined to any other line's vertex within joinM.
  const grid = new PointGrid(lat, lng, 0.01);
  for (let li = 0; li < lines.length; li++) {
    for (const end of [start[li]!, start[li + 1]! - 1]) {
      isNode[end] = 1;
      grid.within(lat[end]!, lng[end]!, joinM, (w) => {
        if (lineOf[w] === li) return;
        uf.union(end, w);
        isNode[w] = 1;
      });
    }
  }
  // Node ids in first-seen order; a joined cluster sits at its representative vertex.
  const nodeOfRoot = new Map<number, number>();
  const coords: number[] = [];
  const nodeOf = (i: number): number => {
    const root = uf.find(i);
    let id = nodeOfRoot.get(root);
    if (id === undefined) {
      id = coords.length / 2;
      nodeOfRoot.set(root, id);
      coords.push(lat[root]!, lng[root]!);
    }
    return id;
  };
  const edges: GraphEdge[] = [];
  const edgeContinent: string[] = [];
  const parallel = new Map<string, number[]>();
  lines.forEach((l, li) => {
    let from = nodeOf(start[li]!);
    let inner: number[] = [];
    for (let i = start[li]! + 1; i < start[li + 1]!; i++) {
      if (!isNode[i]) {
        inner.push(lat[i]!, lng[i]!);
        continue;
      }
      const to = nodeOf(i);
      const metres = polylineM([
        coords[from * 2]!,
        coords[from * 2 + 1]!,
        ...inner,
        coords[to * 2]!,
        coords[to * 2 + 1]!,
      ]);
      // A loop back to its own node never shortens a route; an identical parallel edge adds nothing.
      const key = from < to ? `${from}:${to}` : `${to}:${from}`;
      const same = parallel.get(key);
      if (from !== to && !same?.some((m) => Math.abs(m - metres) < 1)) {
        parallel.set(key, [...(same ?? []), metres]);
        edges.push({
          from,
          to,
          metres,
          ...(inner.length > 0 ? { inner } : {}),
          ...(l.ferry ? { mode: GRAPH_MODE.sea, speedKmh: FERRY_KMH } : {}),
        });
        edgeContinent.push(l.continent);
      }
      from = to;
      inner = [];
    }
  });
  return compact(Float64Array.from(coords), edges, edgeContinent);
}

/** Renumbers away nodes left without edges (clusters whose only edges were loops). */
function compact(nodes: Float64Array, edges: GraphEdge[], edgeContinent: string[]): RailGraph {
  const used = new Int32Array(nodes.length / 2).fill(-1);
  let n = 0;
  for (const e of edges) {
    if (used[e.from] === -1) used[e.from] = n++;
    if (used[e.to] === -1) used[e.to] = n++;
  }
  const out = new Float64Array(n * 2);
  used.forEach((id, old) => {
    if (id >= 0) out.set([nodes[old * 2]!, nodes[old * 2 + 1]!], id * 2);
  });
  for (const e of edges) {
    e.from = used[e.from]!;
    e.to = used[e.to]!;
  }
  return { nodes: out, edges, edgeContinent };
}

export interface RailComponent {
  nodes: number;
  edges: number;
  km: number;
  /** Continents by km inside the component, largest first. */
  regions: string[];
  bbox: [number, number, number, number];
}

/** Connected components, largest (by km) first; `of[node]` = index into the returned list. */
export function railComponents(g: RailGraph): { components: RailComponent[]; of: Int32Array } {
  const n = g.nodes.length / 2;
  const uf = new UnionFind(n);
  for (const e of g.edges) uf.union(e.from, e.to);
  const byRoot = new Map<number, RailComponent & { continents: Map<string, number> }>();
  const get = (root: number) => {
    let c = byRoot.get(root);
    if (!c) {
      c = { nodes: 0, edges: 0, km: 0, regions: [], bbox: [90, 180, -90, -180], continents: new Map() };
      byRoot.set(root, c);
    }
    return c;
  };
  for (let i = 0; i < n; i++) {
    const c = get(uf.find(i));
    c.nodes++;
    const [la, ln] = [g.nodes[i * 2]!, g.nodes[i * 2 + 1]!];
    c.bbox = [
      Math.min(c.bbox[0], la),
      Math.min(c.bbox[1], ln),
      Math.max(c.bbox[2], la),
      Math.max(c.bbox[3], ln),
    ];
  }
  g.edges.forEach((e, i) => {
    const c = get(uf.find(e.from));
    c.edges++;
    c.km += e.metres / 1000;
    const cont = g.edgeContinent[i] ?? "";
    c.continents.set(cont, (c.continents.get(cont) ?? 0) + e.metres);
  });
  const list = [...byRoot.entries()].sort((a, b) => b[1].km - a[1].km);
  const index = new Map(list.map(([root], i) => [root, i]));
  const of = Int32Array.from({ length: n }, (_, i) => index.get(uf.find(i))!);
  const components = list.map(([, { continents, ...c }]) => ({
    ...c,
    km: Math.round(c.km),
    regions: [...continents.entries()].sort((a, b) => b[1] - a[1]).map(([k]) => k),
  }));
  return { components, of };
}
