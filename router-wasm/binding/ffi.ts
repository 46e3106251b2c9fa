/**
 * The raw interface of router.wasm as router-wasm/src/ffi/ defines it: its exports, the layout of
 * the result meta and river arrays, and the path modes. Only the binding (router.ts) reads these.
 */

/** Indices into the result meta array (ffi/mod.rs `meta`). */
export const M = {
  status: 0,
  metres: 1,
  fromNode: 2,
  toNode: 3,
  fromLat: 4,
  fromLng: 5,
  toLat: 6,
  toLng: 7,
  fromSnapM: 8,
  toSnapM: 9,
  settled: 10,
  gateCount: 11,
  pathPoints: 12,
  cost: 13,
  riverLen: 14,
  pathJsonBytes: 15,
} as const;

/** pr_route's `want_path` (ffi/mod.rs `PATH_*`). */
export const PATH = { none: 0, points: 1, ids: 2, json: 3 } as const;

/** Layout of the pr_result_river array (ffi/mod.rs `river`). */
export const RIVER = {
  seconds: 0,
  lockSeconds: 1,
  locks: 2,
  downstreamM: 3,
  upstreamM: 4,
  slackM: 5,
  waterways: 6,
  rules: 7,
  head: 8,
} as const;

/** The exports of router.wasm (router-wasm/src/ffi/). */
export interface Exports {
  memory: WebAssembly.Memory;
  pr_alloc(len: number): number;
  pr_free(ptr: number, len: number): void;
  pr_load(
    ptr: number,
    len: number,
    kindPtr: number,
    kindLen: number,
    pathPtr: number,
    pathLen: number,
  ): number;
  pr_unload(handle: number): number;
  pr_error_ptr(): number;
  pr_error_len(): number;
  pr_input(len: number): number;
  pr_snap(handle: number, lat: number, lng: number): number;
  pr_route(
    handle: number,
    fromLat: number,
    fromLng: number,
    toLat: number,
    toLng: number,
    closed: number,
    maxSettled: number,
    wantPath: number,
    objective: number,
    defaultSpeedKmh: number,
  ): number;
  pr_one_to_many(
    handle: number,
    fromLat: number,
    fromLng: number,
    count: number,
    closed: number,
    maxSettled: number,
    objective: number,
    defaultSpeedKmh: number,
  ): number;
  pr_many_to_many(
    handle: number,
    sources: number,
    targets: number,
    closed: number,
    maxSettled: number,
    objective: number,
    defaultSpeedKmh: number,
  ): number;
  pr_result_meta(): number;
  pr_result_gates(): number;
  pr_result_zones(): number;
  pr_result_path(): number;
  pr_result_path_ids(): number;
  pr_result_path_json(): number;
  pr_point_id_count(handle: number): number;
  pr_rounded_points(handle: number): number;
  pr_result_many(): number;
  pr_result_river(): number;
  pr_waterway_count(handle: number): number;
  pr_rule_count(handle: number): number;
  pr_zone_count(handle: number): number;
  pr_node_count(handle: number): number;
  pr_graph_sections(handle: number): number;
  pr_landmark_count(handle: number): number;
  pr_landmark_closed(handle: number): number;
  pr_load_hierarchy(
    handle: number,
    ptr: number,
    len: number,
    pathPtr: number,
    pathLen: number,
    kindPtr: number,
    kindLen: number,
  ): number;
  pr_has_hierarchy(handle: number): number;
  pr_hierarchy_kmh(handle: number): number;
  pr_hierarchy_build(
    handle: number,
    idPtr: number,
    idLen: number,
    kindPtr: number,
    kindLen: number,
    kmh: number,
  ): number;
  pr_hierarchy_ptr(): number;
  pr_hierarchy_astar_first(handle: number, settles: number): number;
  pr_hierarchy_table(handle: number, closed: number): number;
  pr_top_tables(handle: number): number;
  pr_result_tables(): number;
}
