/**
 * A bounded map that drops its least recently used entries first, in constant time: the entries
 * sit in a list from least to most recently used beside the Map. Not a Map kept in use order with
 * `keys().next()` finding the oldest: JavaScriptCore's Map iteration steps over every deleted slot
 * before the first live one, so under churn each eviction cost time in proportion to the capacity
 * (11 us at 10,000 entries; bench/tracking.ts's uniform lookups made four a read).
 */
interface Node<K, V> {
  key: K;
  value: V;
  weight: number;
  older: Node<K, V> | undefined;
  newer: Node<K, V> | undefined;
}

/** A second bound: the entries' weights (bytes, say) may add up to at most `max`. */
export interface LruWeight<V> {
  max: number;
  of(value: V): number;
}

export class Lru<K, V> {
  private readonly nodes = new Map<K, Node<K, V>>();
  private oldest: Node<K, V> | undefined;
  private newest: Node<K, V> | undefined;
  private weighed = 0;
  /** get() calls that found their key, and that did not (common/metrics.ts reads them). */
  hits = 0;
  misses = 0;

  /** `capacity`: at most this many entries; 0 or less keeps none. */
  constructor(
    private capacity: number,
    private readonly weight?: LruWeight<V>,
  ) {}

  get size(): number {
    return this.nodes.size;
  }

  /** The entries' weights added up (0 without a weight bound). */
  get weightHeld(): number {
    return this.weighed;
  }

  get max(): number {
    return this.capacity;
  }

  has(key: K): boolean {
    return this.nodes.has(key);
  }

  /** The value under `key`, leaving the order as it is. */
  peek(key: K): V | undefined {
    return this.nodes.get(key)?.value;
  }

  /** The value under `key`, which becomes the most recently used. */
  get(key: K): V | undefined {
    const node = this.nodes.get(key);
    if (!node) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    this.unlink(node);
    this.append(node);
    return node.value;
  }

  /** Stores `value` as the most recently used, dropping the least recently used beyond the bound. */
  /** A value heavier than the weight bound is not stored (and an older one under `key` goes). */
  set(key: K, value: V): void {
    const weight = this.weight?.of(value) ?? 0;
    let node = this.nodes.get(key);
    if (node && weight > this.maxWeight) {
      this.delete(key);
      return;
    }
    if (node) {
      this.unlink(node);
      this.weighed += weight - node.weight;
      node.value = value;
      node.weight = weight;
    } else {
      if (this.capacity <= 0 || weight > this.maxWeight) return;
      node = { key, value, weight, older: undefined, newer: undefined };
      this.nodes.set(key, node);
      this.weighed += weight;
    }
    this.append(node);
    this.trim(this.capacity);
  }

  delete(key: K): boolean {
    const node = this.nodes.get(key);
    if (!node) return false;
    this.unlink(node);
    this.weighed -= node.weight;
    return this.nodes.delete(key);
  }

  /** The least recently used entry's key, or undefined when empty. */
  leastRecent(): K | undefined {
    return this.oldest?.key;
  }

  /** Changes the bound, dropping the least recently used entries beyond it. */
  resize(capacity: number): void {
    this.capacity = capacity;
    this.trim(capacity);
  }

  private get maxWeight(): number {
    return this.weight?.max ?? Number.POSITIVE_INFINITY;
  }

  private trim(bound: number): void {
    while ((this.nodes.size > Math.max(bound, 0) || this.weighed > this.maxWeight) && this.oldest)
      this.delete(this.oldest.key);
  }

  private unlink(node: Node<K, V>): void {
    if (node.older) node.older.newer = node.newer;
    else this.oldest = node.newer;
    if (node.newer) node.newer.older = node.older;
    else this.newest = node.older;
    node.older = undefined;
    node.newer = undefined;
  }

  private append(node: Node<K, V>): void {
    node.older = this.newest;
    if (this.newest) this.newest.newer = node;
    else this.oldest = node;
    this.newest = node;
  }
}
