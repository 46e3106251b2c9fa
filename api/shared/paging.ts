/**
 * List paging of the "most recently updated first" endpoints (ocean containers, air waybills): the
 * limit, the opaque cursor and the page with its next cursor, one way for both.
 */
import { decodeCursor, encodeCursor } from "./cursor.ts";
import { ApiError } from "./errors.ts";
import { integerQuery, type Range } from "./openapi/parameters.ts";

/** List page size (spec, Limits): default 50, at most 500. */
export const PAGE_DEFAULT = 50;
export const PAGE_MAX = 500;
/** The limit query parameter's bounds: the reading below and the documents take them from here. */
export const PAGE_LIMIT = { minimum: 1, maximum: PAGE_MAX, default: PAGE_DEFAULT } satisfies Range;

/** The limit query parameter as the list routes declare it. */
export const limitQuery = (what = "page size") =>
  integerQuery(PAGE_LIMIT, `${what}, ${PAGE_LIMIT.minimum} to ${PAGE_MAX} (default ${PAGE_DEFAULT})`);

/** The list routes' archived flag reads like every boolean parameter. */
export { flag } from "./flag.ts";

/** The limit query parameter: PAGE_DEFAULT when absent, an integer from 1 to PAGE_MAX otherwise. */
export function pageLimit(raw: string | undefined): number {
  const { minimum, maximum } = PAGE_LIMIT;
  const limit = raw === undefined ? PAGE_LIMIT.default : Number(raw);
  if (!Number.isInteger(limit) || limit < minimum || limit > maximum) {
    throw new ApiError("validation", `limit must be an integer from ${minimum} to ${maximum}.`);
  }
  return limit;
}

/** The row a cursor query parameter continues after, in (updated_at desc, id desc) order. */
export function pageAfter(cursor: string | undefined): { updatedAt: string; id: string } | undefined {
  if (!cursor) return undefined;
  const c = decodeCursor(cursor, ["u", "i"], "pass next_cursor unchanged");
  return { updatedAt: c.u, id: c.i };
}

/** The page of `rows` (fetched with limit + 1, so one more row says there is a next page). */
export function pageOf<R extends { updatedAt: string; id: string }>(
  rows: readonly R[],
  limit: number,
): { page: R[]; has_more: boolean; next_cursor: string | null } {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  const hasMore = rows.length > limit;
  return {
    page,
    has_more: hasMore,
    next_cursor: hasMore && last ? encodeCursor({ u: last.updatedAt, i: last.id }) : null,
  };
}
