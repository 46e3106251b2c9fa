/** The repository's TypeScript files under a folder, for the tests that read the code itself. */
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";

export const ROOT = join(import.meta.dir, "../..");

/** Every .ts file below `dir` (relative to the repository root), build outputs left out. */
export function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    if (name === "target" || name === "node_modules") return [];
    const path = join(dir, name);
    if (statSync(join(ROOT, path)).isDirectory()) return sources(path);
    return path.endsWith(".ts") ? [path] : [];
  });
}
