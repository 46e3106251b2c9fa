/**
 * The list of tracked records (GET /v1/containers) as JSON text. The page's (id, version) pairs
 * come first (from the list index alone when no status or tag filter applies); each record's
 * rendering is then taken from the process's cache under that version, and only the misses are
 * read, in one batched query, and rendered. Demurrage and the vessel position run on the clock and
 * are rendered at every read around the cached text (records.ts). The answer is byte for byte the
 * uncached one (test/tracking/list-cache.test.ts); a cache of capacity 0 answers the uncached way.
 */
import type { TrackingEngine } from "../../ingest/tracking/engine.ts";
import type { Storage } from "../../storage/storage.ts";
import type { ListFilter } from "../../storage/trackings.ts";
import { RenderedJson } from "../shared/envelopes.ts";
import { pageOf } from "../shared/paging.ts";
import { type ListItem, listItem, pushListItemJson, trackedRecord } from "./records.ts";
import type { VersionedCache } from "./versioned-cache.ts";

const UTF8 = new TextEncoder();
const ITEMS_OPEN = UTF8.encode('{"items":[');

export interface ListSources {
  engine: TrackingEngine;
  storage: Storage;
  listItems: VersionedCache<ListItem>;
}

/** The list's data ({items, has_more, next_cursor}) of the page `filter` asks for, `limit` rows. */
export async function listPageJson(
  t: ListSources,
  orgId: string,
  filter: Omit<ListFilter, "limit">,
  limit: number,
): Promise<RenderedJson> {
  if (t.listItems.capacity <= 0) return uncached(t, orgId, filter, limit);
  const keys = await t.storage.trackings.listKeys(orgId, { ...filter, limit: limit + 1 });
  const { page, ...more } = pageOf(keys, limit);
  const items = page.map((k) => t.listItems.get(k.id, String(k.version)));
  const missing = page.filter((_, i) => !items[i]).map((k) => k.id);
  if (missing.length > 0) {
    const rows = new Map((await t.storage.trackings.byIds(orgId, missing)).map((r) => [r.id, r]));
    for (const [i, k] of page.entries()) {
      if (items[i]) continue;
      const row = rows.get(k.id);
      // Deleted since the page was read: the one-statement way answers consistently.
      if (!row) return uncached(t, orgId, filter, limit);
      // A write since the page was read: the row as read now, under its own version.
      const item = listItem(t.engine, row);
      t.listItems.set(row.id, String(row.version), item);
      items[i] = item;
    }
  }
  const terms = await t.engine.terms(orgId);
  const out = [ITEMS_OPEN];
  for (const [i, item] of (items as ListItem[]).entries())
    pushListItemJson(out, t.engine, item, terms, i === 0);
  out.push(UTF8.encode(`],${JSON.stringify(more).slice(1)}`));
  return new RenderedJson(out);
}

/** Whole rows in one statement, rendered and serialised at each read. */
async function uncached(
  t: ListSources,
  orgId: string,
  filter: Omit<ListFilter, "limit">,
  limit: number,
): Promise<RenderedJson> {
  const rows = await t.storage.trackings.list(orgId, { ...filter, limit: limit + 1 });
  const { page, ...more } = pageOf(rows, limit);
  const terms = await t.engine.terms(orgId);
  const data = {
    items: page.map((r) => trackedRecord(t.engine, r, "warm_db", t.engine.demurrageOf(r, terms))),
    ...more,
  };
  return new RenderedJson(JSON.stringify(data));
}
