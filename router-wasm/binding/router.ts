/**
 * Hand-written binding for router.wasm (router-wasm/src/ffi.rs). Web-standard APIs only
 * (WebAssembly, typed arrays, TextDecoder) so it runs under Bun, Node and Deno alike.
 * One WasmRouter = one WebAssembly instance = one loaded graph; not shareable across threads.
 */
import { decodeArtifact } from "../../data-build/format/container.ts";

export const GRAPH_FORMAT_VERSION = 1;

export const STATUS = { found: 0, noRoute: 1, budgetExhausted: 2, notLoaded: 3, noSnap: 4 } as const;
export type Status = (typeof STATUS)[keyof typeof STATUS];

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
} as const;

interface Exports {
  memory: WebAssembly.Memory;
  pr_alloc(len: number): number;
  pr_free(ptr: number, len: number): void;
  pr_load(ptr: number, len: number, baseClosed: number): number;
  pr_error_ptr(): number;
  pr_error_len(): number;
  pr_snap(lat: number, lng: number): number;
  pr_route(
    fromLat: number,
    fromLng: number,
    toLat: number,
    toLng: number,
    closed: number,
    maxSettled: number,
    wantPath: number,
  ): number;
  pr_result_meta(): number;
  pr_result_gates(): number;
  pr_result_zones(): number;
  pr_result_path(): number;
  pr_zone_count(): number;
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

/** The graph's `names` section: gate and zone ids in code order. */
export interface GraphNames {
  mode: string;
  gates: Array<{ id: string; name: string }>;
  zones: Array<{ id: string; name: string }>;
}

export class WasmRouter {
  private meta: Float64Array;

  private constructor(
    private readonly x: Exports,
    readonly buildId: string,
    readonly names: GraphNames,
  ) {
    this.meta = this.f64(x.pr_result_meta(), 16);
  }

  /**
   * Instantiates the module and loads a graph artifact. The container is verified on both sides
   * (here for names and build id, in Rust before any query); a stale or foreign file throws an
   * ArtifactError naming `path`. `baseClosed` = gates every query will close (the caller's
   * defaults); landmark bounds assume them closed, so queries closing them are fastest.
   */
  static async create(
    wasm: BufferSource | WebAssembly.Module,
    graph: Uint8Array,
    opts: { kind?: string; path?: string; baseClosed?: number } = {},
  ): Promise<WasmRouter> {
    const kind = opts.kind ?? "sea-graph";
    const artifact = decodeArtifact(graph, {
      kind,
      formatVersion: GRAPH_FORMAT_VERSION,
      path: opts.path ?? kind,
    });
    const names = JSON.parse(new TextDecoder().decode(artifact.sections.get("names"))) as GraphNames;
    const module = wasm instanceof WebAssembly.Module ? wasm : await WebAssembly.compile(wasm);
    const instance = await WebAssembly.instantiate(module, {});
    const x = instance.exports as unknown as Exports;
    const ptr = x.pr_alloc(graph.length);
    new Uint8Array(x.memory.buffer, ptr, graph.length).set(graph);
    const rc = x.pr_load(ptr, graph.length, (opts.baseClosed ?? 0) >>> 0);
    x.pr_free(ptr, graph.length);
    if (rc !== 0) {
      const msg = new TextDecoder().decode(
        new Uint8Array(x.memory.buffer, x.pr_error_ptr(), x.pr_error_len()),
      );
      throw new Error(msg);
    }
    return new WasmRouter(x, artifact.buildId, names);
  }

  private f64(ptr: number, len: number): Float64Array {
    return new Float64Array(this.x.memory.buffer, ptr, len);
  }

  /** Views die when the memory grows; re-create them lazily. */
  private metaView(): Float64Array {
    if (this.meta.buffer !== this.x.memory.buffer) this.meta = this.f64(this.x.pr_result_meta(), 16);
    return this.meta;
  }

  snap(lat: number, lng: number): SnappedNode | null {
    const node = this.x.pr_snap(lat, lng);
    if (node < 0) return null;
    const m = this.metaView();
    return { node, lat: m[M.fromLat]!, lng: m[M.fromLng]!, snapM: m[M.fromSnapM]! };
  }

  /** Shortest route between two points; `closed` is the gate bitmask (bit k = gate code k + 1). */
  route(
    fromLat: number,
    fromLng: number,
    toLat: number,
    toLng: number,
    closed: number,
    maxSettled: number,
    path: boolean,
  ): RawRoute {
    const x = this.x;
    const status = x.pr_route(
      fromLat,
      fromLng,
      toLat,
      toLng,
      closed >>> 0,
      maxSettled >>> 0,
      path ? 1 : 0,
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
    out.zoneMetres = Array.from(this.f64(x.pr_result_zones(), x.pr_zone_count()));
    if (path) {
      // Copy out of linear memory (the next call reuses it); allocate + set is ~5x faster than slice() in Bun.
      const view = this.f64(x.pr_result_path(), m[M.pathPoints]! * 2);
      out.path = new Float64Array(view.length);
      out.path.set(view);
    }
    return out;
  }
}
