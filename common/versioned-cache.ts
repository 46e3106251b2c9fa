/**
 * Values kept under a version, one cache per process and kind (tracked rows, a lookup's milestones,
 * a list item): what a record reads or renders as only changes with its version (tracked.version,
 * moved in the same statement as every write that can change it, in any process), so an entry
 * serves a read only while the version the read computes (from rows it has just read) equals the
 * one stored. What runs on the clock (AIS position and freshness, demurrage, the lane share,
 * last_updated_at) is never cached; it is rendered per request around the cached text
 * (api/ocean/records.ts). Bounded: at most `capacity` records, the least recently read dropped
 * first.
 */
import { Lru } from "./lru.ts";
import { SeenFilter } from "./seen-filter.ts";

/** An entry, with the clock reading of its last store or read (VersionedCache.admits). */
interface Entry<T> {
  version: string;
  value: T;
  touched: number;
}

export class VersionedCache<T> {
  private readonly entries: Lru<string, Entry<T>>;
  /** Ids offered and not stored, with the clock reading of their last offer (see set). */
  private readonly seen: SeenFilter;
  /** Counts the offers noted and the entries stored or read: the order admits() compares. */
  private clock = 0;
  /** Reads answered under the asked version, and reads that were not (common/metrics.ts). */
  hits = 0;
  misses = 0;

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
   * Whether a value offered now would be stored (see set), or one is. An id told no is noted as set
   * would note it, so asking first stores what offering every value stores. A caller told false
   * skips building the version and the value's sharing (a first read through the fleet pays for
   * neither).
   */
  wants(id: string): boolean {
    return this.entries.has(id) || this.offer(id);
  }

  /** The value stored for `id` under exactly this version, or undefined. */
  get(id: string, version: string): T | undefined {
    // Another version is no read of this one: it stays where it was in the order.
    if (this.entries.peek(id)?.version !== version) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    const entry = this.entries.get(id)!;
    entry.touched = ++this.clock;
    return entry.value;
  }

  /**
   * Stores the value when its id is stored already (replaced) or comes back soon enough (admits):
   * an id offered once (a scan through the fleet, reads spread over far more records than fit)
   * leaves only a hash of it here. Storing those cost more than they saved: each evicts an entry,
   * and the churn of large renderings through the heap made every read slower (bench/tracking.ts).
   * The hashes sit in a SeenFilter, which allocates nothing (an id may then be stored an offer early
   * or late).
   */
  set(id: string, version: string, value: T): void {
    if (!this.entries.has(id)) {
      if (!this.offer(id)) return;
      this.seen.forget(id);
    }
    this.entries.set(id, { version, value, touched: ++this.clock });
  }

  /** Whether `id`, not stored, would be stored now (admits); if not, this offer is noted. */
  private offer(id: string): boolean {
    const noted = this.seen.noted(id);
    if (noted !== undefined && this.admits(noted)) return true;
    this.seen.note(id, ++this.clock);
    return false;
  }

  /**
   * Whether an id offered again, last offered at `noted`, is stored: while there is room, or when it
   * came back sooner than the least recently read entry has gone unread, which it then replaces.
   * One that comes back later than that would itself be dropped before its next read: reads cycling
   * through more records than the cache holds (an integrator polling its whole fleet) stored every
   * record and hit none, each store evicting another (docs/tracking.md "Caches that stay small");
   * now the entries stay and serve each cycle, and the others are not stored.
   */
  private admits(noted: number): boolean {
    if (this.entries.size < this.entries.max) return true;
    const oldest = this.entries.leastRecent();
    return oldest === undefined || this.entries.peek(oldest)!.touched < noted;
  }

  /** Changes the bound (0 turns caching off), dropping the oldest entries beyond it. */
  resize(capacity: number): void {
    this.entries.resize(capacity);
    this.seen.resize(capacity);
  }
}
