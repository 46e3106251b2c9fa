/**
 * A database from before the stored milestones moved into the tracked rows (migration 0018 on
 * SQLite, 0010 on PostgreSQL) keeps every record's stored rendering across the upgrade: each
 * database is migrated up to the migration before, given records with and without a rendering in
 * the old `timelines` table, then opened as the product opens it.
 */
import { Database } from "bun:sqlite";
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStorage } from "../../storage/open.ts";
import { TEST_POSTGRES } from "../helpers/database.ts";
import { type OldRows, postgresBefore, sqliteBefore } from "../helpers/migrations.ts";

const dir = mkdtempSync(join(tmpdir(), "portolan-milestones-upgrade-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

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
] as OldRows;

test("SQLite: the stored milestones move into their rows, and the old table goes", async () => {
  const file = sqliteBefore(dir, "upgrade.sqlite", "0018_milestones_in_row", OLD_ROWS);
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
    const target = await postgresBefore(dir, TEST_POSTGRES, "0010_milestones_in_row", OLD_ROWS);
    const storage = await openStorage(target);
    for (const r of RECORDS) {
      expect(await storage.timelines.get(r.id)).toEqual(r.stored ?? undefined);
      expect((await storage.trackings.readOwn(ORG, r.id))?.stored).toEqual(r.stored);
    }
    await storage.close();
  },
);
