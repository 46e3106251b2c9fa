/**
 * The real locations artifact for tests: built from the pinned sources through the pipeline into the
 * build dir (a no-op when data/build is already fresh), loaded once per test run.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { loadManifest } from "../../data-build/manifest.ts";
import { defaultDirs, runPipeline } from "../../data-build/pipeline.ts";
import { registry } from "../../data-build/stages/index.ts";
import { LOCATIONS_OUTPUT } from "../../data-build/stages/locations.ts";
import { LocationIndex } from "../../engine/locations/index.ts";

let loaded: Promise<{ index: LocationIndex; bytes: Uint8Array; loadMs: number }> | undefined;

export function locationsFixture() {
  loaded ??= (async () => {
    const dirs = defaultDirs();
    await runPipeline({ registry, manifest: loadManifest(), ...dirs, only: ["locations"], log: () => {} });
    const bytes = new Uint8Array(readFileSync(join(dirs.outDir, LOCATIONS_OUTPUT)));
    const started = performance.now();
    const index = LocationIndex.fromBytes(bytes);
    return { index, bytes, loadMs: performance.now() - started };
  })();
  return loaded;
}
