/**
 * Builds only data/build/sea.graph, for router development and the sea tests when the full
 * pipeline has not run. Usage: bun data-build/sea/build-local.ts [outDir]
 */

import { existsSync, mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { buildDirFrom } from "../../common/build-dir.ts";
import { sourcesDirFrom } from "../../common/sources-dir.ts";
import { PACKAGE_PREFIX, packageInfo } from "../manifest.ts";
import { seaGraphStage } from "../stages/sea-graph.ts";

export async function buildSeaGraphLocally(outDir: string, buildId = "local-sea"): Promise<string> {
  const sourcesDir = sourcesDirFrom();
  mkdirSync(outDir, { recursive: true });
  await seaGraphStage.run({
    sourcesDir,
    outDir,
    buildId,
    log: (msg) => console.error(msg),
    source: (key) => {
      if (key.startsWith(PACKAGE_PREFIX)) return packageInfo(key.slice(PACKAGE_PREFIX.length)).dir;
      const path = join(sourcesDir, key);
      if (!existsSync(path)) throw new Error(`missing source ${path}`);
      return path;
    },
    artifact: (file) => {
      throw new Error(`the sea-graph stage reads no build output (asked for ${file})`);
    },
  });
  return join(outDir, "sea.graph");
}

if (import.meta.main) {
  const out = resolve(process.argv[2] ?? buildDirFrom());
  const t0 = performance.now();
  console.error(`wrote ${await buildSeaGraphLocally(out)} in ${Math.round(performance.now() - t0)} ms`);
}
