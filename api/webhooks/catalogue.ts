/**
 * Per-product webhook identity: the name tag that prefixes the delivery headers and the event
 * catalogue accepted in event_types. Distance has no webhooks.
 */
import { RATE_EVENT_TYPES } from "../../ingest/rates/events.ts";
import { PLAN_EVENT_TYPES } from "../loading/events.ts";
import type { ProductId } from "../shared/products.ts";

export type WebhookProduct = Exclude<ProductId, "distance">;

export interface WebhookProductDef {
  /** <Product> in User-Agent <Product>-Webhooks/1 and the X-<Product>-* headers. */
  tag: string;
  /** Event types accepted in event_types; ping (test deliveries) is accepted everywhere. */
  events: readonly string[];
}

export const WEBHOOK_PRODUCTS: Record<WebhookProduct, WebhookProductDef> = {
  ocean: {
    tag: "Portolan-Ocean",
    events: [
      "container_arrived",
      "container_available",
      "container_delivered",
      "customs_hold",
      "vessel_departed",
      "eta_changed",
      "container_misrouted",
      "demurrage_started",
      "demurrage_warning",
      "schedule_disruption",
      "api_change_announced",
      "ping",
    ],
  },
  schedules: {
    tag: "Portolan-Schedules",
    events: ["blank_sailing", "cutoff_approaching", "sailing_slipped", "reliability_drop", "ping"],
  },
  air: {
    tag: "Portolan-Air",
    // awb_departed is accepted for compatibility; nothing emits it yet.
    events: [
      "awb_accepted",
      "awb_in_transit",
      "awb_arrived",
      "awb_available",
      "awb_delivered",
      "awb_departed",
      "ping",
    ],
  },
  loading: { tag: "Portolan-Loadplan", events: [...PLAN_EVENT_TYPES, "ping"] },
  rates: { tag: "Portolan-Rates", events: [...RATE_EVENT_TYPES, "ping"] },
};

export function isWebhookProduct(id: ProductId): id is WebhookProduct {
  return id in WEBHOOK_PRODUCTS;
}

/** The caller's event_types reduced to the catalogue, order kept, duplicates dropped; [] = every event. */
export function filterEventTypes(
  product: WebhookProduct,
  requested: readonly string[] | undefined,
): string[] {
  const known = WEBHOOK_PRODUCTS[product].events;
  return [...new Set((requested ?? []).filter((t) => known.includes(t)))];
}

// The storage layer's fan-out applies the same rule, so it lives in common/.
export { subscribed } from "../../common/subscriptions.ts";
