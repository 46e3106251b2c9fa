/**
 * The test files whose outcome can depend on PORTOLAN_TEST_DB: those that reach, through their
 * relative imports or the scripts they name (child processes: "writer.ts" run with bun), a file
 * that reads it. The PostgreSQL pass of scripts/test.sh runs only these; every other file would
 * run the very same code twice. A file whose subject is not storage (a route engine, a page, the
 * sandbox's story) says so with a comment starting with ONCE and why, and runs on SQLite only.
 * `bun scripts/database-tests.ts` prints one path per line.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "..");
const MARK = "PORTOLAN_TEST_DB";
export const ONCE = "Runs once, on SQLite:";

function testFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return testFiles(path);
    return name.endsWith(".test.ts") ? [path] : [];
  });
}

/** Files a source names: relative imports, and quoted "*.ts" names beside it or from the root. */
function named(file: string, root: string): string[] {
  const text = readFileSync(file, "utf8");
  const out: string[] = [];
  for (const m of text.matchAll(/["']([^"'\s]+\.tsx?)["']/g)) {
    const spec = m[1]!;
    const candidates = spec.startsWith(".")
      ? [resolve(dirname(file), spec)]
      : [resolve(dirname(file), spec), resolve(root, spec)];
    for (const c of candidates)
      if (c.startsWith(root) && !c.includes("node_modules") && existsSync(c)) out.push(c);
  }
  return out;
}

/** Every file reachable from the given ones, with the files each names. */
function graph(from: string[], root: string): Map<string, string[]> {
  const edges = new Map<string, string[]>();
  const queue = [...from];
  for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
    if (edges.has(file)) continue;
    const next = named(file, root);
    edges.set(file, next);
    queue.push(...next);
  }
  return edges;
}

export function databaseTests(root = ROOT): string[] {
  const tests = testFiles(join(root, "test"));
  const edges = graph(tests, root);
  // Walk back from the files that read the variable to everything that names them.
  const namedBy = new Map<string, string[]>();
  for (const [file, next] of edges) for (const n of next) namedBy.set(n, [...(namedBy.get(n) ?? []), file]);
  const hit = new Set([...edges.keys()].filter((f) => readFileSync(f, "utf8").includes(MARK)));
  const queue = [...hit];
  for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
    for (const by of namedBy.get(file) ?? []) {
      if (!hit.has(by)) {
        hit.add(by);
        queue.push(by);
      }
    }
  }
  return tests
    .filter((f) => hit.has(f) && !readFileSync(f, "utf8").includes(ONCE))
    .map((f) => relative(root, f))
    .sort();
}

if (import.meta.main) for (const f of databaseTests()) console.log(f);
