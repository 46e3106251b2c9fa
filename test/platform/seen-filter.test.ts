/**
 * common/seen-filter.ts: over keys that land on distinct slots it answers as an exact set of the keys
 * offered once (and not taken since); keys sharing a slot only forget each other; it remembers about
 * as many keys as its capacity says; capacity 0 remembers nothing.
 */
import { expect, test } from "bun:test";
import fc from "fast-check";
import { hash32, SeenFilter } from "../../common/seen-filter.ts";

/** Slots of a filter of `capacity` (the constructor's rule: a power of two, at least twice it). */
const slotsOf = (capacity: number) => 2 ** Math.ceil(Math.log2(capacity * 2));

test("over keys on distinct slots, take() answers as an exact set of keys offered once", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 64 }),
      fc.array(fc.string({ maxLength: 12 }), { minLength: 1, maxLength: 12 }),
      fc.array(fc.nat(), { minLength: 1, maxLength: 200 }),
      (capacity, candidates, picks) => {
        const mask = slotsOf(capacity) - 1;
        const slotTaken = new Set<number>();
        const keys = [...new Set(candidates)].filter((k) => {
          const slot = hash32(k) & mask;
          return !slotTaken.has(slot) && slotTaken.add(slot);
        });
        const filter = new SeenFilter(capacity);
        const model = new Set<string>();
        for (const p of picks) {
          const key = keys[p % keys.length]!;
          const seen = model.has(key);
          if (seen) model.delete(key);
          else model.add(key);
          expect(filter.take(key)).toBe(seen);
        }
      },
    ),
  );
});

test("keys sharing a slot forget each other, never answer for each other", () => {
  const capacity = 4;
  const mask = slotsOf(capacity) - 1;
  const a = "key-0";
  const b = Array.from({ length: 10_000 }, (_, i) => `key-${i + 1}`).find(
    (k) => (hash32(k) & mask) === (hash32(a) & mask),
  )!;
  expect(hash32(b)).not.toBe(hash32(a));
  const filter = new SeenFilter(capacity);
  expect(filter.take(a)).toBe(false);
  expect(filter.take(b)).toBe(false); // b replaces a in the slot, and is not taken for a
  expect(filter.take(a)).toBe(false); // a was forgotten: new again
  expect(filter.take(a)).toBe(true);
  expect(filter.take(a)).toBe(false); // taken: forgotten
});

test("a filter of capacity n remembers most of the last n keys offered; capacity 0 none", () => {
  const n = 10_000;
  const filter = new SeenFilter(n);
  const keys = Array.from({ length: n }, () => crypto.randomUUID());
  for (const k of keys) filter.take(k);
  // Newest first: a slot's survivor is asked before the keys it replaced (which then re-enter).
  const remembered = keys.toReversed().filter((k) => filter.take(k)).length;
  // Direct-mapped over 2^15 slots: a key survives the later ones with probability about 0.86.
  expect(remembered / n).toBeGreaterThan(0.8);
  const none = new SeenFilter(0);
  none.take("x");
  expect(none.take("x")).toBe(false);
  filter.resize(0);
  filter.take("y");
  expect(filter.take("y")).toBe(false);
});

test("hash32 is FNV-1a (the published test vectors) and never 0", () => {
  expect(hash32("")).toBe(0x811c9dc5);
  expect(hash32("a")).toBe(0xe40c292c);
  expect(hash32("foobar")).toBe(0xbf9cf968);
  fc.assert(fc.property(fc.string(), (s) => hash32(s) !== 0 && hash32(s) === hash32(`${s}`)));
});
