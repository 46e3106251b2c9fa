/**
 * Parsed sailings kept per process and database, so reads of the schedules product fetch and
 * JSON-parse only the rows that are new or changed since they were last read (docs/schedules.md).
 * An entry holds under the row's version, which every write to a sailing moves in the same statement
 * (storage/sailings.ts): two writes within one millisecond are two versions. The version is read
 * from the database on every query, so a refresh in another process is seen at once. Least
 * recently used entries go first.
 */
import { Lru } from "../common/lru.ts";
import type { SailingRow } from "./sailings.ts";

/**
 * Entries kept per database: a year of the sandbox's five carriers is ~1,100 sailings
 * (bench/schedules.ts) of ~4 kB of heap each once parsed, so at most ~80 MB.
 */
export const SAILING_CACHE_MAX = 20_000;

/** What a row is cached under: equal versions of one id, equal rows. */
export interface SailingStamp {
  id: string;
  version: number;
}

interface Entry {
  version: number;
  row: SailingRow;
}

export class SailingCache {
  private readonly entries: Lru<string, Entry>;

  constructor(readonly max = SAILING_CACHE_MAX) {
    this.entries = new Lru(max);
  }

  get size(): number {
    return this.entries.size;
  }

  /** The row cached under exactly this stamp, marked recently used; undefined if absent or stale. */
  get(stamp: SailingStamp): SailingRow | undefined {
    const held = this.entries.peek(stamp.id);
    // PostgreSQL's bigint may come back as a string: versions compare as numbers.
    if (!held || held.version !== Number(stamp.version)) return;
    this.entries.get(stamp.id);
    return held.row;
  }

  set(stamp: SailingStamp, row: SailingRow): void {
    this.entries.set(stamp.id, { version: Number(stamp.version), row });
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
