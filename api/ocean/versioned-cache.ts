/**
 * Renderings of tracked records, one cache per process and kind (a lookup's milestones, a list
 * item): what a record renders as only changes with its version (tracked.version, moved in the
 * same statement as every write that can change it, in any process), so an entry serves a read
 * only while the version the read computes (from rows it has just read) equals the one stored.
 * What runs on the clock (AIS position and freshness, demurrage, the lane share, last_updated_at)
 * is never cached; it is rendered per request around the cached text (records.ts). Bounded: at
 * most `capacity` records, the least recently read dropped first.
 */
import { Lru } from "../../common/lru.ts";
import { SeenFilter } from "../../common/seen-filter.ts";

export class VersionedCache<T> {
  private readonly entries: Lru<string, { version: string; value: T }>;
  /** Ids offered once and not stored yet (see set). */
  private readonly seen: SeenFilter;

  constructor(capacity: number) {
    this.entries = new Lru(capacity);
    this.seen = new SeenFilter(capacity);
  }

  get size(): number {
    return this.entries.size;
  }

  /** The bound; 0 when caching is off. */
  get capacity(): number {
    return this.entries.max;
  }

  /** True when some version of `id` is stored. */
  has(id: string): boolean {
    return this.entries.has(id);
  }

  /**
   * Whether a value for `id` would be stored now (see set), or one is: false on the id's first offer,
   * which this remembers as set would. A caller told false skips building the version and the
   * value's sharing (a first read through the fleet pays for neither).
   */
  wants(id: string): boolean {
    if (this.entries.has(id) || this.seen.has(id)) return true;
    this.seen.take(id);
    return false;
  }

  /** The value stored for `id` under exactly this version, or undefined. */
  get(id: string, version: string): T | undefined {
    // Another version is no read of this one: it stays where it was in the order.
    if (this.entries.peek(id)?.version !== version) return undefined;
    return this.entries.get(id)!.value;
  }

  /**
   * Stores the value from the second time its id is offered on: an id read once (a scan through
   * the fleet, reads spread over far more records than fit) leaves only a hash of it here. Storing
   * those cost more than they saved: each evicts an entry, and the churn of large renderings
   * through the heap made every read slower (bench/tracking.ts). The hashes sit in a SeenFilter, which
   * allocates nothing (an id may then be stored an offer early or late). An id stored already is
   * replaced.
   */
  set(id: string, version: string, value: T): void {
    if (!this.entries.has(id) && !this.seen.take(id)) return;
    this.entries.set(id, { version, value });
  }

  /** Changes the bound (0 turns caching off), dropping the oldest entries beyond it. */
  resize(capacity: number): void {
    this.entries.resize(capacity);
    this.seen.resize(capacity);
  }
}
