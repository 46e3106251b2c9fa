/**
 * api_change_announced: an operator's notice of a change to the API (`portolan announce`), raised
 * as one ocean outbox row per organisation with an active ocean endpoint subscribed to it; the
 * dispatcher fans each row out to that organisation's subscribed endpoints like any other event.
 */
import { isCalendarDate } from "../../common/calendar-date.ts";
import type { EventData } from "../../common/events/catalogue.ts";
import type { Storage } from "../../storage/storage.ts";
import { API_VERSION } from "../shared/products.ts";
import { subscribed } from "./catalogue.ts";

export const ANNOUNCEMENT_TYPE = "api_change_announced";
export const TITLE_MAX = 200;
export const MESSAGE_MAX = 4000;

export interface Announcement {
  title: string;
  message: string;
  /** YYYY-MM-DD when the change takes effect, or null. */
  effectiveDate: string | null;
  /** Where the change is described, or null. */
  url: string | null;
}

export class AnnouncementError extends Error {}

/** Checks and normalises an announcement; throws AnnouncementError saying what is wrong. */
export function checkAnnouncement(input: {
  title?: string;
  message?: string;
  effectiveDate?: string;
  url?: string;
}): Announcement {
  const title = input.title?.trim() ?? "";
  const message = input.message?.trim() ?? "";
  if (!title) throw new AnnouncementError("missing --title");
  if (!message) throw new AnnouncementError("missing --message");
  if (title.length > TITLE_MAX) throw new AnnouncementError(`--title is longer than ${TITLE_MAX} characters`);
  if (message.length > MESSAGE_MAX)
    throw new AnnouncementError(`--message is longer than ${MESSAGE_MAX} characters`);
  let effectiveDate: string | null = null;
  if (input.effectiveDate !== undefined) {
    const d = input.effectiveDate.trim();
    if (!isCalendarDate(d))
      throw new AnnouncementError(`--effective-date "${input.effectiveDate}" is not a date (YYYY-MM-DD)`);
    effectiveDate = d;
  }
  let url: string | null = null;
  if (input.url !== undefined) {
    let parsed: URL | null = null;
    try {
      parsed = new URL(input.url.trim());
    } catch {
      parsed = null;
    }
    if (!parsed || (parsed.protocol !== "https:" && parsed.protocol !== "http:") || !parsed.hostname)
      throw new AnnouncementError(`--url "${input.url}" is not an http(s) URL`);
    url = parsed.toString();
  }
  return { title, message, effectiveDate, url };
}

export interface Announced {
  announcementId: string;
  orgIds: string[];
  endpoints: number;
}

/** Writes the outbox rows in one transaction: every subscribed organisation or none. */
export function announce(storage: Storage, a: Announcement, nowMs: number): Promise<Announced> {
  const at = new Date(nowMs).toISOString();
  const announcementId = crypto.randomUUID();
  const data: EventData<"ocean", typeof ANNOUNCEMENT_TYPE> = {
    announcement_id: announcementId,
    title: a.title,
    message: a.message,
    effective_date: a.effectiveDate,
    url: a.url,
    api_version: API_VERSION,
    announced_at: at,
  };
  return storage.transaction(async (tx) => {
    const endpoints = (await tx.webhooks.active("ocean")).filter((e) =>
      subscribed(e.eventTypes, ANNOUNCEMENT_TYPE),
    );
    const orgIds = [...new Set(endpoints.map((e) => e.orgId))].sort();
    await tx.outbox.append(
      orgIds.map((orgId) => ({ orgId, product: "ocean", type: ANNOUNCEMENT_TYPE, data })),
      at,
    );
    return { announcementId, orgIds, endpoints: endpoints.length };
  });
}
