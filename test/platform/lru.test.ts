/**
 * common/lru.ts against a plain model (an array from least to most recently used): every sequence
 * of reads (moving the entry or not), writes, deletes and resizes leaves the same entries in the same order.
 */
import { expect, test } from "bun:test";
import fc from "fast-check";
import { Lru } from "../../common/lru.ts";

type Op =
  | { kind: "get"; key: number }
  | { kind: "peek"; key: number }
  | { kind: "set"; key: number; value: number }
  | { kind: "delete"; key: number }
  | { kind: "resize"; capacity: number };

const key = fc.integer({ min: 0, max: 5 });
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant("get" as const), key }),
  fc.record({ kind: fc.constant("peek" as const), key }),
  fc.record({ kind: fc.constant("set" as const), key, value: fc.integer() }),
  fc.record({ kind: fc.constant("delete" as const), key }),
  fc.record({ kind: fc.constant("resize" as const), capacity: fc.integer({ min: -1, max: 8 }) }),
);

/** A value's weight under the weight bound of the second test. */
const weightOf = (v: number) => Math.abs(v) % 7;

/** The model: entries least recently used first; their weights add up to at most maxWeight. */
class Model {
  entries: Array<[number, number]> = [];
  constructor(
    public capacity: number,
    readonly maxWeight = Number.POSITIVE_INFINITY,
  ) {}
  get weight() {
    return this.entries.reduce((sum, [, v]) => sum + weightOf(v), 0);
  }
  get(k: number) {
    const i = this.entries.findIndex(([x]) => x === k);
    if (i < 0) return undefined;
    const [e] = this.entries.splice(i, 1);
    this.entries.push(e!);
    return e![1];
  }
  set(k: number, v: number) {
    this.delete(k);
    if (this.capacity <= 0 || weightOf(v) > this.maxWeight) return;
    this.entries.push([k, v]);
    this.trim();
  }
  delete(k: number) {
    const i = this.entries.findIndex(([x]) => x === k);
    if (i >= 0) this.entries.splice(i, 1);
    return i >= 0;
  }
  resize(c: number) {
    this.capacity = c;
    this.trim();
  }
  trim() {
    while (this.entries.length > Math.max(this.capacity, 0) || this.weight > this.maxWeight)
      this.entries.shift();
  }
}

const weighed = [
  ["no weight bound", undefined],
  ["a weight bound", fc.integer({ min: 0, max: 20 })],
] as const;

test.each(weighed)(
  "Lru keeps the entries a least-recently-used model keeps, in the same order: %s",
  (_, maxWeight) => {
    fc.assert(
      fc.property(
        fc.integer({ min: -1, max: 8 }),
        maxWeight ?? fc.constant(undefined),
        fc.array(op, { minLength: 20, maxLength: 200 }),
        (capacity, max, ops) => {
          const lru = new Lru<number, number>(
            capacity,
            max === undefined ? undefined : { max, of: weightOf },
          );
          const model = new Model(capacity, max);
          for (const o of ops) {
            if (o.kind === "get") expect(lru.get(o.key)).toBe(model.get(o.key));
            else if (o.kind === "peek")
              expect(lru.peek(o.key)).toBe(model.entries.find(([k]) => k === o.key)?.[1]);
            else if (o.kind === "set") {
              lru.set(o.key, o.value);
              model.set(o.key, o.value);
            } else if (o.kind === "delete") expect(lru.delete(o.key)).toBe(model.delete(o.key));
            else {
              lru.resize(o.capacity);
              model.resize(o.capacity);
            }
            expect(lru.size).toBe(model.entries.length);
            expect(lru.weightHeld).toBe(max === undefined ? 0 : model.weight);
            expect(lru.leastRecent()).toBe(model.entries[0]?.[0]);
          }
          // Drained least recent first: the model's order, values included.
          const drained: Array<[number, number]> = [];
          for (let k = lru.leastRecent(); k !== undefined; k = lru.leastRecent()) {
            drained.push([k, lru.get(k)!]);
            lru.delete(k);
          }
          expect(drained).toEqual(model.entries);
        },
      ),
    );
  },
);
