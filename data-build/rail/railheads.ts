/**
 * Railheads: UN/LOCODE places with function position 2 (rail terminal) snapped onto the rail
 * graph within 150 km (the spec's railhead access limit). Artifact `railheads` (docs/rail.md).
 */
import { polylineM } from "../../common/geo.ts";
import { parseCsv } from "../../formats/csv.ts";
import { RAILHEAD_MAX_M, type Railhead, type RailPlace } from "../../formats/railheads.ts";
import { GRAPH_MODE, type GraphEdge } from "../graph/encode.ts";
import { parseUnlocodeRow } from "../locations/collect.ts";
import { PointGrid } from "./grid.ts";

/** UN/LOCODE rows with the rail function and usable coordinates, first row per locode. */
export const collectRailPlaces = (unlocodeCsvs: string[]): RailPlace[] =>
  collectUnlocodePlaces(unlocodeCsvs, 1, "2");

/**
 * UN/LOCODE rows whose function has `flag` at position `at` (0-based: "1" at 0 = port, "2" at 1 =
 * rail terminal) and usable coordinates, first row per locode.
 */
export function collectUnlocodePlaces(unlocodeCsvs: string[], at: number, flag: string): RailPlace[] {
  const out = new Map<string, RailPlace>();
  for (const text of unlocodeCsvs) {
    const [header, ...rows] = parseCsv(text);
    const hasGeocoded = header?.includes("geocoded") ?? false;
    for (const raw of rows) {
      if (raw.length < 5) continue;
      const r = parseUnlocodeRow(raw, hasGeocoded);
      if (!r) continue;
      if (r.function[at] !== flag) continue;
      if (!Number.isFinite(r.lat) || !Number.isFinite(r.lng) || Math.abs(r.lat) > 90 || Math.abs(r.lng) > 180)
        continue;
      // 0,0 is a placeholder, not a place.
      if (r.lat === 0 && r.lng === 0) continue;
      const locode = r.country + r.location;
      if (!out.has(locode))
        out.set(locode, {
          locode,
          name: r.name,
          country: r.country,
          lat: r.lat,
          lng: r.lng,
          geocoded: r.geocoded,
        });
    }
  }
  return [...out.values()];
}

/**
 * Snaps each place to the nearest node or intermediate edge point of the track within maxM; a
 * place on an edge's interior routes from the edge end nearer along the track. Railroad ferries'
 * points are never snap targets (a terminal never stands at sea, nor at a ferry-only landing).
 * Places beyond maxM are left out.
 */
export function snapRailheads(
  places: RailPlace[],
  graph: { nodes: Float64Array; edges: GraphEdge[] },
  maxM = RAILHEAD_MAX_M,
): Railhead[] {
  const n = graph.nodes.length / 2;
  const lat: number[] = [];
  const lng: number[] = [];
  // Point p < n is node p; beyond, an intermediate point (edge, index within the edge).
  const edgeOf: number[] = [];
  const indexOf: number[] = [];
  // Snap targets: the nodes and intermediate points of track (not ferry) edges; nodes first, so
  // a node wins over an edge point at the same spot (the first of equally near points wins).
  const trackNode = new Uint8Array(n);
  const trackInner: number[] = [];
  for (let i = 0; i < n; i++) {
    lat.push(graph.nodes[i * 2]!);
    lng.push(graph.nodes[i * 2 + 1]!);
  }
  graph.edges.forEach((e, ei) => {
    const rail = (e.mode ?? GRAPH_MODE.rail) === GRAPH_MODE.rail;
    if (rail) trackNode[e.from] = trackNode[e.to] = 1;
    const inner = e.inner ?? [];
    for (let k = 0; k < inner.length; k += 2) {
      if (rail) trackInner.push(lat.length);
      lat.push(inner[k]!);
      lng.push(inner[k + 1]!);
      edgeOf.push(ei);
      indexOf.push(k);
    }
  });
  const trackNodes = Array.from({ length: n }, (_, i) => i).filter((i) => trackNode[i]);
  const grid = new PointGrid(lat, lng, 0.25, [...trackNodes, ...trackInner]);
  const out: Railhead[] = [];
  for (const p of places) {
    const hit = grid.nearest(p.lat, p.lng, maxM);
    if (!hit) continue;
    let node = hit.id;
    if (hit.id >= n) {
      const e = graph.edges[edgeOf[hit.id - n]!]!;
      const k = indexOf[hit.id - n]!;
      const inner = e.inner!;
      const head = [graph.nodes[e.from * 2]!, graph.nodes[e.from * 2 + 1]!, ...inner.slice(0, k + 2)];
      node = polylineM(head) <= e.metres / 2 ? e.from : e.to;
    }
    out.push({
      ...p,
      node,
      snapLat: lat[hit.id]!,
      snapLng: lng[hit.id]!,
      snapKm: Math.round(hit.m) / 1000,
    });
  }
  return out;
}
