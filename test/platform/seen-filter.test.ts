/**
 * common/seen-filter.ts: while no bucket holds more than its four keys it answers as an exact map of
 * the keys noted (and not forgotten since) to the stamp each was last noted at; keys beyond a
 * bucket's four only forget others, and a working set read in turn is never starved; it remembers
 * most of as many keys as its capacity says; capacity 0 remembers nothing.
 */
import { expect, test } from "bun:test";
import fc from "fast-check";
import { bucketOf, hash32, SeenFilter, slotCount } from "../../common/seen-filter.ts";

const WAYS = 4;

/** A second offer: forgotten and true when `key` is noted, else noted and false. */
function take(filter: SeenFilter, key: string, stamp = 0): boolean {
  if (filter.noted(key) === undefined) {
    filter.note(key, stamp);
    return false;
  }
  filter.forget(key);
  return true;
}

test("with at most four keys a bucket, noted() answers as an exact map of keys to their last stamp", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 16 }),
      fc.array(fc.string({ maxLength: 12 }), { minLength: 1, maxLength: 40 }),
      fc.array(fc.tuple(fc.nat(), fc.boolean()), { minLength: 1, maxLength: 300 }),
      (capacity, candidates, steps) => {
        const slots = slotCount(capacity);
        const perBucket = new Map<number, number>();
        const keys = [...new Set(candidates)].filter((k) => {
          const b = bucketOf(k, slots);
          const n = perBucket.get(b) ?? 0;
          perBucket.set(b, n + 1);
          return n < WAYS;
        });
        const filter = new SeenFilter(capacity);
        const model = new Map<string, number>();
        for (const [stamp, [p, forget]] of steps.entries()) {
          const key = keys[p % keys.length]!;
          expect(filter.noted(key)).toBe(model.get(key));
          if (forget) {
            filter.forget(key);
            model.delete(key);
          } else {
            filter.note(key, stamp);
            model.set(key, stamp);
          }
        }
        for (const key of keys) expect(filter.noted(key)).toBe(model.get(key));
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
  for (const k of keys) expect(take(filter, k)).toBe(false);
  // The fifth is remembered; taking it frees its slot, so asking for the first four replaces none:
  // the one that gave its slot up is new again, the other three are remembered.
  expect(take(filter, keys[4]!)).toBe(true);
  const again = keys.slice(0, 4).map((k) => take(filter, k));
  expect(again.filter((seen) => !seen).length).toBe(1);
});

test("keys crowding one bucket, offered in turn until seen (then cached), are all seen", () => {
  fc.assert(
    fc.property(fc.integer({ min: 2, max: 8 }), fc.integer({ min: 0, max: 50 }), (n, warm) => {
      const keys = sameBucket(4, n);
      const filter = new SeenFilter(4);
      // Earlier replacements move the random state; start it anywhere.
      for (let i = 0; i < warm; i++) take(filter, `other-${i}`);
      const waiting = new Set(keys);
      for (let round = 0; round < 60 && waiting.size > 0; round++)
        for (const k of [...waiting]) if (take(filter, k)) waiting.delete(k);
      expect([...waiting]).toEqual([]);
    }),
  );
});

test("a filter of capacity n remembers most of the last n keys offered; capacity 0 none", () => {
  const n = 10_000;
  const filter = new SeenFilter(n);
  const keys = Array.from({ length: n }, () => crypto.randomUUID());
  for (const [i, k] of keys.entries()) filter.note(k, i);
  const remembered = keys.filter((k, i) => filter.noted(k) === i).length;
  // 2^15 slots in buckets of four for 10,000 keys: few buckets overflow.
  expect(remembered / n).toBeGreaterThan(0.95);
  const none = new SeenFilter(0);
  none.note("x", 1);
  expect(none.noted("x")).toBeUndefined();
  filter.resize(0);
  filter.note("y", 1);
  expect(filter.noted("y")).toBeUndefined();
});

test("hash32 is FNV-1a (the published test vectors) and never 0", () => {
  expect(hash32("")).toBe(0x811c9dc5);
  expect(hash32("a")).toBe(0xe40c292c);
  expect(hash32("foobar")).toBe(0xbf9cf968);
  fc.assert(fc.property(fc.string(), (s) => hash32(s) !== 0 && hash32(s) === hash32(`${s}`)));
});
