/**
 * The one place that decides where the raw source data lives: PORTOLAN_SOURCES (relative paths are
 * taken from the project root, like PORTOLAN_BUILD_DIR) or ../shared/data beside the project. The
 * data build, the API's config, the carrier and airline tables, the sandbox and the tests ask here.
 */
import { resolve } from "node:path";
import { PROJECT_ROOT } from "./build-dir.ts";

export function sourcesDirFrom(env: Record<string, string | undefined> = process.env): string {
  return resolve(PROJECT_ROOT, env.PORTOLAN_SOURCES ?? "../shared/data");
}
