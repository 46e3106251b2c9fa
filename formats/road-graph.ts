/**
 * The road graph's conventions (road.graph, docs/road.md "Road graph"), shared by its builder
 * (data-build/road/graph.ts) and the road planner: the link kinds and their edge classes, the
 * ferry gate, the zone ids of named crossings, and the car speeds the edges carry.
 */

/**
 * The spec's road-time rule (Limits, "Road time"): truck driving time is car time x 1.2. Road edges
 * carry CAR speed (the network's truck speed x this) so the planner applies the truck rule
 * (engine/road/truck.ts) on top exactly once.
 */
export const TRUCK_TIME_FACTOR = 1.2;

/**
 * What road.graph bakes in and the planner applies again: its edges carry car speed (the network's
 * truck speed x the factor) and the planner turns car time back into truck time with the same
 * factor, so a graph built with another factor is refused at load.
 */
export const ROAD_GRAPH_SETTINGS = { truck_time_factor: TRUCK_TIME_FACTOR } as const;

/** The road network's link kinds (road-network.bin link_kind codes, in order). */
export const LINK_KINDS = ["road", "ferry", "tunnel", "bridge"] as const;
export type LinkKind = (typeof LINK_KINDS)[number];

export const ROAD_GRAPH_KIND = "road-graph";
export const ROAD_GRAPH_OUTPUT = "road.graph";

/** Gate codes (1-based): closing gate 1 avoids every ferry. */
export const ROAD_GATES = [{ id: "ferry", name: "Ferries" }] as const;
export const FERRY_GATE = 1;

/** edge_class codes: the network's link kinds in order (0 road, 1 ferry, 2 tunnel, 3 bridge). */
export const EDGE_CLASS: Record<LinkKind, number> = Object.fromEntries(
  LINK_KINDS.map((k, i) => [k, i]),
) as Record<LinkKind, number>;

/** Link kinds timed as fixed crossings and listed in ferry_paths (a tunnel here is a shuttle or strait tunnel). */
export const CROSSING_KINDS: ReadonlySet<LinkKind> = new Set<LinkKind>(["ferry", "tunnel"]);
/** Link kinds a route names (a zone each): the crossings and the bridges, which are driven. */
export const NAMED_KINDS: ReadonlySet<LinkKind> = new Set<LinkKind>(["ferry", "tunnel", "bridge"]);

/** Zone ids of named links: `${kind}:${index}`; the planner reads the kind back with crossingKindOf. */
export const crossingZoneId = (kind: LinkKind, index: number) => `${kind}:${index}`;
export const crossingKindOf = (zoneId: string): LinkKind | null => {
  const k = zoneId.split(":")[0] as LinkKind;
  return NAMED_KINDS.has(k) ? k : null;
};
