/**
 * A database from before the stored milestones moved into the tracked rows (migration 0018 on
 * SQLite, 0010 on PostgreSQL) keeps every record's stored rendering across the upgrade: each
 * database is migrated up to the migration before, given records with and without a rendering in
 * the old `timelines` table, then opened as the product opens it.
 */
import { Database } from "bun:sqlite";
import { afterAll, expect, test } from "bun:test";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { drizzle } from "drizzle-orm/postgres-js";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import { openWith, type SyncSqliteClient } from "../../storage/database.ts";
import { openStorage } from "../../storage/open.ts";
import { MIGRATIONS } from "../../storage/sqlite.ts";
import { freshSchema, TEST_POSTGRES } from "../helpers/database.ts";

const dir = mkdtempSync(join(tmpdir(), "portolan-milestones-upgrade-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A copy of a migrations folder whose journal stops before the migration tagged `last`. */
function migrationsBefore(folder: string, last: string): string {
  const out = join(dir, `${last}-before`);
  cpSync(folder, out, { recursive: true });
  const journalPath = join(out, "meta/_journal.json");
  const journal = JSON.parse(readFileSync(journalPath, "utf8")) as { entries: Array<{ tag: string }> };
  const at = journal.entries.findIndex((e) => e.tag === last);
  expect(at).toBeGreaterThan(0);
  journal.entries = journal.entries.slice(0, at);
  writeFileSync(journalPath, JSON.stringify(journal));
  return out;
}

const ORG = "00000000-0000-4000-8000-000000000001";
const RECORDS = [
  { id: "00000000-0000-4000-8000-00000000000a", number: "MSKU1234565", stored: { of: '["a"]', json: "[1]" } },
  { id: "00000000-0000-4000-8000-00000000000b", number: "TGHU7654320", stored: null },
];
const AT = "2026-12-05T00:00:00Z";

/** The old rows, as the code before the move wrote them. */
const OLD_ROWS = [
  ["INSERT INTO orgs (id, name, created_at) VALUES ($1, 'upgrade', $2)", [ORG, AT]],
  ...RECORDS.flatMap((r) => [
    [
      "INSERT INTO tracked (id, org_id, identifier, identifier_type, container_number, updated_at, added_at) VALUES ($1, $2, $3, 'container_id', $3, $4, $4)",
      [r.id, ORG, r.number, AT],
    ],
    ...(r.stored
      ? [
          [
            "INSERT INTO timelines (tracked_id, of, json) VALUES ($1, $2, $3)",
            [r.id, r.stored.of, r.stored.json],
          ],
        ]
      : []),
  ]),
] as Array<[string, string[]]>;

test("SQLite: the stored milestones move into their rows, and the old table goes", async () => {
  const file = join(dir, "upgrade.sqlite");
  const before = openWith(
    new Database(file, { create: true, strict: true }) as unknown as SyncSqliteClient,
    migrationsBefore(MIGRATIONS, "0018_milestones_in_row"),
    file,
  );
  before.close();
  const raw = new Database(file);
  for (const [statement, params] of OLD_ROWS) raw.prepare(statement.replace(/\$(\d)/g, "?$1")).run(...params);
  raw.close();

  const storage = await openStorage(file);
  for (const r of RECORDS) {
    expect(await storage.timelines.get(r.id)).toEqual(r.stored ?? undefined);
    expect((await storage.trackings.readOwn(ORG, r.id))?.stored).toEqual(r.stored);
  }
  expect(await storage.trackings.get(ORG, RECORDS[0]!.id)).toMatchObject({ identifier: "MSKU1234565" });
  await storage.close();
  const tables = new Database(file).query("SELECT name FROM sqlite_master WHERE name = 'timelines'").all();
  expect(tables).toEqual([]);
});

test.skipIf(!TEST_POSTGRES)(
  "PostgreSQL: the stored milestones move into their rows, and the old table goes",
  async () => {
    const target = freshSchema(TEST_POSTGRES);
    const schema = new URL(target).searchParams.get("schema")!;
    const client = postgres(TEST_POSTGRES, {
      max: 1,
      onnotice: () => {},
      connection: { search_path: schema },
    });
    try {
      await client.unsafe(`create schema "${schema}"`);
      await migrate(drizzle(client), {
        migrationsFolder: migrationsBefore(
          join(import.meta.dir, "../../storage/migrations-pg"),
          "0010_milestones_in_row",
        ),
        migrationsSchema: schema,
      });
      for (const [statement, params] of OLD_ROWS) await client.unsafe(statement, params);
    } finally {
      await client.end({ timeout: 2 });
    }
    const storage = await openStorage(target);
    for (const r of RECORDS) {
      expect(await storage.timelines.get(r.id)).toEqual(r.stored ?? undefined);
      expect((await storage.trackings.readOwn(ORG, r.id))?.stored).toEqual(r.stored);
    }
    await storage.close();
  },
);
