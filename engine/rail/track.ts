/**
 * Where railheads meet the track (docs/rail.md, "Rail chains"). railheads.bin keeps the graph point
 * each place snapped to: a node, or an intermediate point of an edge (most of them: edges run from
 * junction to junction, median ~12 km from the snapped point to the nearer end). A chain starts
 * and ends at that point itself: the road leg ends there and the rail section rides from it along
 * its edge to either end, so no track is skipped or ridden twice.
 */
import { polylineM } from "../../common/geo.ts";
import type { Artifact } from "../../data-build/format/container.ts";
import { GRAPH_MODE } from "../../data-build/graph/encode.ts";

/** Leaving a track point by one end of its edge: the ride there. */
export interface TrackExit {
  node: number;
  metres: number;
  seconds: number;
}

export interface TrackPoint {
  lat: number;
  lng: number;
  /** The node railheads.bin routes the place from (the edge end nearer along the track). */
  node: number;
  /** On an edge's interior: the edge, the point's index among its intermediate points, metres from its first node. */
  on: { edge: number; vertex: number; along: number } | null;
  /** One exit (the node itself) or both ends of the edge. */
  exits: TrackExit[];
}

type LatLng = [number, number];

export class RailTrack {
  readonly coord: Float64Array;
  private readonly edgeFrom: Uint32Array;
  private readonly edgeTo: Uint32Array;
  private readonly arcStart: Uint32Array;
  private readonly arcEdge: Uint32Array;
  private readonly edgeLen: Float64Array;
  private readonly edgeMode: Uint8Array;
  private readonly edgeSpeed: Float32Array | null;
  private readonly geomStart: Uint32Array;
  private readonly geomCoord: Float64Array;

  /** `defaultKmh`: the speed of edges without their own (the router's time objective does the same). */
  constructor(
    art: Artifact,
    path: string,
    private readonly defaultKmh: number,
  ) {
    const sec = (name: string, optional = false) => {
      const s = art.sections.get(name);
      if (!s) {
        if (optional) return null;
        throw new Error(`${path}: section ${name} missing; rebuild the artifacts`);
      }
      // Copy: the file's buffer need not be aligned for typed views.
      return new Uint8Array(s).buffer;
    };
    this.coord = new Float64Array(sec("node_coord")!);
    this.arcStart = new Uint32Array(sec("arc_start")!);
    const arcHead = new Uint32Array(sec("arc_head")!);
    this.arcEdge = new Uint32Array(sec("arc_edge")!);
    this.edgeLen = new Float64Array(sec("edge_len")!);
    this.edgeMode = new Uint8Array(sec("edge_mode")!);
    const speed = sec("edge_speed_kmh", true);
    this.edgeSpeed = speed ? new Float32Array(speed) : null;
    this.geomStart = new Uint32Array(sec("geom_start")!);
    this.geomCoord = new Float64Array(sec("geom_coord")!);
    const edges = this.edgeLen.length;
    this.edgeFrom = new Uint32Array(edges);
    this.edgeTo = new Uint32Array(edges);
    for (let u = 0; u + 1 < this.arcStart.length; u++) {
      for (let a = this.arcStart[u]!; a < this.arcStart[u + 1]!; a++) {
        const x = this.arcEdge[a]!;
        if ((x & 1) !== 0) continue;
        this.edgeFrom[x >>> 1] = u;
        this.edgeTo[x >>> 1] = arcHead[a]!;
      }
    }
  }

  nodePoint(node: number): { lat: number; lng: number } {
    return { lat: this.coord[2 * node]!, lng: this.coord[2 * node + 1]! };
  }

  /**
   * The track point of a railhead: its snapped point on one of `node`'s edges, or the node when it
   * snapped onto the node or onto a ferry (a terminal never sits at sea).
   */
  locate(r: { node: number; snapLat: number; snapLng: number }): TrackPoint {
    const atNode: TrackPoint = {
      ...this.nodePoint(r.node),
      node: r.node,
      on: null,
      exits: [this.exit(r.node, 0, 0)],
    };
    if (atNode.lat === r.snapLat && atNode.lng === r.snapLng) return atNode;
    for (let a = this.arcStart[r.node]!; a < this.arcStart[r.node + 1]!; a++) {
      const e = this.arcEdge[a]! >>> 1;
      if (this.edgeMode[e] !== GRAPH_MODE.rail) continue;
      const first = this.geomStart[e]!;
      for (let k = first; k < this.geomStart[e + 1]!; k++) {
        if (this.geomCoord[2 * k] !== r.snapLat || this.geomCoord[2 * k + 1] !== r.snapLng) continue;
        const vertex = k - first;
        const along = polylineM(this.line(e, -1, vertex).flat());
        return {
          lat: r.snapLat,
          lng: r.snapLng,
          node: r.node,
          on: { edge: e, vertex, along },
          exits: [
            this.exit(this.edgeFrom[e]!, along, e),
            this.exit(this.edgeTo[e]!, this.edgeLen[e]! - along, e),
          ],
        };
      }
    }
    return atNode;
  }

  /** Two points on one edge ride straight along it; null when they are not on the same edge. */
  alongEdge(a: TrackPoint, b: TrackPoint): { metres: number; seconds: number } | null {
    if (!a.on || !b.on || a.on.edge !== b.on.edge) return null;
    const metres = Math.abs(a.on.along - b.on.along);
    return { metres, seconds: this.seconds(metres, a.on.edge) };
  }

  /** The track from a point to one of its exits, both ends included. */
  lineToExit(p: TrackPoint, exit: number): LatLng[] {
    if (!p.on) return [[p.lat, p.lng]];
    const e = p.on.edge;
    const inner = this.geomStart[e + 1]! - this.geomStart[e]!;
    return exit === this.edgeFrom[e] ? this.line(e, p.on.vertex, -1) : this.line(e, p.on.vertex, inner);
  }

  /** The track between two points on the same edge, both ends included. */
  lineAlong(a: TrackPoint, b: TrackPoint): LatLng[] {
    return this.line(a.on!.edge, a.on!.vertex, b.on!.vertex);
  }

  private exit(node: number, metres: number, edge: number): TrackExit {
    return { node, metres, seconds: this.seconds(metres, edge) };
  }

  private seconds(metres: number, edge: number): number {
    const own = this.edgeSpeed?.[edge] ?? 0;
    return (metres / 1000 / (own > 0 ? own : this.defaultKmh)) * 3600;
  }

  /**
   * Points of edge e from position i to position j (inclusive, either direction), positions
   * being -1 = its first node, 0..inner-1 = its intermediate points, inner = its second node.
   */
  private line(e: number, i: number, j: number): LatLng[] {
    const first = this.geomStart[e]!;
    const inner = this.geomStart[e + 1]! - first;
    const at = (k: number): LatLng =>
      k < 0
        ? [this.coord[2 * this.edgeFrom[e]!]!, this.coord[2 * this.edgeFrom[e]! + 1]!]
        : k >= inner
          ? [this.coord[2 * this.edgeTo[e]!]!, this.coord[2 * this.edgeTo[e]! + 1]!]
          : [this.geomCoord[2 * (first + k)]!, this.geomCoord[2 * (first + k) + 1]!];
    const out: LatLng[] = [];
    const step = j >= i ? 1 : -1;
    for (let k = i; k !== j + step; k += step) out.push(at(k));
    return out;
  }
}
