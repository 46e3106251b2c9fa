/**
 * A bounded memo for a planner's per-thread caches: least recently used entries go first once it
 * holds `limit` of them. Results kept here are pure functions of their key (graph, closures, date
 * rules), so a hit answers exactly what the search would.
 */
export class Memo<K, V> {
  private readonly map = new Map<K, V>();

  constructor(private readonly limit: number) {}

  get size(): number {
    return this.map.size;
  }

  /** The value for `key`, computed by `make` on a miss. */
  get(key: K, make: () => V): V {
    if (this.map.has(key)) {
      const hit = this.map.get(key) as V;
      // Re-inserted: a Map iterates in insertion order, so the first key is the least recent.
      this.map.delete(key);
      this.map.set(key, hit);
      return hit;
    }
    const value = make();
    this.map.set(key, value);
    if (this.map.size > this.limit) this.map.delete(this.map.keys().next().value as K);
    return value;
  }
}
