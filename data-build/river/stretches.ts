/**
 * Curated stretches (waterways.csv) onto the network. For each stretch:
 * 1. Its lines: edges whose Natural Earth name is one of its aliases and which lie in the box of
 *    its two ends plus a margin (the README's homonym rule: `Red`, `Negro`, `Mackenzie`, ... name
 *    several rivers), plus its hand-digitised canal.
 * 2. Its ends (navigable limits) are cut onto the nearest point of its lines (any line within
 *    LIMIT_SNAP_M when it has none): the stretch stops at its limit, the river beyond stays
 *    uncurated. An end more than LINK_OVER_M from that point keeps its own node, joined to it by a
 *    straight gap link (estuaries where Natural Earth stops short of the sea).
 * 3. The path between its ends: along its own lines; else through any line in the box, other lines
 *    costing PENALTY times their length; else a straight link between the ends (lakes, estuaries
 *    and canals no source draws).
 * 4. The path's edges get the stretch: class, current signed by the downstream end, locks spread
 *    evenly along it, seasonal rules. An edge two stretches claim keeps the first (file order).
 */
import { haversineM } from "../../common/geo.ts";
import { UnionFind } from "../../common/union-find.ts";
import { PointGrid } from "../rail/grid.ts";
import type { LineSource, LineTag, Stretch } from "./inputs.ts";
import { type CutRequest, cutEdges, MAX_EDGE_M, NetIndex } from "./network.ts";
import type { NetEdge, RiverNet } from "./noding.ts";
import { adjacency, type PathStep, shortestPath } from "./path.ts";

/** A limit is cut onto its own lines within 30 km (limits ~1-3 km, lines generalised). */
export const LIMIT_SNAP_M = 30_000;
/**
 * A limit farther than this from the point it was cut at keeps its own node, joined by a straight
 * gap link: mostly estuary mouths where Natural Earth stops short of the sea (Le Havre 20 km).
 */
export const LINK_OVER_M = 5_000;
/** Farthest gap link from a limit to its own lines (Natural Earth stops ~480 km short of the Amazon bar). */
export const GAP_MAX_M = 500_000;
/** A limit cut off from curated water this close is linked to it (joinLimits). */
export const LIMIT_JOIN_M = 5_000;
/** Cost factor of lines not the stretch's own when its own do not join its ends. */
export const PENALTY = 4;

export interface EdgeAttrs {
  /** Index into the stretch list, -1 = uncurated. */
  stretch: number;
  /** km/h along from -> to (negative: the water flows to -> from). */
  currentKmh: number;
  locks: number;
}

export type MatchMethod = "named" | "network" | "link" | "unmatched";

export interface StretchMatch {
  id: string;
  method: MatchMethod;
  km: number;
  edges: number;
  /** km from each limit to the line it was cut on (null: a gap link or no line). */
  snapKm: [number | null, number | null];
  gapLinkKm: number;
  /** Edges of the path another stretch had already claimed. */
  shared: number;
  /** The geometry most of the path's km lie on, and that share (length calibration: length.ts). */
  source: LineSource;
  sourceShare: number;
}

/** Box of a stretch's two ends plus a margin (km) growing with its length. */
export function stretchBox(s: Stretch): [number, number, number, number] {
  const marginKm = 30 + (0.5 * haversineM(s.from.lat, s.from.lng, s.to.lat, s.to.lng)) / 1000;
  const dLat = marginKm / 111.195;
  const midLat = Math.max(Math.abs(s.from.lat), Math.abs(s.to.lat));
  const dLng = dLat / Math.max(0.05, Math.cos(Math.min(85, midLat + dLat) * (Math.PI / 180)));
  return [
    Math.min(s.from.lat, s.to.lat) - dLat,
    Math.min(s.from.lng, s.to.lng) - dLng,
    Math.max(s.from.lat, s.to.lat) + dLat,
    Math.max(s.from.lng, s.to.lng) + dLng,
  ];
}

function edgeInBox(net: RiverNet, e: NetEdge, box: [number, number, number, number]): boolean {
  const inside = (lat: number, lng: number) =>
    lat >= box[0] && lat <= box[2] && lng >= box[1] && lng <= box[3];
  if (inside(net.lat[e.from]!, net.lng[e.from]!) || inside(net.lat[e.to]!, net.lng[e.to]!)) return true;
  for (let i = 0; i < e.inner.length; i += 2) if (inside(e.inner[i]!, e.inner[i + 1]!)) return true;
  return false;
}

/** Flow along the path from `from` to `to`: +1 downstream that way, -1 the other, 0 slack or tidal. */
export function flowSign(hint: string): number {
  const h = hint.toLowerCase();
  if (/downstream_to=to_place|flow toward to_place/.test(h)) return 1;
  if (/downstream_to=from_place|flow toward from_place/.test(h)) return -1;
  return 0;
}

/** Adds a straight line from node a to node b as a chain of edges no longer than MAX_EDGE_M. */
export function addLink(net: RiverNet, a: number, b: number, tag: LineTag): number[] {
  const m = haversineM(net.lat[a]!, net.lng[a]!, net.lat[b]!, net.lng[b]!);
  const pieces = Math.max(1, Math.ceil(m / MAX_EDGE_M));
  const ids: number[] = [];
  let from = a;
  for (let k = 1; k <= pieces; k++) {
    let to = b;
    if (k < pieces) {
      to = net.lat.length;
      net.lat.push(net.lat[a]! + ((net.lat[b]! - net.lat[a]!) * k) / pieces);
      net.lng.push(net.lng[a]! + ((net.lng[b]! - net.lng[a]!) * k) / pieces);
    }
    const metres = haversineM(net.lat[from]!, net.lng[from]!, net.lat[to]!, net.lng[to]!);
    ids.push(net.edges.push({ from, to, inner: [], metres, tag }) - 1);
    from = to;
  }
  return ids;
}

const linkTag = (s: Stretch): LineTag => ({
  name: s.waterway,
  names: [],
  kind: s.kind === "canal" ? "canal" : s.kind === "lake" ? "lake" : "river",
  source: "link",
  curatedId: s.id,
});

/** Where a stretch end cut the network (a request index), how far it snapped, or the gap link's km. */
type End = { cut: number | null; snapKm: number | null; linkKm: number };

/**
 * Marks the edges of stretch `si`'s path with its attributes (current, locks) where no other
 * stretch holds them, and says how the stretch matched.
 */
function recordMatch(
  net: RiverNet,
  attrs: EdgeAttrs[],
  s: Stretch,
  si: number,
  path: { steps: PathStep[]; method: MatchMethod },
  ends: [End, End],
): StretchMatch {
  const { steps, method } = path;
  const total = steps.reduce((sum, st) => sum + net.edges[st.edge]!.metres, 0);
  const sign = flowSign(s.flowHint);
  // Lock k sits at (k + 0.5) / locks of the way along the path.
  const lockAt = Array.from({ length: s.locks ?? 0 }, (_, k) => ((k + 0.5) / (s.locks ?? 1)) * total);
  let along = 0;
  let shared = 0;
  const bySource = new Map<LineSource, number>();
  for (const st of steps) {
    const e = net.edges[st.edge]!;
    const next = along + e.metres;
    bySource.set(e.tag.source, (bySource.get(e.tag.source) ?? 0) + e.metres);
    const a = attrs[st.edge]!;
    if (a.stretch >= 0 && a.stretch !== si) {
      shared++;
    } else {
      a.stretch = si;
      // Positive when the water runs the way the edge is stored.
      a.currentKmh = sign === 0 ? 0 : sign * s.currentKmh * (st.reversed ? -1 : 1);
      a.locks = lockAt.filter((x) => x >= along && x < next).length;
    }
    along = next;
  }
  const [fromEnd, toEnd] = ends;
  let source: LineSource = "link";
  let sourceM = 0;
  for (const [src, m] of bySource) {
    if (m > sourceM) [source, sourceM] = [src, m];
  }
  return {
    id: s.id,
    method,
    km: Math.round(total / 100) / 10,
    edges: steps.length,
    snapKm: [round1(fromEnd.snapKm), round1(toEnd.snapKm)],
    gapLinkKm: Math.round(fromEnd.linkKm + toEnd.linkKm),
    shared,
    source,
    sourceShare: total > 0 ? Math.round((sourceM / total) * 1000) / 1000 : 0,
  };
}

/**
 * Places every stretch on `net` (cutting edges at limits, adding links) and returns the attributes
 * of each edge (index = edge id after the call) and how each stretch matched.
 */
export function applyStretches(
  net: RiverNet,
  stretches: Stretch[],
): { attrs: EdgeAttrs[]; matches: StretchMatch[] } {
  const boxes = stretches.map(stretchBox);
  const aliasSets = stretches.map((s) => new Set(s.aliases));
  const own = (si: number, e: NetEdge): boolean =>
    e.tag.curatedId === stretches[si]!.id ||
    (e.tag.names.some((n) => aliasSets[si]!.has(n)) && edgeInBox(net, e, boxes[si]!));

  // Limits: cut requests on the pre-cut network, gathered for all stretches first.
  const index = new NetIndex(net);
  const requests: CutRequest[] = [];
  const ends: Array<[End, End]> = stretches.map((s, si) => {
    const hasOwn = net.edges.some((e) => own(si, e));
    const ownEdge = (e: number) => own(si, net.edges[e]!);
    const place = (p: { lat: number; lng: number }): End => {
      const hit =
        (hasOwn &&
          (index.nearest(p.lat, p.lng, LIMIT_SNAP_M, ownEdge) ??
            index.nearest(p.lat, p.lng, GAP_MAX_M, ownEdge))) ||
        index.nearest(p.lat, p.lng, LIMIT_SNAP_M);
      if (!hit) return { cut: null, snapKm: null, linkKm: 0 };
      const linked = hit.m > LINK_OVER_M;
      return {
        cut: requests.push(hit) - 1,
        snapKm: linked ? null : hit.m / 1000,
        linkKm: linked ? hit.m / 1000 : 0,
      };
    };
    return [place(s.from), place(s.to)];
  });
  const cutNodes = cutEdges(net, requests);

  // Limit nodes: the cut, or a node at the limit itself, gap-linked to the cut when that is far.
  const limitNode = (si: number, end: End, p: { lat: number; lng: number }): number => {
    if (end.cut !== null && end.linkKm === 0) return cutNodes[end.cut]!;
    const n = net.lat.length;
    net.lat.push(p.lat);
    net.lng.push(p.lng);
    if (end.cut !== null) addLink(net, n, cutNodes[end.cut]!, linkTag(stretches[si]!));
    return n;
  };
  const limits = stretches.map((s, si) => [
    limitNode(si, ends[si]![0], s.from),
    limitNode(si, ends[si]![1], s.to),
  ]);
  joinLimits(net, stretches, limits, aliasSets);

  const adj = adjacency(net);
  const paths: Array<{ steps: PathStep[]; method: MatchMethod }> = stretches.map((s, si) => {
    const [a, b] = limits[si]!;
    const named = shortestPath(net, adj, a!, b!, (e) =>
      own(si, net.edges[e]!) ? net.edges[e]!.metres : null,
    );
    if (named) return { steps: named, method: "named" };
    const straightM = haversineM(s.from.lat, s.from.lng, s.to.lat, s.to.lng);
    const box = boxes[si]!;
    const any = shortestPath(net, adj, a!, b!, (e) => {
      const edge = net.edges[e]!;
      if (own(si, edge)) return edge.metres;
      return edgeInBox(net, edge, box) ? edge.metres * PENALTY : null;
    });
    const km = any?.reduce((sum, st) => sum + net.edges[st.edge]!.metres, 0) ?? Infinity;
    // The table's own route length along Natural Earth, else the straight line, bounds a detour.
    const boundM = s.neRouteKm !== null ? 1.3 * s.neRouteKm * 1000 + 20_000 : 1.8 * straightM + 20_000;
    if (any && km <= boundM) return { steps: any, method: "network" };
    return { steps: [], method: "unmatched" };
  });
  // Straight links last, so no path above ran along another stretch's link.
  paths.forEach((p, si) => {
    if (p.method !== "unmatched") return;
    const [a, b] = limits[si]!;
    const ids = addLink(net, a!, b!, linkTag(stretches[si]!));
    p.steps = ids.map((edge) => ({ edge, reversed: false }));
    p.method = "link";
  });

  const attrs: EdgeAttrs[] = net.edges.map(() => ({ stretch: -1, currentKmh: 0, locks: 0 }));
  const matches = stretches.map((s, si) => recordMatch(net, attrs, s, si, paths[si]!, ends[si]!));
  return { attrs, matches };
}

/**
 * A limit is where the table's waterways meet (a confluence, a canal junction). When its node is
 * cut off from curated water within LIMIT_JOIN_M (a canal end short of the river it joins), it
 * is linked to the nearest node of another component that is a limit or lies on curated lines.
 */
function joinLimits(
  net: RiverNet,
  stretches: Stretch[],
  limits: number[][],
  aliasSets: Array<Set<string>>,
): void {
  const aliases = new Set(aliasSets.flatMap((s) => [...s]));
  const curated = new Uint8Array(net.lat.length);
  for (const e of net.edges) {
    if (e.tag.curatedId || e.tag.names.some((n) => aliases.has(n))) curated[e.from] = curated[e.to] = 1;
  }
  for (const pair of limits) for (const n of pair) curated[n] = 1;
  const ids: number[] = [];
  curated.forEach((c, n) => {
    if (c) ids.push(n);
  });
  const grid = new PointGrid(net.lat, net.lng, 0.1, ids);
  const uf = new UnionFind(net.lat.length);
  for (const e of net.edges) uf.union(e.from, e.to);
  limits.forEach((pair, si) => {
    for (const n of pair) {
      const best = new Map<number, { w: number; m: number }>();
      grid.within(net.lat[n]!, net.lng[n]!, LIMIT_JOIN_M, (w, m) => {
        const root = uf.find(w);
        if (root === uf.find(n)) return;
        const seen = best.get(root);
        if (!seen || m < seen.m) best.set(root, { w, m });
      });
      for (const { w } of best.values()) {
        addLink(net, n, w, linkTag(stretches[si]!));
        uf.union(n, w);
      }
    }
  });
}

const round1 = (x: number | null) => (x === null ? null : Math.round(x * 10) / 10);
