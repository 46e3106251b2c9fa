/**
 * Per-product webhook identity: the name tag that prefixes the delivery headers and the event
 * catalogue accepted in event_types. Distance has no webhooks.
 */
import { eventTypes, PING } from "../../common/events/catalogue.ts";
import type { ProductId } from "../shared/products.ts";

export type WebhookProduct = Exclude<ProductId, "distance">;

export interface WebhookProductDef {
  /** <Product> in User-Agent <Product>-Webhooks/1 and the X-<Product>-* headers. */
  tag: string;
  /** Event types accepted in event_types: the product's catalogue, and ping (test deliveries). */
  events: readonly string[];
}

/** The product's identity with its catalogue (common/events) and ping. */
const def = (product: WebhookProduct, tag: string): WebhookProductDef => ({
  tag,
  events: [...eventTypes(product), PING],
});

export const WEBHOOK_PRODUCTS: Record<WebhookProduct, WebhookProductDef> = {
  ocean: def("ocean", "Portolan-Ocean"),
  schedules: def("schedules", "Portolan-Schedules"),
  air: def("air", "Portolan-Air"),
  loading: def("loading", "Portolan-Loadplan"),
  rates: def("rates", "Portolan-Rates"),
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
