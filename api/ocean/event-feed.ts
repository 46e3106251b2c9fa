/**
 * GET /v2/events: the account's carrier events as a DCSA Track & Trace 2.2 feed. A bare JSON array,
 * oldest published first; pagination in headers (Current-Page, Next-Page as a full URL, and
 * Next-Page-Cursor, which DCSA's conformance tooling reads).
 */
import { decodeCursor, encodeCursor } from "../shared/cursor.ts";
import { jsonResponse } from "../shared/envelopes.ts";
import { ApiError } from "../shared/errors.ts";
import type { FullPlatform } from "../shared/platform.ts";

const LIMIT_DEFAULT = 100;
const LIMIT_MAX = 1000;
const EVENT_TYPES = ["SHIPMENT", "TRANSPORT", "EQUIPMENT"];

export async function eventFeed(platform: FullPlatform, orgId: string, request: Request): Promise<Response> {
  const url = new URL(request.url);
  const q = url.searchParams;
  const limit = q.has("limit") ? Number(q.get("limit")) : LIMIT_DEFAULT;
  if (!Number.isInteger(limit) || limit < 1 || limit > LIMIT_MAX) {
    throw new ApiError("validation", `limit must be an integer from 1 to ${LIMIT_MAX}.`);
  }
  const types =
    q
      .get("eventType")
      ?.split(",")
      .map((s) => s.trim().toUpperCase())
      .filter(Boolean) ?? [];
  const unknownType = types.find((ty) => !EVENT_TYPES.includes(ty));
  if (unknownType)
    throw new ApiError("validation", `eventType ${unknownType} is not one of ${EVENT_TYPES.join(", ")}.`);
  const cursor = q.get("cursor");
  const after = cursor ? decodeCursor(cursor, ["c", "i"], "pass Next-Page-Cursor unchanged") : undefined;
  const rows = await platform.tracking.storage.events.feed(orgId, {
    types,
    equipment: q.get("equipmentReference")?.trim().toUpperCase() || undefined,
    document: q.get("transportDocumentReference")?.trim().toUpperCase() || undefined,
    booking: q.get("carrierBookingReference")?.trim().toUpperCase() || undefined,
    after: after && { created: after.c, id: after.i },
    limit: limit + 1,
  });
  const page = rows.slice(0, limit);
  // Page links point at the configured public URL, never at whatever Host the client sent.
  const current = new URL(`${url.pathname}${url.search}`, platform.config.publicUrls.ocean);
  const headers: Record<string, string> = { "api-version": "2.2.0", "current-page": current.toString() };
  const last = page.at(-1);
  if (rows.length > limit && last) {
    const next = encodeCursor({ c: last.created, i: last.id });
    const nextUrl = new URL(current);
    nextUrl.searchParams.set("cursor", next);
    headers["next-page"] = nextUrl.toString();
    headers["next-page-cursor"] = next;
  }
  return jsonResponse(
    page.map((r) => r.payload),
    200,
    headers,
  );
}
