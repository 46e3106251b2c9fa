/**
 * Where on its stretches each seasonal rule applies: the reach its segment names
 * (seasonal-segments.csv: the segment's places in order along the water, one line per branch). A
 * curated stretch often runs past a rule's segment (the Three Gorges locks on the 600 km reservoir
 * stretch, the Serbian Sava on the Sisak-Belgrade stretch), so a rule applies to the edges of its
 * stretches on the path through its places, each place taken at the nearest node of those stretches;
 * other water may bridge a gap between them at a penalty, and gets no rule.
 * Imported as text so the build's code version covers it. docs/river.md, "Seasonal rules".
 */
import { haversineM } from "../../common/geo.ts";
import { csvRecords } from "../../formats/csv.ts";
import type { RiverRule } from "../../formats/river-rules.ts";
import type { RiverNet } from "./noding.ts";
import { type Adjacency, adjacency, shortestPath } from "./path.ts";
import segmentsCsv from "./seasonal-segments.csv" with { type: "text" };
import type { EdgeAttrs } from "./stretches.ts";

export const SEASONAL_SEGMENTS_CSV: string = segmentsCsv;
/** A segment's place is taken at its stretches' nearest node within this (towns stand ~1-5 km off the lines). */
export const PLACE_SNAP_M = 25_000;
/** Cost factor of water not the rule's own on the path between two of its places. */
export const BRIDGE_PENALTY = 4;

export interface SegmentPlace {
  name: string;
  lat: number;
  lng: number;
}

/** "Name lat lng; Name lat lng | Name lat lng; ..." -> lines of places. */
export function parseLines(text: string): SegmentPlace[][] {
  if (text.trim() === "") return [];
  return text.split("|").map((line) =>
    line.split(";").map((place) => {
      const m = /^\s*(.+?)\s+(-?\d+(?:\.\d+)?)\s+(-?\d+(?:\.\d+)?)\s*$/.exec(place);
      if (!m) throw new Error(`seasonal-segments.csv: "${place.trim()}" is not "Name lat lng"`);
      return { name: m[1]!, lat: Number(m[2]), lng: Number(m[3]) };
    }),
  );
}

/** Per rule (rule order), its segment's lines; every rule has a row. */
export function parseSegments(rules: readonly RiverRule[], csv = SEASONAL_SEGMENTS_CSV): SegmentPlace[][][] {
  const rows = new Map(csvRecords(csv).map((r) => [r.id ?? "", r]));
  return rules.map((rule) => {
    const row = rows.get(rule.id);
    if (!row) throw new Error(`seasonal-segments.csv: no row for rule ${rule.id}`);
    rows.delete(rule.id);
    const lines = parseLines(row.lines ?? "");
    if (lines.some((l) => l.length < 2))
      throw new Error(`seasonal-segments.csv ${rule.id}: a line needs two places`);
    return lines;
  });
}

/**
 * Per edge, the indexes of the rules that apply to it. `stretchesOf[r]` are rule r's stretch
 * indexes (seasonal-corrections.ts), `lines[r]` its segment: a rule with stretches needs a segment
 * joined along them, else the build stops, naming every rule and place at fault.
 */
export function edgeRules(
  net: RiverNet,
  attrs: readonly EdgeAttrs[],
  rules: readonly RiverRule[],
  stretchesOf: readonly number[][],
  lines: readonly SegmentPlace[][][],
): number[][] {
  const out: number[][] = net.edges.map(() => []);
  const adj = adjacency(net);
  const byStretch = new Map<number, number[]>();
  attrs.forEach((a, e) => {
    if (a.stretch < 0) return;
    const list = byStretch.get(a.stretch);
    if (list) list.push(e);
    else byStretch.set(a.stretch, [e]);
  });
  const faults: string[] = [];
  rules.forEach((rule, r) => {
    if (stretchesOf[r]!.length === 0) return;
    if (lines[r]!.length === 0) {
      faults.push(`${rule.id}: the rule has stretches but its segment no places`);
      return;
    }
    const own = new Set(stretchesOf[r]!.flatMap((s) => byStretch.get(s) ?? []));
    for (const e of segmentEdges(net, adj, own, lines[r]!, (f) => faults.push(`${rule.id}: ${f}`)))
      out[e]!.push(r);
  });
  if (faults.length > 0) throw new Error(`seasonal-segments.csv:\n  ${faults.join("\n  ")}`);
  return out;
}

/** The edges of `own` on the paths through each line's places, in turn; faults reported. */
function segmentEdges(
  net: RiverNet,
  adj: Adjacency,
  own: ReadonlySet<number>,
  lines: readonly SegmentPlace[][],
  fault: (why: string) => void,
): Set<number> {
  const nodes = [...new Set([...own].flatMap((e) => [net.edges[e]!.from, net.edges[e]!.to]))];
  const applied = new Set<number>();
  for (const line of lines) {
    const at = line.map((p) => nearestNode(net, nodes, p));
    line.forEach((p, k) => {
      if (at[k] === null) fault(`${p.name} is more than ${PLACE_SNAP_M / 1000} km from its stretches`);
    });
    for (let k = 1; k < line.length; k++) {
      const [a, b] = [at[k - 1], at[k]];
      if (a === null || a === undefined || b === null || b === undefined) continue;
      // Other water only bridges gaps (a tributary's end short of the river it joins).
      const path = shortestPath(net, adj, a, b, (e) =>
        own.has(e) ? net.edges[e]!.metres : net.edges[e]!.metres * BRIDGE_PENALTY,
      );
      if (!path) fault(`no water joins ${line[k - 1]!.name} and ${line[k]!.name}`);
      else for (const step of path) if (own.has(step.edge)) applied.add(step.edge);
    }
  }
  return applied;
}

function nearestNode(net: RiverNet, nodes: readonly number[], p: SegmentPlace): number | null {
  let best: number | null = null;
  let bestM = PLACE_SNAP_M;
  for (const n of nodes) {
    const m = haversineM(p.lat, p.lng, net.lat[n]!, net.lng[n]!);
    if (m <= bestM) [best, bestM] = [n, m];
  }
  return best;
}
