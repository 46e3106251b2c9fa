/**
 * Which keys were offered lately, approximately, in fixed memory and without allocating: a table of
 * 32-bit key hashes in buckets of four slots. A key lands in one bucket; once its four slots are
 * taken, a new key replaces one of them at random (so a key may be forgotten, and offered again it
 * counts as new), and two keys of one hash answer for each other. For callers where either slip
 * costs time only (VersionedCache: an entry stored one offer late, or one early). Four ways, not one:
 * with one slot per key, two keys of a working set sharing it, read in turn, replaced each other
 * for ever and were never cached (3% of a 1,000-record working set, bench/tracking.ts); replacing
 * at random, not in turn, keeps five or more keys of one bucket read in turn from doing the same. The exact
 * alternative, an Lru of keys, allocated a node per offer and churned it through the heap: on a
 * server reading records it had not read, four of those cost 10-12 us of a 80 us read
 * (docs/tracking.md).
 */
const WAYS = 4;

export class SeenFilter {
  private slots: Uint32Array;
  /** xorshift32 state: which way a full bucket gives up. */
  private random = 0x9e3779b9;

  /** About `capacity` keys remembered: twice as many slots, a power of two (0: none). */
  constructor(capacity: number) {
    this.slots = new Uint32Array(slotCount(capacity));
  }

  /**
   * True when `key` was offered before and is still remembered: then it is forgotten (the caller
   * acts on the second offer once). Otherwise it is remembered and the answer is false.
   */
  take(key: string): boolean {
    const slots = this.slots;
    if (slots.length === 0) return false;
    const h = hash32(key);
    const first = firstSlot(h, slots.length);
    let free = -1;
    for (let i = first; i < first + WAYS; i++) {
      if (slots[i] === h) {
        slots[i] = 0;
        return true;
      }
      if (free < 0 && slots[i] === 0) free = i;
    }
    if (free < 0) {
      let x = this.random;
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      this.random = x;
      free = first + (x & (WAYS - 1));
    }
    slots[free] = h;
    return false;
  }

  /** True when `key` is remembered; changes nothing. */
  has(key: string): boolean {
    const slots = this.slots;
    if (slots.length === 0) return false;
    const h = hash32(key);
    const first = firstSlot(h, slots.length);
    for (let i = first; i < first + WAYS; i++) if (slots[i] === h) return true;
    return false;
  }

  /** Forgets every key and sizes the table for `capacity`. */
  resize(capacity: number): void {
    this.slots = new Uint32Array(slotCount(capacity));
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
