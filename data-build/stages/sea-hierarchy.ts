/**
 * Pipeline stage: data/build/sea.graph -> data/build/sea.hierarchy, the contraction hierarchy the
 * sea router answers distance queries with (docs/routing-speed.md; stage code in
 * graph-hierarchy.ts).
 */
import type { WasmRouter } from "../../router-wasm/binding/router.ts";
import { GRAPH_KIND } from "../sea/graph.ts";
import { type HierarchySpec, hierarchyBytes, hierarchyStage } from "./graph-hierarchy.ts";

export const SEA_HIERARCHY_OUTPUT = "sea.hierarchy";

const SEA: HierarchySpec = { graph: "sea.graph", kind: GRAPH_KIND, output: SEA_HIERARCHY_OUTPUT, timeKmh: 0 };

/** Contracts a sea graph's bytes into its hierarchy artifact, in `router` (the graph is unloaded after). */
export function seaHierarchyBytes(router: WasmRouter, graph: Uint8Array, buildId: string): Uint8Array {
  return hierarchyBytes(router, graph, SEA, buildId);
}

export const seaHierarchyStage = hierarchyStage("sea-hierarchy", SEA);
