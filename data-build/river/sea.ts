/**
 * What the river build needs from the sea side: the sea graph's nodes and edge points (decoded
 * from data/build/sea.graph, the sea stage's output) and a coast test on the world-atlas land raster.
 */
import type { Topology } from "topojson-specification";
import { haversineM, polylineM } from "../../common/geo.ts";
import { decodeArtifact } from "../../formats/container.ts";
import { GRAPH_FORMAT_VERSION } from "../../formats/graph-version.ts";
import { PointGrid } from "../rail/grid.ts";
import { GRAPH_KIND as SEA_GRAPH_KIND } from "../sea/graph.ts";
import { LandRaster } from "../sea/land.ts";

export interface SeaNodes {
  /** Flat [lat, lng] per sea-graph node. */
  coords: Float64Array;
  /** Per edge: [from, to] node ids and the edge's intermediate points. */
  edges: Array<{ from: number; to: number; inner: Float64Array }>;
  /**
   * The sea graph's points: its nodes, then every intermediate point of its edges (MARNET draws
   * a coast or an estuary as long edges: the St Lawrence lane has no node between Lake Ontario and
   * the Gulf). `pointNode` is the node a route from that point starts at (the point itself, or
   * the nearer end of its edge along it), as the rail stage's railheads do.
   */
  pointLat: Float64Array;
  pointLng: Float64Array;
  pointNode: Int32Array;
  grid: PointGrid;
}

// Sections sit at 8-byte offsets of the file, but a copy keeps the views independent of it.
const f64 = (bytes: Uint8Array) => new Float64Array(bytes.slice().buffer);
const u32 = (bytes: Uint8Array) => new Uint32Array(bytes.slice().buffer);

/** The sea graph's nodes and edges, from its artifact bytes. */
export function readSeaGraph(bytes: Uint8Array, path?: string): SeaNodes {
  const art = decodeArtifact(bytes, { kind: SEA_GRAPH_KIND, formatVersion: GRAPH_FORMAT_VERSION, path });
  const section = (name: string) => {
    const s = art.sections.get(name);
    if (!s) throw new Error(`${path ?? "sea.graph"}: section ${name} missing`);
    return s;
  };
  const coords = f64(section("node_coord"));
  const arcStart = u32(section("arc_start"));
  const arcHead = u32(section("arc_head"));
  const arcEdge = u32(section("arc_edge"));
  const geomStart = u32(section("geom_start"));
  const geom = f64(section("geom_coord"));
  const n = coords.length / 2;
  const edges: SeaNodes["edges"] = new Array(geomStart.length - 1);
  for (let u = 0; u < n; u++) {
    for (let a = arcStart[u]!; a < arcStart[u + 1]!; a++) {
      const arc = arcEdge[a]!;
      if (arc & 1) continue;
      const e = arc >>> 1;
      edges[e] = { from: u, to: arcHead[a]!, inner: geom.subarray(geomStart[e]! * 2, geomStart[e + 1]! * 2) };
    }
  }
  const pointLat: number[] = [];
  const pointLng: number[] = [];
  const pointNode: number[] = [];
  for (let i = 0; i < n; i++) {
    pointLat.push(coords[i * 2]!);
    pointLng.push(coords[i * 2 + 1]!);
    pointNode.push(i);
  }
  for (const e of edges) {
    if (!e) continue;
    const pts = [
      coords[e.from * 2]!,
      coords[e.from * 2 + 1]!,
      ...e.inner,
      coords[e.to * 2]!,
      coords[e.to * 2 + 1]!,
    ];
    const total = polylineM(pts);
    let along = 0;
    for (let k = 2; k + 2 < pts.length; k += 2) {
      along += haversineM(pts[k - 2]!, pts[k - 1]!, pts[k]!, pts[k + 1]!);
      pointLat.push(pts[k]!);
      pointLng.push(pts[k + 1]!);
      pointNode.push(along <= total / 2 ? e.from : e.to);
    }
  }
  const lat = Float64Array.from(pointLat);
  const lng = Float64Array.from(pointLng);
  return {
    coords,
    edges,
    pointLat: lat,
    pointLng: lng,
    pointNode: Int32Array.from(pointNode),
    grid: new PointGrid(lat, lng, 0.5),
  };
}

/** Land raster resolution: 0.02 degrees (about 2 km), as the road stage's mask. */
export const COAST_RES = 0.02;

/** "Near the sea": open sea (not land in world-atlas land-10m) within a radius. */
export class CoastTest {
  private readonly land: LandRaster;

  constructor(topo: Topology, res = COAST_RES) {
    this.land = new LandRaster(topo, res);
  }

  isSea(lat: number, lng: number): boolean {
    return !this.land.isLand(lat, lng);
  }

  /** True when some raster cell within radiusM of the point is sea. */
  seaWithin(lat: number, lng: number, radiusM: number): boolean {
    const { res } = this.land;
    const dLat = radiusM / 111_195;
    const dLng = dLat / Math.max(0.05, Math.cos((lat * Math.PI) / 180));
    for (let y = lat - dLat; y <= lat + dLat + 1e-9; y += res) {
      for (let x = lng - dLng; x <= lng + dLng + 1e-9; x += res) {
        const dy = (y - lat) / dLat;
        const dx = (x - lng) / dLng;
        if (dx * dx + dy * dy <= 1 && this.isSea(y, x)) return true;
      }
    }
    return false;
  }
}
