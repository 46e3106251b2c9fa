/**
 * Paging. Every list (containers, air waybills, load plans, rate sheets, webhook endpoints on each
 * host) answers {items, has_more, next_cursor} inside its envelope and takes `cursor` = the
 * previous page's next_cursor; the DCSA event feed (GET /v2/events on the ocean host) answers a
 * bare array with the next cursor in its Next-Page-Cursor header.
 */
import type { Client } from "openapi-fetch";
import { type Answer, unwrap } from "./errors.ts";
import type { components, paths } from "./generated/ocean.ts";

export interface Page<T> {
  items: T[];
  has_more: boolean;
  next_cursor: string | null;
}

/**
 * Every item of a list, page after page: `page` fetches the page after `cursor` (undefined for
 * the first). A refused page throws PortolanError.
 */
export async function* allItems<T>(
  page: (cursor: string | undefined) => Promise<Answer<{ data: Page<T> }>>,
): AsyncGenerator<T, void, undefined> {
  let cursor: string | undefined;
  do {
    const { data } = unwrap(await page(cursor));
    yield* data.items;
    cursor = data.next_cursor ?? undefined;
  } while (cursor);
}

export type DcsaEvent = components["schemas"]["DcsaEvent"];
type EventsQuery = NonNullable<paths["/v2/events"]["get"]["parameters"]["query"]>;

/** Every event of the DCSA feed matching `query`, following Next-Page-Cursor to the last page. */
export async function* allEvents(
  ocean: Client<paths>,
  query: Omit<EventsQuery, "cursor"> = {},
): AsyncGenerator<DcsaEvent, void, undefined> {
  let cursor: string | undefined;
  do {
    const answer = await ocean.GET("/v2/events", { params: { query: { ...query, cursor } } });
    yield* unwrap(answer);
    cursor = answer.response.headers.get("next-page-cursor") ?? undefined;
  } while (cursor);
}
