/**
 * Where each seasonal river rule applies, as lines: the river.graph edges that carry the rule
 * (rule_start / rule_id, the same edges the router closes or slows by date) joined end to end.
 * The API's seasonal_notes name a rule but carry no geometry (spec); the river-graph stage writes
 * the stretches beside the graph and the route map page serves them (GET
 * /map/seasonal-stretches.json; engine/river/rule-stretches.ts; docs/maps.md).
 */

import { decodeArtifact } from "../../formats/container.ts";
import { GRAPH_FORMAT_VERSION } from "../../formats/graph-version.ts";
import type { RiverRule } from "../../formats/river-rules.ts";
import type { RuleStretch } from "../../formats/river-stretches.ts";
import { RIVER_GRAPH_KIND } from "./graph.ts";

const push = <K>(m: Map<K, number[]>, k: K, v: number) => {
  const list = m.get(k);
  if (list) list.push(v);
  else m.set(k, [v]);
};

/** 4 decimals: about 10 m, far finer than the Natural Earth lines the edges follow. */
const coord = (x: number) => Math.round(x * 1e4) / 1e4;

/** The seasonal rules' edges of an encoded river graph, with what the stretches and checks read. */
export interface RuleEdges {
  /** Rule id -> the edges carrying it. */
  edgesOf: Map<string, number[]>;
  from: Uint32Array;
  to: Uint32Array;
  edgeLen: Float64Array;
  /** [lat, lng] of node n. */
  node(n: number): [number, number];
  /** Edge e's points from node `start` (one of its ends) to the other, without the first. */
  along(e: number, start: number): Array<[number, number]>;
  /** The waterway name edge e carries ("" when unnamed). */
  waterway(e: number): string;
}

/** Decodes the edges that carry seasonal rules from river.graph bytes. */
export function decodeRuleEdges(graph: Uint8Array, graphPath = "river.graph"): RuleEdges {
  const art = decodeArtifact(graph, {
    kind: RIVER_GRAPH_KIND,
    formatVersion: GRAPH_FORMAT_VERSION,
    path: graphPath,
  });
  // Copies: the file's buffer need not be aligned for typed views.
  const sec = (name: string) => {
    const s = art.sections.get(name);
    if (!s) throw new Error(`${graphPath}: section ${name} missing; rebuild the artifacts`);
    return new Uint8Array(s).buffer;
  };
  const nodes = new Float64Array(sec("node_coord"));
  const arcStart = new Uint32Array(sec("arc_start"));
  const arcHead = new Uint32Array(sec("arc_head"));
  const arcEdge = new Uint32Array(sec("arc_edge"));
  const edgeLen = new Float64Array(sec("edge_len"));
  const geomStart = new Uint32Array(sec("geom_start"));
  const geom = new Float64Array(sec("geom_coord"));
  const ruleStart = new Uint32Array(sec("rule_start"));
  const ruleId = new Uint8Array(sec("rule_id"));
  const edgeWaterway = new Uint16Array(sec("edge_waterway"));
  const edges = edgeLen.length;
  const from = new Uint32Array(edges);
  const to = new Uint32Array(edges);
  for (let u = 0; u + 1 < arcStart.length; u++) {
    for (let a = arcStart[u]!; a < arcStart[u + 1]!; a++) {
      if ((arcEdge[a]! & 1) !== 0) continue;
      from[arcEdge[a]! >>> 1] = u;
      to[arcEdge[a]! >>> 1] = arcHead[a]!;
    }
  }
  // Edge rule indexes name the graph's own rule list; joined to river-rules.bin by id.
  const names = JSON.parse(new TextDecoder().decode(art.sections.get("names"))) as {
    rules?: Array<{ id: string }>;
    waterways?: Array<{ name: string }>;
  };
  const edgesOf = new Map<string, number[]>();
  for (let e = 0; e < edges; e++) {
    for (let k = ruleStart[e]!; k < ruleStart[e + 1]!; k++) {
      const id = names.rules?.[ruleId[k]!]?.id;
      if (id === undefined)
        throw new Error(`${graphPath}: edge ${e} names rule ${ruleId[k]} it does not list`);
      push(edgesOf, id, e);
    }
  }
  const node = (n: number): [number, number] => [nodes[2 * n]!, nodes[2 * n + 1]!];
  return {
    edgesOf,
    from,
    to,
    edgeLen,
    node,
    along: (e, start) => {
      const pts: Array<[number, number]> = [];
      for (let g = geomStart[e]!; g < geomStart[e + 1]!; g++) pts.push([geom[2 * g]!, geom[2 * g + 1]!]);
      const end = start === from[e] ? to[e]! : from[e]!;
      if (start !== from[e]) pts.reverse();
      pts.push(node(end));
      return pts;
    },
    waterway: (e) => names.waterways?.[edgeWaterway[e]!]?.name ?? "",
  };
}

/**
 * Rule id -> its stretch, for every dated rule (the ones a note can name) some edge carries: from
 * the encoded river graph and the rules it was built with (the river-graph stage).
 */
export function ruleStretches(
  graph: Uint8Array,
  rules: readonly RiverRule[],
  graphPath = "river.graph",
): Record<string, RuleStretch> {
  const { edgesOf, from, to, edgeLen, node, along } = decodeRuleEdges(graph, graphPath);
  const out: Record<string, RuleStretch> = {};
  for (const rule of rules) {
    const own = edgesOf.get(rule.id) ?? [];
    const kind = rule.kind;
    if (own.length === 0 || kind === null) continue;
    const at = new Map<number, number[]>();
    for (const e of own) {
      push(at, from[e]!, e);
      push(at, to[e]!, e);
    }
    const used = new Set<number>();
    const lines: Array<Array<[number, number]>> = [];
    /** A run from `start` along `e`, carried on through nodes where exactly two rule edges meet. */
    const walk = (start: number, e: number) => {
      const line: Array<[number, number]> = [node(start)];
      let [here, edge] = [start, e];
      for (;;) {
        used.add(edge);
        line.push(...along(edge, here));
        here = here === from[edge] ? to[edge]! : from[edge]!;
        const next = at.get(here)!;
        const onward = next.length === 2 ? next.find((x) => x !== edge && !used.has(x)) : undefined;
        if (onward === undefined) break;
        edge = onward;
      }
      lines.push(line.map(([lat, lng]) => [coord(lat), coord(lng)]));
    };
    // Runs start at their ends and branch points; what is left after them are loops.
    for (const [n, es] of at) if (es.length !== 2) for (const e of es) if (!used.has(e)) walk(n, e);
    for (const e of own) if (!used.has(e)) walk(from[e]!, e);
    out[rule.id] = {
      kind,
      waterway: rule.waterway,
      segment: rule.segment,
      km: Math.round(own.reduce((s, e) => s + edgeLen[e]!, 0) / 100) / 10,
      lines,
    };
  }
  return out;
}
