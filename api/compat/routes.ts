/**
 * GET /compat/vendor/tracking (aliases /container and /reference) on the ocean host. The product
 * app has already checked api_key (401) and the burst window (429); this handler checks the ocean
 * entitlement (403) and the monthly call cap (429), counts the call, parses the query (400) and
 * renders the service's outcome in the vendor's envelope. docs/compat.md has the rules.
 */
import { Elysia, t } from "elysia";
import { distanceServices } from "../../engine/services.ts";
import { errorBody, jsonResponse } from "../shared/envelopes.ts";
import { ApiError, type ProblemKey } from "../shared/errors.ts";
import { EXTRA_QUERY_IGNORED } from "../shared/openapi/document.ts";
import { errorAnswer, toOpenApi } from "../shared/openapi/responses.ts";
import type { FullPlatform } from "../shared/platform.ts";
import { principalOf } from "../shared/product-app.ts";
import { API_VERSION } from "../shared/products.ts";
import { AnswerCache, type CacheStore, MemoryCacheStore, RedisCacheStore } from "./cache.ts";
import { parseQuery } from "./params.ts";
import { present } from "./render.ts";
import { CompatService, isCacheable, type Outcome } from "./service.ts";
import {
  counter,
  RedisUsageStore,
  SqliteUsageStore,
  type Usage,
  type UsageStore,
  uniqueShipmentsUsed,
} from "./usage.ts";

/** The surface's envelope id (spec, Versioning 3). */
export const SCHEMA_VERSION = "vendor-compat/1";
export const COMPAT_PATHS = [
  "/compat/vendor/tracking",
  "/compat/vendor/container",
  "/compat/vendor/reference",
];

interface Compat {
  service: CompatService;
  usage: UsageStore;
  close(): Promise<void>;
}

/**
 * One set of compat services per platform, built on first use (Redis connects lazily); keyed by
 * the platform's storage, which copies of the platform object share.
 */
const running = new WeakMap<object, Promise<Compat>>();

async function start(platform: FullPlatform): Promise<Compat> {
  const { config, tracking, storage } = platform;
  const { ceilingMs, cacheMs } = config.compat;
  const { locations, sea } = await distanceServices(config.buildDir);
  const [store, usage]: [CacheStore<Outcome>, UsageStore] = config.redisUrl
    ? await Promise.all([
        RedisCacheStore.connect<Outcome>(config.redisUrl),
        RedisUsageStore.connect(config.redisUrl),
      ])
    : [new MemoryCacheStore<Outcome>(), new SqliteUsageStore(storage.usage)];
  // A claim outlives the held request by a margin so a slow carrier call is not duplicated.
  const cache = new AnswerCache(store, platform.now, cacheMs, ceilingMs + 5_000, isCacheable);
  const service = new CompatService(
    {
      views: tracking.views,
      ocean: tracking.ocean,
      ports: locations,
      sea,
      positions: tracking.positions,
      carriers: tracking.carriers,
      now: platform.now,
    },
    cache,
    ceilingMs,
  );
  return { service, usage, close: async () => void (await Promise.all([cache.close(), usage.close()])) };
}

function compatOf(platform: FullPlatform): Promise<Compat> {
  let c = running.get(platform.storage);
  if (!c) {
    c = start(platform);
    c.catch(() => running.delete(platform.storage));
    running.set(platform.storage, c);
  }
  return c;
}

/** Closes the Redis connections of a platform's compat surface (tests; the server just exits). */
export async function closeCompat(platform: FullPlatform): Promise<void> {
  const c = running.get(platform.storage);
  running.delete(platform.storage);
  if (c) await (await c).close();
}

function usageHeaders(u: Usage | null): Record<string, string> {
  const headers: Record<string, string> = { "api-version": API_VERSION, "x-schema-version": SCHEMA_VERSION };
  if (u) {
    headers["x-usage-day"] = String(u.key.day);
    headers["x-usage-week"] = String(u.key.week);
    headers["x-usage-month"] = String(u.key.month);
    headers["x-usage-total"] = String(u.key.total);
  }
  return headers;
}

const query = (name: string, description: string, schema: Record<string, unknown>, required = false) => ({
  name,
  in: "query",
  required,
  description,
  schema,
});

/** The vendor's query (params.ts reads it). */
const COMPAT_PARAMETERS = [
  query("api_key", "An ocean key (oc_...)", { type: "string" }, true),
  query("number", "Container, bill of lading or booking number (container is an alias)", { type: "string" }),
  query("container", "Alias of number", { type: "string" }),
  query("type", "What number is: CT container, BL bill of lading, BK booking", {
    type: "string",
    enum: ["CT", "BL", "BK"],
  }),
  query("sealine", "Carrier SCAC, or auto", { type: "string" }),
  query("route", "Include route_data (true/false)", { type: "string", enum: ["true", "false"] }),
  query("ais", "Include AIS data in route_data (true/false)", { type: "string", enum: ["true", "false"] }),
  query("force_update", "Ask the carrier again instead of the cached answer (true/false)", {
    type: "string",
    enum: ["true", "false"],
  }),
];

const count = { type: "string", pattern: "^[0-9]+$" };
/** Sent on every answer of the surface (usageHeaders). */
const USAGE_HEADERS = {
  "API-Version": { description: "The platform's API version", schema: { type: "string" } },
  "X-Schema-Version": { description: "The envelope's version (vendor-compat/1)", schema: { type: "string" } },
  "X-Usage-Day": { description: "Calls by this key today", schema: count },
  "X-Usage-Week": { description: "Calls by this key this week", schema: count },
  "X-Usage-Month": { description: "Calls by this key this month", schema: count },
  "X-Usage-Total": { description: "Calls by this key in all", schema: count },
};

const vendorObject = (description: string) => t.Object({}, { additionalProperties: true, description });
const vendorList = (description: string) => t.Array(vendorObject(description));

/** data: exactly the vendor's seven keys (shapes.ts, Data; spec, Versioning 3). */
const COMPAT_DATA = t.Object(
  {
    metadata: vendorObject("Type, number, sealine, status, counters"),
    locations: vendorList("A place the shipment touches"),
    facilities: vendorList("A terminal or depot"),
    route: vendorObject("prepol, pol, pod, postpod"),
    vessels: vendorList("A vessel"),
    containers: vendorList("A container with its events"),
    route_data: t.Union([vendorObject("The route's path, pin and AIS (route=true)"), t.Null()]),
  },
  { $id: "CompatShipment", additionalProperties: false },
);

const CompatSuccess = t.Object(
  {
    status: t.Literal("success"),
    message: t.String(),
    data: COMPAT_DATA,
  },
  { additionalProperties: false },
);

const CompatLookupError = t.Object(
  {
    status: t.Literal("error"),
    message: t.String({ description: "The vendor's message code" }),
    data: t.Object({}, { additionalProperties: false }),
    detail: t.Optional(t.String()),
  },
  { additionalProperties: false },
);

/** Transport errors (400, 403, 429): the vendor's message codes, data null. */
const transport = (key: ProblemKey, message: string, headers: Record<string, string>) => {
  const err = new ApiError(key, message);
  return jsonResponse(errorBody("compat", err), err.status, headers);
};

/** A transport error as documented: the version headers beside the catalogue's. */
function transportAnswer(status: number) {
  const answer = errorAnswer("compat", status);
  return { ...answer, headers: { ...answer.headers, ...USAGE_HEADERS } };
}

export function compatRoutes(platform: FullPlatform) {
  const { accounts, config, storage } = platform;

  const handle = async (request: Request): Promise<Response> => {
    const { org, keyId } = principalOf(request);
    const compat = await compatOf(platform);
    const now = platform.now();
    const entitled = await accounts.entitlement(org.id, "ocean");
    if (entitled !== "active") {
      const message = entitled === "expired" ? "API_KEY_EXPIRED" : "API_KEY_ACCESS_DENIED";
      return transport("forbidden", message, usageHeaders(null));
    }
    const cap = config.compat.monthlyCalls;
    if (cap !== null && (await compat.usage.orgMonth(org.id, now)) >= cap) {
      return transport("rateWindow", "API_KEY_LIMIT_REACHED", usageHeaders(null));
    }
    const usage = await compat.usage.hit(keyId, org.id, now);
    const headers = usageHeaders(usage);
    const query = parseQuery(new URL(request.url).searchParams);
    if (typeof query === "string") return transport("validation", query, headers);

    const outcome = await compat.service.resolve(org, query);
    switch (outcome.kind) {
      case "limit":
        return transport("rateWindow", "API_KEY_LIMIT_REACHED", headers);
      case "error":
        return jsonResponse(
          {
            status: "error",
            message: outcome.message,
            data: {},
            ...(outcome.detail ? { detail: outcome.detail } : {}),
          },
          200,
          headers,
        );
      case "ok": {
        const data = present(outcome.snapshot, {
          number: query.number,
          route: query.route,
          ais: query.ais,
          counters: {
            api_calls: counter(usage.orgMonth, cap),
            unique_shipments: counter(
              await uniqueShipmentsUsed(storage.quotas, org.id, now),
              org.shipmentQuota,
            ),
          },
        });
        return jsonResponse({ status: "success", message: outcome.snapshot.message, data }, 200, headers);
      }
    }
  };

  const detail = {
    summary: "Vendor-compatible tracking: the vendor's v3 envelope, fields and codes (docs/compat.md)",
    description:
      "The key is the api_key query parameter (an ocean key). A lookup that fails answers HTTP 200 with status error and a message code; transport errors (400, 401, 403, 429) answer their status with data null.",
    security: [],
    // Vendor clients send parameters of their own; the vendor ignores them, and so does this surface.
    ...EXTRA_QUERY_IGNORED,
    parameters: COMPAT_PARAMETERS,
    responses: toOpenApi({
      200: {
        description:
          "The shipment (status success), or a lookup failure as the vendor answers it (status error, HTTP 200)",
        body: t.Union([CompatSuccess, CompatLookupError]),
        headers: USAGE_HEADERS,
      },
      // The handler's transport errors (the entitlement check is its own).
      400: transportAnswer(400),
      403: transportAnswer(403),
      429: transportAnswer(429),
    }),
  };
  const app = new Elysia();
  for (const path of COMPAT_PATHS) app.get(path, ({ request }) => handle(request), { detail });
  return app;
}
