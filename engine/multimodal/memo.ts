/**
 * A bounded memo for a planner's per-thread caches: least recently used entries go first once it
 * holds `limit` of them. Results kept here are pure functions of their key (graph, closures, date
 * rules), so a hit answers exactly what the search would.
 */
import { Lru } from "../../common/lru.ts";

export class Memo<K, V> {
  private readonly map: Lru<K, V>;

  constructor(limit: number) {
    this.map = new Lru(limit);
  }

  get size(): number {
    return this.map.size;
  }

  /** The value for `key`, computed by `make` on a miss. */
  get(key: K, make: () => V): V {
    if (this.map.has(key)) return this.map.get(key) as V;
    const value = make();
    this.map.set(key, value);
    return value;
  }
}
