/**
 * The month's shipment count (Quotas.shipments without an identifier) comes from shipment_months,
 * which each record and remove moves in its own transaction: it must always equal the number of
 * shipment_usage rows of that organisation and month, whatever sequence of adds, refunds, failed
 * adds and rolled-back transactions led there. Runs on SQLite, and on PostgreSQL in its pass.
 */
import { afterEach, expect, test } from "bun:test";
import fc from "fast-check";
import { DuplicateKeyError } from "../../storage/errors.ts";
import { openStorage } from "../../storage/open.ts";
import type { Shipment } from "../../storage/quotas.ts";
import type { Storage } from "../../storage/storage.ts";
import { testDatabase } from "../helpers/database.ts";

const opened: Storage[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

const ORGS = ["o1", "o2"];
const MONTHS = ["2026-11", "2026-12"];
const IDENTIFIERS = ["MSKU1234565", "TGHU7654320", "BL-1", "BK-2"];

type Op =
  | { kind: "record"; shipment: Shipment }
  | { kind: "remove"; shipment: Shipment }
  | { kind: "rolledBack"; shipment: Shipment };

const shipment = fc.record({
  orgId: fc.constantFrom(...ORGS),
  month: fc.constantFrom(...MONTHS),
  identifier: fc.constantFrom(...IDENTIFIERS),
});
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant("record" as const), shipment }),
  fc.record({ kind: fc.constant("remove" as const), shipment }),
  fc.record({ kind: fc.constant("rolledBack" as const), shipment }),
);

const keyOf = (s: Shipment) => `${s.orgId}|${s.month}|${s.identifier}`;

test("the month's count is the number of its shipment rows after any adds, refunds and failed writes", async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(op, { maxLength: 30 }), async (ops) => {
      const storage = await openStorage(testDatabase());
      opened.push(storage);
      const rows = new Set<string>();
      for (const o of ops) {
        const known = rows.has(keyOf(o.shipment));
        if (o.kind === "record") {
          const write = storage.quotas.recordShipment(o.shipment, 0);
          // A second row for the same identifier and month is refused, and counts nothing.
          if (known) await expect(write).rejects.toBeInstanceOf(DuplicateKeyError);
          else {
            await write;
            rows.add(keyOf(o.shipment));
          }
        } else if (o.kind === "remove") {
          await storage.quotas.removeShipment(o.shipment);
          rows.delete(keyOf(o.shipment));
        } else {
          // Recorded, or removed, inside a transaction that then fails: neither row nor count moves.
          const failed = storage.transaction(async (tx) => {
            if (known) await tx.quotas.removeShipment(o.shipment);
            else await tx.quotas.recordShipment(o.shipment, 0);
            throw new Error("rolled back");
          });
          await expect(failed).rejects.toThrow("rolled back");
        }
        for (const orgId of ORGS)
          for (const month of MONTHS) {
            const mine = [...rows].filter((k) => k.startsWith(`${orgId}|${month}|`));
            expect(await storage.quotas.shipments(orgId, month)).toBe(mine.length);
            for (const identifier of IDENTIFIERS)
              expect(await storage.quotas.shipments(orgId, month, identifier)).toBe(
                rows.has(`${orgId}|${month}|${identifier}`) ? 1 : 0,
              );
          }
      }
      await storage.close();
      opened.pop();
    }),
    { numRuns: 25 },
  );
}, 120_000);

test("concurrent adds of one organisation and month each count once", async () => {
  const storage = await openStorage(testDatabase());
  opened.push(storage);
  const n = 40;
  await Promise.all(
    Array.from({ length: n }, (_, i) =>
      storage.transaction((tx) =>
        tx.quotas.recordShipment({ orgId: "o1", month: "2026-12", identifier: `MSKU${i}` }, 0),
      ),
    ),
  );
  expect(await storage.quotas.shipments("o1", "2026-12")).toBe(n);
  expect(await storage.quotas.shipments("o1", "2026-11")).toBe(0);
  expect(await storage.quotas.shipments("o2", "2026-12")).toBe(0);
});
