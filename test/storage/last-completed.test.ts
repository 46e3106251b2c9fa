/**
 * Trackings.lastCompleted, on the dialect under test (SQLite, or PostgreSQL in the PostgreSQL pass):
 * the latest record archived as completed that carries the reference, as its identifier (a box
 * tracked by number, a B/L) or as its container number, whichever column holds it;
 * records deleted or still tracked are not completed, and another organisation's are not seen.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { openStorage } from "../../storage/open.ts";
import type { Storage } from "../../storage/storage.ts";
import { testDatabase } from "../helpers/database.ts";

const AT = "2026-01-01T00:00:00.000Z";
const BOX = "MSCU1234565";
const BL = "MEDU200142542";
const BL_ONE_BOX = "MEDU200142550";

interface Rec {
  id: string;
  orgId?: string;
  identifier: string;
  container?: string;
  archivedAt?: string;
  reason?: string;
}

const row = (r: Rec) => ({
  id: r.id,
  orgId: r.orgId ?? "o1",
  identifier: r.identifier,
  identifierType: r.identifier.startsWith("MEDU") ? "bill_of_lading" : "container_id",
  containerNumber: r.container ?? (r.identifier.startsWith("MEDU") ? null : r.identifier),
  updatedAt: AT,
  addedAt: AT,
  archivedAt: r.archivedAt ?? null,
  archivedReason: r.reason ?? null,
});

let storage: Storage;
beforeAll(async () => {
  storage = await openStorage(testDatabase());
  const { db, t } = storage;
  for (const id of ["o1", "o2"]) await db.insert(t.orgs).values({ id, name: id, createdAt: AT });
  const completed = "completed: empty returned";
  await db.insert(t.tracked).values(
    [
      // The box tracked by its number: completed in March, then tracked again and deleted in May.
      { id: "box-march", identifier: BOX, archivedAt: "2026-03-01T00:00:00.000Z", reason: completed },
      { id: "box-may", identifier: BOX, archivedAt: "2026-05-01T00:00:00.000Z", reason: "deleted" },
      // A B/L completed in April, and one whose record names the box as its container number: found
      // by that column alone, and newer than March.
      { id: "bl", identifier: BL, archivedAt: "2026-04-01T00:00:00.000Z", reason: completed },
      {
        id: "bl-one-box",
        identifier: BL_ONE_BOX,
        container: BOX,
        archivedAt: "2026-04-02T00:00:00.000Z",
        reason: completed,
      },
      // Another organisation's, completed later still.
      {
        id: "other",
        orgId: "o2",
        identifier: BOX,
        archivedAt: "2026-06-01T00:00:00.000Z",
        reason: completed,
      },
      // Tracked now: not completed.
      { id: "active", identifier: "TGHU1234560" },
    ].map(row),
  );
});
afterAll(() => storage.close());

test.each([
  [
    "the newest of both columns: the B/L naming the box (April) over the box's own record (March)",
    "o1",
    BOX,
    "bl-one-box",
  ],
  ["a B/L by its identifier", "o1", BL, "bl"],
  ["another organisation sees its own only", "o2", BOX, "other"],
  ["a record still tracked is not completed", "o1", "TGHU1234560", undefined],
  ["an unknown reference", "o1", "CMAU1663002", undefined],
])("%s", async (_name, orgId, reference, id) => {
  expect((await storage.trackings.lastCompleted(orgId, reference))?.id).toBe(id);
});

test("with the B/L naming the box deleted, the box's own completed record answers (a deleted one never does)", async () => {
  const { db, t } = storage;
  await db.update(t.tracked).set({ archivedReason: "deleted" }).where(eq(t.tracked.id, "bl-one-box"));
  expect((await storage.trackings.lastCompleted("o1", BOX))?.id).toBe("box-march");
});
