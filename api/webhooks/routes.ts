/**
 * The six webhook management routes, mounted on every product but distance by createProductApp.
 * The product app supplies access, envelopes and error rendering; handlers read the caller from
 * the context and only throw ApiError.
 */

import { Elysia, type TSchema, t } from "elysia";
import { PING, type PingData } from "../../common/events/catalogue.ts";
import { timeOrderedId } from "../../common/ids.ts";
import type { Storage } from "../../storage/storage.ts";
import { type DeliveryRow, deliveryBody, type ListedEndpoint } from "../../storage/webhooks.ts";
import type { Principal } from "../accounts/repo.ts";
import { ApiError } from "../shared/errors.ts";
import { uuidPath } from "../shared/openapi/parameters.ts";
import {
  DateTime,
  Int,
  listPage,
  neverAnswers,
  nullable,
  routeAnswers,
  strict,
  Uuid,
} from "../shared/openapi/responses.ts";
import { limitQuery, pageAfter, pageLimit, pageOf } from "../shared/paging.ts";
import type { FullPlatform, Platform } from "../shared/platform.ts";
import { caller, entitled } from "../shared/plugins/access.ts";
import type { ProductDef } from "../shared/products.ts";
import { filterEventTypes, isWebhookProduct, type WebhookProduct } from "./catalogue.ts";
import { newSecret, SecretBox, secretHash } from "./secrets.ts";
import { checkTarget, resolverFor, TargetRefused } from "./ssrf.ts";

const MAX_URL = 2048;

const ENDPOINT_FIELDS = {
  id: Uuid,
  url: t.String({ format: "uri" }),
  event_types: t.Array(t.String(), { description: "[] is every event the product emits" }),
  description: t.String(),
  active: t.Boolean(),
};
const WebhookEndpoint = strict(
  {
    ...ENDPOINT_FIELDS,
    failure_count: Int({ minimum: 0 }),
    last_delivery_at: nullable(DateTime),
    created_at: DateTime,
  },
  { $id: "WebhookEndpoint" },
);
const DeliveryAttempt = strict(
  {
    id: Uuid,
    event_type: t.String(),
    status: t.Union([t.Literal("pending"), t.Literal("delivered"), t.Literal("dead")]),
    attempt_count: Int({ minimum: 0 }),
    last_status_code: nullable(Int()),
    last_error: nullable(t.String()),
    created_at: DateTime,
    delivered_at: nullable(DateTime),
  },
  { $id: "DeliveryAttempt", description: "A delivery and its latest attempt" },
);
const answered = (def: ProductDef, description: string, data: TSchema, errors: number[] = []) =>
  routeAnswers(def, { 200: { description, data } }, errors);

function endpointView(e: ListedEndpoint) {
  return {
    id: e.id,
    url: e.url,
    event_types: e.eventTypes,
    description: e.description,
    active: e.active,
    failure_count: e.failureCount,
    last_delivery_at: e.lastDeliveryAt,
    created_at: e.createdAt,
  };
}

function deliveryView(d: DeliveryRow) {
  return {
    id: d.id,
    event_type: d.eventType,
    status: d.status,
    attempt_count: d.attemptCount,
    last_status_code: d.lastStatusCode,
    last_error: d.lastError,
    created_at: d.createdAt,
    delivered_at: d.deliveredAt,
  };
}

/** An https:// URL without credentials, or null. */
function httpsUrl(raw: unknown): URL | null {
  if (typeof raw !== "string" || !raw.startsWith("https://") || raw.length > MAX_URL) return null;
  try {
    const url = new URL(raw);
    return url.hostname && !url.username && !url.password ? url : null;
  } catch {
    return null;
  }
}

const EVENT_TYPES = t.Optional(t.Array(t.String({ maxLength: 100 }), { maxItems: 100 }));
const DESCRIPTION = t.Optional(t.String({ maxLength: 500 }));
/** url is checked by the handlers (an invalid one is INVALID_URL, not a schema violation). */
const CreateBody = t.Object({
  url: t.Optional(t.Unknown()),
  event_types: EVENT_TYPES,
  description: DESCRIPTION,
});
const PatchBody = t.Object({
  url: t.Optional(t.Unknown()),
  event_types: EVENT_TYPES,
  description: DESCRIPTION,
  active: t.Optional(t.Boolean()),
});
const IdParams = t.Object({ id: uuidPath("The endpoint's id") });
const ListQuery = t.Object({
  limit: limitQuery(),
  cursor: t.Optional(t.String({ description: "next_cursor of the previous page" })),
});

/** The routes' writes for one product: each takes the caller's organisation and throws ApiError. */
function endpointWrites(platform: Platform, storage: Storage, productId: WebhookProduct) {
  const cfg = platform.config.webhooks;
  const store = storage.webhooks;
  const resolve = resolverFor(cfg);
  let box: Promise<SecretBox> | null = null;
  const secrets = () => {
    box ??= SecretBox.create(cfg);
    return box;
  };
  const iso = () => new Date(platform.now()).toISOString();
  const wakeups = (platform as Partial<FullPlatform>).tracking?.wakeups;

  /** Refuses targets on private networks (unless allowed); the dispatcher checks again per attempt. */
  const reachable = async (url: URL) => {
    try {
      await checkTarget(url, resolve, cfg.allowPrivate);
    } catch (err) {
      if (err instanceof TargetRefused)
        throw new ApiError("invalidUrl", `Webhook URL refused: ${err.message}.`);
      throw err;
    }
  };

  return {
    async create(orgId: string, body: typeof CreateBody.static) {
      const url = httpsUrl(body.url);
      if (!url) throw new ApiError("invalidUrl", "url is required and must be an https:// URL.");
      await reachable(url);
      const id = timeOrderedId();
      const secret = newSecret();
      const done = await store.create(
        {
          id,
          orgId,
          product: productId,
          url: body.url as string,
          eventTypes: filterEventTypes(productId, body.event_types),
          description: body.description ?? "",
          createdAt: iso(),
          secretHash: await secretHash(secret),
          sealed: await (await secrets()).seal(secret, id),
        },
        cfg.maxEndpoints,
      );
      if (done.outcome === "limit") {
        throw new ApiError(
          "webhookLimit",
          `This account holds ${done.held} webhook endpoints here, the most allowed (${cfg.maxEndpoints}); delete one first.`,
        );
      }
      const { url: u, event_types, description, active, created_at } = endpointView(done.row);
      return { id, url: u, event_types, description, active, created_at, secret };
    },

    async update(orgId: string, id: string, body: typeof PatchBody.static) {
      // A url that is not https:// is ignored (spec); an https one must still pass the address check.
      const url = httpsUrl(body.url);
      if (url) await reachable(url);
      return store.update(orgId, productId, id, {
        url: url ? (body.url as string) : undefined,
        eventTypes: body.event_types && filterEventTypes(productId, body.event_types),
        description: body.description,
        active: body.active,
      });
    },

    /** Queues a ping to the endpoint; false when the organisation has no such endpoint. */
    async ping(orgId: string, endpointId: string): Promise<boolean> {
      const row = await store.get(orgId, productId, endpointId);
      if (!row) return false;
      const id = timeOrderedId();
      const now = iso();
      const data: PingData = { endpoint_id: row.id, message: "Test delivery from Portolan." };
      await store.queue(row.id, {
        id,
        eventType: PING,
        body: deliveryBody(id, PING, now, data),
        createdAt: now,
      });
      // An idle dispatcher sends it now rather than at its next sweep.
      wakeups?.signal("webhooks.outbox");
      return true;
    },
  };
}

/** Each route's OpenAPI detail: the product names the envelope, maxEndpoints the 409. */
function routeDocs(def: ProductDef, maxEndpoints: number) {
  return {
    create: {
      ...routeAnswers(
        def,
        {
          201: {
            description: "The endpoint, with its signing secret",
            data: strict({ ...ENDPOINT_FIELDS, created_at: DateTime, secret: t.String() }),
          },
        },
        [409],
      ),
      summary: "Register a webhook endpoint; the signing secret is in this response only",
      description: `At most ${maxEndpoints} endpoints per account on this product (409 WEBHOOK_LIMIT_REACHED). Needs the product's entitlement.`,
    },
    list: {
      ...answered(def, "A page of endpoints", listPage(WebhookEndpoint)),
      summary: "Webhook endpoints, newest first, with health fields",
    },
    read: {
      ...answered(
        def,
        "The endpoint",
        t.Composite([WebhookEndpoint, strict({ recent_deliveries: t.Array(DeliveryAttempt) })], {
          additionalProperties: false,
        }),
      ),
      summary: "One endpoint with its 20 most recent deliveries",
    },
    change: {
      ...answered(def, "The endpoint as changed", strict(ENDPOINT_FIELDS), [400]),
      summary: "Change url, event_types, description or active; active=true resets failure_count",
    },
    remove: {
      ...answered(def, "Removed", strict({ id: t.String(), deleted: t.Literal(true) })),
      // Ocean's delete is idempotent: an unknown id answers deleted too (removeEndpoint).
      ...(def.id === "ocean" ? neverAnswers(404) : {}),
      summary: "Remove an endpoint, its history and its queued deliveries",
    },
    test: {
      ...answered(def, "Queued", strict({ id: t.String(), test_queued: t.Literal(true) })),
      summary: "Queue a ping delivery (the queue is swept every 30 seconds)",
    },
  };
}

/** What the handlers of one product share. */
interface Endpoints {
  platform: Platform;
  productId: WebhookProduct;
  store: Storage["webhooks"];
  writes: ReturnType<typeof endpointWrites>;
}
type Keyed = { principal: Principal };
type ById = Keyed & { params: { id: string } };

const notFound = (id: string) => new ApiError("notFound", `No webhook endpoint ${id} on this account.`);

async function createEndpoint(
  x: Endpoints,
  { principal, body, set }: Keyed & { body: typeof CreateBody.static; set: { status?: unknown } },
) {
  const created = await x.writes.create(principal.org.id, body);
  set.status = 201;
  return created;
}

async function listEndpoints(x: Endpoints, { principal, query }: Keyed & { query: typeof ListQuery.static }) {
  const limit = pageLimit(query.limit);
  const after = pageAfter(query.cursor);
  const rows = await x.store.page(principal.org.id, x.productId, {
    limit,
    after: after && { createdAt: after.updatedAt, id: after.id },
  });
  const { page, ...more } = pageOf(
    rows.map((r) => ({ ...r, updatedAt: r.createdAt })),
    limit,
  );
  return { items: page.map(endpointView), ...more };
}

async function readEndpoint(x: Endpoints, { principal, params }: ById) {
  const found = await x.store.detail(principal.org.id, x.productId, params.id);
  if (!found) throw notFound(params.id);
  return { ...endpointView(found.endpoint), recent_deliveries: found.recent.map(deliveryView) };
}

async function changeEndpoint(
  x: Endpoints,
  { principal, params, body }: ById & { body: typeof PatchBody.static },
) {
  const row = await x.writes.update(principal.org.id, params.id, body);
  if (!row) throw notFound(params.id);
  const { id, url, event_types, description, active } = endpointView(row);
  return { id, url, event_types, description, active };
}

async function removeEndpoint(x: Endpoints, { principal, params }: ById) {
  const removed = await x.store.delete(principal.org.id, x.productId, params.id);
  // Ocean's DELETE is idempotent and never checks existence (spec); elsewhere unknown is 404.
  if (!removed && x.productId !== "ocean") throw notFound(params.id);
  return { id: params.id, deleted: true };
}

async function testEndpoint(x: Endpoints, { principal, params }: ById) {
  if (!(await x.writes.ping(principal.org.id, params.id))) throw notFound(params.id);
  return { id: params.id, test_queued: true };
}

export function webhookRoutes(platform: Platform, def: ProductDef) {
  // buildApps hands every product the full platform; a distance app built alone has no database.
  const storage = (platform as Platform & { storage?: Storage }).storage;
  if (!storage || !isWebhookProduct(def.id)) return new Elysia({ name: `webhooks-none-${def.id}` });
  const productId: WebhookProduct = def.id;
  const x: Endpoints = {
    platform,
    productId,
    store: storage.webhooks,
    writes: endpointWrites(platform, storage, productId),
  };
  const docs = routeDocs(def, platform.config.webhooks.maxEndpoints);
  const beforeHandle = entitled(platform, productId);

  // Handlers destructure what they read: Elysia compiles each route from its handler's source,
  // and one handing on the whole context parses the cookies on every request.
  return new Elysia({ name: `webhooks-${def.id}` })
    .use(caller)
    .guard({ keyed: true })
    .post("/v1/webhooks", ({ principal, body, set }) => createEndpoint(x, { principal, body, set }), {
      body: CreateBody,
      beforeHandle,
      detail: docs.create,
    })
    .get("/v1/webhooks", ({ principal, query }) => listEndpoints(x, { principal, query }), {
      query: ListQuery,
      detail: docs.list,
    })
    .get("/v1/webhooks/:id", ({ principal, params }) => readEndpoint(x, { principal, params }), {
      params: IdParams,
      detail: docs.read,
    })
    .patch(
      "/v1/webhooks/:id",
      ({ principal, params, body }) => changeEndpoint(x, { principal, params, body }),
      {
        params: IdParams,
        body: PatchBody,
        detail: docs.change,
      },
    )
    .delete("/v1/webhooks/:id", ({ principal, params }) => removeEndpoint(x, { principal, params }), {
      params: IdParams,
      detail: docs.remove,
    })
    .post("/v1/webhooks/:id/test", ({ principal, params }) => testEndpoint(x, { principal, params }), {
      params: IdParams,
      beforeHandle,
      detail: docs.test,
    });
}
