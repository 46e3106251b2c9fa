/**
 * A database from before shipment_months (migration 0019 on SQLite, 0011 on PostgreSQL): the
 * migration counts every organisation's shipments per month from shipment_usage, so the quota and
 * the compat surface read the same numbers as before, and adds and refunds move them from there.
 */
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStorage } from "../../storage/open.ts";
import { TEST_POSTGRES } from "../helpers/database.ts";
import { type OldRows, postgresBefore, sqliteBefore } from "../helpers/migrations.ts";

const dir = mkdtempSync(join(tmpdir(), "portolan-shipment-months-upgrade-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Shipments per organisation and month before the upgrade (none for o2 in 2026-11). */
const BEFORE: Record<string, number> = { "o1|2026-11": 3, "o1|2026-12": 5, "o2|2026-12": 1 };
const OLD_ROWS: OldRows = Object.entries(BEFORE).flatMap(([at, n]) => {
  const [orgId, month] = at.split("|") as [string, string];
  return Array.from({ length: n }, (_, i): OldRows[number] => [
    "INSERT INTO shipment_usage (org_id, month, identifier, charged_usd) VALUES ($1, $2, $3, $4)",
    [orgId, month, `MSKU${month}${i}`, i % 2 ? 12.5 : 0],
  ]);
});

async function checkUpgraded(target: string): Promise<void> {
  const storage = await openStorage(target);
  try {
    for (const orgId of ["o1", "o2", "o3"])
      for (const month of ["2026-11", "2026-12"])
        expect(await storage.quotas.shipments(orgId, month)).toBe(BEFORE[`${orgId}|${month}`] ?? 0);
    // Charges are still summed from the rows.
    expect(await storage.quotas.spent("o1", "2026-12")).toBe(25);
    // From the migrated count on, adds and refunds move it.
    await storage.quotas.recordShipment({ orgId: "o1", month: "2026-12", identifier: "NEW" }, 0);
    await storage.quotas.recordShipment({ orgId: "o2", month: "2026-11", identifier: "NEW" }, 0);
    await storage.quotas.removeShipment({ orgId: "o1", month: "2026-11", identifier: "MSKU2026-110" });
    expect(await storage.quotas.shipments("o1", "2026-12")).toBe(6);
    expect(await storage.quotas.shipments("o2", "2026-11")).toBe(1);
    expect(await storage.quotas.shipments("o1", "2026-11")).toBe(2);
  } finally {
    await storage.close();
  }
}

test("SQLite: each organisation's month starts from its shipment rows", async () => {
  await checkUpgraded(sqliteBefore(dir, "upgrade.sqlite", "0019_shipment_months", OLD_ROWS));
});

test.skipIf(!TEST_POSTGRES)(
  "PostgreSQL: each organisation's month starts from its shipment rows",
  async () => {
    await checkUpgraded(await postgresBefore(dir, TEST_POSTGRES, "0011_shipment_months", OLD_ROWS));
  },
);
