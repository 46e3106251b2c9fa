/**
 * Tiny hand-made river maps for the router tests: reaches written with the data build's one
 * writer (encodeGraph, mode river) and loaded into the real router.wasm through the binding.
 * Expected figures come from the contract's formula (riverSeconds), never from the router.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { polylineM } from "../../common/geo.ts";
import { encodeGraph, type GraphEdge } from "../../data-build/graph/encode.ts";
import { type LoadedGraph, WasmRouter } from "../../router-wasm/binding/router.ts";

export type LatLng = readonly [number, number];

/** A reach between two nodes; `current` is signed along from -> to (> 0: flows from -> to). */
export interface Reach {
  from: number;
  to: number;
  via?: LatLng[];
  speedKmh: number;
  current: number;
  cls: number;
  waterway: number;
  locks?: number;
  /** Hours per lock: 0.75, or 1.25 in North America. */
  lockHours?: number;
  rules?: number[];
}

export const OPERATING_FACTOR = 1.1;
export const MIN_GROUND_KMH = 3;

/** Metres of a reach's polyline (nodes and its intermediate points). */
export function reachM(nodes: readonly LatLng[], r: Reach): number {
  const pts = [nodes[r.from]!, ...(r.via ?? []), nodes[r.to]!];
  return polylineM(pts.flat());
}

/** The contract: seconds for `metres` through water at `speedKmh` with `along` km/h of current. */
export function riverSeconds(metres: number, speedKmh: number, along: number, factor = 1): number {
  return (metres / (Math.max(MIN_GROUND_KMH, speedKmh + along) / 3.6)) * OPERATING_FACTOR * factor;
}

export function riverEdges(nodes: readonly LatLng[], reaches: readonly Reach[]): GraphEdge[] {
  return reaches.map((r) => ({
    from: r.from,
    to: r.to,
    metres: reachM(nodes, r),
    inner: (r.via ?? []).flat(),
    speedKmh: r.speedKmh,
    currentKmh: r.current,
    edgeClass: r.cls,
    locks: r.locks ?? 0,
    fixedSeconds: (r.locks ?? 0) * (r.lockHours ?? 0.75) * 3600,
    waterway: r.waterway,
    rules: r.rules ?? [],
  }));
}

export function encodeRiver(
  nodes: readonly LatLng[],
  reaches: readonly Reach[],
  waterways: ReadonlyArray<{ name: string; class: string }>,
  rules: ReadonlyArray<{ id: string }>,
): Uint8Array {
  return encodeGraph(
    {
      kind: "river-graph",
      mode: "river",
      nodes: Float64Array.from(nodes.flat()),
      edges: riverEdges(nodes, reaches),
      gates: [],
      zones: [],
      waterways,
      rules,
      landmarkClosed: 0,
    },
    "tiny-river",
  );
}

let module: WebAssembly.Module | null = null;

/** A fresh router instance of the real build's router.wasm, no graph loaded. */
export async function riverRouter(): Promise<WasmRouter> {
  module ??= await WebAssembly.compile(readFileSync(join(import.meta.dir, "../../data/build/router.wasm")));
  return WasmRouter.instantiate(module);
}

/** A fresh router instance with one river graph loaded. */
export async function loadRiver(bytes: Uint8Array): Promise<{ router: WasmRouter; graph: LoadedGraph }> {
  const router = await riverRouter();
  return { router, graph: router.load(bytes, { kind: "river-graph", path: "tiny river.graph" }) };
}
