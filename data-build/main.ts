/**
 * Data build CLI: bun run data-build/main.ts [--only stage,...] [--force] [--jobs N]
 * --jobs: stages built at once, each in a worker thread (default: the machine's cores).
 * Env: PORTOLAN_SOURCES (source dir, default ../shared/data), PORTOLAN_BUILD_DIR (default data/build),
 * PORTOLAN_SOURCES_MIRROR (base URL to download missing sources from instead of their upstream).
 */
import { availableParallelism } from "node:os";
import { parseArgs } from "node:util";
import { loadManifest } from "./manifest.ts";
import { defaultDirs, runPipeline } from "./pipeline.ts";
import { registry } from "./stages/index.ts";

const { values } = parseArgs({
  args: Bun.argv.slice(2),
  options: {
    only: { type: "string" },
    force: { type: "boolean", default: false },
    jobs: { type: "string", default: String(availableParallelism()) },
  },
});

function jobsOf(text: string): number {
  const jobs = Number(text);
  if (!Number.isInteger(jobs) || jobs < 1) {
    console.error(`data-build: --jobs takes a whole number of at least 1, got "${text}"`);
    process.exit(2);
  }
  return jobs;
}

try {
  const result = await runPipeline({
    registry,
    manifest: loadManifest(),
    ...defaultDirs(),
    only: values.only ? values.only.split(",").map((s) => s.trim()) : undefined,
    force: values.force,
    jobs: jobsOf(values.jobs),
    mirror: process.env.PORTOLAN_SOURCES_MIRROR,
  });
  console.log(
    `build ${result.buildId}: ran [${result.ran.join(", ")}], skipped [${result.skipped.join(", ")}]`,
  );
} catch (err) {
  console.error(`data-build failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
