/**
 * scripts/database-tests.ts picks the files the PostgreSQL pass of scripts/test.sh runs: a file it
 * missed would never be tested on PostgreSQL.
 */
import { afterAll, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { databaseTests, ONCE } from "../../scripts/database-tests.ts";

const root = join(import.meta.dir, "../..");
const temp = mkdtempSync(join(tmpdir(), "portolan-dbtests-"));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

function write(path: string, text: string) {
  mkdirSync(dirname(join(temp, path)), { recursive: true });
  writeFileSync(join(temp, path), text);
}

test("a tiny tree: imports, scripts run as child processes and cycles lead to the variable; a file saying it runs once stays out", () => {
  write("test/helpers/db.ts", "export const url = process.env.PORTOLAN_TEST_DB;\n");
  write("test/helpers/uses-db.ts", 'import { url } from "./db.ts";\nimport "./cycle.ts";\nexport { url };\n');
  write("test/helpers/cycle.ts", 'import "./uses-db.ts";\n');
  write("test/a/imports.test.ts", 'import { url } from "../helpers/uses-db.ts";\n');
  write("test/a/cyclic.test.ts", 'import "../helpers/cycle.ts";\n');
  write("test/a/child.ts", 'import "../helpers/db.ts";\n');
  write("test/a/spawns.test.ts", 'Bun.spawn(["bun", join(import.meta.dir, "child.ts")]);\n');
  write("test/a/from-root.test.ts", 'Bun.spawn(["bun", "test/a/child.ts"]);\n');
  write("test/b/pure.test.ts", 'import { x } from "../../lib/x.ts";\n');
  write(
    "test/b/once.test.ts",
    `// ${ONCE} the engine is the subject.\nimport { url } from "../helpers/uses-db.ts";\n`,
  );
  write("test/b/unrelated-name.test.ts", 'const name = "missing.ts";\n');
  write("lib/x.ts", "export const x = 1;\n");
  expect(databaseTests(temp)).toEqual([
    "test/a/cyclic.test.ts",
    "test/a/from-root.test.ts",
    "test/a/imports.test.ts",
    "test/a/spawns.test.ts",
  ]);
});

test("the real tree: every file that opens a test platform or database is in the PostgreSQL pass, unless it says why it runs once", () => {
  const picked = new Set(databaseTests(root));
  const all: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith(".test.ts")) all.push(relative(root, path));
    }
  };
  walk(join(root, "test"));
  const text = (f: string) => readFileSync(join(root, f), "utf8");
  const direct = all.filter((f) => /helpers\/(platform|database)\.ts|PORTOLAN_TEST_DB/.test(text(f)));
  expect(direct.length).toBeGreaterThan(20);
  for (const f of direct) expect([f, picked.has(f)]).toEqual([f, !text(f).includes(ONCE)]);
  // The files that run once are few, each saying why.
  const once = all.filter((f) => text(f).includes(ONCE));
  expect(once.length).toBeLessThan(10);
  for (const f of once) expect(text(f)).toMatch(new RegExp(`// ${ONCE} \\S.{20,}`));
  // Pure computation stays out: the router's tables run once.
  expect(all).toContain("test/distance-road/planner.test.ts");
  expect(picked.has("test/distance-road/planner.test.ts")).toBe(false);
  expect(picked.size).toBeLessThan(all.length);
});
