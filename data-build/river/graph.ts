/**
 * The river network with its stretch attributes -> the graph writer's spec (mode river; the
 * contract in docs/river-network.md): speed through water, signed current, locks and their fixed
 * time, class code, waterway name, seasonal rules.
 */
import { UnionFind } from "../../common/union-find.ts";
import type { RiverRule } from "../../formats/river-rules.ts";
import type { GraphEdge, GraphSpec } from "../graph/encode.ts";
import { classLabel, stretchClass } from "./classes.ts";
import type { Stretch } from "./inputs.ts";
import type { RiverNet } from "./noding.ts";
import type { EdgeAttrs } from "./stretches.ts";

export const RIVER_GRAPH_KIND = "river-graph";
/** Speed through water (spec): rivers 12.5 km/h, canals 10; lakes and estuaries taken as rivers. */
export const RIVER_KMH = 12.5;
export const CANAL_KMH = 10;
export const LAKE_KMH = 12.5;
/** Time per lock (spec): 0.75 h, 1.25 h in North America. */
export const LOCK_HOURS = 0.75;
export const LOCK_HOURS_NORTH_AMERICA = 1.25;

/** `edgeRules[e]`: the seasonal rules (indexes into `rules`) on edge e (rule-segments.ts). */
export function riverGraphSpec(
  net: RiverNet,
  attrs: EdgeAttrs[],
  stretches: Stretch[],
  rules: readonly RiverRule[],
  edgeRules: ReadonlyArray<readonly number[]>,
): GraphSpec {
  const waterways: Array<{ name: string; class: string }> = [{ name: "", class: "" }];
  const stretchWaterway = stretches.map(
    (s) => waterways.push({ name: s.waterway, class: classLabel(s) }) - 1,
  );
  const byName = new Map<string, number>();
  const uncurated = (name: string): number => {
    if (name === "") return 0;
    let i = byName.get(name);
    if (i === undefined) {
      i = waterways.push({ name, class: "" }) - 1;
      byName.set(name, i);
    }
    return i;
  };
  const classes = stretches.map(stretchClass);
  const edges: GraphEdge[] = net.edges.map((e, i) => {
    const a = attrs[i]!;
    const base: GraphEdge = { from: e.from, to: e.to, metres: e.metres };
    if (e.inner.length > 0) base.inner = e.inner;
    if (a.stretch < 0) {
      return {
        ...base,
        speedKmh: e.tag.kind === "canal" ? CANAL_KMH : e.tag.kind === "lake" ? LAKE_KMH : RIVER_KMH,
        edgeClass: 0,
        currentKmh: 0,
        locks: 0,
        fixedSeconds: 0,
        waterway: uncurated(e.tag.name),
      };
    }
    const s = stretches[a.stretch]!;
    const lockHours = s.region === "North America" ? LOCK_HOURS_NORTH_AMERICA : LOCK_HOURS;
    return {
      ...base,
      speedKmh: s.kind === "canal" ? CANAL_KMH : s.kind === "lake" ? LAKE_KMH : RIVER_KMH,
      edgeClass: classes[a.stretch]!,
      currentKmh: a.currentKmh,
      locks: a.locks,
      fixedSeconds: a.locks * lockHours * 3600,
      waterway: stretchWaterway[a.stretch]!,
      ...(edgeRules[i]!.length > 0 ? { rules: [...edgeRules[i]!] } : {}),
    };
  });
  if (waterways.length > 0xffff)
    throw new Error(`${waterways.length} waterway names do not fit edge_waterway (u16)`);
  return {
    kind: RIVER_GRAPH_KIND,
    mode: "river",
    nodes: Float64Array.from(net.lat.flatMap((lat, i) => [lat, net.lng[i]!])),
    edges,
    gates: [],
    zones: [],
    waterways,
    rules: rules.map((r) => ({ id: r.id })),
    landmarkClosed: 0,
  };
}

export interface ComponentSummary {
  nodes: number;
  km: number;
  bbox: [number, number, number, number];
}

/** Connected components, largest by km first. */
export function riverComponents(net: RiverNet): ComponentSummary[] {
  const uf = new UnionFind(net.lat.length);
  for (const e of net.edges) uf.union(e.from, e.to);
  const by = new Map<number, ComponentSummary>();
  for (let n = 0; n < net.lat.length; n++) {
    const r = uf.find(n);
    const c = by.get(r) ?? { nodes: 0, km: 0, bbox: [90, 180, -90, -180] };
    c.nodes++;
    c.bbox = [
      Math.min(c.bbox[0], net.lat[n]!),
      Math.min(c.bbox[1], net.lng[n]!),
      Math.max(c.bbox[2], net.lat[n]!),
      Math.max(c.bbox[3], net.lng[n]!),
    ];
    by.set(r, c);
  }
  for (const e of net.edges) by.get(uf.find(e.from))!.km += e.metres / 1000;
  return [...by.values()].map((c) => ({ ...c, km: Math.round(c.km) })).sort((a, b) => b.km - a.km);
}
