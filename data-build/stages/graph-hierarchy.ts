/**
 * Pipeline stages that contract a graph into its hierarchy artifact (docs/routing-speed.md): the
 * sea's in metres, road's and rail's in seconds of the time objective at their default speed. The
 * contraction is the router's own code (router-wasm/src/hierarchy/, run through router.wasm,
 * which `npm run build` compiles before the data build), so one implementation builds and reads
 * it.
 *
 * A stage reads its graph and router.wasm (declared in `reads`): a changed graph or a router built
 * from other contraction code reruns it. The artifact is tied to its graph by a checksum (the
 * topology, and for time the edge speeds and fixed seconds), checked when the router attaches it.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { WasmRouter } from "../../router-wasm/binding/router.ts";
import type { BuildContext, Stage } from "../pipeline.ts";

export interface HierarchySpec {
  /** The graph artifact's file and kind. */
  graph: string;
  kind: string;
  output: string;
  /** 0: metres; else the time objective's default speed (km/h). */
  timeKmh: number;
}

/** Contracts a graph's bytes into its hierarchy artifact, in `router` (the graph is unloaded after). */
export function hierarchyBytes(router: WasmRouter, graph: Uint8Array, spec: HierarchySpec, buildId: string) {
  const { handle } = router.load(graph, { kind: spec.kind, path: spec.graph });
  try {
    return router.buildHierarchy(handle, buildId, spec.timeKmh);
  } finally {
    router.unload(handle);
  }
}

export function hierarchyStage(name: string, spec: HierarchySpec): Stage {
  return {
    name,
    inputs: [],
    reads: ["router.wasm", spec.graph],
    outputs: [spec.output],
    async run(ctx: BuildContext): Promise<void> {
      const wasm = ctx.artifact("router.wasm");
      const graph = ctx.artifact(spec.graph);
      const started = performance.now();
      const bytes = hierarchyBytes(await WasmRouter.instantiate(wasm), graph, spec, ctx.buildId);
      writeFileSync(join(ctx.outDir, spec.output), bytes);
      ctx.log(
        `${name}: contracted in ${((performance.now() - started) / 1000).toFixed(1)} s, ` +
          `${(bytes.length / 1e6).toFixed(1)} MB`,
      );
    },
  };
}
