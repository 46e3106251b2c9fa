/**
 * The compat surface's call counters (storage/usage.ts): a bump adds one call to each counter it
 * names in one statement, and answers each counter's count after it. Checked against a model over
 * random sequences of bumps (counters named in any order, some twice), and under concurrent bumps
 * of the same counters in opposite orders (PostgreSQL row locks: no deadlock, no lost call; with
 * the rows taken in the caller's order PostgreSQL reports a deadlock in every run). Runs
 * on SQLite, and on PostgreSQL in its pass.
 */
import { afterEach, expect, test } from "bun:test";
import fc from "fast-check";
import { openStorage } from "../../storage/open.ts";
import type { Storage } from "../../storage/storage.ts";
import type { Counter } from "../../storage/usage.ts";
import { testDatabase } from "../helpers/database.ts";

const opened: Storage[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

async function storage(): Promise<Storage> {
  const s = await openStorage(testDatabase());
  opened.push(s);
  return s;
}

const keyOf = (c: Counter) => `${c.scope}|${c.period}`;
const counter = fc.record({
  scope: fc.constantFrom("key:a", "key:b", "org:o"),
  period: fc.constantFrom("2026-12-05", "2026-W49", "2026-12", "total"),
});

test("every bump answers each counter's count after it, and calls reads the same", async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(fc.array(counter, { maxLength: 6 }), { maxLength: 12 }), async (bumps) => {
      const s = await storage();
      const model = new Map<string, number>();
      for (const named of bumps) {
        for (const c of named) model.set(keyOf(c), (model.get(keyOf(c)) ?? 0) + 1);
        expect(await s.usage.bump(named)).toEqual(named.map((c) => model.get(keyOf(c))!));
      }
      for (const scope of ["key:a", "key:b", "org:o"]) {
        for (const period of ["2026-12-05", "2026-W49", "2026-12", "total"]) {
          expect(await s.usage.calls({ scope, period })).toBe(model.get(keyOf({ scope, period })) ?? 0);
        }
      }
    }),
    { numRuns: 25 },
  );
});

test("concurrent bumps of the same counters in opposite orders all count", async () => {
  const s = await storage();
  const counters: Counter[] = ["day", "week", "month", "total"].map((period) => ({ scope: "key:k", period }));
  const reversed = [...counters].reverse();
  const answers = await Promise.all(
    Array.from({ length: 400 }, (_, i) => s.usage.bump(i % 2 === 0 ? counters : reversed)),
  );
  for (const c of counters) expect(await s.usage.calls(c)).toBe(400);
  // Each bump saw its own call: the counts after the 400 bumps are 400 different values of each counter.
  expect(new Set(answers.map((a) => a[0])).size).toBe(400);
});
