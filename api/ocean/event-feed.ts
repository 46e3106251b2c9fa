/**
 * GET /v2/events: the account's carrier events as a DCSA Track & Trace 2.2 feed. A bare JSON array,
 * oldest published first; pagination in headers (Current-Page, Next-Page as a full URL, and
 * Next-Page-Cursor, which DCSA's conformance tooling reads).
 */
import { and, asc, eq, type SQL, sql } from "drizzle-orm";
import { carrierEvents, tracked } from "../db/schema.ts";
import { decodeCursor, encodeCursor } from "../shared/cursor.ts";
import { jsonResponse } from "../shared/envelopes.ts";
import { ApiError } from "../shared/errors.ts";
import type { FullPlatform } from "../shared/platform.ts";

const LIMIT_DEFAULT = 100;
const LIMIT_MAX = 1000;
const EVENT_TYPES = ["SHIPMENT", "TRANSPORT", "EQUIPMENT"];

export function eventFeed(platform: FullPlatform, orgId: string, request: Request): Response {
  const url = new URL(request.url);
  const q = url.searchParams;
  const limit = q.has("limit") ? Number(q.get("limit")) : LIMIT_DEFAULT;
  if (!Number.isInteger(limit) || limit < 1 || limit > LIMIT_MAX) {
    throw new ApiError("validation", `limit must be an integer from 1 to ${LIMIT_MAX}.`);
  }
  const created = sql<string>`json_extract(${carrierEvents.payload}, '$.eventCreatedDateTime')`;
  const conditions: SQL[] = [eq(tracked.orgId, orgId)];
  const types =
    q
      .get("eventType")
      ?.split(",")
      .map((s) => s.trim().toUpperCase())
      .filter(Boolean) ?? [];
  const unknownType = types.find((ty) => !EVENT_TYPES.includes(ty));
  if (unknownType)
    throw new ApiError("validation", `eventType ${unknownType} is not one of ${EVENT_TYPES.join(", ")}.`);
  if (types.length) {
    conditions.push(
      sql`json_extract(${carrierEvents.payload}, '$.eventType') in (${sql.join(
        types.map((ty) => sql`${ty}`),
        sql`, `,
      )})`,
    );
  }
  const equipment = q.get("equipmentReference")?.trim().toUpperCase();
  if (equipment) {
    // The box's own equipment events plus the voyage and document events of the references carrying it.
    conditions.push(
      sql`(json_extract(${carrierEvents.payload}, '$.equipmentReference') = ${equipment} or (json_extract(${carrierEvents.payload}, '$.eventType') != 'EQUIPMENT' and exists (select 1 from tracked c where (c.id = ${tracked.id} or c.parent_id = ${tracked.id}) and c.container_number = ${equipment})))`,
    );
  }
  const document = q.get("transportDocumentReference")?.trim().toUpperCase();
  if (document) conditions.push(eq(tracked.blNumber, document));
  const booking = q.get("carrierBookingReference")?.trim().toUpperCase();
  if (booking) conditions.push(eq(tracked.bookingNumber, booking));
  const cursor = q.get("cursor");
  if (cursor) {
    const after = decodeCursor(cursor, ["c", "i"], "pass Next-Page-Cursor unchanged");
    conditions.push(
      sql`(${created} > ${after.c} or (${created} = ${after.c} and ${carrierEvents.eventId} > ${after.i}))`,
    );
  }
  const rows = platform.db
    .select({ id: carrierEvents.eventId, payload: carrierEvents.payload, created })
    .from(carrierEvents)
    .innerJoin(tracked, eq(tracked.id, carrierEvents.trackedId))
    .where(and(...conditions))
    .groupBy(carrierEvents.eventId)
    .orderBy(asc(created), asc(carrierEvents.eventId))
    .limit(limit + 1)
    .all();
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
