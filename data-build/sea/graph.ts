/**
 * Builds the sea routing graph from MARNET lanes and encodes it as the `sea-graph` artifact
 * (mode-neutral payload version 2: docs/graph-format.md; reader: router-wasm/src/graph/), with
 * its ALT landmark tables (data-build/graph/landmarks.ts).
 */

import type { Topology } from "topojson-specification";
import { densify, polylineM } from "../../common/geo.ts";
import { UnionFind } from "../../common/union-find.ts";
import { encodeGraph } from "../graph/encode.ts";
import { CAPES, capeCrossed } from "./capes.ts";
import { type EcaZone, splitByZone } from "./eca.ts";
import type { LaneFeature } from "./gpkg.ts";
import { INLAND_GATE, type InlandWater, type Water } from "./inland.ts";
import { oceanShortcuts } from "./ocean.ts";

export const GRAPH_KIND = "sea-graph";
/** Longest segment: long lanes become great-circle arcs, and every point is a snap candidate. */
const DENSIFY_M = 20_000;
/** Open-ocean shortcuts are only drawn: 200 km chords of a great circle stray < 1 km from it. */
const SHORTCUT_DENSIFY_M = 200_000;

/** MARNET's own passages (sea/passages.gpkg), in its order. */
export const MARNET_PASSAGES: ReadonlyArray<{ id: string; name: string }> = [
  { id: "suez", name: "Suez Canal" },
  { id: "panama", name: "Panama Canal" },
  { id: "malacca", name: "Strait of Malacca" },
  { id: "gibraltar", name: "Strait of Gibraltar" },
  { id: "dover", name: "Strait of Dover" },
  { id: "bering", name: "Bering Strait" },
  { id: "magellan", name: "Strait of Magellan" },
  { id: "babelmandeb", name: "Bab-el-Mandeb" },
  { id: "kiel", name: "Kiel Canal" },
  { id: "corinth", name: "Corinth Canal" },
  { id: "northwest", name: "Northwest Passage" },
  { id: "northeast", name: "Northeast Passage" },
];

/**
 * Gates in bit order (bit i of a closed mask = gate i; edge gate code = i + 1): MARNET's passages,
 * the capes (capes.ts), then the lanes on inland water that sea-going ships do not sail (inland.ts).
 */
export const PASSAGES: ReadonlyArray<{ id: string; name: string }> = [
  ...MARNET_PASSAGES,
  ...CAPES.map(({ id, name }) => ({ id, name })),
  INLAND_GATE,
];

/**
 * Passages every sea query closes (engine/sea/policy.ts DEFAULT_CLOSED): the landmark tables are
 * computed with them closed, the tightest bounds still valid for every query that closes them.
 */
export const LANDMARK_CLOSED: readonly string[] = ["corinth", "northwest", "northeast", INLAND_GATE.id];

export const landmarkClosedMask = (): number =>
  LANDMARK_CLOSED.reduce((m, id) => m | (1 << PASSAGES.findIndex((p) => p.id === id)), 0) >>> 0;

export interface SeaGraph {
  /** Flat [lat, lng] per node. */
  nodes: Float64Array;
  edges: Array<{
    from: number;
    to: number;
    metres: number;
    gate: number;
    inner: number[];
    eca: Array<[number, number]>;
  }>;
  zones: Array<{ id: string; name: string }>;
  stats: {
    lanes: number;
    shortcuts: number;
    nodesBeforePrune: number;
    components: number[];
    droppedEdges: number;
    inland: InlandStats | null;
  };
}

/** What the inland gate marked, and the inland water it left as sea, in km. */
export interface InlandStats {
  /** Source lanes cut because part of them runs on non-seagoing inland water. */
  lanesCut: number;
  /** Gated edges (pieces of those lanes) and their length. */
  edges: number;
  km: number;
  /** Per curated stretch: gated edges running on it, and km of them on it. */
  byStretch: Array<{
    id: string;
    waterway: string;
    region: string;
    cemt_class: string;
    edges: number;
    km: number;
  }>;
  byRegion: Array<{ region: string; km: number }>;
  /** Lane km on inland water left as sea: curated seagoing, and uncurated by nearest line. */
  seagoingKm: Array<{ id: string; waterway: string; km: number }>;
  uncuratedKm: Array<{ line: string; km: number }>;
}

/** Endpoints closer than ~1 cm are the same node; lng ±180 is one meridian (antimeridian join). */
function nodeKey(lat: number, lng: number): string {
  const l = Math.abs(lng) === 180 ? 180 : lng;
  return `${Math.round(lat * 1e7)}:${Math.round(l * 1e7)}`;
}

/**
 * `land` (world-atlas topology) enables the open-ocean shortcuts of ocean.ts; `inland` cuts lanes
 * on non-seagoing inland water into gated pieces (inland.ts), after the shortcuts are drawn, so
 * they are the same with or without it.
 */
export function buildSeaGraph(
  lanes: LaneFeature[],
  zones: EcaZone[],
  land?: Topology,
  inland?: InlandWater,
): SeaGraph {
  const gateOf = new Map(PASSAGES.map((p, i) => [p.id, i + 1]));
  const ids = new Map<string, number>();
  const coords: number[] = [];
  const node = (lat: number, lng: number): number => {
    const key = nodeKey(lat, lng);
    let id = ids.get(key);
    if (id === undefined) {
      id = coords.length / 2;
      ids.set(key, id);
      coords.push(lat, Math.abs(lng) === 180 ? 180 : lng);
    }
    return id;
  };
  const raw: Array<{ from: number; to: number; lane: LaneFeature; shortcut?: boolean }> = [];
  for (const lane of lanes) {
    const c = lane.coords;
    if (c.length < 4) continue;
    const from = node(c[0]!, c[1]!);
    const to = node(c[c.length - 2]!, c[c.length - 1]!);
    if (from !== to) raw.push({ from, to, lane });
  }
  let shortcuts = 0;
  if (land) {
    const gatePoints = raw
      .filter((e) => e.lane.pass)
      .flatMap((e) => Array.from(densify(e.lane.coords, 5000)));
    const ocean = oceanShortcuts(land, Float64Array.from(coords), gatePoints);
    coords.push(...ocean.nodes);
    for (const [a, b] of ocean.edges) {
      const lane = {
        coords: Float64Array.of(coords[2 * a]!, coords[2 * a + 1]!, coords[2 * b]!, coords[2 * b + 1]!),
        pass: null,
      };
      raw.push({ from: a, to: b, lane, shortcut: true });
    }
    shortcuts = ocean.edges.length;
  }
  const inlandStats = inland ? markInland(raw, inland, node) : null;
  // Keep the giant connected component: a port snapped to an island of lanes could never reach open sea.
  const n = coords.length / 2;
  const sets = new UnionFind(n);
  for (const e of raw) sets.union(e.from, e.to);
  const size = sets.sizes();
  const components = [...size.values()].sort((a, b) => b - a);
  const giant = [...size].find(([, s]) => s === components[0])![0];
  const remap = new Int32Array(n).fill(-1);
  const nodes: number[] = [];
  for (let i = 0; i < n; i++) {
    if (sets.find(i) !== giant) continue;
    remap[i] = nodes.length / 2;
    nodes.push(coords[i * 2]!, coords[i * 2 + 1]!);
  }
  const edges: SeaGraph["edges"] = [];
  for (const { from, to, lane, shortcut } of raw) {
    if (remap[from]! < 0) continue;
    const c = densify(lane.coords, shortcut ? SHORTCUT_DENSIFY_M : DENSIFY_M);
    const gate = lane.pass ? gateOf.get(lane.pass) : capeGate(c, gateOf);
    if (gate === undefined) throw new Error(`MARNET lane has unknown pass "${lane.pass}"`);
    edges.push({
      from: remap[from]!,
      to: remap[to]!,
      metres: polylineM(c),
      gate,
      inner: Array.from(c.subarray(2, c.length - 2)),
      eca: splitByZone(zones, c),
    });
  }
  return {
    nodes: Float64Array.from(nodes),
    edges,
    zones: zones.map((z) => ({ id: z.id, name: z.name })),
    stats: {
      shortcuts,
      lanes: lanes.length,
      nodesBeforePrune: n,
      components: components.slice(0, 10),
      droppedEdges: raw.length - edges.length,
      inland: inlandStats,
    },
  };
}

/** The gate of the cape whose line an ungated edge crosses, or 0. */
function capeGate(coords: Float64Array, gateOf: ReadonlyMap<string, number>): number {
  const k = capeCrossed(coords);
  return k < 0 ? 0 : gateOf.get(CAPES[k]!.id)!;
}

/** Replaces each ungated MARNET lane with inland runs by its pieces; the runs get the inland gate. */
function markInland(
  raw: Array<{ from: number; to: number; lane: LaneFeature; shortcut?: boolean }>,
  inland: InlandWater,
  node: (lat: number, lng: number) => number,
): InlandStats {
  const stretches = inland.stretches;
  const gated = new Map<number, { edges: number; m: number }>();
  const seagoing = new Map<number, number>();
  const uncurated = new Map<string, number>();
  let lanesCut = 0;
  let gatedEdges = 0;
  let gatedM = 0;
  const count = (w: Water) => {
    if (w.kind === "seagoing") seagoing.set(w.stretch, (seagoing.get(w.stretch) ?? 0) + 1);
    else if (w.kind === "uncurated") {
      // No line near: a lane over land (small islands) or on water no source draws (Dutch canals).
      const line = w.line ?? "(no river line within 5 km)";
      uncurated.set(line, (uncurated.get(line) ?? 0) + 1);
    }
  };
  const degree = new Map<number, number>();
  for (const e of raw) for (const n of [e.from, e.to]) degree.set(n, (degree.get(n) ?? 0) + 1);
  const out: typeof raw = [];
  for (const e of raw) {
    if (e.shortcut || e.lane.pass) {
      out.push(e);
      continue;
    }
    // Cut the lane as drawn (densified): the points a port snaps to stay where they were.
    const { pieces, water } = inland.split(densify(e.lane.coords, DENSIFY_M), {
      start: degree.get(e.from) === 1,
      end: degree.get(e.to) === 1,
    });
    // Samples are SAMPLE_M (1 km) apart or closer: a count of samples is about km of lane.
    water.forEach(count);
    if (pieces.length === 1 && pieces[0]!.stretch < 0) {
      out.push(e);
      continue;
    }
    lanesCut++;
    let from = e.from;
    pieces.forEach((p, i) => {
      const c = p.coords;
      const to = i === pieces.length - 1 ? e.to : node(c[c.length - 2]!, c[c.length - 1]!);
      out.push({ from, to, lane: { coords: c, pass: p.stretch >= 0 ? INLAND_GATE.id : null } });
      if (p.stretch >= 0) {
        gatedEdges++;
        gatedM += polylineM(c);
      }
      for (const [s, m] of p.metres) {
        const g = gated.get(s) ?? { edges: 0, m: 0 };
        g.edges++;
        g.m += m;
        gated.set(s, g);
      }
      from = to;
    });
  }
  raw.splice(0, raw.length, ...out);
  const km = (m: number) => Math.round(m / 1000);
  const byStretch = [...gated]
    .map(([s, g]) => ({
      id: stretches[s]!.id,
      waterway: stretches[s]!.waterway,
      region: stretches[s]!.region,
      cemt_class: stretches[s]!.cemtClass,
      edges: g.edges,
      km: km(g.m),
    }))
    .sort((a, b) => b.km - a.km);
  const regions = new Map<string, number>();
  for (const [s, g] of gated) {
    const region = stretches[s]!.region;
    regions.set(region, (regions.get(region) ?? 0) + g.m);
  }
  return {
    lanesCut,
    edges: gatedEdges,
    km: km(gatedM),
    byStretch,
    byRegion: [...regions].map(([region, m]) => ({ region, km: km(m) })).sort((a, b) => b.km - a.km),
    seagoingKm: [...seagoing]
      .map(([s, n]) => ({ id: stretches[s]!.id, waterway: stretches[s]!.waterway, km: n }))
      .sort((a, b) => b.km - a.km),
    uncuratedKm: [...uncurated].map(([line, n]) => ({ line, km: n })).sort((a, b) => b.km - a.km),
  };
}

/** Encodes the graph into the container sections documented in docs/graph-format.md. */
export function encodeSeaGraph(g: SeaGraph, buildId: string): Uint8Array {
  return encodeGraph(
    {
      kind: GRAPH_KIND,
      mode: "sea",
      nodes: g.nodes,
      edges: g.edges.map((ed) => ({ ...ed, zones: ed.eca })),
      gates: PASSAGES,
      zones: g.zones,
      landmarkClosed: landmarkClosedMask(),
    },
    buildId,
  );
}
