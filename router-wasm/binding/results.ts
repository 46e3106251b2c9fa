/**
 * What the router binding answers: snapped nodes, routes with their figures, one-to-many results
 * and a loaded graph's names and sections. router.ts re-exports them for its callers.
 */
import type { PathPoint } from "../../common/geo.ts";
import type { Status } from "./router.ts";

export interface SnappedNode {
  node: number;
  lat: number;
  lng: number;
  /** Great-circle metres from the query point to the node. */
  snapM: number;
}

export interface RawRoute {
  status: Status;
  metres: number;
  /** What the search minimised: metres (distance) or seconds (time). */
  cost: number;
  from: SnappedNode;
  to: SnappedNode;
  /** Heap pops the search used (its cost, and what the budget limits). */
  settled: number;
  /** 1-based gate codes in travel order, each once. */
  gates: number[];
  /** Metres per zone index. */
  zoneMetres: number[];
  /**
   * [lat, lng] points from the snapped origin to the snapped destination, when asked for. Read
   * only: on a graph with a hierarchy each point's array is shared by every path through it.
   */
  path?: PathPoint[];
  /** The path as its JSON text (JSON.stringify of `path`), when asked for instead of the pairs. */
  pathJson?: string;
}

/** What a river route amounts to (ffi/mod.rs `river`); partial edges at the ends pro rata. */
export interface RiverFigures {
  /** Real duration in seconds: moving time with the rule factors, plus locks (no class avoid factor). */
  seconds: number;
  /** Lock seconds, inside `seconds`. */
  lockSeconds: number;
  /** Locks passed (fractional only when a query point lies on an edge with locks). */
  locks: number;
  downstreamM: number;
  upstreamM: number;
  /** Metres on slack water (current 0: canals, lakes, tidal stretches). */
  slackM: number;
  /** Metres per `names.waterways` index. */
  waterwayMetres: number[];
  /** Metres per `names.rules` index, on the stretches each rule touches. */
  ruleMetres: number[];
}

export interface RiverRoute extends RawRoute {
  /** Present when status is found. `cost` is the search cost (avoid factor included). */
  river: RiverFigures | null;
}

export interface ManyResult {
  /** found once the search completed (each target may still be unreachable). */
  status: Status;
  /** Per target: metres; Infinity = unreachable, NaN = did not snap (or budget ran out first). */
  metres: Float64Array;
  /** Per target: what the search minimised (metres or seconds), same conventions. */
  cost: Float64Array;
  /** Per target: the cost without search-only penalties (river: real seconds); else equal to cost. */
  real: Float64Array;
  /** Per target: metres on class-0 edges (river: uncurated water); 0 on graphs without classes. */
  class0M: Float64Array;
  from: SnappedNode | null;
  settled: number;
}

/** The graph's `names` section: gate and zone ids in code order. */
export interface GraphNames {
  mode: string;
  gates: Array<{ id: string; name: string }>;
  zones: Array<{ id: string; name: string }>;
  countries?: Array<{ id: string; name: string }>;
  /** River graphs: waterway per index (edge_waterway) and seasonal rule ids (rule_id). */
  waterways?: Array<{ name: string; class: string }>;
  rules?: Array<{ id: string }>;
  /** Values baked in at build time that the planner applies again (GraphSpec.settings). */
  settings?: Record<string, number>;
}

/** A graph loaded into a WasmRouter. */
export interface LoadedGraph {
  handle: number;
  kind: string;
  path: string;
  buildId: string;
  names: GraphNames;
  nodes: number;
  /** Optional sections carried (graph/mod.rs HAS_* flags). */
  sections: number;
  /** Landmarks from the artifact and the closed mask they assume (0 = great-circle bounds only). */
  landmarks: { count: number; baseClosed: number };
}

/** A path point's id for the query's own ends (search/summary.rs NO_POINT): not a graph point. */
