/**
 * The one writer of routing-graph artifacts (mode-neutral payload, docs/graph-format.md; reader:
 * router-wasm/src/graph/). Mode builders (sea, road, rail, river) hand it nodes and edges with
 * whatever attributes their mode has; optional sections are written only when some edge carries
 * them, and landmarks always.
 */

import { bytesOf, encodeArtifact } from "../../formats/container.ts";
import { GRAPH_FORMAT_VERSION } from "../../formats/graph-version.ts";
import { landmarkSections, selectLandmarks } from "./landmarks.ts";

const META_WORDS = 16;

/** Graph and edge mode codes (meta[0] and edge_mode). */
export const GRAPH_MODE = { sea: 0, river: 1, rail: 2, road: 3 } as const;
export type GraphModeName = keyof typeof GRAPH_MODE;

/** meta[8] flags: optional sections present (graph/mod.rs HAS_*). */
export const SECTION_FLAGS = {
  edgeSpeed: 1,
  edgeClass: 1 << 1,
  edgeCountry: 1 << 2,
  edgeFixed: 1 << 3,
  landmarks: 1 << 4,
  /** River: signed current per edge (km/h; > 0 = the water flows from `from` to `to`). */
  edgeCurrent: 1 << 5,
  /** River: lock count per edge (the lock time itself is in edge_fixed_s). */
  edgeLocks: 1 << 6,
  /** River: index into names.waterways per edge. */
  edgeWaterway: 1 << 7,
  /** River: seasonal rules per edge, CSR rule_start/rule_id into names.rules. */
  edgeRules: 1 << 8,
} as const;

export interface GraphEdge {
  from: number;
  to: number;
  metres: number;
  /** 0, or the gate code (1-based index into `gates`). */
  gate?: number;
  /** Edge mode when it differs from the graph's (a ferry in a road graph is sea). */
  mode?: number;
  /** Intermediate points, flat [lat, lng, ...], from `from` towards `to`. */
  inner?: number[];
  /** [zone index, metres inside it]. */
  zones?: Array<[number, number]>;
  speedKmh?: number;
  edgeClass?: number;
  /** Index into `countries`. */
  country?: number;
  /** Fixed seconds per traversal in the time objective (ferry crossing, border wait, locks). */
  fixedSeconds?: number;
  /** River current in km/h along from -> to (negative: the water flows to -> from). */
  currentKmh?: number;
  /** Locks on the edge. */
  locks?: number;
  /** Index into `waterways`. */
  waterway?: number;
  /** Indexes into `rules` (seasonal rules touching the edge). */
  rules?: number[];
}

export interface GraphSpec {
  kind: string;
  mode: GraphModeName;
  /** Flat [lat, lng] per node. */
  nodes: Float64Array;
  edges: GraphEdge[];
  gates: ReadonlyArray<{ id: string; name: string }>;
  zones: ReadonlyArray<{ id: string; name: string }>;
  countries?: ReadonlyArray<{ id: string; name: string }>;
  /** River: named waterways (edge `waterway` indexes them) and seasonal rule ids (`rules`). */
  waterways?: ReadonlyArray<{ name: string; class: string }>;
  rules?: ReadonlyArray<{ id: string }>;
  /**
   * Values the build bakes into the edges that the planner applies again at query time (the road
   * graph's truck time factor): recorded in `names`, checked at load (engine/artifacts.ts sameSettings).
   */
  settings?: Readonly<Record<string, number>>;
  /** Gates closed in every query of this graph: landmarks are computed with them closed. */
  landmarkClosed: number;
}

/** CSR adjacency: every edge is traversable both ways; arc_edge = edge << 1 | reversed. */
function adjacencyOf(edges: GraphEdge[], n: number) {
  const arcStart = new Uint32Array(n + 1);
  for (const ed of edges) {
    arcStart[ed.from + 1]!++;
    arcStart[ed.to + 1]!++;
  }
  for (let i = 0; i < n; i++) arcStart[i + 1]! += arcStart[i]!;
  const fill = arcStart.slice(0, n);
  const arcHead = new Uint32Array(edges.length * 2);
  const arcEdge = new Uint32Array(edges.length * 2);
  edges.forEach((ed, i) => {
    const a = fill[ed.from]!++;
    arcHead[a] = ed.to;
    arcEdge[a] = i << 1;
    const b = fill[ed.to]!++;
    arcHead[b] = ed.from;
    arcEdge[b] = (i << 1) | 1;
  });
  return { arcStart, arcHead, arcEdge };
}

/** The sections every graph has per edge: length, gate, mode, inner geometry and zone splits. */
function edgeSections(spec: GraphSpec) {
  const { edges } = spec;
  const e = edges.length;
  const edgeLen = new Float64Array(e);
  const edgeGate = new Uint8Array(e);
  const edgeMode = new Uint8Array(e).fill(GRAPH_MODE[spec.mode]);
  const geomStart = new Uint32Array(e + 1);
  const zoneStart = new Uint32Array(e + 1);
  edges.forEach((ed, i) => {
    edgeLen[i] = ed.metres;
    edgeGate[i] = ed.gate ?? 0;
    if (ed.mode !== undefined) edgeMode[i] = ed.mode;
    geomStart[i + 1] = geomStart[i]! + (ed.inner?.length ?? 0) / 2;
    zoneStart[i + 1] = zoneStart[i]! + (ed.zones?.length ?? 0);
  });
  const geom = new Float64Array(geomStart[e]! * 2);
  const zoneId = new Uint8Array(zoneStart[e]!);
  const zoneLen = new Float64Array(zoneStart[e]!);
  edges.forEach((ed, i) => {
    if (ed.inner) geom.set(ed.inner, geomStart[i]! * 2);
    ed.zones?.forEach(([z, m], k) => {
      zoneId[zoneStart[i]! + k] = z;
      zoneLen[zoneStart[i]! + k] = m;
    });
  });
  return { edgeLen, edgeGate, edgeMode, geomStart, geom, zoneStart, zoneId, zoneLen };
}

/** The optional per-edge columns, in section order: written only when some edge carries the value. */
const OPTIONAL_COLUMNS: ReadonlyArray<{
  flag: number;
  name: string;
  make: (len: number) => Float32Array | Uint8Array | Uint16Array;
  pick: (ed: GraphEdge) => number | undefined;
}> = [
  {
    flag: SECTION_FLAGS.edgeSpeed,
    name: "edge_speed_kmh",
    make: (n) => new Float32Array(n),
    pick: (ed) => ed.speedKmh,
  },
  {
    flag: SECTION_FLAGS.edgeClass,
    name: "edge_class",
    make: (n) => new Uint8Array(n),
    pick: (ed) => ed.edgeClass,
  },
  {
    flag: SECTION_FLAGS.edgeCountry,
    name: "edge_country",
    make: (n) => new Uint16Array(n),
    pick: (ed) => ed.country,
  },
  {
    flag: SECTION_FLAGS.edgeFixed,
    name: "edge_fixed_s",
    make: (n) => new Float32Array(n),
    pick: (ed) => ed.fixedSeconds,
  },
  {
    flag: SECTION_FLAGS.edgeCurrent,
    name: "edge_current_kmh",
    make: (n) => new Float32Array(n),
    pick: (ed) => ed.currentKmh,
  },
  {
    flag: SECTION_FLAGS.edgeLocks,
    name: "edge_locks",
    make: (n) => new Uint8Array(n),
    pick: (ed) => ed.locks,
  },
  {
    flag: SECTION_FLAGS.edgeWaterway,
    name: "edge_waterway",
    make: (n) => new Uint16Array(n),
    pick: (ed) => ed.waterway,
  },
];

function optionalSections(edges: GraphEdge[]): Array<{ flag: number; name: string; bytes: Uint8Array }> {
  const optional: Array<{ flag: number; name: string; bytes: Uint8Array }> = [];
  for (const { flag, name, make, pick } of OPTIONAL_COLUMNS) {
    if (!edges.some((ed) => pick(ed) !== undefined)) continue;
    const out = make(edges.length);
    edges.forEach((ed, i) => {
      out[i] = pick(ed) ?? 0;
    });
    optional.push({ flag, name, bytes: bytesOf(out) });
  }
  if (edges.some((ed) => ed.rules?.length)) {
    const ruleStart = new Uint32Array(edges.length + 1);
    edges.forEach((ed, i) => {
      ruleStart[i + 1] = ruleStart[i]! + (ed.rules?.length ?? 0);
    });
    const ruleId = new Uint8Array(ruleStart[edges.length]!);
    edges.forEach((ed, i) => {
      if (ed.rules) ruleId.set(ed.rules, ruleStart[i]!);
    });
    optional.push(
      { flag: SECTION_FLAGS.edgeRules, name: "rule_start", bytes: bytesOf(ruleStart) },
      { flag: SECTION_FLAGS.edgeRules, name: "rule_id", bytes: ruleId },
    );
  }
  return optional;
}

export function encodeGraph(spec: GraphSpec, buildId: string): Uint8Array {
  const { nodes, edges } = spec;
  const n = nodes.length / 2;
  const e = edges.length;
  const { arcStart, arcHead, arcEdge } = adjacencyOf(edges, n);
  const { edgeLen, edgeGate, edgeMode, geomStart, geom, zoneStart, zoneId, zoneLen } = edgeSections(spec);
  const optional = optionalSections(edges);

  const landmarks = selectLandmarks({ arcStart, arcHead, arcEdge, edgeLen, edgeGate }, spec.landmarkClosed);
  const flags = optional.reduce((f, s) => f | s.flag, SECTION_FLAGS.landmarks);
  const meta = new Uint32Array(META_WORDS);
  meta.set([
    GRAPH_MODE[spec.mode],
    n,
    e,
    e * 2,
    geomStart[e]!,
    zoneStart[e]!,
    spec.gates.length,
    spec.zones.length,
    flags,
  ]);
  const names = new TextEncoder().encode(
    JSON.stringify({
      mode: spec.mode,
      gates: spec.gates,
      zones: spec.zones,
      ...(spec.countries ? { countries: spec.countries } : {}),
      ...(spec.waterways ? { waterways: spec.waterways } : {}),
      ...(spec.rules ? { rules: spec.rules } : {}),
      ...(spec.settings ? { settings: spec.settings } : {}),
    }),
  );
  return encodeArtifact(spec.kind, GRAPH_FORMAT_VERSION, buildId, [
    { name: "meta", bytes: bytesOf(meta) },
    { name: "names", bytes: names },
    { name: "node_coord", bytes: bytesOf(nodes) },
    { name: "arc_start", bytes: bytesOf(arcStart) },
    { name: "arc_head", bytes: bytesOf(arcHead) },
    { name: "arc_edge", bytes: bytesOf(arcEdge) },
    { name: "edge_len", bytes: bytesOf(edgeLen) },
    { name: "edge_gate", bytes: edgeGate },
    { name: "edge_mode", bytes: edgeMode },
    { name: "geom_start", bytes: bytesOf(geomStart) },
    { name: "geom_coord", bytes: bytesOf(geom) },
    { name: "zone_start", bytes: bytesOf(zoneStart) },
    { name: "zone_id", bytes: zoneId },
    { name: "zone_len", bytes: bytesOf(zoneLen) },
    ...optional.map(({ name, bytes }) => ({ name, bytes })),
    ...landmarkSections(landmarks),
  ]);
}
