/**
 * Tracked rows as the single reads (lookup, read by UUID) take them. On SQLite a read answered
 * while the database's change token (Storage.changeToken) stays what it was is answered again
 * without a statement (a name read for the first time takes no token: it would not be kept).
 * Otherwise a record the process has served before is checked by its key (id, version), read from
 * an index alone, and answered from the row kept under that key; it is read whole only when its
 * version moved. Every write to a row moves its version in the same statement
 * (storage/trackings.ts), so a row kept under the version read now is the row as it is now,
 * whichever process wrote it. A record not served before is read whole at once, with the
 * milestones its last refresh stored and whether its organisation has terms, in one statement. A
 * cache of capacity 0 reads whole every time.
 */
import type { VersionedCache } from "../../common/versioned-cache.ts";
import type { Storage } from "../../storage/storage.ts";
import type { StoredTimeline } from "../../storage/timelines.ts";
import type { TrackedRow } from "../../storage/trackings.ts";
import { type FreeTimeTerms, NO_TERMS } from "./demurrage.ts";

export interface RowSources {
  storage: Storage;
  /** Rows by UUID under their version, and by organisation and reference under their version and id. */
  rows: VersionedCache<TrackedRow>;
  /** Single reads' answers by organisation and name, under the change token taken before them. */
  reads: VersionedCache<SingleRead>;
  /** Organisations' free-time terms under the change token taken before them. */
  terms: VersionedCache<readonly FreeTimeTerms[]>;
}

/**
 * A single read's record, with its organisation's free-time terms when the key's statement already
 * told them (none on file); undefined terms are read with the demurrage (records.ts). `stored`: the
 * milestones its last refresh stored, when they were read with the row (null: none stored).
 */
export interface SingleRead {
  row: TrackedRow;
  terms?: readonly FreeTimeTerms[];
  stored?: StoredTimeline | null;
}

/**
 * A read's terms when its statement (a key's or a row's) said the organisation has none: no terms
 * statement for it; undefined when it has some (read with the demurrage, or under the token).
 */
const termsOf = (read: { orgHasTerms: boolean }) => (read.orgHasTerms ? undefined : NO_TERMS);

/**
 * Shared by every request that reads it until its version moves: frozen, so no reader changes it.
 * A name read the first time is not kept (VersionedCache.wants): its row is neither frozen nor
 * keyed.
 */
function keep(t: RowSources, name: string, version: () => string, row: TrackedRow): TrackedRow {
  if (!t.rows.wants(name)) return row;
  const frozen = Object.freeze(row);
  t.rows.set(name, version(), frozen);
  return frozen;
}

/** The organisation's terms as of the token: one statement per organisation while nothing is written. */
async function termsUnder(t: RowSources, orgId: string, token: string): Promise<readonly FreeTimeTerms[]> {
  const kept = t.terms.get(orgId, token);
  if (kept) return kept;
  const terms = Object.freeze(await t.storage.terms.forOrg(orgId));
  t.terms.set(orgId, token, terms);
  return terms;
}

/**
 * `answer()`, or the answer kept under the change token when the database has not changed since.
 * The token is taken before `answer` reads: a change during the read moves it, and the next read
 * misses.
 */
async function unchanged(
  t: RowSources,
  name: string,
  answer: () => Promise<SingleRead | undefined>,
): Promise<SingleRead | undefined> {
  // A name read the first time is not kept, so its read needs no token: only terms to read take
  // one (after the row: terms written since are read, never older ones).
  if (!t.reads.wants(name)) {
    const fresh = await answer();
    if (!fresh || fresh.terms) return fresh;
    const token = t.storage.changeToken();
    return token === null ? fresh : { ...fresh, terms: await termsUnder(t, fresh.row.orgId, token) };
  }
  const token = t.storage.changeToken();
  if (token === null) return answer();
  const kept = t.reads.get(name, token);
  if (kept) return kept;
  const fresh = await answer();
  if (!fresh) return undefined;
  // Terms read now are no older than the token: kept with the row, a read answered under the token
  // runs no terms statement (it was one of a hot read's two, bench/tracking.ts). The stored
  // milestones are not kept here: the rendering made from them is (records.ts).
  const terms = fresh.terms ?? (await termsUnder(t, fresh.row.orgId, token));
  // Frozen here too: a row read once (keep) is not, and the filters of two caches may disagree.
  t.reads.set(name, token, { row: Object.freeze(fresh.row), terms });
  return { ...fresh, terms };
}

/** The active record carrying the identifier (Trackings.firstActiveCarrying's answer). */
export function activeRow(t: RowSources, orgId: string, identifier: string): Promise<SingleRead | undefined> {
  if (t.rows.capacity <= 0) return t.storage.trackings.readFirstActive(orgId, identifier);
  // Never a UUID (a reference has no NUL): the two kinds of names do not meet.
  const name = `${orgId}\u0000${identifier}`;
  return unchanged(t, name, () => activeByKey(t, orgId, identifier, name));
}

async function activeByKey(
  t: RowSources,
  orgId: string,
  identifier: string,
  name: string,
): Promise<SingleRead | undefined> {
  const whole = async () => {
    const found = await t.storage.trackings.readFirstActive(orgId, identifier);
    if (!found) return undefined;
    const row = keep(t, name, () => `${found.row.version}|${found.row.id}`, found.row);
    return { row, terms: termsOf(found), stored: found.stored };
  };
  if (!t.rows.has(name)) return whole();
  const key = await t.storage.trackings.firstActiveKey(orgId, identifier);
  if (!key) return undefined;
  const row = t.rows.get(name, `${key.version}|${key.id}`);
  return row ? { row, terms: termsOf(key) } : whole();
}

/** The organisation's record of that id (another organisation's reads as absent). */
export function ownRow(t: RowSources, orgId: string, id: string): Promise<SingleRead | undefined> {
  if (t.rows.capacity <= 0) return t.storage.trackings.readOwn(orgId, id);
  // The organisation is part of the name: another organisation's read of this id stays a 404.
  return unchanged(t, `${orgId}\u0001${id}`, () => ownByKey(t, orgId, id));
}

async function ownByKey(t: RowSources, orgId: string, id: string): Promise<SingleRead | undefined> {
  const whole = async () => {
    const found = await t.storage.trackings.readOwn(orgId, id);
    return (
      found && {
        row: keep(t, id, () => String(found.row.version), found.row),
        terms: termsOf(found),
        stored: found.stored,
      }
    );
  };
  if (!t.rows.has(id)) return whole();
  const key = await t.storage.trackings.keyOf(orgId, id);
  if (!key) return undefined;
  const row = t.rows.get(id, String(key.version));
  return row ? { row, terms: termsOf(key) } : whole();
}
