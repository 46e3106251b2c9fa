/**
 * The road and rail contraction hierarchies (docs/routing-speed.md, "Hierarchies per graph"):
 * their files and the one metric each is built in, shared by the data build and the planners.
 * Each is the time objective at the graph's default speed, the only objective its planner asks.
 */

export const ROAD_HIERARCHY_OUTPUT = "road.hierarchy";
export const RAIL_HIERARCHY_OUTPUT = "rail.hierarchy";

/** Road time's default speed: every road edge carries its own, so it matters only for a graph without. */
export const ROAD_DEFAULT_KMH = 60;

/** Spec, Limits: rail 30 km/h average including stops, every track edge's speed (ferries carry their own). */
export const RAIL_SPEED_KMH = 30;
