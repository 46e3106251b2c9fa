/**
 * Tracked air waybills on the air-cargo host: add, list, read, delete (keyed; the ocean family key
 * is accepted as on every air route). Handlers parse, call air-waybill tracking
 * (ingest/air-tracking/waybill-tracking.ts, which owns state) and render. Shapes follow the ocean tracking surface in the {data}
 * envelope with lower-case codes: docs/air-cargo.md, "Tracking air waybills".
 */
import { Elysia, t } from "elysia";
import { AWB_STATUSES } from "../../ingest/air-tracking/status.ts";
import type { AirportLookup, AwbMilestone } from "../../ingest/air-tracking/timeline.ts";
import type { AirWaybillRow } from "../../ingest/air-tracking/waybill-tracking.ts";
import { formatAwb } from "../../ingest/airlines/awb.ts";
import { jsonResponse } from "../shared/envelopes.ts";
import { ApiError } from "../shared/errors.ts";
import { flag } from "../shared/flag.ts";
import { booleanQuery, enumQuery, uuidPath } from "../shared/openapi/parameters.ts";
import { listPage, routeAnswers, WARNING } from "../shared/openapi/responses.ts";
import { limitQuery, pageAfter, pageLimit, pageOf } from "../shared/paging.ts";
import type { FullPlatform } from "../shared/platform.ts";
import { caller, entitled } from "../shared/plugins/access.ts";
import { product } from "../shared/products.ts";
import { AirWaybill, AirWaybillDetail } from "./schemas.ts";

const AIR = product("air");

/** A tracked waybill as the list, the read and the delete show it (every field always present). */
export function awbRecord(row: AirWaybillRow, airports: AirportLookup) {
  const name = (iata: string | null) => (iata ? (airports.name(iata) ?? iata) : null);
  return {
    id: row.id,
    awb: formatAwb(row.awb),
    airline_iata: row.airlineIata,
    airline_name: row.airlineName,
    connector_status: row.connectorStatus,
    status: row.status,
    exceptions: row.exceptions,
    origin: row.origin,
    origin_name: name(row.origin),
    destination: row.destination,
    destination_name: name(row.destination),
    pieces: row.pieces,
    weight_kg: row.weightKg,
    eta: row.eta,
    eta_is_estimated: row.eta === null ? null : row.etaIsEstimated,
    planned_arrival_at: row.plannedArrivalAt,
    departed_at: row.departedAt,
    arrived_at: row.arrivedAt,
    delivered_at: row.deliveredAt,
    last_error: row.lastError,
    last_polled_at: row.lastPolledAt,
    next_poll_at: row.nextPollAt,
    added_at: row.addedAt,
    updated_at: row.updatedAt,
    archived_at: row.archivedAt,
    archived_reason: row.archivedReason,
  };
}

function detailed(row: AirWaybillRow, airports: AirportLookup, timeline: AwbMilestone[]) {
  return { ...awbRecord(row, airports), timeline };
}

const WaybillId = t.Object({ id: uuidPath("The tracked waybill's id") });

export function awbRoutes(platform: FullPlatform) {
  const { waybills } = platform.air;

  return new Elysia()
    .use(caller)
    .guard({ keyed: true })
    .post(
      "/v1/awbs",
      async ({ principal, body }) => {
        const { row, warning } = await waybills.add(principal.org, body.awb);
        const data = detailed(row, waybills.airports, await waybills.timeline(row));
        // warning sits beside data (as on the ocean add): success, but thinner than usual.
        return jsonResponse({ ...(warning ? { warning } : {}), data }, 201);
      },
      {
        // Other fields are ignored, as on the ocean add.
        beforeHandle: entitled(platform, "air"),
        body: t.Object({
          awb: t.String({
            minLength: 1,
            maxLength: 64,
            description: "11 digits, dashes and spaces allowed: 020-12345675",
          }),
        }),
        detail: {
          ...routeAnswers(
            AIR,
            { 201: { description: "The tracked waybill", data: AirWaybillDetail, beside: WARNING } },
            [402, 409],
          ),
          summary: "Start tracking an air waybill",
        },
      },
    )
    .get(
      "/v1/awbs",
      async ({ principal: { org }, query }) => {
        const limit = pageLimit(query.limit);
        if (query.status !== undefined && !(AWB_STATUSES as readonly string[]).includes(query.status)) {
          throw new ApiError(
            "validation",
            `status must be one of ${AWB_STATUSES.join(", ")}; got "${query.status}".`,
          );
        }
        const after = pageAfter(query.cursor);
        const rows = await waybills.list(org.id, {
          archived: flag("archived", query.archived),
          status: query.status,
          after,
          limit: limit + 1,
        });
        const { page, ...more } = pageOf(rows, limit);
        return { items: page.map((r) => awbRecord(r, waybills.airports)), ...more };
      },
      {
        query: t.Object({
          status: enumQuery(AWB_STATUSES, "only waybills in this status"),
          limit: limitQuery(),
          cursor: t.Optional(t.String()),
          archived: booleanQuery("true lists deleted (archived) waybills instead", false),
        }),
        detail: {
          ...routeAnswers(AIR, { 200: { description: "A page of waybills", data: listPage(AirWaybill) } }),
          summary: "List tracked air waybills, most recently updated first",
        },
      },
    )
    .get(
      "/v1/awbs/:id",
      async ({ principal, params }) => {
        const { row, timeline } = await waybills.read(principal.org.id, params.id);
        return detailed(row, waybills.airports, timeline);
      },
      {
        params: WaybillId,
        detail: {
          ...routeAnswers(AIR, { 200: { description: "The waybill", data: AirWaybillDetail } }),
          summary: "Read one tracked air waybill with its milestone timeline",
        },
      },
    )
    .delete(
      "/v1/awbs/:id",
      async ({ principal, params }) =>
        awbRecord(await waybills.archive(principal.org.id, params.id), waybills.airports),
      {
        params: WaybillId,
        detail: {
          ...routeAnswers(AIR, { 200: { description: "The archived waybill", data: AirWaybill } }),
          summary: "Stop tracking an air waybill (archives it)",
        },
      },
    );
}
