/**
 * common/seen-filter.ts: while no bucket holds more than its four keys it answers as an exact set of
 * the keys offered once (and not taken since), has() without changing it; keys beyond a bucket's four only forget others, and
 * a working set read in turn is never starved; it remembers most of as many keys as its capacity
 * says; capacity 0 remembers nothing.
 */
import { expect, test } from "bun:test";
import fc from "fast-check";
import { bucketOf, hash32, SeenFilter, slotCount } from "../../common/seen-filter.ts";

const WAYS = 4;

test("with at most four keys a bucket, take() and has() answer as an exact set of keys offered once", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 16 }),
      fc.array(fc.string({ maxLength: 12 }), { minLength: 1, maxLength: 40 }),
      fc.array(fc.nat(), { minLength: 1, maxLength: 300 }),
      (capacity, candidates, picks) => {
        const slots = slotCount(capacity);
        const perBucket = new Map<number, number>();
        const keys = [...new Set(candidates)].filter((k) => {
          const b = bucketOf(k, slots);
          const n = perBucket.get(b) ?? 0;
          perBucket.set(b, n + 1);
          return n < WAYS;
        });
        const filter = new SeenFilter(capacity);
        const model = new Set<string>();
        for (const p of picks) {
          const key = keys[p % keys.length]!;
          const seen = model.has(key);
          if (seen) model.delete(key);
          else model.add(key);
          // has() answers the same and changes nothing: take() still does.
          expect(filter.has(key)).toBe(seen);
          expect(filter.take(key)).toBe(seen);
        }
      },
    ),
  );
});

/** `n` distinct keys of one bucket in a filter of `capacity`, none of one hash. */
function sameBucket(capacity: number, n: number): string[] {
  const slots = slotCount(capacity);
  const bucket = bucketOf("key-0", slots);
  const out: string[] = [];
  for (let i = 0; out.length < n; i++) {
    const k = `key-${i}`;
    if (bucketOf(k, slots) === bucket && !out.some((o) => hash32(o) === hash32(k))) out.push(k);
  }
  return out;
}

test("a fifth key in a bucket forgets one of the four, never answers for it", () => {
  const keys = sameBucket(8, 5);
  const filter = new SeenFilter(8);
  for (const k of keys) expect(filter.take(k)).toBe(false);
  // The fifth is remembered; taking it frees its slot, so asking for the first four replaces none:
  // the one that gave its slot up is new again, the other three are remembered.
  expect(filter.take(keys[4]!)).toBe(true);
  const again = keys.slice(0, 4).map((k) => filter.take(k));
  expect(again.filter((seen) => !seen).length).toBe(1);
});

test("keys crowding one bucket, offered in turn until seen (then cached), are all seen", () => {
  fc.assert(
    fc.property(fc.integer({ min: 2, max: 8 }), fc.integer({ min: 0, max: 50 }), (n, warm) => {
      const keys = sameBucket(4, n);
      const filter = new SeenFilter(4);
      // Earlier replacements move the random state; start it anywhere.
      for (let i = 0; i < warm; i++) filter.take(`other-${i}`);
      const waiting = new Set(keys);
      for (let round = 0; round < 60 && waiting.size > 0; round++)
        for (const k of [...waiting]) if (filter.take(k)) waiting.delete(k);
      expect([...waiting]).toEqual([]);
    }),
  );
});

test("a filter of capacity n remembers most of the last n keys offered; capacity 0 none", () => {
  const n = 10_000;
  const filter = new SeenFilter(n);
  const keys = Array.from({ length: n }, () => crypto.randomUUID());
  for (const k of keys) filter.take(k);
  const remembered = keys.filter((k) => filter.take(k)).length;
  // 2^15 slots in buckets of four for 10,000 keys: few buckets overflow.
  expect(remembered / n).toBeGreaterThan(0.95);
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
