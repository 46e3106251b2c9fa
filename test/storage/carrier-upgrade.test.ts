/**
 * A database from before a B/L or booking prefix named the line (migration 0021 on SQLite, 0013 on
 * PostgreSQL): a B/L, a booking and their boxes that carried the prefix's line as
 * carrier_hint_code carry it as carrier_code; a leased box keeps its lessor hint, and the line
 * that hint named is no longer its carrier_name; records with a carrier are left alone.
 */
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStorage } from "../../storage/open.ts";
import { TEST_POSTGRES } from "../helpers/database.ts";
import { type OldRows, postgresBefore, sqliteBefore } from "../helpers/migrations.ts";

const dir = mkdtempSync(join(tmpdir(), "portolan-carrier-upgrade-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ORG = "00000000-0000-4000-8000-000000000001";
const AT = "2026-12-05T00:00:00Z";
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;

interface Old {
  n: number;
  identifier: string;
  type: string;
  parent?: number;
  code: string | null;
  name: string | null;
  hint: string | null;
}
const ONE = "Ocean Network Express";
const OLD: Old[] = [
  { n: 1, identifier: "ONEY200000002", type: "bill_of_lading", code: null, name: ONE, hint: "ONEY" },
  { n: 2, identifier: "ONEU1425428", type: "container_id", parent: 1, code: null, name: ONE, hint: "ONEY" },
  { n: 3, identifier: "COSU6100000001", type: "booking", code: null, name: "COSCO", hint: "COSU" },
  { n: 4, identifier: "TGHU3141590", type: "container_id", code: null, name: "Maersk A/S", hint: "MAEU" },
  { n: 5, identifier: "MSKU1234565", type: "container_id", code: "MAEU", name: "Maersk A/S", hint: null },
];
/** What each record reads after the upgrade: carrier_code, carrier_name, carrier_hint_code. */
const AFTER: Record<number, [string | null, string | null, string | null]> = {
  1: ["ONEY", ONE, null],
  2: ["ONEY", ONE, null],
  3: ["COSU", "COSCO", null],
  4: [null, null, "MAEU"],
  5: ["MAEU", "Maersk A/S", null],
};

const OLD_ROWS = [
  ["INSERT INTO orgs (id, name, created_at) VALUES ($1, 'upgrade', $2)", [ORG, AT]],
  ...OLD.map((r) => [
    `INSERT INTO tracked (id, org_id, parent_id, identifier, identifier_type, carrier_code, carrier_name, carrier_hint_code, updated_at, added_at)
     VALUES ($1, $2, ${r.parent ? `'${id(r.parent)}'` : "NULL"}, $3, $4, ${r.code ? `'${r.code}'` : "NULL"}, $5, ${r.hint ? `'${r.hint}'` : "NULL"}, $6, $6)`,
    [id(r.n), ORG, r.identifier, r.type, r.name!, AT],
  ]),
] as OldRows;

async function checkUpgraded(target: string): Promise<void> {
  const storage = await openStorage(target);
  try {
    for (const r of OLD) {
      const row = (await storage.trackings.get(ORG, id(r.n)))!;
      expect([row.carrierCode, row.carrierName, row.carrierHintCode]).toEqual(AFTER[r.n]!);
      // Every changed row's version moves (cached renderings are keyed by it); updated_at does not.
      expect(row.version).toBe(r.code === null ? 2 : 1);
      expect(row.updatedAt).toBe(AT);
    }
  } finally {
    await storage.close();
  }
}

test("SQLite: a document prefix's line becomes carrier_code; a lessor's hint names no carrier", async () => {
  await checkUpgraded(sqliteBefore(dir, "upgrade.sqlite", "0021_carrier_from_document_prefix", OLD_ROWS));
});

test.skipIf(!TEST_POSTGRES)(
  "PostgreSQL: a document prefix's line becomes carrier_code; a lessor's hint names no carrier",
  async () => {
    await checkUpgraded(
      await postgresBefore(dir, TEST_POSTGRES, "0013_carrier_from_document_prefix", OLD_ROWS),
    );
  },
);
