/**
 * The base Elysia app every product starts from, one plugin per concern (plugins/): the request
 * id, access log and request metrics, the request target, the body cap, access and rate limits
 * before routing; the body parser; errors and success bodies in the product's envelope; unknown
 * query parameters refused before the route's schema is checked; the API reference (/docs); then
 * /healthz, the probes, the account routes and the webhook routes. Product folders only add their
 * own routes; a new cross-cutting concern is a new plugin.
 */
import { Elysia } from "elysia";
import { isWebhookProduct } from "../webhooks/catalogue.ts";
import { webhookEvents } from "../webhooks/openapi.ts";
import { webhookRoutes } from "../webhooks/routes.ts";
import { health } from "./health.ts";
import type { RouteEntry } from "./openapi/document.ts";
import { HealthReport, neverAnswers, routeAnswers } from "./openapi/responses.ts";
import type { Platform } from "./platform.ts";
import { type AccessRule, access, accessRules } from "./plugins/access.ts";
import { accessLog } from "./plugins/access-log.ts";
import { accountRoutes } from "./plugins/account-routes.ts";
import { jsonBody } from "./plugins/body.ts";
import { envelope } from "./plugins/envelope.ts";
import { errors } from "./plugins/errors.ts";
import { httpMetrics } from "./plugins/http-metrics.ts";
import { openApi } from "./plugins/openapi.ts";
import { probes } from "./plugins/probes.ts";
import { queryParams } from "./plugins/query-params.ts";
import { rateLimit } from "./plugins/rate-limit.ts";
import { requestId } from "./plugins/request-id.ts";
import { ROUTER_HANDLER, requestTarget } from "./plugins/request-target.ts";
import type { ProductDef } from "./products.ts";

// Product route modules written against the request (api/ocean, api/compat) and the scale-out
// bench import these from here.
export { type Access, entitled, principalOf, requireEntitlement } from "./plugins/access.ts";
export { FREE_LIMIT, PAID_LIMIT } from "./plugins/rate-limit.ts";

export interface ProductAppOptions {
  def: ProductDef;
  platform: Platform;
  /** Product-specific access rules; undefined falls back to keyed bearer access. */
  access?: AccessRule;
  /** Paths on which only GET (and HEAD) are allowed; others answer 405 before auth. */
  getOnly?: (path: string) => boolean;
}

/** The product's webhook events for its document, when it sends any. */
const webhooksOf = (def: ProductDef) => {
  const id = def.id;
  return isWebhookProduct(id) ? () => webhookEvents(id) : undefined;
};

export function createProductApp(opts: ProductAppOptions) {
  const { def, platform } = opts;
  const { config } = platform;
  const accessOf = accessRules(def, opts.access);
  const app = new Elysia({ name: `portolan-${def.id}`, handler: ROUTER_HANDLER })
    // Pre-routing hooks run in this order: the request's id, its clocks, its target, its declared
    // length, its key, its rate window.
    .use(requestId(config.trustProxy))
    .use(accessLog(def))
    .use(httpMetrics(def))
    .use(envelope(def))
    .use(requestTarget(def.id, { getOnly: opts.getOnly }))
    .use(jsonBody(def.id, config.maxBodyBytes))
    .use(access(def, platform, accessOf))
    .use(rateLimit(def, platform))
    .use(
      errors(def, {
        accessOf,
        routes: (): ReadonlyArray<{ method: string; path: string }> => app.routes,
        publicUrls: config.publicUrls,
      }),
    )
    .use(queryParams(def.id, (): ReadonlyArray<RouteEntry> => app.routes as ReadonlyArray<RouteEntry>))
    .use(
      openApi(def, {
        server: config.publicUrls[def.id],
        accessOf,
        getOnly: opts.getOnly,
        routes: (): ReadonlyArray<RouteEntry> => app.routes as ReadonlyArray<RouteEntry>,
        webhooks: webhooksOf(def),
      }),
    )
    .get("/healthz", () => ({ product: def.id, ...health(platform) }), {
      detail: {
        ...routeAnswers(def, { 200: { description: "Alive", data: HealthReport } }),
        summary: "Liveness",
        security: [],
        // Liveness reads nothing that can be away: a dependency down is reported, not a failure.
        ...neverAnswers(503),
      },
    })
    .use(probes(def.id, platform.readiness, config.metricsToken))
    .use(accountRoutes(def, platform))
    .use(webhookRoutes(platform, def));
  return app;
}
