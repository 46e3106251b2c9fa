/**
 * Requests in the metrics (common/metrics.ts): a count by product, route template and status, a
 * duration by product and route template, and the requests in flight. Requests refused before
 * routing count under "(unmatched)", so a client walking random paths adds no series.
 */
import { Elysia } from "elysia";
import { httpDuration, httpInFlight, httpRequests } from "../../../common/metrics.ts";
import type { ProductDef } from "../products.ts";
import { answeredStatus, UNMATCHED } from "./access-log.ts";

export function httpMetrics(def: ProductDef) {
  return new Elysia({ name: `portolan-http-metrics-${def.id}` })
    .decorate("countedFrom", 0)
    .onRequest((context) => {
      context.countedFrom = performance.now();
      httpInFlight.inc({ product: def.id });
    })
    .onAfterResponse({ as: "global" }, ({ route, set, responseValue, countedFrom }) => {
      httpInFlight.dec({ product: def.id });
      const labels = { product: def.id, route: route || UNMATCHED };
      httpRequests.inc({ ...labels, status: String(answeredStatus(responseValue, set.status)) });
      httpDuration.observe(labels, (performance.now() - countedFrom) / 1000);
    });
}
