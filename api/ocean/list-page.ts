/**
 * The list of tracked records (GET /v1/containers) as JSON text. The page's (id, version) pairs
 * come first (from the list index alone); each record's rendering is then taken from the process's
 * cache under that version, and only the misses are read, in one batched query, and rendered.
 * Demurrage and the vessel position run on the clock and are rendered at every read around the
 * cached text (records.ts). A page with neither (no terms on file, no hull aboard) is the same
 * text for the same keys: it is kept whole, under the page's (id, version) pairs, and on SQLite
 * also under the database's change token (Storage.changeToken), answered again without a
 * statement while nothing in the database changed. The answer is byte for byte the uncached one
 * (test/tracking/list-cache.test.ts); a cache of capacity 0 answers the uncached way.
 */

import type { VersionedCache } from "../../common/versioned-cache.ts";
import { NO_TERMS } from "../../ingest/tracking/demurrage.ts";
import type { OceanTracking } from "../../ingest/tracking/ocean-tracking.ts";
import type { RecordViews } from "../../ingest/tracking/record-views.ts";
import type { Storage } from "../../storage/storage.ts";
import type { ListFilter } from "../../storage/trackings.ts";
import { RenderedJson } from "../shared/envelopes.ts";
import { pageOf } from "../shared/paging.ts";
import { type ListItem, listItem, pushListItemJson, trackedRecord } from "./records.ts";

const UTF8 = new TextEncoder();
const ITEMS_OPEN = UTF8.encode('{"items":[');

export interface ListSources {
  ocean: OceanTracking;
  views: RecordViews;
  /** Its change token (Storage.changeToken) keys the quiet pages. */
  storage: Storage;
  listItems: VersionedCache<ListItem>;
  /** Whole pages without per-request fields, keyed by query, under their rows' keys. */
  listPages: VersionedCache<RenderedJson>;
  /** The same pages under the change token taken before they were read. */
  quietPages: VersionedCache<RenderedJson>;
}

/** Pages longer than this are not kept whole (a 500-row page is some 750 kB): their items are. */
const PAGE_CACHE_ROWS = 100;

/** The list's data ({items, has_more, next_cursor}) of the page `filter` asks for, `limit` rows. */
export async function listPageJson(
  t: ListSources,
  orgId: string,
  filter: Omit<ListFilter, "limit">,
  limit: number,
): Promise<RenderedJson> {
  if (t.listItems.capacity <= 0) return uncached(t, orgId, filter, limit);
  // Taken before anything is read: a change during the reads moves it, and the next read misses.
  const token = t.storage.changeToken();
  const query = pageQuery(orgId, filter, limit);
  const quiet = token === null ? undefined : t.quietPages.get(query, token);
  if (quiet) return quiet;
  const { keys, orgHasTerms } = await t.ocean.listKeys(orgId, { ...filter, limit: limit + 1 });
  const terms = orgHasTerms ? await t.ocean.terms(orgId) : NO_TERMS;
  // The query names the page; the keys (the extra row's included: it decides has_more) its version.
  const whole = terms.length === 0 && limit <= PAGE_CACHE_ROWS && t.listPages.capacity > 0;
  const version = whole ? keys.map((k) => `${k.id}:${k.version}`).join(",") : "";
  const kept = whole ? t.listPages.get(query, version) : undefined;
  if (kept) {
    if (token !== null) t.quietPages.set(query, token, kept);
    return kept;
  }
  const { page, ...more } = pageOf(keys, limit);
  const items = page.map((k) => t.listItems.get(k.id, String(k.version)));
  const missing = page.filter((_, i) => !items[i]).map((k) => k.id);
  // False once a row read below was written after the keys were: the keys then do not name the text.
  let fresh = true;
  if (missing.length > 0) {
    const rows = new Map((await t.ocean.rows(orgId, missing)).map((r) => [r.id, r]));
    for (const [i, k] of page.entries()) {
      if (items[i]) continue;
      const row = rows.get(k.id);
      // Deleted since the page was read: the one-statement way answers consistently.
      if (!row) return uncached(t, orgId, filter, limit);
      // A write since the page was read: the row as read now, under its own version.
      if (row.version !== k.version) fresh = false;
      const item = listItem(t.views, row);
      t.listItems.set(row.id, String(row.version), item);
      items[i] = item;
    }
  }
  const out = [ITEMS_OPEN];
  for (const [i, item] of (items as ListItem[]).entries())
    pushListItemJson(out, t.views, item, terms, i === 0);
  out.push(UTF8.encode(`],${JSON.stringify(more).slice(1)}`));
  const rendered = new RenderedJson(out);
  if (whole && fresh && (items as ListItem[]).every((item) => item.live.currentVesselImo === null)) {
    t.listPages.set(query, version, rendered);
    if (token !== null) t.quietPages.set(query, token, rendered);
  }
  return rendered;
}

/** What names a page: the organisation, the filter, the cursor and the limit. */
function pageQuery(orgId: string, f: Omit<ListFilter, "limit">, limit: number): string {
  return JSON.stringify([
    orgId,
    f.archived,
    f.status ?? null,
    f.tags,
    f.after?.updatedAt,
    f.after?.id,
    limit,
  ]);
}

/** Whole rows in one statement, rendered and serialised at each read. */
async function uncached(
  t: ListSources,
  orgId: string,
  filter: Omit<ListFilter, "limit">,
  limit: number,
): Promise<RenderedJson> {
  const rows = await t.ocean.list(orgId, { ...filter, limit: limit + 1 });
  const { page, ...more } = pageOf(rows, limit);
  const terms = await t.ocean.terms(orgId);
  const data = {
    items: page.map((r) => trackedRecord(t.views, r, "warm_db", t.views.demurrageOf(r, terms))),
    ...more,
  };
  return new RenderedJson(JSON.stringify(data));
}
