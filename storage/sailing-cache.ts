/**
 * Parsed sailings kept per process and database, so reads of the schedules product fetch and
 * JSON-parse only the rows that are new or changed since they were last read (docs/schedules.md).
 * An entry holds under its stamp: the row's changed_at, which the refresh sets on every write to a
 * sailing (calls, vessel, status; ingest/schedules/sync.ts), and the calls' length, which also
 * catches a second write within the same millisecond. The stamp is read from the database on every
 * query, so a refresh in another process is seen at once. Least recently used entries go first.
 */
import type { SailingRow } from "./sailings.ts";

/**
 * Entries kept per database: a year of the sandbox's five carriers is ~1,100 sailings
 * (bench/schedules.ts) of ~4 kB of heap each once parsed, so at most ~80 MB.
 */
export const SAILING_CACHE_MAX = 20_000;

/** What a row is cached under: equal stamps, equal rows. */
export interface SailingStamp {
  id: string;
  changedAt: string;
  callsLength: number;
}

interface Entry {
  changedAt: string;
  callsLength: number;
  row: SailingRow;
}

export class SailingCache {
  // A Map iterates in insertion order: re-inserting on a hit makes its first key the LRU one.
  private readonly entries = new Map<string, Entry>();

  constructor(readonly max = SAILING_CACHE_MAX) {}

  get size(): number {
    return this.entries.size;
  }

  /** The row cached under exactly this stamp, marked recently used; undefined if absent or stale. */
  get(stamp: SailingStamp): SailingRow | undefined {
    const held = this.entries.get(stamp.id);
    if (!held || held.changedAt !== stamp.changedAt || held.callsLength !== stamp.callsLength) return;
    this.entries.delete(stamp.id);
    this.entries.set(stamp.id, held);
    return held.row;
  }

  set(stamp: SailingStamp, row: SailingRow): void {
    this.entries.delete(stamp.id);
    this.entries.set(stamp.id, { changedAt: stamp.changedAt, callsLength: stamp.callsLength, row });
    while (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
  }
}

/** One cache per database connection: ids are only unique within one database. */
const caches = new WeakMap<object, SailingCache>();

export function sailingCacheFor(db: object): SailingCache {
  const held = caches.get(db);
  if (held) return held;
  const cache = new SailingCache();
  caches.set(db, cache);
  return cache;
}
