/**
 * Hand-written binding for router.wasm (router-wasm/src/ffi/). Web-standard APIs only
 * (WebAssembly, typed arrays, TextDecoder) so it runs under Bun, Node and Deno alike.
 * One WasmRouter = one WebAssembly instance holding any number of graphs (sea, rail, road, ...),
 * each named by the handle `load` returns; not shareable across threads.
 */
import { latLngPairs, type PathPoint } from "../../common/geo.ts";
import { type Artifact, decodeArtifact } from "../../formats/container.ts";
import { GRAPH_FORMAT_VERSION } from "../../formats/graph-version.ts";
import { type Exports, M, PATH, RIVER } from "./ffi.ts";
import type {
  GraphNames,
  LoadedGraph,
  ManyResult,
  RawRoute,
  RiverFigures,
  RiverRoute,
  SnappedNode,
} from "./results.ts";

export type { GraphNames, LoadedGraph, ManyResult, RawRoute, RiverFigures, RiverRoute, SnappedNode };
export { GRAPH_FORMAT_VERSION };

/** The sea graph's contraction hierarchy artifact kind (docs/routing-speed.md), hierarchy/mod.rs KIND. */
export const HIERARCHY_KIND = "sea-hierarchy";

/** The hierarchy artifact kind of a graph kind: `road-graph` -> `road-hierarchy`. */
export const hierarchyKind = (graphKind: string): string => `${graphKind.replace(/-graph$/, "")}-hierarchy`;

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
 * River costing of one query on a river graph (docs/graph-format.md, "River costs"): over ground
 * max(3, speed through water +- current) km/h by direction, x 1.1, x the factors of the edge's
 * seasonal rules, plus its lock seconds; edges below CEMT class IV cost x `avoid` in the search only.
 */
export interface RiverCosting {
  /**
   * One time factor per `names.rules` index: 0 = the rule closes its stretches, 1 = no effect,
   * > 1 = slower (ice, low water). Factors in (0, 1) are refused (badQuery). Default: all 1, i.e.
   * seasonal rules off.
   */
  ruleFactors?: ArrayLike<number>;
  /** Search-cost factor of edges below class IV (>= 1); default 4. */
  avoid?: number;
  /** Speed through water of edges without one of their own (km/h); default 12.5. */
  defaultSpeedKmh?: number;
}

/** The river graph contract's defaults (data-build/graph/encode.ts). */
export const RIVER_DEFAULTS = { avoid: 4, speedKmh: 12.5 } as const;

/**
 * What a search minimises, computed per edge at query time: `distance` (metres), `time`
 * (seconds: length / speed, the edge's speed when the graph carries one, else `defaultSpeedKmh`,
 * plus the edge's fixed seconds) or `river` (seconds, direction-aware: RiverCosting).
 */
export type Objective =
  | { kind: "distance" }
  | { kind: "time"; defaultSpeedKmh: number }
  | ({ kind: "river" } & RiverCosting);
const DISTANCE: Objective = { kind: "distance" };
const objectiveArgs = (o: Objective): [number, number] => {
  if (o.kind === "time") return [1, o.defaultSpeedKmh];
  if (o.kind === "river") return [2, o.defaultSpeedKmh ?? RIVER_DEFAULTS.speedKmh];
  return [0, 0];
};

const NO_POINT = 0xffffffff;

const UTF8 = new TextDecoder();

/** What a route returns of its path: none, its pairs, or its JSON text (for a caller that writes JSON). */
export type PathOutput = boolean | "json";

export class WasmRouter {
  private meta: Float64Array;
  private readonly graphs = new Map<number, LoadedGraph>();
  /**
   * Per graph with a hierarchy (the sea: the high-volume routes), one `[lat, lng]` array per graph
   * point, made the first time a path passes it and shared by every path since: a route's path
   * allocates one array instead of one per point (docs/routing-speed.md). Their paths' JSON the
   * router writes itself (`PATH.json`).
   */
  private readonly sharedPairs = new Map<number, Array<PathPoint | null>>();

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
   * Loads a graph artifact of `kind` (default `sea-graph`) and returns its handle. Kind, payload
   * version and build id are checked here, every checksum once, in Rust before any query (with the
   * landmark tables checked against the graph's checksum); a stale, corrupt or foreign file throws
   * an error naming `path` and saying how to rebuild.
   */
  load(graph: Uint8Array, opts: { kind?: string; path?: string } = {}): LoadedGraph & { artifact: Artifact } {
    const kind = opts.kind ?? "sea-graph";
    const path = opts.path ?? kind;
    // Rust verifies every checksum of these same bytes in pr_load below, before any query.
    const artifact = decodeArtifact(graph, {
      kind,
      formatVersion: GRAPH_FORMAT_VERSION,
      path,
      checksums: false,
    });
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
    // Only now are the sections known to be intact (Rust checked them).
    const names = JSON.parse(new TextDecoder().decode(artifact.sections.get("names"))) as GraphNames;
    // The names section must name every waterway and rule the edges use (queries index them).
    const used = { waterways: x.pr_waterway_count(handle), rules: x.pr_rule_count(handle) };
    for (const what of ["waterways", "rules"] as const) {
      if (used[what] > (names[what]?.length ?? 0)) {
        x.pr_unload(handle);
        throw new Error(
          `artifact ${path}: edges use ${used[what]} ${what} but names lists ${names[what]?.length ?? 0}; rebuild it with \`npm run build\``,
        );
      }
    }
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

  /**
   * Attaches a contraction hierarchy artifact to graph `handle` (queries in its metric then use
   * it, with the same answers as A*). Throws, naming `path` and how to rebuild, when it is not a
   * hierarchy of the graph's kind (`hierarchyKind`) and payload version or was built for another
   * graph (checksum).
   */
  loadHierarchy(handle: number, bytes: Uint8Array, path = HIERARCHY_KIND): void {
    const x = this.x;
    const enc = new TextEncoder();
    const pathBytes = enc.encode(path);
    const kindBytes = enc.encode(hierarchyKind(this.graphs.get(handle)?.kind ?? ""));
    const total = bytes.length + pathBytes.length + kindBytes.length;
    const ptr = x.pr_alloc(total);
    const mem = new Uint8Array(x.memory.buffer, ptr, total);
    mem.set(bytes);
    mem.set(pathBytes, bytes.length);
    mem.set(kindBytes, bytes.length + pathBytes.length);
    const kindPtr = ptr + bytes.length + pathBytes.length;
    const status = x.pr_load_hierarchy(
      handle,
      ptr,
      bytes.length,
      ptr + bytes.length,
      pathBytes.length,
      kindPtr,
      kindBytes.length,
    );
    x.pr_free(ptr, total);
    if (status !== 0) throw new Error(this.error());
    this.sharedPairs.set(handle, new Array(x.pr_point_id_count(handle)).fill(null));
  }

  /** Whether graph `handle` answers queries in a hierarchy's metric with it (else A*). */
  hasHierarchy(handle: number): boolean {
    return this.x.pr_has_hierarchy(handle) === 1;
  }

  /**
   * The metric of graph `handle`'s hierarchy: 0 for distance, else the default speed (km/h) of
   * the time objective it serves; null without a hierarchy.
   */
  hierarchyKmh(handle: number): number | null {
    const kmh = this.x.pr_hierarchy_kmh(handle);
    return kmh < 0 ? null : kmh;
  }

  /**
   * How many settles a distance query tries with A* before the hierarchy (A* answers most port
   * pairs in fewer); 0 = the hierarchy answers every distance query. Throws without a hierarchy.
   */
  setAstarFirst(handle: number, settles: number): void {
    if (this.x.pr_hierarchy_astar_first(handle, settles >>> 0) !== 0)
      throw new Error(`graph ${handle} has no hierarchy`);
  }

  /**
   * Builds the hierarchy's full top distance table for queries closing `closed` now (70-110 ms,
   * 18 MB), instead of the smaller one a mask earns on its 500th query (docs/routing-speed.md).
   * Throws without a hierarchy.
   */
  prepareTopTable(handle: number, closed: number): void {
    if (this.x.pr_hierarchy_table(handle, closed >>> 0) !== 0)
      throw new Error(`graph ${handle} has no hierarchy`);
  }

  /**
   * The top distance tables graph `handle`'s searcher holds, the most recently used last: each
   * table's closed mask and the ranks it covers (a full table or an earned, smaller one). Empty
   * without a hierarchy; throws for an unknown handle.
   */
  topTables(handle: number): Array<{ closed: number; ranks: number }> {
    const count = this.x.pr_top_tables(handle);
    if (count < 0) throw new Error(`no graph loaded under handle ${handle}`);
    const pairs = new Uint32Array(this.x.memory.buffer, this.x.pr_result_tables(), 2 * count);
    return Array.from({ length: count }, (_, i) => ({ closed: pairs[2 * i]!, ranks: pairs[2 * i + 1]! }));
  }

  /**
   * Contracts graph `handle` into a hierarchy artifact stamped `buildId` (the data build), in
   * metres, or with `timeKmh` in the seconds of the time objective at that default speed.
   */
  buildHierarchy(handle: number, buildId: string, timeKmh = 0): Uint8Array {
    const x = this.x;
    const enc = new TextEncoder();
    const id = enc.encode(buildId);
    const kind = enc.encode(hierarchyKind(this.graphs.get(handle)?.kind ?? ""));
    const ptr = x.pr_alloc(id.length + kind.length);
    new Uint8Array(x.memory.buffer, ptr, id.length).set(id);
    new Uint8Array(x.memory.buffer, ptr + id.length, kind.length).set(kind);
    const len = x.pr_hierarchy_build(handle, ptr, id.length, ptr + id.length, kind.length, timeKmh);
    x.pr_free(ptr, id.length + kind.length);
    if (len === 0) throw new Error(`no graph loaded under handle ${handle}, or no usable speed ${timeKmh}`);
    return new Uint8Array(x.memory.buffer, x.pr_hierarchy_ptr(), len).slice();
  }

  /** Frees a graph; its handle may come back from a later load. */
  unload(handle: number): void {
    if (this.x.pr_unload(handle) !== 0) throw new Error(`no graph loaded under handle ${handle}`);
    this.graphs.delete(handle);
    this.sharedPairs.delete(handle);
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
    return this.text(this.x.pr_error_ptr(), this.x.pr_error_len());
  }

  /** UTF-8 text the router wrote at `ptr`. */
  private text(ptr: number, bytes: number): string {
    return UTF8.decode(new Uint8Array(this.x.memory.buffer, ptr, bytes));
  }

  /** Every path point's `[lat, lng]` of graph `handle` by id (`pr_rounded_points`): a view, valid until the memory grows. */
  roundedPoints(handle: number): Float64Array {
    return this.f64(this.x.pr_rounded_points(handle), this.x.pr_point_id_count(handle) * 2);
  }

  private f64(ptr: number, len: number): Float64Array {
    return new Float64Array(this.x.memory.buffer, ptr, len);
  }

  /** Views die when the memory grows; re-create them lazily. */
  private metaView(): Float64Array {
    if (this.meta.buffer !== this.x.memory.buffer) this.meta = this.f64(this.x.pr_result_meta(), 16);
    return this.meta;
  }

  /**
   * The pr_input buffer for a query: `lead` f64 for the caller (one-to-many targets), then a
   * river query's block `[avoid, n, factor...]` (ffi/routes.rs). Factors default to all 1 for the
   * graph's `names.rules`.
   */
  private input(handle: number, lead: number, objective: Objective): Float64Array {
    if (objective.kind !== "river") return this.f64(this.x.pr_input(lead), lead);
    const factors =
      objective.ruleFactors ?? new Float64Array(this.graphs.get(handle)?.names.rules?.length ?? 0).fill(1);
    const len = lead + 2 + factors.length;
    const input = this.f64(this.x.pr_input(len), len);
    input[lead] = objective.avoid ?? RIVER_DEFAULTS.avoid;
    input[lead + 1] = factors.length;
    input.set(factors, lead + 2);
    return input;
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
    path: PathOutput,
    objective: Objective = DISTANCE,
  ): RawRoute {
    const x = this.x;
    if (objective.kind === "river") this.input(handle, 0, objective);
    // Graphs with shared pairs (a hierarchy) report ids or the path's JSON; others their coordinates.
    const shared = path ? this.sharedPairs.get(handle) : undefined;
    const want = !path ? PATH.none : !shared ? PATH.points : path === "json" ? PATH.json : PATH.ids;
    const status = x.pr_route(
      handle,
      fromLat,
      fromLng,
      toLat,
      toLng,
      closed >>> 0,
      maxSettled >>> 0,
      want,
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
      // Pairs read straight out of linear memory (the next call reuses it): copying into a fresh
      // Float64Array first costs as much again in Bun (~4 us for 6 kB).
      const count = m[M.pathPoints]!;
      if (!shared) {
        const pairs = latLngPairs(this.f64(x.pr_result_path(), count * 2));
        if (path === "json") out.pathJson = JSON.stringify(pairs);
        else out.path = pairs;
      } else if (path === "json") {
        out.pathJson = this.text(x.pr_result_path_json(), m[M.pathJsonBytes]!);
      } else {
        const ids = new Uint32Array(x.memory.buffer, x.pr_result_path_ids(), count);
        // The query's own ends, in path order (at most two).
        const ends = this.f64(x.pr_result_path(), 4);
        out.path = pairsOf(ids, shared, new PointReader(this, handle, ends));
      }
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
    const objective = opts.objective ?? DISTANCE;
    const input = this.input(handle, 2 * k, objective);
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
      ...objectiveArgs(objective),
    ) as Status;
    const m = this.metaView();
    const many = this.f64(x.pr_result_many(), 4 * k);
    const metres = new Float64Array(k);
    const cost = new Float64Array(k);
    const real = new Float64Array(k);
    metres.set(many.subarray(0, k));
    cost.set(many.subarray(k, 2 * k));
    real.set(many.subarray(2 * k, 3 * k));
    const class0M = many.slice(3 * k, 4 * k);
    const snapped = status === STATUS.noSnap || status === STATUS.notLoaded || status === STATUS.badQuery;
    return {
      status,
      metres,
      cost,
      real,
      class0M,
      from: snapped
        ? null
        : { node: m[M.fromNode]!, lat: m[M.fromLat]!, lng: m[M.fromLng]!, snapM: m[M.fromSnapM]! },
      settled: m[M.settled]!,
    };
  }

  /**
   * Metres from each source to each target (oneToMany's answers, row by row: `sources.length`
   * rows of `targets.length`), every point snapped once: a table of many rows costs its searches,
   * not a snap of every target per row.
   */
  manyToMany(
    handle: number,
    sources: ReadonlyArray<{ lat: number; lng: number }>,
    targets: ReadonlyArray<{ lat: number; lng: number }>,
    closed: number,
    opts: { maxSettled?: number; objective?: Objective } = {},
  ): { status: Status; metres: Float64Array } {
    const objective = opts.objective ?? DISTANCE;
    const points = [...sources, ...targets];
    const input = this.input(handle, 2 * points.length, objective);
    points.forEach((p, i) => {
      input[2 * i] = p.lat;
      input[2 * i + 1] = p.lng;
    });
    const status = this.x.pr_many_to_many(
      handle,
      sources.length,
      targets.length,
      closed >>> 0,
      (opts.maxSettled ?? 0) >>> 0,
      ...objectiveArgs(objective),
    ) as Status;
    const metres = new Float64Array(sources.length * targets.length);
    metres.set(this.f64(this.x.pr_result_many(), metres.length));
    return { status, metres };
  }

  /**
   * A river route on a river graph (kind `river-graph`): the direction-aware river objective, and
   * the figures a RIVER section needs (real duration, current split, locks, metres per waterway
   * and per rule). `closed` is the gate mask, as for route().
   */
  routeRiver(
    handle: number,
    from: { lat: number; lng: number },
    to: { lat: number; lng: number },
    opts: RiverCosting & { closed?: number; maxSettled?: number; path?: boolean } = {},
  ): RiverRoute {
    const { closed = 0, maxSettled = 0, path = false, ...costing } = opts;
    const raw = this.route(handle, from.lat, from.lng, to.lat, to.lng, closed, maxSettled, path, {
      kind: "river",
      ...costing,
    });
    if (raw.status !== STATUS.found) return { ...raw, river: null };
    const r = this.f64(this.x.pr_result_river(), this.metaView()[M.riverLen]!);
    const names = this.graph(handle).names;
    const w = r[RIVER.waterways]!;
    const k = r[RIVER.rules]!;
    // Per names index: the router sizes waterways by the highest index in use, rules by the query.
    const padded = (from: number, len: number, want: number) => {
      const out = Array.from(r.subarray(from, from + len));
      while (out.length < want) out.push(0);
      return out;
    };
    return {
      ...raw,
      river: {
        seconds: r[RIVER.seconds]!,
        lockSeconds: r[RIVER.lockSeconds]!,
        locks: r[RIVER.locks]!,
        downstreamM: r[RIVER.downstreamM]!,
        upstreamM: r[RIVER.upstreamM]!,
        slackM: r[RIVER.slackM]!,
        waterwayMetres: padded(RIVER.head, w, names.waterways?.length ?? 0),
        ruleMetres: padded(RIVER.head + w, k, names.rules?.length ?? 0),
      },
    };
  }
}

/**
 * The coordinates of a path reported by ids: the query's own ends from the route's result, in
 * order, and a graph point's from the graph's rounded points, read only for points no path passed
 * before (the view is made on the first such point).
 */
class PointReader {
  private end = 0;
  private points: Float64Array | null = null;

  constructor(
    private readonly router: WasmRouter,
    private readonly handle: number,
    private readonly ends: Float64Array,
  ) {}

  /** `[lat, lng]` of the path point with `id`; call in path order (the ends count off). */
  at(id: number): [number, number] {
    if (id === NO_POINT) {
      const k = 2 * this.end++;
      return [this.ends[k]!, this.ends[k + 1]!];
    }
    // The route rounded the graph's points already (pr_route does for ids), so this call
    // allocates nothing: the memory does not grow under the caller's views.
    this.points ??= this.router.roundedPoints(this.handle);
    return [this.points[2 * id]!, this.points[2 * id + 1]!];
  }
}

/**
 * A path's `[lat, lng]` pairs, each graph point's taken from `shared` (or put there): arrays shared
 * by every route that passes the point, which no reader changes. The query's own ends are its own.
 */
function pairsOf(ids: Uint32Array, shared: Array<PathPoint | null>, points: PointReader): PathPoint[] {
  const out: PathPoint[] = new Array(ids.length);
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i]!;
    const pair = id === NO_POINT ? null : shared[id];
    if (pair) {
      out[i] = pair;
      continue;
    }
    const made: PathPoint = points.at(id);
    if (id !== NO_POINT) shared[id] = made;
    out[i] = made;
  }
  return out;
}
