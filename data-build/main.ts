/**
 * Data build CLI: bun run data-build/main.ts [--only stage,...] [--force]
 * Env: PORTOLAN_SOURCES (source dir, default ../shared/data), PORTOLAN_BUILD_DIR (default data/build),
 * PORTOLAN_SOURCES_MIRROR (base URL to download missing sources from instead of their upstream).
 */
import { parseArgs } from "node:util";
import { loadManifest } from "./manifest.ts";
import { defaultDirs, runPipeline } from "./pipeline.ts";
import { registry } from "./stages/index.ts";

const { values } = parseArgs({
  args: Bun.argv.slice(2),
  options: { only: { type: "string" }, force: { type: "boolean", default: false } },
});

try {
  const result = await runPipeline({
    registry,
    manifest: loadManifest(),
    ...defaultDirs(),
    only: values.only ? values.only.split(",").map((s) => s.trim()) : undefined,
    force: values.force,
    mirror: process.env.PORTOLAN_SOURCES_MIRROR,
  });
  console.log(
    `build ${result.buildId}: ran [${result.ran.join(", ")}], skipped [${result.skipped.join(", ")}]`,
  );
} catch (err) {
  console.error(`data-build failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
