/**
 * Ocean tracking ({base_url}): tracked containers, lookups, the DCSA 2.2 event feed, the portfolio
 * summary and the public lookup; the vendor-compatible surface (/compat/vendor/*) rides on the same
 * host. Handlers parse and render; the tracking engine owns state.
 */
import { t } from "elysia";
import { looksLikeContainer, validateContainerNumber } from "../../ingest/iso6346.ts";
import type { FreeTimeTerms } from "../../ingest/tracking/demurrage.ts";
import { normalizeIdentifier, type TrackedRow } from "../../ingest/tracking/engine.ts";
import { TrackingError } from "../../ingest/tracking/errors.ts";
import type { Status } from "../../ingest/tracking/timeline.ts";
import { compatRoutes } from "../compat/routes.ts";
import { jsonResponse } from "../shared/envelopes.ts";
import { ApiError } from "../shared/errors.ts";
import { flag, PAGE_MAX, pageAfter, pageLimit } from "../shared/paging.ts";
import type { FullPlatform } from "../shared/platform.ts";
import { type Access, createProductApp, principalOf, requireEntitlement } from "../shared/product-app.ts";
import { API_VERSION, product } from "../shared/products.ts";
import { eventFeed } from "./event-feed.ts";
import { listPageJson } from "./list-page.ts";
import { trackingPage } from "./pages/site.ts";
import { publicLookup } from "./public-lookup.ts";
import { activeRow, ownRow } from "./record-reads.ts";
import { lookupRecordJson, trackedRecord } from "./records.ts";

/** Tags per add (spec, Limits). */
const MAX_TAGS = 20;
/** How long a lookup of a freshly registered reference should wait before asking again. */
const RETRY_AFTER_SECONDS = 5;

/** The spec's shipment status values, the only ones the list filter accepts. */
const STATUSES = [
  "unknown",
  "in_transit",
  "discharged",
  "available",
  "customs_hold",
  "delivered",
  "returned_empty",
] as const satisfies readonly Status[];

const IDENTIFIER_TYPES = ["container_id", "bill_of_lading", "booking"] as const;

export function oceanApp(platform: FullPlatform) {
  const page = trackingPage();
  const access = (path: string): Access | undefined => {
    if (path.startsWith("/compat/vendor/")) return { auth: "query", errors: "compat" };
    if (path.startsWith("/public/")) return { auth: "none", limited: true, errors: "open" };
    return page.access(path);
  };
  const { tracking } = platform;
  const { engine, storage } = tracking;
  const orgOf = (request: Request) => principalOf(request).org;

  return createProductApp({ def: product("ocean"), platform, access })
    .post(
      "/v1/containers",
      async ({ request, body, set }) => {
        await requireEntitlement(platform, request, "ocean");
        const { row, warning } = await engine.add(orgOf(request), {
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
        body: t.Object({
          identifier: t.String({ minLength: 1, maxLength: 50 }),
          identifier_type: t.Union(IDENTIFIER_TYPES.map((v) => t.Literal(v))),
          carrier_code: t.Optional(t.String({ minLength: 2, maxLength: 10 })),
          tags: t.Optional(t.Array(t.String({ minLength: 1, maxLength: 64 }), { maxItems: MAX_TAGS })),
        }),
        detail: { summary: "Start tracking a container, bill of lading or booking" },
      },
    )
    .get(
      "/v1/containers",
      async ({ request, query }) => {
        const org = orgOf(request);
        const limit = pageLimit(query.limit);
        const archived = flag("archived", query.archived);
        if (query.status !== undefined && !(STATUSES as readonly string[]).includes(query.status)) {
          throw new ApiError(
            "validation",
            `status must be one of ${STATUSES.join(", ")}; got "${query.status}".`,
          );
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
        const after = pageAfter(query.cursor);
        return listPageJson(tracking, org.id, { archived, status: query.status, tags, after }, limit);
      },
      {
        query: t.Object({
          status: t.Optional(t.String()),
          limit: t.Optional(t.String()),
          cursor: t.Optional(t.String()),
          tags: t.Optional(t.String({ description: "comma-separated; a row must carry all of them" })),
          archived: t.Optional(
            t.String({ description: "true lists archived boxes instead of the active fleet" }),
          ),
        }),
        detail: { summary: "List tracked records, most recently updated first" },
      },
    )
    .get(
      "/v1/containers/lookup/:identifier",
      async ({ request, params, set }) => {
        const org = orgOf(request);
        const raw = params.identifier; // Elysia has decoded it already
        const identifier = raw.trim().toUpperCase();
        const existing =
          (await activeRow(tracking, org.id, identifier)) ??
          (await activeRow(tracking, org.id, identifier.replace(/[\s-]/g, "")));
        if (existing && !existing.row.adding) return lookupRecordJson(tracking, existing);
        if (existing) return inProgress(set);
        // Never seen: register now (a shipment slot, like an add) and let the carrier answer meanwhile.
        const type = looksLikeContainer(identifier) ? "container_id" : "bill_of_lading";
        if (type === "container_id") {
          const check = validateContainerNumber(identifier);
          if (!check.ok) throw new ApiError("referenceNotResolvable", `${identifier}: ${check.message}`);
        }
        const reference = normalizeIdentifier(identifier, type);
        // A box that finished its cycle was closed out (archived as completed): its record is the
        // answer, as on the compat surface. Registering again would only find the same finished
        // journey, close it out at once, and answer 202 to every poll (docs/tracking.md).
        const done = await storage.trackings.lastCompleted(org.id, reference);
        if (done) return lookupRecordJson(tracking, { row: done });
        // Its registration was refused after an earlier lookup's 202 (a malformed number, or more
        // boxes than slots free): that is the answer, not another registration answering 202 again.
        const refusal = await engine.lookupRefusal(org.id, reference);
        if (refusal) throw refusal;
        await requireEntitlement(platform, request, "ocean");
        let row: TrackedRow;
        try {
          row = await engine.register(org, {
            identifier: reference,
            identifierType: type,
          });
        } catch (err) {
          if (err instanceof TrackingError && err.code === "add_in_progress") return inProgress(set);
          throw err;
        }
        // The lookup guessed the kind (bill_of_lading): the carrier's answer may show a booking.
        engine
          .firstFetch(row, { kindGuessed: type === "bill_of_lading" })
          .catch((err) => console.error(`[ocean] first fetch of ${row.identifier}:`, err));
        return inProgress(set);
      },
      {
        detail: {
          summary: "Read by container number, bill of lading or booking (registers unknown ones: 202)",
        },
      },
    )
    .get(
      "/v1/containers/:id",
      async ({ request, params }) => {
        const found = await ownRow(tracking, orgOf(request).id, params.id);
        // Another account's id answers exactly like an id that never existed.
        if (!found) throw new ApiError("notFound", `No tracked record ${params.id} on this account.`);
        return lookupRecordJson(tracking, found);
      },
      { detail: { summary: "Read one tracked record by its UUID (lookup record)" } },
    )
    .post(
      "/v1/containers/:id/recheck",
      async ({ request, params }) => {
        const row = await engine.recheck(orgOf(request).id, (await ownRecord(request, params.id)).id);
        return trackedRecord(engine, row, "direct_carrier", await engine.demurrage(row));
      },
      { detail: { summary: "Ask the carrier again now (at most every 10 minutes per record)" } },
    )
    .post(
      "/v1/containers/:id/notify-connector",
      async ({ request, params }) => {
        const row = await ownRecord(request, params.id);
        if (row.connectorStatus === null)
          throw new ApiError("validation", "This carrier is already connected.");
        await storage.trackings.update(row.id, {
          connectorStatus: "notify_requested",
          connectorNotifyRequestedAt: new Date(platform.now()).toISOString(),
        });
        const now = await ownRecord(request, params.id);
        return trackedRecord(engine, now, "warm_db", await engine.demurrage(now));
      },
      { detail: { summary: "Ask to be told when this carrier's connector goes live" } },
    )
    .delete(
      "/v1/containers/:id",
      async ({ request, params }) => {
        const row = await engine.archive(
          orgOf(request).id,
          (await ownRecord(request, params.id)).id,
          "deleted",
        );
        return trackedRecord(engine, row, "warm_db", await engine.demurrage(row));
      },
      { detail: { summary: "Stop tracking (archives the record)" } },
    )
    .get(
      "/v1/portfolio/summary",
      async ({ request }) => {
        const org = orgOf(request);
        const terms = await engine.terms(org.id);
        const rows = await storage.trackings.activeBoxes(org.id, PAGE_MAX);
        const byStatus = await storage.trackings.activeBoxesByStatus(org.id);
        return {
          by_status: byStatus,
          // Rows keyed by container number: id carries the number, not the UUID.
          items: rows.map((r) => ({
            ...trackedRecord(engine, r, "warm_db", engine.demurrageOf(r, terms)),
            id: r.containerNumber!,
          })),
        };
      },
      { detail: { summary: "Every active box, keyed by container number, with counts by status" } },
    )
    .get(
      "/v1/demurrage/terms",
      async ({ request }) => ({ items: (await engine.terms(orgOf(request).id)).map(termsView) }),
      {
        detail: { summary: "Free-time terms on file (demurrage is computed from these)" },
      },
    )
    .post(
      "/v1/demurrage/terms",
      async ({ request, body, set }) => {
        const org = orgOf(request);
        const row = {
          id: crypto.randomUUID(),
          orgId: org.id,
          carrierCode: body.carrier_code?.toUpperCase() ?? null,
          portUnlocode: body.port_unlocode?.toUpperCase() ?? null,
          equipment: body.equipment?.toUpperCase() ?? null,
          freeDays: body.free_days,
          dailyRateUsd: body.daily_rate_usd ?? null,
          createdAt: new Date(platform.now()).toISOString(),
        };
        await storage.terms.add(row);
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
        detail: { summary: "Add free-time terms (the most specific match per box wins)" },
      },
    )
    .delete(
      "/v1/demurrage/terms/:id",
      async ({ request, params }) => {
        if (!(await storage.terms.remove(orgOf(request).id, params.id)))
          throw new ApiError("notFound", `No free-time terms ${params.id} on this account.`);
        return { id: params.id, deleted: true };
      },
      { detail: { summary: "Remove free-time terms" } },
    )
    .get("/v2/events", ({ request }) => eventFeed(platform, orgOf(request).id, request), {
      detail: {
        summary:
          "DCSA Track & Trace 2.2 event feed of this account's references (bare array, pagination in headers)",
      },
    })
    .get("/public/v1/lookup/:number", ({ params }) => publicLookup(tracking, params.number), {
      detail: { summary: "Open container lookup (no key; limited per IP)", security: [] },
    })
    .use(compatRoutes(platform))
    .use(page.routes);

  async function ownRecord(request: Request, id: string): Promise<TrackedRow> {
    const row = await engine.get(orgOf(request).id, id);
    // Another account's id answers exactly like an id that never existed.
    if (!row) throw new ApiError("notFound", `No tracked record ${id} on this account.`);
    return row;
  }
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
