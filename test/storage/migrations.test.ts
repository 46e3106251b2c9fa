/**
 * The committed migrations match the schema, for both databases: drizzle-kit generating from
 * schema.ts (SQLite) and from its PostgreSQL mirror finds nothing left to migrate. A schema change
 * without `npm run db:generate` and `npm run db:generate:pg` fails here, not on a user's database.
 */
import { afterAll, expect, test } from "bun:test";
import { cpSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { join, relative } from "node:path";

const root = join(import.meta.dir, "../..");
// drizzle-kit takes the output folder relative to the working directory.
mkdirSync(join(root, "data"), { recursive: true });
const scratch = mkdtempSync(join(root, "data", ".migrations-check-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

test.each([
  ["sqlite", "storage/schema.ts", "storage/migrations"],
  ["postgresql", "storage/pg-schema.ts", "storage/migrations-pg"],
])("%s migrations are up to date with %s", (dialect, schema, folder) => {
  const out = join(scratch, dialect);
  cpSync(join(root, folder), out, { recursive: true });
  const run = Bun.spawnSync(
    [
      join(root, "node_modules/.bin/drizzle-kit"),
      "generate",
      "--dialect",
      dialect,
      "--schema",
      `./${schema}`,
      "--out",
      `./${relative(root, out)}`,
    ],
    { cwd: root },
  );
  const said = run.stdout.toString() + run.stderr.toString();
  expect({ code: run.exitCode, said }).toMatchObject({
    code: 0,
    said: expect.stringContaining("No schema changes"),
  });
});
