/**
 * Which keys were offered lately and when, approximately, in fixed memory and without allocating: a
 * table of 32-bit key hashes in buckets of four slots, each with the stamp (a caller's clock reading)
 * it was noted at. A key lands in one bucket; once its four slots are taken, a new key replaces one
 * of them at random (so a key may be forgotten, and offered again it counts as new), and two keys of
 * one hash answer for each other. For callers where either slip costs time only (VersionedCache: an
 * entry stored one offer late, or one early). Four ways, not one: with one slot per key, two keys of
 * a working set sharing it, read in turn, replaced each other for ever and were never cached (3% of
 * a 1,000-record working set, bench/tracking.ts); replacing at random, not in turn, keeps five or
 * more keys of one bucket read in turn from doing the same. The exact alternative, an Lru of keys,
 * allocated a node per offer and churned it through the heap: on a server reading records it had
 * not read, four of those cost 10-12 us of a 80 us read (docs/tracking.md).
 */
const WAYS = 4;

export class SeenFilter {
  private slots: Uint32Array;
  /** The stamp each slot's key was last noted at. */
  private stamps: Float64Array;
  /** xorshift32 state: which way a full bucket gives up. */
  private random = 0x9e3779b9;

  /** About `capacity` keys remembered: twice as many slots, a power of two (0: none). */
  constructor(capacity: number) {
    this.slots = new Uint32Array(slotCount(capacity));
    this.stamps = new Float64Array(this.slots.length);
  }

  /** The stamp `key` was last noted at, or undefined when it is not remembered; changes nothing. */
  noted(key: string): number | undefined {
    const i = this.slotOf(hash32(key));
    return i < 0 ? undefined : this.stamps[i];
  }

  /** Remembers `key` as offered at `stamp` (again: the stamp moves, nothing else is forgotten). */
  note(key: string, stamp: number): void {
    const slots = this.slots;
    if (slots.length === 0) return;
    const h = hash32(key);
    let at = this.slotOf(h);
    if (at < 0) {
      const first = firstSlot(h, slots.length);
      for (let i = first; i < first + WAYS && at < 0; i++) if (slots[i] === 0) at = i;
      if (at < 0) {
        let x = this.random;
        x ^= x << 13;
        x ^= x >>> 17;
        x ^= x << 5;
        this.random = x;
        at = first + (x & (WAYS - 1));
      }
      slots[at] = h;
    }
    this.stamps[at] = stamp;
  }

  /** Forgets `key` (its slot is free for another). */
  forget(key: string): void {
    const i = this.slotOf(hash32(key));
    if (i >= 0) this.slots[i] = 0;
  }

  /** Forgets every key and sizes the table for `capacity`. */
  resize(capacity: number): void {
    this.slots = new Uint32Array(slotCount(capacity));
    this.stamps = new Float64Array(this.slots.length);
  }

  /** The slot holding hash `h`, or -1. */
  private slotOf(h: number): number {
    const slots = this.slots;
    if (slots.length === 0) return -1;
    const first = firstSlot(h, slots.length);
    for (let i = first; i < first + WAYS; i++) if (slots[i] === h) return i;
    return -1;
  }
}

/** Slots of a filter of `capacity`: a power of two, at least twice it and one bucket. */
export function slotCount(capacity: number): number {
  if (capacity <= 0) return 0;
  let n = WAYS;
  while (n < capacity * 2) n *= 2;
  return n;
}

/** The first slot of the bucket of hash `h` in a table of `slots` slots. */
const firstSlot = (h: number, slots: number) => h & (slots - WAYS);

/** The bucket (its first slot) of `key` in a table of `slots` slots. */
export const bucketOf = (key: string, slots: number) => firstSlot(hash32(key), slots);

/** FNV-1a over the key's UTF-16 code units; never 0 (the empty slot). */
export function hash32(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return h >>> 0 || 1;
}
