/**
 * Road network table (road-network.bin) -> routable road graph (road.graph, docs/road.md "Road
 * graph"). Only truck-carrying links become edges; every node is kept, so a point on an island
 * without a truck link snaps to that island and answers no_route instead of snapping across the
 * water to the mainland.
 *
 * Times: road edges carry CAR speed (the network's truck speed x 1.2) so the spec's truck rule
 * (engine/road/truck.ts) applies on top exactly once. Ferries and tunnels are crossings with a
 * fixed time (the listed hours, not scaled by the truck rule); ferries form the `ferry` gate so a
 * query can avoid them. Crossings and bridges are each a zone of their own, so a route names the
 * water it crosses.
 */
import { UnionFind } from "../../common/union-find.ts";
import {
  CROSSING_KINDS,
  crossingZoneId,
  EDGE_CLASS,
  FERRY_GATE,
  NAMED_KINDS,
  ROAD_GATES,
  ROAD_GRAPH_KIND,
  ROAD_GRAPH_SETTINGS,
  TRUCK_TIME_FACTOR,
} from "../../formats/road-graph.ts";
import { GRAPH_MODE, type GraphEdge, type GraphSpec } from "../graph/encode.ts";
import type { RoadLink, RoadNode } from "./network.ts";

export interface RoadGraphStats {
  nodes: number;
  edges: number;
  roadEdges: number;
  ferries: number;
  tunnels: number;
  bridges: number;
  droppedNonTruck: number;
  roadKm: number;
  /** Connected components over the graph's edges, largest first (singletons included). */
  componentSizes: number[];
  maxCarKmh: number;
}

export interface RoadGraphInput {
  nodes: readonly RoadNode[];
  links: readonly RoadLink[];
  /** ISO alpha-2 -> country name for `names.countries`; the code is used when missing. */
  countryNames?: ReadonlyMap<string, string>;
}

export function buildRoadGraph(input: RoadGraphInput): { spec: GraphSpec; stats: RoadGraphStats } {
  const { nodes, links } = input;
  const truck = links.filter((l) => l.carriesTruck);
  const carKmh = (l: RoadLink) =>
    // Bridges' listed hours are a drive: they count as car time like any road link.
    l.kind === "bridge" && l.crossingHours
      ? l.lengthM / 1000 / l.crossingHours
      : l.speedKmh * TRUCK_TIME_FACTOR;
  let maxCarKmh = 0;
  for (const l of truck) if (!CROSSING_KINDS.has(l.kind)) maxCarKmh = Math.max(maxCarKmh, carKmh(l));
  if (maxCarKmh <= 0) maxCarKmh = 100;

  const codes = [...new Set(truck.flatMap((l) => [l.country, l.countryB]).filter(Boolean))].sort();
  const countryIndex = new Map(codes.map((c, i) => [c, i]));
  const countries = codes.map((id) => ({ id, name: input.countryNames?.get(id) ?? id }));

  const zones: Array<{ id: string; name: string }> = [];
  const stats: RoadGraphStats = {
    nodes: nodes.length,
    edges: truck.length,
    roadEdges: 0,
    ferries: 0,
    tunnels: 0,
    bridges: 0,
    droppedNonTruck: links.length - truck.length,
    roadKm: 0,
    componentSizes: [],
    maxCarKmh,
  };
  const edges: GraphEdge[] = truck.map((l) => {
    const edge: GraphEdge = {
      from: l.a,
      to: l.b,
      metres: l.lengthM,
      edgeClass: EDGE_CLASS[l.kind],
      country: countryIndex.get(l.country) ?? countryIndex.get(l.countryB) ?? 0,
    };
    if (CROSSING_KINDS.has(l.kind)) {
      if (l.kind === "ferry") stats.ferries++;
      else stats.tunnels++;
      const hours = l.crossingHours ?? l.lengthM / 1000 / Math.max(l.speedKmh, 1);
      // Crossing time = listed hours exactly: len / maxCarKmh + fixed. Using the graph's top speed
      // keeps the router's time bound (metres / fastest speed) as tight as the roads allow.
      const moving = (l.lengthM / 1000 / maxCarKmh) * 3600;
      edge.speedKmh = maxCarKmh;
      edge.fixedSeconds = Math.max(0, hours * 3600 - moving);
      if (l.kind === "ferry") {
        edge.mode = GRAPH_MODE.sea;
        edge.gate = FERRY_GATE;
      }
    } else {
      if (l.kind === "bridge") stats.bridges++;
      else stats.roadEdges++;
      stats.roadKm += l.lengthM / 1000;
      edge.speedKmh = carKmh(l);
    }
    if (NAMED_KINDS.has(l.kind)) {
      edge.zones = [[zones.length, l.lengthM]];
      zones.push({ id: crossingZoneId(l.kind, zones.length), name: l.name });
    }
    return edge;
  });
  // zone_id is a u8.
  if (zones.length > 255)
    throw new Error(`road graph: ${zones.length} crossings, at most 255 fit the zone index`);
  stats.roadKm = Math.round(stats.roadKm);
  stats.componentSizes = componentSizes(nodes.length, edges);

  const coords = new Float64Array(nodes.length * 2);
  nodes.forEach((n, i) => {
    coords[2 * i] = n.lat;
    coords[2 * i + 1] = n.lng;
  });
  return {
    spec: {
      kind: ROAD_GRAPH_KIND,
      mode: "road",
      nodes: coords,
      edges,
      gates: ROAD_GATES,
      zones,
      countries,
      settings: ROAD_GRAPH_SETTINGS,
      landmarkClosed: 0,
    },
    stats,
  };
}

function componentSizes(n: number, edges: readonly GraphEdge[]): number[] {
  const sets = new UnionFind(n);
  for (const e of edges) sets.union(e.from, e.to);
  return [...sets.sizes().values()].sort((a, b) => b - a);
}
