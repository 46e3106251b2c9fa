/**
 * GET /v2/events: the account's carrier events as a DCSA Track & Trace 2.2 feed. A bare JSON array,
 * oldest published first; pagination in headers (Current-Page, Next-Page as a full URL, and
 * Next-Page-Cursor, which DCSA's conformance tooling reads).
 */
import { t } from "elysia";
import { decodeCursor, encodeCursor } from "../shared/cursor.ts";
import { jsonResponse } from "../shared/envelopes.ts";
import { ApiError } from "../shared/errors.ts";
import type { Range } from "../shared/openapi/parameters.ts";
import { toOpenApi } from "../shared/openapi/responses.ts";
import type { FullPlatform } from "../shared/platform.ts";

/** The feed's page size: the reading below and the document take the bounds from here. */
const FEED_LIMIT = { minimum: 1, maximum: 1000, default: 100 } satisfies Range;
const EVENT_TYPES = ["SHIPMENT", "TRANSPORT", "EQUIPMENT"];

const param = (name: string, description: string, schema: Record<string, unknown>) => ({
  name,
  in: "query",
  required: false,
  description,
  schema,
});
const header = (description: string, format?: string) => ({
  description,
  schema: { type: "string", ...(format ? { format } : {}) },
});

/** A DCSA 2.2 event as the carrier sent it (validated on the way in, ingest/carriers/validate.ts). */
const DcsaEvent = t.Object(
  {
    eventID: t.String({ format: "uuid" }),
    eventType: t.Union(EVENT_TYPES.map((ty) => t.Literal(ty))),
    eventCreatedDateTime: t.String(),
    eventDateTime: t.String(),
    eventClassifierCode: t.Union([t.Literal("ACT"), t.Literal("EST"), t.Literal("PLN")]),
  },
  { $id: "DcsaEvent", additionalProperties: true, description: "A DCSA Track & Trace 2.2 event" },
);

/** The feed's query and its answer (a bare array; pages in headers), for the OpenAPI document. */
export const EVENT_FEED_DOC = {
  parameters: [
    param("limit", `Events per page, ${FEED_LIMIT.minimum} to ${FEED_LIMIT.maximum}`, {
      type: "integer",
      ...FEED_LIMIT,
    }),
    param("cursor", "Next-Page-Cursor of the previous page, unchanged", { type: "string" }),
    param("eventType", "Comma-separated: SHIPMENT, TRANSPORT, EQUIPMENT", { type: "string" }),
    param("equipmentReference", "Container number", { type: "string" }),
    param("transportDocumentReference", "Bill of lading number", { type: "string" }),
    param("carrierBookingReference", "Booking number", { type: "string" }),
  ],
  responses: toOpenApi({
    200: {
      description: "Events, oldest published first",
      body: t.Array(DcsaEvent),
      headers: {
        "API-Version": header("The DCSA version (2.2.0)"),
        "Current-Page": header("This page's URL", "uri"),
        "Next-Page": header("The next page's URL (absent on the last page)", "uri"),
        "Next-Page-Cursor": header("The cursor of the next page (absent on the last page)"),
      },
    },
  }),
};

export async function eventFeed(platform: FullPlatform, orgId: string, request: Request): Promise<Response> {
  const url = new URL(request.url);
  const q = url.searchParams;
  const { minimum, maximum } = FEED_LIMIT;
  const limit = q.has("limit") ? Number(q.get("limit")) : FEED_LIMIT.default;
  if (!Number.isInteger(limit) || limit < minimum || limit > maximum) {
    throw new ApiError("validation", `limit must be an integer from ${minimum} to ${maximum}.`);
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
