/**
 * Which keys were offered lately, approximately, in fixed memory and without allocating: a
 * direct-mapped table of 32-bit key hashes. A key lands in one slot; a slot holds one hash. So a key
 * is forgotten once another lands on its slot (offered again, it counts as new), and two keys of one
 * hash answer for each other. For callers where either slip costs time only (VersionedCache: an
 * entry stored one offer late, or one early). The exact alternative, an Lru of keys, allocated a
 * node per offer and churned it through the heap: on a server reading records it had not read, four
 * of those cost 10-12 us of a 80 us read (bench/tracking.ts, docs/tracking.md).
 */
export class SeenFilter {
  private slots: Uint32Array;

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
    const slot = h & (slots.length - 1);
    if (slots[slot] === h) {
      slots[slot] = 0;
      return true;
    }
    slots[slot] = h;
    return false;
  }

  /** Forgets every key and sizes the table for `capacity`. */
  resize(capacity: number): void {
    this.slots = new Uint32Array(slotCount(capacity));
  }
}

function slotCount(capacity: number): number {
  if (capacity <= 0) return 0;
  let n = 1;
  while (n < capacity * 2) n *= 2;
  return n;
}

/** FNV-1a over the key's UTF-16 code units; never 0 (the empty slot). */
export function hash32(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return h >>> 0 || 1;
}
