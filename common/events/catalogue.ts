/**
 * Every webhook event of every product: its type and the shape of its data, one TypeBox schema
 * each. The registration catalogue, the outbox row type and each emitter's payload type derive from
 * here, so a payload field is added in one schema and its emitter, or the build fails.
 */
import type { Static, TSchema } from "@sinclair/typebox";
import { AIR_EVENTS } from "./air.ts";
import { Obj, Str } from "./fields.ts";
import { PLAN_EVENTS } from "./loading.ts";
import { OCEAN_EVENTS } from "./ocean.ts";
import { RATE_EVENTS } from "./rates.ts";
import { SCHEDULE_EVENTS } from "./schedules.ts";

/** Per product with webhooks, its events in catalogue order, each type with its data schema. */
export const PRODUCT_EVENTS = {
  ocean: OCEAN_EVENTS,
  schedules: SCHEDULE_EVENTS,
  air: AIR_EVENTS,
  loading: PLAN_EVENTS,
  rates: RATE_EVENTS,
} satisfies Record<string, Record<string, TSchema>>;

export type EventProduct = keyof typeof PRODUCT_EVENTS;
export type EventType<P extends EventProduct> = keyof (typeof PRODUCT_EVENTS)[P] & string;
/** The data of one event type. */
export type EventData<P extends EventProduct, K extends EventType<P>> = Static<
  (typeof PRODUCT_EVENTS)[P][K] & TSchema
>;

/** An event a product raises, discriminated by type: `{type, data}` with that type's data. */
export type ProductEvent<P extends EventProduct> = {
  [K in EventType<P>]: { type: K; data: EventData<P, K> };
}[EventType<P>];

/** An event of one organisation as the outbox holds it: product, type and data tied together. */
export type OutboxEvent = {
  [P in EventProduct]: {
    [K in EventType<P>]: { orgId: string; product: P; type: K; data: EventData<P, K> };
  }[EventType<P>];
}[EventProduct];

/** A product's event types, in catalogue order. */
export const eventTypes = <P extends EventProduct>(product: P): EventType<P>[] =>
  Object.keys(PRODUCT_EVENTS[product]) as EventType<P>[];

/** The test delivery every product sends (POST /v1/webhooks/{id}/test), whatever the subscription. */
export const PING = "ping";
export const PingData = Obj({ endpoint_id: Str, message: Str });
export type PingData = Static<typeof PingData>;
