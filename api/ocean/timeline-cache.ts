/**
 * Rendered milestone lists of tracked records, one cache per process. A lookup's events are its
 * costliest part (a record's stored events lie scattered over the file, then their JSON and local
 * times); the rest of a lookup record is rendered per request from the row read for it, and what
 * runs on the clock (AIS position and freshness, demurrage, the lane share, last_updated_at) is
 * never cached.
 *
 * An entry serves a read only while its version matches the one the read computes: the events
 * stamp of the record's root (Trackings.eventsStamp: grows with every event added or corrected, in
 * any process, and is read before rendering) plus what picks the record's share of those events
 * (see records.ts). Bounded: at most `capacity` records, the least recently read dropped first.
 */
export class TimelineCache<T> {
  // A Map iterates in insertion order: re-inserting an entry on each hit makes the first key the
  // least recently used one.
  private readonly entries = new Map<string, { version: string; value: T }>();

  constructor(private capacity: number) {}

  get size(): number {
    return this.entries.size;
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
    if (this.capacity <= 0) return;
    this.entries.set(id, { version, value });
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
  }

  /** Changes the bound (0 turns caching off), dropping the oldest entries beyond it. */
  resize(capacity: number): void {
    this.capacity = capacity;
    for (const id of this.entries.keys()) {
      if (this.entries.size <= Math.max(capacity, 0)) break;
      this.entries.delete(id);
    }
  }
}
