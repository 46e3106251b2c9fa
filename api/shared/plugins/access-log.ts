/**
 * One access line per request: product, method, route template (the path's values stay out),
 * status, duration, organisation and request id. A query's values are logged but for those naming
 * a key, a secret or personal data; no header, key or body ever is.
 */
import { Elysia } from "elysia";
import { log } from "../../../common/log.ts";
import type { ProductDef } from "../products.ts";
import { caller } from "./access.ts";
import { requestContext } from "./request-id.ts";

/** Query parameters whose values are never logged: keys, tokens, and who someone is or where. */
const PRIVATE_PARAM = /key|token|secret|signature|password|email|phone|name|contact|address|reference/i;

/** The query of `url` as logged, private values replaced; null without one. */
export function loggedQuery(url: string): Record<string, string> | null {
  const q = url.indexOf("?");
  if (q < 0) return null;
  const out: Record<string, string> = Object.create(null);
  for (const [name, value] of new URLSearchParams(url.slice(q + 1))) {
    out[name] = PRIVATE_PARAM.test(name) ? "[redacted]" : value;
  }
  return out;
}

/** Where a request without a route (404, refused before routing) is counted and logged. */
export const UNMATCHED = "(unmatched)";

/** The status a request was answered with, as the after-response hook sees it. */
export function answeredStatus(responseValue: unknown, status: unknown): number {
  if (responseValue instanceof Response) return responseValue.status;
  return typeof status === "number" ? status : 200;
}

export function accessLog(def: ProductDef) {
  return new Elysia({ name: `portolan-access-log-${def.id}` })
    .use(caller)
    .use(requestContext)
    .decorate("receivedAt", 0)
    .onRequest((context) => {
      context.receivedAt = performance.now();
    })
    .onAfterResponse({ as: "global" }, (context) => {
      // Nothing of the line is built when the level drops it (PORTOLAN_LOG_LEVEL above info).
      if (!log.isLevelEnabled("info")) return;
      const { request, route, set, responseValue, principal, requestId, receivedAt } = context;
      log.info(
        {
          product: def.id,
          method: request.method,
          route: route || UNMATCHED,
          status: answeredStatus(responseValue, set.status),
          duration_ms: Math.round((performance.now() - receivedAt) * 1000) / 1000,
          org: principal?.org.id ?? null,
          request_id: requestId,
          query: loggedQuery(request.url),
        },
        "request",
      );
    });
}
