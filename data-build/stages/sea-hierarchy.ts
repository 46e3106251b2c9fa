/**
 * Pipeline stage: data/build/sea.graph -> data/build/sea.hierarchy, the contraction hierarchy the
 * sea router answers distance queries with (docs/routing-speed.md). The contraction is the
 * router's own code (router-wasm/src/hierarchy.rs, run through router.wasm, which
 * `npm run build` compiles before the data build), so one implementation builds and reads it.
 *
 * The stage reads sea.graph and router.wasm (declared in `reads`): a changed sea graph or a router
 * built from other contraction code reruns it. The artifact is tied to sea.graph by the graph's
 * topology checksum, checked when the router attaches it.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { WasmRouter } from "../../router-wasm/binding/router.ts";
import type { BuildContext, Stage } from "../pipeline.ts";
import { GRAPH_KIND } from "../sea/graph.ts";

export const SEA_HIERARCHY_OUTPUT = "sea.hierarchy";

/** Contracts a sea graph's bytes into its hierarchy artifact, in `router` (the graph is unloaded after). */
export function seaHierarchyBytes(router: WasmRouter, graph: Uint8Array, buildId: string): Uint8Array {
  const { handle } = router.load(graph, { kind: GRAPH_KIND, path: "sea.graph" });
  try {
    return router.buildHierarchy(handle, buildId);
  } finally {
    router.unload(handle);
  }
}

export const seaHierarchyStage: Stage = {
  name: "sea-hierarchy",
  inputs: [],
  reads: ["router.wasm", "sea.graph"],
  outputs: [SEA_HIERARCHY_OUTPUT],
  async run(ctx: BuildContext): Promise<void> {
    const wasm = ctx.artifact("router.wasm");
    const graph = ctx.artifact("sea.graph");
    const started = performance.now();
    const bytes = seaHierarchyBytes(await WasmRouter.instantiate(wasm), graph, ctx.buildId);
    writeFileSync(join(ctx.outDir, SEA_HIERARCHY_OUTPUT), bytes);
    ctx.log(
      `sea-hierarchy: contracted in ${((performance.now() - started) / 1000).toFixed(1)} s, ` +
        `${(bytes.length / 1e6).toFixed(1)} MB`,
    );
  },
};
