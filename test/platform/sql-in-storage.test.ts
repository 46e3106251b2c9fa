/**
 * Every SQL statement lives in storage/: outside it nothing imports drizzle-orm, the
 * schema's tables, or a SQLite driver, so a query cannot creep back into a handler. Tests and
 * benches (test/, bench/) may read the schema to check what was written; they are not scanned.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, sources } from "./source-files.ts";

const LAYERS = ["api", "ingest", "engine", "common", "data-build", "router-wasm/binding"];

/** Files that may open SQLite themselves, and why. It may only shrink. */
const ALLOWED: Record<string, string> = {
  // The Deno runtime's driver adapter: it hands node:sqlite to storage/database.ts, no statements.
  "api/runtime/deno-sqlite.ts": "node:sqlite",
  // Reads the GeoPackage input of the sea build (a data file), not the service's database.
  "data-build/sea/gpkg.ts": "bun:sqlite",
};

/**
 * What in a file's imports reaches the database directly. `import type` of the schema is fine:
 * a row type carries no statement.
 */
function sqlImports(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/^\s*import\s+(type\s+)?[^;]*?from\s*["']([^"']+)["']/gms)) {
    const [, typeOnly, spec] = m as unknown as [string, string | undefined, string];
    if (spec === "drizzle-orm" || spec.startsWith("drizzle-orm/")) found.push(spec);
    else if (spec === "bun:sqlite" || spec === "node:sqlite") found.push(spec);
    else if (/(^|\/)storage\/schema(\.ts|\/[^/]+\.ts)$/.test(spec) && !typeOnly) found.push(spec);
  }
  for (const m of text.matchAll(
    /import\(\s*["']([^"']*(?:drizzle-orm|sqlite|storage\/schema)[^"']*)["']\s*\)/g,
  ))
    found.push(m[1]!);
  return found;
}

test.each([
  ['import { eq } from "drizzle-orm";', ["drizzle-orm"]],
  ['import { sqliteTable } from "drizzle-orm/sqlite-core";', ["drizzle-orm/sqlite-core"]],
  ['import { tracked } from "../../storage/schema.ts";', ["../../storage/schema.ts"]],
  ['import {\n  orgs,\n  apiKeys,\n} from "../storage/schema.ts";', ["../storage/schema.ts"]],
  ['import type { tracked } from "../../storage/schema.ts";', []],
  ['import { tracked } from "../../storage/schema/tracking.ts";', ["../../storage/schema/tracking.ts"]],
  ['import type { orgs } from "../storage/schema/accounts.ts";', []],
  ['import { Database } from "bun:sqlite";', ["bun:sqlite"]],
  ['const s = await import("../../storage/schema.ts");', ["../../storage/schema.ts"]],
  ['import { sqliteStorage } from "../../storage/storage.ts";', []],
])("the scan finds direct database imports: %s", (source, expected) => {
  expect(sqlImports(source)).toEqual(expected);
});

test("no SQL outside storage/", () => {
  const files = LAYERS.flatMap((layer) => sources(layer));
  expect(files.length).toBeGreaterThan(100);
  const wrong = files.flatMap((file) =>
    sqlImports(readFileSync(join(ROOT, file), "utf8"))
      .filter((spec) => ALLOWED[file] !== spec)
      .map((spec) => `${file} -> ${spec}`),
  );
  expect(wrong).toEqual([]);
});
