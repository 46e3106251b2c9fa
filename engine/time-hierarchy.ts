/**
 * The road and rail graphs' contraction hierarchies (docs/routing-speed.md, "Hierarchies per
 * graph"): read next to the graph, attached to its router instance, refused when built for
 * another graph or another metric. A build directory without one still routes, with A*.
 */
import { join } from "node:path";
import { log } from "../common/log.ts";
import type { WasmRouter } from "../router-wasm/binding/router.ts";
import { readArtifact } from "./artifacts.ts";

/** The hierarchy file's bytes, or null (with a warning) when the build directory has none. */
export async function readHierarchy(
  buildDir: string,
  file: string,
  mode: string,
): Promise<{ path: string; bytes: Uint8Array } | null> {
  const found = await readArtifact(buildDir, file).catch(() => null);
  if (!found)
    log.warn(
      `${join(buildDir, file)} missing: ${mode} routes use A* search (slower); run \`npm run build\` to build the hierarchy`,
    );
  return found;
}

/**
 * Attaches a time hierarchy to graph `handle`: the planner's time queries at `kmh` then use it.
 * One of another graph (checksum), kind or speed is refused: the graph is unloaded and the error
 * names the file and how to rebuild.
 */
export function attachTimeHierarchy(
  wasm: WasmRouter,
  handle: number,
  hierarchy: { path: string; bytes: Uint8Array },
  kmh: number,
): void {
  try {
    wasm.loadHierarchy(handle, hierarchy.bytes, hierarchy.path);
    const built = wasm.hierarchyKmh(handle);
    if (built !== kmh)
      throw new Error(
        `artifact ${hierarchy.path}: hierarchy built for ${built ? `time at ${built} km/h` : "distance"}, this engine routes time at ${kmh} km/h; run \`npm run build\` (or \`bun run data-build/main.ts\`) to rebuild the artifacts`,
      );
  } catch (err) {
    wasm.unload(handle);
    throw err;
  }
}
