/**
 * Ocean tracking ({base_url}): tracked containers, lookups, the DCSA 2.2 event feed, the portfolio
 * summary and the public lookup; the vendor-compatible surface (/compat/vendor/*) rides on the same
 * host. Handlers parse, call ocean tracking (ingest/tracking/ocean-tracking.ts, which owns state)
 * and render.
 */
import { Elysia, type TSchema, t } from "elysia";
import type { FreeTimeTerms } from "../../ingest/tracking/demurrage.ts";
import type { Status } from "../../ingest/tracking/timeline.ts";
import type { ListFilter } from "../../storage/trackings.ts";
import { compatRoutes } from "../compat/routes.ts";
import { jsonResponse } from "../shared/envelopes.ts";
import { ApiError } from "../shared/errors.ts";
import { booleanQuery, enumQuery, uuidPath } from "../shared/openapi/parameters.ts";
import {
  Int,
  listPage,
  RETRY_HEADER,
  routeAnswers,
  strict,
  toOpenApi,
  WARNING,
} from "../shared/openapi/responses.ts";
import { flag, limitQuery, PAGE_MAX, pageAfter, pageLimit } from "../shared/paging.ts";
import type { FullPlatform } from "../shared/platform.ts";
import {
  type Access,
  createProductApp,
  entitled,
  principalOf,
  requireEntitlement,
} from "../shared/product-app.ts";
import { API_VERSION, product } from "../shared/products.ts";
import { EVENT_FEED_DOC, eventFeed } from "./event-feed.ts";
import { listPageJson } from "./list-page.ts";
import { trackingPage } from "./pages/site.ts";
import { publicLookupView } from "./public-lookup.ts";
import { lookupRecordJson, trackedRecord } from "./records.ts";
import {
  AddedRecord,
  InProgress,
  LookupRecord,
  PublicLookup,
  STATUS_VALUES,
  FreeTimeTerms as Terms,
  TrackedRecord,
} from "./schemas.ts";

/** Tags per add (spec, Limits). */
const MAX_TAGS = 20;
/** How long a lookup of a freshly registered reference should wait before asking again. */
const RETRY_AFTER_SECONDS = 5;

/** The spec's shipment status values, the only ones the list filter accepts. */
const STATUSES = STATUS_VALUES satisfies readonly Status[];

const answered = (description: string, data: TSchema, errors: number[] = []) =>
  routeAnswers(OCEAN, { 200: { description, data } }, errors);

const IDENTIFIER_TYPES = ["container_id", "bill_of_lading", "booking"] as const;

const OCEAN = product("ocean");

export function oceanApp(platform: FullPlatform) {
  const page = trackingPage();
  const access = (path: string): Access | undefined => {
    if (path.startsWith("/compat/vendor/")) return { auth: "query", errors: "compat" };
    if (path.startsWith("/public/")) return { auth: "none", limited: true, errors: "open" };
    return page.access(path);
  };
  const { ocean, views } = platform.tracking;
  const orgOf = (request: Request) => principalOf(request).org;

  return createProductApp({ def: OCEAN, platform, access })
    .use(containerRoutes(platform))
    .use(recordRoutes(platform))
    .use(demurrageRoutes(platform))
    .get("/v2/events", ({ request }) => eventFeed(platform, orgOf(request).id, request), {
      detail: {
        ...EVENT_FEED_DOC,
        summary:
          "DCSA Track & Trace 2.2 event feed of this account's references (bare array, pagination in headers)",
      },
    })
    .get(
      "/public/v1/lookup/:number",
      async ({ params }) => publicLookupView(await ocean.publicLookup(params.number), views.places),
      {
        detail: {
          ...answered("The reference's status and milestones", PublicLookup, [404]),
          summary: "Open container lookup (no key; limited per IP)",
          security: [],
        },
      },
    )
    .use(compatRoutes(platform))
    .use(page.routes);
}

/** Adding, listing and looking up references. */
function containerRoutes(platform: FullPlatform) {
  const { tracking } = platform;
  const { ocean } = tracking;
  const orgOf = (request: Request) => principalOf(request).org;
  return new Elysia()
    .post(
      "/v1/containers",
      async ({ request, body, set }) => {
        const { row, warning } = await ocean.add(orgOf(request), {
          identifier: body.identifier,
          identifierType: body.identifier_type,
          carrierCode: body.carrier_code,
          tags: body.tags,
        });
        set.status = 201;
        const data = {
          id: row.id,
          identifier: row.identifier,
          status: row.status,
          carrier_code: row.carrierCode,
        };
        // warning sits beside data: success, but thinner than usual.
        return jsonResponse(
          { api_version: API_VERSION, ok: true, ...(warning ? { warning } : {}), data },
          201,
        );
      },
      {
        beforeHandle: entitled(platform, "ocean"),
        body: t.Object({
          identifier: t.String({ minLength: 1, maxLength: 50 }),
          identifier_type: t.Union(IDENTIFIER_TYPES.map((v) => t.Literal(v))),
          carrier_code: t.Optional(t.String({ minLength: 2, maxLength: 10 })),
          tags: t.Optional(t.Array(t.String({ minLength: 1, maxLength: 64 }), { maxItems: MAX_TAGS })),
        }),
        detail: {
          ...routeAnswers(
            OCEAN,
            { 201: { description: "The tracked record", data: AddedRecord, beside: WARNING } },
            [402, 404, 409],
          ),
          summary: "Start tracking a container, bill of lading or booking",
        },
      },
    )
    .get(
      "/v1/containers",
      async ({ request, query }) => {
        const limit = pageLimit(query.limit);
        return listPageJson(tracking, orgOf(request).id, listFilter(query), limit);
      },
      {
        query: t.Object({
          status: enumQuery(STATUSES, "only records in this status"),
          limit: limitQuery(),
          cursor: t.Optional(t.String()),
          tags: t.Optional(t.String({ description: "comma-separated; a row must carry all of them" })),
          archived: booleanQuery("true lists archived boxes instead of the active fleet", false),
        }),
        detail: {
          ...answered("A page of tracked records", listPage(TrackedRecord)),
          summary: "List tracked records, most recently updated first",
        },
      },
    )
    .get(
      "/v1/containers/lookup/:identifier",
      async ({ request, params, set }) => {
        const result = await ocean.lookup(
          orgOf(request),
          {
            // Elysia has decoded it already.
            reference: params.identifier.trim().toUpperCase(),
            // Reads need no entitlement; registering a never-seen reference does (hence its 403).
            beforeRegister: () => requireEntitlement(platform, request, "ocean"),
          },
          { kind: "answer_now" },
        );
        return result.kind === "record" ? lookupRecordJson(tracking, result.read) : inProgress(set);
      },
      {
        detail: {
          responses: {
            ...answered("The lookup record", LookupRecord, [402, 403, 409]).responses,
            ...toOpenApi({
              202: {
                description: "Registered now; the carrier is being asked: read again after Retry-After",
                body: InProgress,
                headers: { "Retry-After": RETRY_HEADER },
              },
            }),
          },
          summary: "Read by container number, bill of lading or booking (registers unknown ones: 202)",
        },
      },
    );
}

const RecordId = t.Object({ id: uuidPath("The tracked record's id") });

/** One record by its UUID: read, recheck, notify-connector, delete. */
function recordRoutes(platform: FullPlatform) {
  const { tracking } = platform;
  const { ocean, views } = tracking;
  const orgOf = (request: Request) => principalOf(request).org;
  return new Elysia()
    .get(
      "/v1/containers/:id",
      async ({ request, params }) =>
        lookupRecordJson(tracking, await ocean.read(orgOf(request).id, params.id)),
      {
        params: RecordId,
        detail: {
          ...answered("The lookup record", LookupRecord),
          summary: "Read one tracked record by its UUID (lookup record)",
        },
      },
    )
    .post(
      "/v1/containers/:id/recheck",
      async ({ request, params }) => {
        const row = await ocean.recheck(orgOf(request).id, params.id);
        return trackedRecord(views, row, "direct_carrier", await views.demurrage(row));
      },
      {
        params: RecordId,
        detail: {
          ...answered("The record as the carrier answers now", TrackedRecord),
          summary: "Ask the carrier again now (at most every 10 minutes per record)",
        },
      },
    )
    .post(
      "/v1/containers/:id/notify-connector",
      async ({ request, params }) => {
        const row = await ocean.notifyConnector(orgOf(request).id, params.id);
        return trackedRecord(views, row, "warm_db", await views.demurrage(row));
      },
      {
        params: RecordId,
        detail: {
          ...answered("The record", TrackedRecord),
          summary: "Ask to be told when this carrier's connector goes live",
        },
      },
    )
    .delete(
      "/v1/containers/:id",
      async ({ request, params }) => {
        const row = await ocean.archive(orgOf(request).id, params.id, "deleted");
        return trackedRecord(views, row, "warm_db", await views.demurrage(row));
      },
      {
        params: RecordId,
        detail: {
          ...answered("The archived record", TrackedRecord),
          summary: "Stop tracking (archives the record)",
        },
      },
    );
}

/** The portfolio summary and free-time terms: every active box with its demurrage now, and the terms. */
function demurrageRoutes(platform: FullPlatform) {
  const { ocean, views } = platform.tracking;
  const orgOf = (request: Request) => principalOf(request).org;
  return new Elysia()
    .get(
      "/v1/portfolio/summary",
      async ({ request }) => {
        const { terms, boxes, byStatus } = await ocean.portfolio(orgOf(request).id, PAGE_MAX);
        return {
          by_status: byStatus,
          // Rows keyed by container number: id carries the number, not the UUID.
          items: boxes.map((r) => ({
            ...trackedRecord(views, r, "warm_db", views.demurrageOf(r, terms)),
            id: r.containerNumber!,
          })),
        };
      },
      {
        detail: {
          ...answered(
            "Counts by status and every active box",
            strict({ by_status: t.Record(t.String(), Int({ minimum: 0 })), items: t.Array(TrackedRecord) }),
          ),
          summary: "Every active box, keyed by container number, with counts by status",
        },
      },
    )
    .get(
      "/v1/demurrage/terms",
      async ({ request }) => ({ items: (await ocean.terms(orgOf(request).id)).map(termsView) }),
      {
        detail: {
          ...answered("The terms", strict({ items: t.Array(Terms) })),
          summary: "Free-time terms on file (demurrage is computed from these)",
        },
      },
    )
    .post(
      "/v1/demurrage/terms",
      async ({ request, body, set }) => {
        const row = await ocean.addTerms(orgOf(request).id, {
          carrierCode: body.carrier_code?.toUpperCase() ?? null,
          portUnlocode: body.port_unlocode?.toUpperCase() ?? null,
          equipment: body.equipment?.toUpperCase() ?? null,
          freeDays: body.free_days,
          dailyRateUsd: body.daily_rate_usd ?? null,
        });
        set.status = 201;
        return termsView(row);
      },
      {
        body: t.Object(
          {
            carrier_code: t.Optional(t.String({ minLength: 2, maxLength: 10 })),
            port_unlocode: t.Optional(t.String({ pattern: "^[A-Za-z]{2}[A-Za-z2-9]{3}$" })),
            equipment: t.Optional(
              t.String({ minLength: 2, maxLength: 4, description: "container_size (40HC) or length (40)" }),
            ),
            free_days: t.Integer({ minimum: 0, maximum: 365 }),
            daily_rate_usd: t.Optional(t.Number({ minimum: 0, maximum: 100_000 })),
          },
          { additionalProperties: false },
        ),
        detail: {
          ...routeAnswers(OCEAN, { 201: { description: "The stored terms", data: Terms } }),
          summary: "Add free-time terms (the most specific match per box wins)",
        },
      },
    )
    .delete(
      "/v1/demurrage/terms/:id",
      async ({ request, params }) => {
        await ocean.removeTerms(orgOf(request).id, params.id);
        return { id: params.id, deleted: true };
      },
      {
        params: t.Object({ id: uuidPath("The terms' id") }),
        detail: {
          ...answered("Removed", strict({ id: t.String(), deleted: t.Literal(true) })),
          summary: "Remove free-time terms",
        },
      },
    );
}

function termsView(t: FreeTimeTerms) {
  return {
    id: t.id,
    carrier_code: t.carrierCode,
    port_unlocode: t.portUnlocode,
    equipment: t.equipment,
    free_days: t.freeDays,
    daily_rate_usd: t.dailyRateUsd,
    created_at: t.createdAt,
  };
}

/** The list's filter from its query: archived or not, a known status, at most MAX_TAGS tags, the cursor. */
function listFilter(query: {
  archived?: string;
  status?: string;
  tags?: string;
  cursor?: string;
}): Omit<ListFilter, "limit"> {
  const archived = flag("archived", query.archived);
  if (query.status !== undefined && !(STATUSES as readonly string[]).includes(query.status)) {
    throw new ApiError("validation", `status must be one of ${STATUSES.join(", ")}; got "${query.status}".`);
  }
  const tags = [
    ...new Set(
      (query.tags ?? "")
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
  // A record carries at most MAX_TAGS tags, so a longer all-of filter can match nothing; refusing
  // it also keeps the SQL within the engine's expression limits.
  if (tags.length > MAX_TAGS) {
    throw new ApiError(
      "validation",
      `tags takes at most ${MAX_TAGS} comma-separated tags; got ${tags.length}.`,
    );
  }
  return { archived, status: query.status, tags, after: pageAfter(query.cursor) };
}

function inProgress(set: { headers: Record<string, unknown> }): Response {
  set.headers["retry-after"] = String(RETRY_AFTER_SECONDS);
  return jsonResponse(
    {
      ok: false,
      error: {
        code: "TRACKING_IN_PROGRESS",
        message: `Tracking started; the carrier is being asked. Read again in ${RETRY_AFTER_SECONDS} s and do not add the reference again.`,
        severity: "info",
        retry_after_seconds: RETRY_AFTER_SECONDS,
      },
    },
    202,
    { "retry-after": String(RETRY_AFTER_SECONDS) },
  );
}
