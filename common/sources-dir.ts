/**
 * The one place that decides where the raw source data lives: PORTOLAN_SOURCES (relative paths are
 * taken from the project root, like PORTOLAN_BUILD_DIR) or ../shared/data beside the project. The
 * data build, the API's config, the carrier and airline tables, the sandbox and the tests ask here.
 * The specification's reference files (vendor shapes, DCSA, ONE Record) sit beside the sources as
 * ../reference unless PORTOLAN_REFERENCE names another folder.
 */
import { join, resolve } from "node:path";
import { PROJECT_ROOT } from "./build-dir.ts";

type Env = Record<string, string | undefined>;

export function sourcesDirFrom(env: Env = process.env): string {
  return resolve(PROJECT_ROOT, env.PORTOLAN_SOURCES ?? "../shared/data");
}

export function referenceDirFrom(env: Env = process.env): string {
  return env.PORTOLAN_REFERENCE
    ? resolve(PROJECT_ROOT, env.PORTOLAN_REFERENCE)
    : join(sourcesDirFrom(env), "../reference");
}

/** The part of an environment that says where the data is, for a config built apart from the rest. */
export function sourcesEnv(env: Env = process.env): Env {
  return { PORTOLAN_SOURCES: env.PORTOLAN_SOURCES, PORTOLAN_REFERENCE: env.PORTOLAN_REFERENCE };
}
