/** The repository's TypeScript files under a folder, for the tests that read the code itself. */
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";

export const ROOT = join(import.meta.dir, "../..");

/** The folders of product code, benches and tools (tests aside). */
export const CODE_FOLDERS = [
  "api",
  "engine",
  "ingest",
  "data-build",
  "formats",
  "storage",
  "common",
  "router-wasm",
  "bench",
];

/** Every .ts file below `dir` (relative to the repository root), build outputs left out. */
export function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    if (name === "target" || name === "node_modules") return [];
    const path = join(dir, name);
    if (statSync(join(ROOT, path)).isDirectory()) return sources(path);
    return path.endsWith(".ts") ? [path] : [];
  });
}
