/**
 * The embedded road network MODEL: towns, ports, rail terminals, airports and border crossings
 * joined to their k nearest neighbours over land, plus the listed ferries and fixed links. Link
 * lengths are great circle x a per-edge factor calibrated on the built graph so that whole routes,
 * not single links, reproduce the country circuity table (docs/road-network.md).
 */

import { haversineM } from "../../common/geo.ts";
import { median } from "../../common/median.ts";
import { prng } from "../../common/random.ts";
import { UnionFind } from "../../common/union-find.ts";
import type { LinkKind } from "../../formats/road-graph.ts";
import { LinkBuilder } from "./links.ts";
import { DEFAULT_SEGMENT_RULES, type SegmentRules, type WaterTest } from "./mask.ts";
import type { StraitTest } from "./straits.ts";

export const NODE_KINDS = ["city", "port", "airport", "rail", "border"] as const;
export type NodeKind = (typeof NODE_KINDS)[number];

export interface RoadNode {
  lat: number;
  lng: number;
  kind: NodeKind;
  /** ISO 3166-1 alpha-2, "" when unknown. */
  country: string;
  name: string;
  /** 0 when unknown. */
  population: number;
}

export interface RoadLink {
  a: number;
  b: number;
  kind: LinkKind;
  /** Great-circle length of the link. */
  gcM: number;
  /** Per-edge factor applied: lengthM = gcM x factor (1 for ferries and fixed links). */
  factor: number;
  lengthM: number;
  /** Country of endpoint a; countryB differs on a cross-border link. */
  country: string;
  countryB: string;
  /** Truck speed; for ferries and fixed links the effective speed lengthM / crossingHours. */
  speedKmh: number;
  /** Listed crossing time for ferries, tunnels and bridges; null on road links. */
  crossingHours: number | null;
  carriesTruck: boolean;
  /** Ferry or fixed-link name; "" on road links. */
  name: string;
}

export interface CountryModel {
  /** Published end-to-end circuity; null = no inter-city road network (GL, AQ, ...). */
  circuity: number | null;
  /** Calibration group: the circuity table's region. */
  region: string;
  truckKmh: number;
}

export interface RoadModel {
  countries: Map<string, CountryModel>;
  globalCircuity: number;
  globalTruckKmh: number;
}

export interface FerryRow {
  name: string;
  from: { name: string; lat: number; lng: number };
  to: { name: string; lat: number; lng: number };
  kind: LinkKind;
  hours: number;
  carriesTruck: boolean;
}

export interface CalibrationOptions {
  /** Sampled pairs are this far apart by great circle. */
  minKm: number;
  maxKm: number;
  /** Dijkstra sources per calibration region, and targets per source. */
  sources: number;
  targets: number;
  /** A region with fewer samples takes the global median zig-zag. */
  minSamples: number;
  seed: number;
}

export interface NetworkOptions {
  /** Neighbours linked per node. */
  k: number;
  maxLinkM: number;
  /**
   * Compass sectors (0 = off): a node that lost any of its k nearest to water also links to its
   * nearest land-valid node in every sector not yet holding a link, so a shore node whose k nearest
   * lie across the water keeps links along the shore. Sectors look no further than sectorReach x the distance to the k-th nearest (at
   * least sectorMinReachM, at most maxLinkM), trying at most sectorTries candidates each.
   */
  sectors: number;
  sectorReach: number;
  sectorMinReachM: number;
  sectorTries: number;
  segment: SegmentRules;
  /** Country pairs never road-linked, sorted ISO2 pair "CO-PA" (the Darien gap). */
  forbiddenPairs: string[];
  /** Components smaller than this get a repair link to the nearest node outside over land. */
  repairBelow: number;
  /** Repair links may be longer than k-NN links: they only join land the k-NN graph left apart. */
  repairMaxM: number;
  calibration: CalibrationOptions;
}

export const DEFAULT_OPTIONS: NetworkOptions = {
  k: 7,
  maxLinkM: 400_000,
  sectors: 8,
  sectorReach: 3,
  sectorMinReachM: 50_000,
  sectorTries: 4,
  segment: DEFAULT_SEGMENT_RULES,
  forbiddenPairs: ["CO-PA"],
  repairBelow: 2000,
  repairMaxM: 1_000_000,
  calibration: { minKm: 200, maxKm: 1500, sources: 10, targets: 30, minSamples: 40, seed: 12 },
};

export interface RegionCalibration {
  region: string;
  /** Median graph path / great circle over sampled pairs (great-circle link weights). */
  zigzag: number;
  samples: number;
  /** True when the region had too few samples and took the global zig-zag. */
  fallback: boolean;
  /** Median circuity of the calibrated graph on the same pairs, and the target it should hit. */
  achieved: number | null;
  target: number | null;
}

export interface Calibration {
  globalZigzag: number;
  samples: number;
  regions: RegionCalibration[];
  /**
   * Per-edge factor by country: circuity / zig-zag of its region, never below 1; the road-network
   * stage then scales it by the published-pairs fit (pair-calibration.ts).
   */
  factors: Map<string, number>;
}

export interface RoadNetwork {
  nodes: RoadNode[];
  links: RoadLink[];
  calibration: Calibration;
  /** Truck components (links with carriesTruck): component id per node, sizes largest first. */
  component: Int32Array;
  componentSizes: number[];
  stats: {
    candidates: number;
    deduped: number;
    landRejected: number;
    /** Candidate links the land mask passed but the strait test refused (straits.ts). */
    straitRejected: number;
    forbidden: number;
    repairLinks: number;
  };
}

// ---------------------------------------------------------------------------------------------
// Spatial grid: 1-degree buckets, searched in growing radii so dense regions stay cheap.

export class NodeGrid {
  private readonly cells = new Map<number, number[]>();
  constructor(private readonly nodes: ReadonlyArray<{ lat: number; lng: number }>) {
    nodes.forEach((n, i) => {
      this.insert(i, n.lat, n.lng);
    });
  }

  private key(r: number, c: number): number {
    return r * 1000 + (((c % 360) + 360) % 360);
  }

  insert(i: number, lat: number, lng: number): void {
    const k = this.key(Math.floor(lat + 90), Math.floor(lng + 180));
    const list = this.cells.get(k);
    if (list) list.push(i);
    else this.cells.set(k, [i]);
  }

  /** Node indices within radiusM of the point, with distances, nearest first. */
  within(lat: number, lng: number, radiusM: number): Array<[number, number]> {
    const dLat = radiusM / 111_000;
    const cos = Math.cos((Math.min(89, Math.abs(lat) + dLat) * Math.PI) / 180);
    const dLng = Math.min(180, dLat / Math.max(cos, 0.01));
    const r0 = Math.floor(lat + 90 - dLat);
    const r1 = Math.floor(lat + 90 + dLat);
    const c0 = Math.floor(lng + 180 - dLng);
    const c1 = c0 + Math.min(359, Math.floor(lng + 180 + dLng) - c0);
    const out: Array<[number, number]> = [];
    for (let r = Math.max(0, r0); r <= Math.min(179, r1); r++) {
      for (let c = c0; c <= c1; c++) {
        for (const i of this.cells.get(this.key(r, c)) ?? []) {
          const n = this.nodes[i]!;
          const d = haversineM(lat, lng, n.lat, n.lng);
          if (d <= radiusM) out.push([i, d]);
        }
      }
    }
    return out.sort((x, y) => x[1] - y[1]);
  }

  /** Up to `count` nearest nodes within maxM passing `accept`, nearest first. */
  nearest(
    lat: number,
    lng: number,
    count: number,
    maxM: number,
    accept: (i: number) => boolean,
  ): Array<[number, number]> {
    for (let radius = Math.min(25_000, maxM); ; radius = Math.min(radius * 2, maxM)) {
      const found = this.within(lat, lng, radius).filter(([i]) => accept(i));
      if (found.length >= count || radius >= maxM) return found.slice(0, count);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Graph helpers: compressed adjacency, Dijkstra (union-find: common/union-find.ts).

export interface Adjacency {
  offsets: Int32Array;
  targets: Int32Array;
  weights: Float64Array;
}

/** Undirected adjacency over the links `use` accepts, weighted by `weight`. */
export function adjacency(
  nodeCount: number,
  links: RoadLink[],
  use: (l: RoadLink) => boolean,
  weight: (l: RoadLink) => number,
): Adjacency {
  const kept = links.filter(use);
  const offsets = new Int32Array(nodeCount + 1);
  for (const l of kept) {
    offsets[l.a + 1]!++;
    offsets[l.b + 1]!++;
  }
  for (let i = 0; i < nodeCount; i++) offsets[i + 1]! += offsets[i]!;
  const fill = offsets.slice(0, nodeCount);
  const targets = new Int32Array(offsets[nodeCount]!);
  const weights = new Float64Array(offsets[nodeCount]!);
  for (const l of kept) {
    const w = weight(l);
    targets[fill[l.a]!] = l.b;
    weights[fill[l.a]!++] = w;
    targets[fill[l.b]!] = l.a;
    weights[fill[l.b]!++] = w;
  }
  return { offsets, targets, weights };
}

/** Single-source shortest distances (Infinity = unreached or beyond maxDist). Binary heap, lazy deletes. */
export function dijkstra(g: Adjacency, source: number, maxDist = Number.POSITIVE_INFINITY): Float64Array {
  const n = g.offsets.length - 1;
  const dist = new Float64Array(n).fill(Number.POSITIVE_INFINITY);
  let heapNode = new Int32Array(1024);
  let heapKey = new Float64Array(1024);
  let size = 0;
  const push = (v: number, k: number) => {
    if (size === heapNode.length) {
      const nn = new Int32Array(size * 2);
      nn.set(heapNode);
      heapNode = nn;
      const nk = new Float64Array(size * 2);
      nk.set(heapKey);
      heapKey = nk;
    }
    let i = size++;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (heapKey[p]! <= k) break;
      heapNode[i] = heapNode[p]!;
      heapKey[i] = heapKey[p]!;
      i = p;
    }
    heapNode[i] = v;
    heapKey[i] = k;
  };
  const pop = (): number => {
    const top = heapNode[0]!;
    const lastNode = heapNode[--size]!;
    const lastKey = heapKey[size]!;
    let i = 0;
    for (;;) {
      let c = 2 * i + 1;
      if (c >= size) break;
      if (c + 1 < size && heapKey[c + 1]! < heapKey[c]!) c++;
      if (heapKey[c]! >= lastKey) break;
      heapNode[i] = heapNode[c]!;
      heapKey[i] = heapKey[c]!;
      i = c;
    }
    heapNode[i] = lastNode;
    heapKey[i] = lastKey;
    return top;
  };
  dist[source] = 0;
  push(source, 0);
  const done = new Uint8Array(n);
  while (size > 0) {
    const u = pop();
    if (done[u]) continue;
    done[u] = 1;
    const du = dist[u]!;
    if (du > maxDist) break;
    for (let e = g.offsets[u]!; e < g.offsets[u + 1]!; e++) {
      const v = g.targets[e]!;
      const nd = du + g.weights[e]!;
      if (nd < dist[v]!) {
        dist[v] = nd;
        push(v, nd);
      }
    }
  }
  return dist;
}

/** The calibration rule: chaining links adds the graph's own zig-zag, so the edge carries the rest. */
export function perEdgeFactor(circuity: number, zigzag: number): number {
  return Math.max(1, circuity / zigzag);
}

// ---------------------------------------------------------------------------------------------

const DEDUPE_M: Record<NodeKind, number> = {
  city: 5000,
  port: 1000,
  airport: 1000,
  rail: 1000,
  border: 1000,
};

/**
 * Drops nodes of countries without a road network and near-duplicates of the same kind (GeoNames
 * and Natural Earth list the same town a few km apart). Candidates come in priority order.
 */
export function selectNodes(candidates: RoadNode[], model: RoadModel): RoadNode[] {
  const kept: RoadNode[] = [];
  const grid = new NodeGrid(kept);
  for (const c of candidates) {
    if (!Number.isFinite(c.lat) || !Number.isFinite(c.lng) || Math.abs(c.lat) > 90 || Math.abs(c.lng) > 180)
      continue;
    if (model.countries.get(c.country)?.circuity === null) continue;
    const near = grid.within(c.lat, c.lng, DEDUPE_M[c.kind]);
    if (near.some(([i]) => kept[i]!.kind === c.kind)) continue;
    grid.insert(kept.length, c.lat, c.lng);
    kept.push(c);
  }
  return kept;
}

export function buildRoadNetwork(
  candidates: RoadNode[],
  ferries: FerryRow[],
  model: RoadModel,
  water: WaterTest,
  opts: NetworkOptions = DEFAULT_OPTIONS,
  log: (msg: string) => void = () => {},
  straits: StraitTest | null = null,
): RoadNetwork {
  const nodes = selectNodes(candidates, model);
  const deduped = candidates.length - nodes.length;

  // Ferry terminals are nodes of their own (kind port), shared by the links that use them.
  const terminalAt = new Map<string, number>();
  const terminal = (p: { name: string; lat: number; lng: number }): number => {
    const key = `${p.lat.toFixed(4)},${p.lng.toFixed(4)}`;
    let i = terminalAt.get(key);
    if (i === undefined) {
      i = nodes.length;
      nodes.push({ lat: p.lat, lng: p.lng, kind: "port", country: "", name: p.name, population: 0 });
      terminalAt.set(key, i);
    }
    return i;
  };
  const ferryEnds = ferries.map((f) => [terminal(f.from), terminal(f.to)] as const);
  const grid = new NodeGrid(nodes);
  // A terminal takes the country of its nearest node (ferries.csv carries no country).
  for (const i of terminalAt.values()) {
    const n = nodes[i]!;
    const near = grid.nearest(n.lat, n.lng, 1, 50_000, (j) => nodes[j]!.country !== "");
    n.country = near[0] ? nodes[near[0][0]]!.country : "";
  }

  const builder = new LinkBuilder(nodes, grid, water, straits, opts);
  builder.linkNeighbours();
  builder.addFerries(ferries, ferryEnds);
  const repairLinks = builder.repair();
  const { links, sectorLinks, landRejected, straitRejected, forbiddenCount } = builder;
  log(
    `road-network: ${nodes.length} nodes, ${links.length} links (${sectorLinks} sector links, ` +
      `${landRejected} candidate links over water, ${straitRejected} across straits, ${forbiddenCount} forbidden, ` +
      `${repairLinks} repair links)`,
  );

  const calibration = calibrate(nodes, links, model, opts.calibration, log);
  applyFactors(nodes, links, model, calibration.factors);

  const uf = new UnionFind(nodes.length);
  for (const l of links) if (l.carriesTruck) uf.union(l.a, l.b);
  const { component, sizes } = labelComponents(uf, nodes.length);
  return {
    nodes,
    links,
    calibration,
    component,
    componentSizes: sizes,
    stats: {
      candidates: candidates.length,
      deduped,
      landRejected,
      straitRejected,
      forbidden: forbiddenCount,
      repairLinks,
    },
  };
}

function labelComponents(uf: UnionFind, n: number): { component: Int32Array; sizes: number[] } {
  const count = new Map<number, number>();
  for (let i = 0; i < n; i++) count.set(uf.find(i), (count.get(uf.find(i)) ?? 0) + 1);
  const order = [...count.entries()].sort((x, y) => y[1] - x[1]);
  const id = new Map(order.map(([root], i) => [root, i]));
  const component = new Int32Array(n);
  for (let i = 0; i < n; i++) component[i] = id.get(uf.find(i))!;
  return { component, sizes: order.map(([, s]) => s) };
}

const circuityOf = (model: RoadModel, country: string) =>
  model.countries.get(country)?.circuity ?? model.globalCircuity;
const speedOf = (model: RoadModel, country: string) =>
  model.countries.get(country)?.truckKmh ?? model.globalTruckKmh;

/**
 * Measures the graph's zig-zag per circuity region: for sampled node pairs of the region
 * minKm-maxKm apart, shortest path over great-circle link lengths / great circle; the median.
 * Ferries are left out: the calibration is about roads. Then re-measures on the calibrated lengths.
 */
export function calibrate(
  nodes: RoadNode[],
  links: RoadLink[],
  model: RoadModel,
  opts: CalibrationOptions,
  log: (msg: string) => void = () => {},
): Calibration {
  const regionOf = (c: string) => model.countries.get(c)?.region || "(unlisted)";
  const byRegion = new Map<string, number[]>();
  nodes.forEach((n, i) => {
    const r = regionOf(n.country);
    const list = byRegion.get(r);
    if (list) list.push(i);
    else byRegion.set(r, [i]);
  });
  const roads = (l: RoadLink) => l.kind !== "ferry";
  const geo = adjacency(nodes.length, links, roads, (l) => l.gcM);
  const rand = prng(opts.seed);
  const pairsByRegion = new Map<string, Array<[number, number, number]>>();
  const ratios = new Map<string, number[]>();
  const maxDist = opts.maxKm * 1000 * 3;
  for (const [region, list] of byRegion) {
    const samples: Array<[number, number, number]> = [];
    const rs: number[] = [];
    for (let s = 0; s < opts.sources && list.length > 1; s++) {
      const src = list[Math.floor(rand() * list.length)]!;
      const a = nodes[src]!;
      const targets: Array<[number, number]> = [];
      for (let t = 0; t < opts.targets * 8 && targets.length < opts.targets; t++) {
        const dst = list[Math.floor(rand() * list.length)]!;
        const b = nodes[dst]!;
        const gc = haversineM(a.lat, a.lng, b.lat, b.lng);
        if (gc >= opts.minKm * 1000 && gc <= opts.maxKm * 1000) targets.push([dst, gc]);
      }
      if (targets.length === 0) continue;
      const dist = dijkstra(geo, src, maxDist);
      for (const [dst, gc] of targets) {
        if (!Number.isFinite(dist[dst]!)) continue;
        samples.push([src, dst, gc]);
        rs.push(dist[dst]! / gc);
      }
    }
    pairsByRegion.set(region, samples);
    ratios.set(region, rs);
  }
  const all = [...ratios.values()].flat();
  const globalZigzag = all.length > 0 ? median(all) : 1;
  const regions: RegionCalibration[] = [];
  const zigzagOf = new Map<string, number>();
  for (const [region, rs] of ratios) {
    const fallback = rs.length < opts.minSamples;
    const zigzag = fallback ? globalZigzag : median(rs);
    zigzagOf.set(region, zigzag);
    regions.push({ region, zigzag, samples: rs.length, fallback, achieved: null, target: null });
  }
  const factors = new Map<string, number>();
  const countries = new Set([...model.countries.keys(), ...nodes.map((n) => n.country)]);
  for (const c of countries) {
    factors.set(c, perEdgeFactor(circuityOf(model, c), zigzagOf.get(regionOf(c)) ?? globalZigzag));
  }

  // Verification: the calibrated graph on the same pairs, against the median circuity of their ends.
  const calibrated = adjacency(
    nodes.length,
    links,
    roads,
    (l) => (l.gcM * ((factors.get(l.country) ?? 1) + (factors.get(l.countryB) ?? 1))) / 2,
  );
  for (const r of regions) {
    const samples = pairsByRegion.get(r.region) ?? [];
    if (samples.length === 0) continue;
    const got: number[] = [];
    const want: number[] = [];
    let lastSrc = -1;
    let dist: Float64Array = new Float64Array(0);
    for (const [src, dst, gc] of samples) {
      if (src !== lastSrc) dist = dijkstra(calibrated, src, maxDist * 2);
      lastSrc = src;
      got.push(dist[dst]! / gc);
      want.push((circuityOf(model, nodes[src]!.country) + circuityOf(model, nodes[dst]!.country)) / 2);
    }
    r.achieved = median(got);
    r.target = median(want);
  }
  regions.sort((x, y) => y.samples - x.samples);
  log(`road-network: measured zig-zag ${globalZigzag.toFixed(3)} over ${all.length} pairs`);
  return { globalZigzag, samples: all.length, regions, factors };
}

/** Road links: length = gc x mean of both ends' factors; speed so time = each half at its country's speed. */
export function applyFactors(
  nodes: RoadNode[],
  links: RoadLink[],
  model: RoadModel,
  factors: Map<string, number>,
): void {
  for (const l of links) {
    if (l.kind !== "road") continue;
    const fa = factors.get(l.country) ?? 1;
    const fb = factors.get(l.countryB) ?? 1;
    l.factor = (fa + fb) / 2;
    l.lengthM = l.gcM * l.factor;
    const hours = (l.gcM / 2000) * (fa / speedOf(model, l.country) + fb / speedOf(model, l.countryB));
    l.speedKmh = hours > 0 ? l.lengthM / 1000 / hours : speedOf(model, nodes[l.a]!.country);
  }
}
