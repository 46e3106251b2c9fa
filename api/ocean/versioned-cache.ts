/**
 * Renderings of tracked records, one cache per process and kind (a lookup's milestones, a list
 * item): what a record renders as only changes with its version (tracked.version, moved in the
 * same statement as every write that can change it, in any process), so an entry serves a read
 * only while the version the read computes (from rows it has just read) equals the one stored.
 * What runs on the clock (AIS position and freshness, demurrage, the lane share, last_updated_at)
 * is never cached; it is rendered per request around the cached text (records.ts). Bounded: at
 * most `capacity` records, the least recently read dropped first.
 */
export class VersionedCache<T> {
  // A Map iterates in insertion order: re-inserting an entry on each hit makes the first key the
  // least recently used one.
  private readonly entries = new Map<string, { version: string; value: T }>();

  constructor(private max: number) {}

  get size(): number {
    return this.entries.size;
  }

  /** The bound; 0 when caching is off. */
  get capacity(): number {
    return this.max;
  }

  /** True when some version of `id` is stored. */
  has(id: string): boolean {
    return this.entries.has(id);
  }

  /** The value stored for `id` under exactly this version, or undefined. */
  get(id: string, version: string): T | undefined {
    const entry = this.entries.get(id);
    if (!entry || entry.version !== version) return undefined;
    this.entries.delete(id);
    this.entries.set(id, entry);
    return entry.value;
  }

  set(id: string, version: string, value: T): void {
    this.entries.delete(id);
    if (this.max <= 0) return;
    this.entries.set(id, { version, value });
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
  }

  /** Changes the bound (0 turns caching off), dropping the oldest entries beyond it. */
  resize(capacity: number): void {
    this.max = capacity;
    for (const id of this.entries.keys()) {
      if (this.entries.size <= Math.max(capacity, 0)) break;
      this.entries.delete(id);
    }
  }
}
