/**
 * Pipeline stage: data/build/sea.graph -> data/build/sea.hierarchy, the contraction hierarchy the
 * sea router answers distance queries with (docs/routing-speed.md). The contraction is the
 * router's own code (router-wasm/src/hierarchy.rs, run through router.wasm, which
 * `npm run build` compiles before the data build), so one implementation builds and reads it.
 *
 * Like road-graph, the stage declares the sea-graph stage's inputs and imports its module: any
 * change to the sea graph's sources or code reruns it. The Rust contraction code is imported as
 * text, so editing it reruns the stage too. The artifact is tied to sea.graph by the graph's
 * topology checksum, checked when the router attaches it.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { WasmRouter } from "../../router-wasm/binding/router.ts";
import contraction from "../../router-wasm/src/hierarchy.rs" with { type: "text" };
import type { BuildContext, Stage } from "../pipeline.ts";
import { GRAPH_KIND } from "../sea/graph.ts";
import { seaGraphStage } from "./sea-graph.ts";

export const SEA_HIERARCHY_OUTPUT = "sea.hierarchy";

/** Reads a build output a stage depends on, or says which step makes it. */
function outputOf(ctx: BuildContext, file: string, how: string): Uint8Array {
  const path = join(ctx.outDir, file);
  try {
    const b = readFileSync(path);
    return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  } catch {
    throw new Error(`${path} missing: ${how}`);
  }
}

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
  inputs: [...seaGraphStage.inputs],
  outputs: [SEA_HIERARCHY_OUTPUT],
  async run(ctx: BuildContext): Promise<void> {
    const wasm = outputOf(ctx, "router.wasm", "run `bash router-wasm/build.sh` first (`npm run build` does)");
    const graph = outputOf(ctx, "sea.graph", "run the sea-graph stage first (`npm run build`)");
    const started = performance.now();
    const bytes = seaHierarchyBytes(await WasmRouter.instantiate(wasm), graph, ctx.buildId);
    writeFileSync(join(ctx.outDir, SEA_HIERARCHY_OUTPUT), bytes);
    ctx.log(
      `sea-hierarchy: contracted in ${((performance.now() - started) / 1000).toFixed(1)} s, ` +
        `${(bytes.length / 1e6).toFixed(1)} MB (contraction code ${contraction.length} chars)`,
    );
  },
};
