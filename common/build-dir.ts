/**
 * The one place that decides where build artifacts live: PORTOLAN_BUILD_DIR (relative paths are
 * taken from the project root, not the caller's working directory) or data/build. The API's config,
 * the data build, the engine's loaders, the sandbox and the batch CLI all ask here.
 */
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const PROJECT_ROOT = fileURLToPath(new URL("..", import.meta.url));

export function buildDirFrom(env: Record<string, string | undefined> = process.env): string {
  return resolve(PROJECT_ROOT, env.PORTOLAN_BUILD_DIR ?? "data/build");
}
