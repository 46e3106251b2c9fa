/**
 * Pipeline stage: rail.graph -> rail.hierarchy, the contraction hierarchy the rail planner
 * searches in its time metric (docs/routing-speed.md, "Hierarchies per graph"; stage code in
 * graph-hierarchy.ts).
 */
import { RAIL_HIERARCHY_OUTPUT, RAIL_SPEED_KMH } from "../../formats/hierarchies.ts";
import { type HierarchySpec, hierarchyStage } from "./graph-hierarchy.ts";
import { RAIL_GRAPH_OUTPUT } from "./rail-graph.ts";

export const RAIL_HIERARCHY: HierarchySpec = {
  graph: RAIL_GRAPH_OUTPUT,
  kind: "rail-graph",
  output: RAIL_HIERARCHY_OUTPUT,
  timeKmh: RAIL_SPEED_KMH,
};

export const railHierarchyStage = hierarchyStage("rail-hierarchy", RAIL_HIERARCHY);
