/**
 * @portolan/client: typed calls for Portolan's six products, paging, retries on 429 and 503, and
 * the webhook signature check. The types of each product (paths, components) are under its name:
 * `ocean.components["schemas"]["TrackedRecord"]`.
 */
export * from "./client.ts";
export * from "./errors.ts";
export type * as air from "./generated/air.ts";
export type * as distance from "./generated/distance.ts";
export type * as loadPlans from "./generated/loading.ts";
export type * as ocean from "./generated/ocean.ts";
export type * as rates from "./generated/rates.ts";
export type * as schedules from "./generated/schedules.ts";
export * from "./pages.ts";
export * from "./retry.ts";
export * from "./webhooks.ts";
