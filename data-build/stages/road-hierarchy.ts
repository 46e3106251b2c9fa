/**
 * Pipeline stage: road.graph -> road.hierarchy, the contraction hierarchy the road planner
 * searches in its time metric (docs/routing-speed.md, "Hierarchies per graph"; stage code in
 * graph-hierarchy.ts).
 */
import { ROAD_DEFAULT_KMH, ROAD_HIERARCHY_OUTPUT } from "../../formats/hierarchies.ts";
import { ROAD_GRAPH_KIND, ROAD_GRAPH_OUTPUT } from "../../formats/road-graph.ts";
import { type HierarchySpec, hierarchyStage } from "./graph-hierarchy.ts";

export const ROAD_HIERARCHY: HierarchySpec = {
  graph: ROAD_GRAPH_OUTPUT,
  kind: ROAD_GRAPH_KIND,
  output: ROAD_HIERARCHY_OUTPUT,
  timeKmh: ROAD_DEFAULT_KMH,
};

export const roadHierarchyStage = hierarchyStage("road-hierarchy", ROAD_HIERARCHY);
