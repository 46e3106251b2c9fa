/**
 * Hand-written binding for router.wasm (router-wasm/src/ffi.rs). Web-standard APIs only
 * (WebAssembly, typed arrays, TextDecoder) so it runs under Bun, Node and Deno alike.
 * One WasmRouter = one WebAssembly instance holding any number of graphs (sea, rail, road, ...),
 * each named by the handle `load` returns; not shareable across threads.
 */
import { type Artifact, decodeArtifact } from "../../data-build/format/container.ts";

/** Graph payload version (docs/graph-format.md); graph.rs FORMAT_VERSION. */
export const GRAPH_FORMAT_VERSION = 2;

export const STATUS = {
  found: 0,
  noRoute: 1,
  budgetExhausted: 2,
  notLoaded: 3,
  noSnap: 4,
  badQuery: 5,
} as const;
export type Status = (typeof STATUS)[keyof typeof STATUS];

/**
 * What a search minimises, computed per edge at query time: `distance` (metres) or `time`
 * (seconds: length / speed, the edge's speed when the graph carries one, else `defaultSpeedKmh`,
 * plus the edge's fixed seconds).
 */
export type Objective = { kind: "distance" } | { kind: "time"; defaultSpeedKmh: number };
const DISTANCE: Objective = { kind: "distance" };
const objectiveArgs = (o: Objective): [number, number] =>
  o.kind === "time" ? [1, o.defaultSpeedKmh] : [0, 0];

/** Indices into the result meta array (ffi.rs `meta`). */
const M = {
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
} as const;

interface Exports {
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
  pr_result_meta(): number;
  pr_result_gates(): number;
  pr_result_zones(): number;
  pr_result_path(): number;
  pr_result_many(): number;
  pr_zone_count(handle: number): number;
  pr_node_count(handle: number): number;
  pr_graph_sections(handle: number): number;
  pr_landmark_count(handle: number): number;
  pr_landmark_closed(handle: number): number;
}

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
  /** Flat [lat, lng, ...] from the snapped origin to the snapped destination, when asked for. */
  path?: Float64Array;
}

export interface ManyResult {
  /** found once the search completed (each target may still be unreachable). */
  status: Status;
  /** Per target: metres; Infinity = unreachable, NaN = did not snap (or budget ran out first). */
  metres: Float64Array;
  /** Per target: what the search minimised (metres or seconds), same conventions. */
  cost: Float64Array;
  from: SnappedNode | null;
  settled: number;
}

/** The graph's `names` section: gate and zone ids in code order. */
export interface GraphNames {
  mode: string;
  gates: Array<{ id: string; name: string }>;
  zones: Array<{ id: string; name: string }>;
  countries?: Array<{ id: string; name: string }>;
}

/** A graph loaded into a WasmRouter. */
export interface LoadedGraph {
  handle: number;
  kind: string;
  path: string;
  buildId: string;
  names: GraphNames;
  nodes: number;
  /** Optional sections carried (graph.rs HAS_* flags). */
  sections: number;
  /** Landmarks from the artifact and the closed mask they assume (0 = great-circle bounds only). */
  landmarks: { count: number; baseClosed: number };
}

export class WasmRouter {
  private meta: Float64Array;
  private readonly graphs = new Map<number, LoadedGraph>();

  private constructor(private readonly x: Exports) {
    this.meta = this.f64(x.pr_result_meta(), 16);
  }

  /** Instantiates the module with no graph loaded. */
  static async instantiate(wasm: BufferSource | WebAssembly.Module): Promise<WasmRouter> {
    const module = wasm instanceof WebAssembly.Module ? wasm : await WebAssembly.compile(wasm);
    const instance = await WebAssembly.instantiate(module, {});
    return new WasmRouter(instance.exports as unknown as Exports);
  }

  /**
   * Loads a graph artifact of `kind` (default `sea-graph`) and returns its handle. The container
   * is verified on both sides (here for names and build id, in Rust before any query, with the
   * landmark tables checked against the graph's checksum); a stale or foreign file throws an
   * error naming `path` and saying how to rebuild.
   */
  load(graph: Uint8Array, opts: { kind?: string; path?: string } = {}): LoadedGraph & { artifact: Artifact } {
    const kind = opts.kind ?? "sea-graph";
    const path = opts.path ?? kind;
    const artifact = decodeArtifact(graph, { kind, formatVersion: GRAPH_FORMAT_VERSION, path });
    const names = JSON.parse(new TextDecoder().decode(artifact.sections.get("names"))) as GraphNames;
    const x = this.x;
    const enc = new TextEncoder();
    const kindBytes = enc.encode(kind);
    const pathBytes = enc.encode(path);
    const total = graph.length + kindBytes.length + pathBytes.length;
    const ptr = x.pr_alloc(total);
    const mem = new Uint8Array(x.memory.buffer, ptr, total);
    mem.set(graph);
    mem.set(kindBytes, graph.length);
    mem.set(pathBytes, graph.length + kindBytes.length);
    const handle = x.pr_load(
      ptr,
      graph.length,
      ptr + graph.length,
      kindBytes.length,
      ptr + graph.length + kindBytes.length,
      pathBytes.length,
    );
    x.pr_free(ptr, total);
    if (handle < 0) throw new Error(this.error());
    const loaded: LoadedGraph = {
      handle,
      kind,
      path,
      buildId: artifact.buildId,
      names,
      nodes: x.pr_node_count(handle),
      sections: x.pr_graph_sections(handle),
      landmarks: { count: x.pr_landmark_count(handle), baseClosed: x.pr_landmark_closed(handle) >>> 0 },
    };
    this.graphs.set(handle, loaded);
    // The caller may read sections it needs (node coordinates) without decoding the file again;
    // the map keeps no reference, so the file's bytes can go once the caller is done.
    return { ...loaded, artifact };
  }

  /** Frees a graph; its handle may come back from a later load. */
  unload(handle: number): void {
    if (this.x.pr_unload(handle) !== 0) throw new Error(`no graph loaded under handle ${handle}`);
    this.graphs.delete(handle);
  }

  /** The graph behind a handle, or throws. */
  graph(handle: number): LoadedGraph {
    const g = this.graphs.get(handle);
    if (!g) throw new Error(`no graph loaded under handle ${handle}`);
    return g;
  }

  /** Instantiates the module and loads one graph (the single-graph shorthand). */
  static async create(
    wasm: BufferSource | WebAssembly.Module,
    graph: Uint8Array,
    opts: { kind?: string; path?: string } = {},
  ): Promise<{ router: WasmRouter; graph: LoadedGraph }> {
    const router = await WasmRouter.instantiate(wasm);
    return { router, graph: router.load(graph, opts) };
  }

  private error(): string {
    return new TextDecoder().decode(
      new Uint8Array(this.x.memory.buffer, this.x.pr_error_ptr(), this.x.pr_error_len()),
    );
  }

  private f64(ptr: number, len: number): Float64Array {
    return new Float64Array(this.x.memory.buffer, ptr, len);
  }

  /** Views die when the memory grows; re-create them lazily. */
  private metaView(): Float64Array {
    if (this.meta.buffer !== this.x.memory.buffer) this.meta = this.f64(this.x.pr_result_meta(), 16);
    return this.meta;
  }

  snap(handle: number, lat: number, lng: number): SnappedNode | null {
    const node = this.x.pr_snap(handle, lat, lng);
    if (node < 0) return null;
    const m = this.metaView();
    return { node, lat: m[M.fromLat]!, lng: m[M.fromLng]!, snapM: m[M.fromSnapM]! };
  }

  /**
   * Cheapest route between two points of graph `handle`; `closed` is the gate bitmask (bit k =
   * gate code k + 1). The objective defaults to distance.
   */
  route(
    handle: number,
    fromLat: number,
    fromLng: number,
    toLat: number,
    toLng: number,
    closed: number,
    maxSettled: number,
    path: boolean,
    objective: Objective = DISTANCE,
  ): RawRoute {
    const x = this.x;
    const status = x.pr_route(
      handle,
      fromLat,
      fromLng,
      toLat,
      toLng,
      closed >>> 0,
      maxSettled >>> 0,
      path ? 1 : 0,
      ...objectiveArgs(objective),
    ) as Status;
    const m = this.metaView();
    const snapped = (node: number, lat: number, lng: number, snapM: number): SnappedNode => ({
      node: m[node]!,
      lat: m[lat]!,
      lng: m[lng]!,
      snapM: m[snapM]!,
    });
    const out: RawRoute = {
      status,
      metres: m[M.metres]!,
      cost: m[M.cost]!,
      from: snapped(M.fromNode, M.fromLat, M.fromLng, M.fromSnapM),
      to: snapped(M.toNode, M.toLat, M.toLng, M.toSnapM),
      settled: m[M.settled]!,
      gates: [],
      zoneMetres: [],
    };
    if (status !== STATUS.found) return out;
    const gateCount = m[M.gateCount]!;
    if (gateCount > 0)
      out.gates = Array.from(new Uint32Array(x.memory.buffer, x.pr_result_gates(), gateCount));
    out.zoneMetres = Array.from(this.f64(x.pr_result_zones(), x.pr_zone_count(handle)));
    if (path) {
      // Copy out of linear memory (the next call reuses it); allocate + set is ~5x faster than slice() in Bun.
      const view = this.f64(x.pr_result_path(), m[M.pathPoints]! * 2);
      out.path = new Float64Array(view.length);
      out.path.set(view);
    }
    return out;
  }

  /**
   * From one point to many in one search: metres per target (Infinity = unreachable, NaN = the
   * target did not snap). Targets snap like route()'s points.
   */
  oneToMany(
    handle: number,
    from: { lat: number; lng: number },
    targets: ReadonlyArray<{ lat: number; lng: number }>,
    closed: number,
    opts: { maxSettled?: number; objective?: Objective } = {},
  ): Float64Array {
    return this.oneToManyResult(handle, from, targets, closed, opts).metres;
  }

  /** oneToMany with costs, status and the source snap. */
  oneToManyResult(
    handle: number,
    from: { lat: number; lng: number },
    targets: ReadonlyArray<{ lat: number; lng: number }>,
    closed: number,
    opts: { maxSettled?: number; objective?: Objective } = {},
  ): ManyResult {
    const x = this.x;
    const k = targets.length;
    const input = this.f64(x.pr_input(2 * k), 2 * k);
    targets.forEach((t, i) => {
      input[2 * i] = t.lat;
      input[2 * i + 1] = t.lng;
    });
    const status = x.pr_one_to_many(
      handle,
      from.lat,
      from.lng,
      k,
      closed >>> 0,
      (opts.maxSettled ?? 0) >>> 0,
      ...objectiveArgs(opts.objective ?? DISTANCE),
    ) as Status;
    const m = this.metaView();
    const many = this.f64(x.pr_result_many(), 2 * k);
    const metres = new Float64Array(k);
    const cost = new Float64Array(k);
    metres.set(many.subarray(0, k));
    cost.set(many.subarray(k));
    const snapped = status === STATUS.noSnap || status === STATUS.notLoaded || status === STATUS.badQuery;
    return {
      status,
      metres,
      cost,
      from: snapped
        ? null
        : { node: m[M.fromNode]!, lat: m[M.fromLat]!, lng: m[M.fromLng]!, snapM: m[M.fromSnapM]! },
      settled: m[M.settled]!,
    };
  }
}
