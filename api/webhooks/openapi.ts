/**
 * A product's webhook events as OpenAPI 3.1 `webhooks`: one POST per event type of its catalogue
 * (common/events) and ping, with the delivery headers the dispatcher sends (deliveryHeaders) and
 * the exact four-key body storage/webhooks.ts writes around the event's data schema. Each body is
 * a named component, <Product><Event>Delivery.
 */
import { type TSchema, Type } from "@sinclair/typebox";
import { PING, PingData, PRODUCT_EVENTS } from "../../common/events/catalogue.ts";
import { WEBHOOK_PRODUCTS, type WebhookProduct } from "./catalogue.ts";
import { deliveryHeaderNames } from "./dispatcher.ts";

type Json = Record<string, unknown>;

const pascal = (s: string) => s.replace(/(^|[_-])([a-z])/g, (_m, _sep, c: string) => c.toUpperCase());

/** The body every delivery carries: id, type, occurred_at and the event's data, nothing else. */
function deliverySchema(product: WebhookProduct, type: string, data: TSchema): TSchema {
  return Type.Object(
    {
      id: Type.String({ format: "uuid", description: "Delivery id, as X-…-Delivery; stable across retries" }),
      type: Type.Literal(type),
      occurred_at: Type.String({ format: "date-time", description: "When the event was raised (UTC)" }),
      data,
    },
    { $id: `${pascal(product)}${pascal(type)}Delivery`, additionalProperties: false },
  );
}

/** The headers of a delivery of `type`, named as the dispatcher sends them. */
function headerParameters(product: WebhookProduct, type: string): Json[] {
  const names = deliveryHeaderNames(product);
  const header = (name: string, description: string, schema: Json) => ({
    name,
    in: "header",
    required: true,
    description,
    schema,
  });
  return [
    header("User-Agent", "The product's webhook agent", { type: "string", const: names.agent }),
    header(names.event, "The event type, as the body's type", { type: "string", const: type }),
    header(names.delivery, "The delivery id, as the body's id", { type: "string", format: "uuid" }),
    header(
      names.signature,
      "sha256= and the lower-case hex HMAC-SHA256 of the raw body, keyed with the endpoint's whsec_ secret",
      { type: "string", pattern: "^sha256=[0-9a-f]{64}$" },
    ),
  ];
}

/** The product's `webhooks`: each event type of its catalogue, then ping. */
export function webhookEvents(product: WebhookProduct): Record<string, Json> {
  const events: Record<string, TSchema> = { ...PRODUCT_EVENTS[product], [PING]: PingData };
  const tag = WEBHOOK_PRODUCTS[product].tag;
  return Object.fromEntries(
    Object.entries(events).map(([type, data]) => [
      type,
      {
        post: {
          operationId: `webhook${pascal(product)}${pascal(type)}`,
          summary: type === PING ? "Test delivery (POST /v1/webhooks/{id}/test)" : `${tag} event ${type}`,
          security: [],
          parameters: headerParameters(product, type),
          requestBody: {
            required: true,
            content: { "application/json": { schema: deliverySchema(product, type, data) } },
          },
          responses: {
            "2XX": { description: "Accepted: any 2xx marks the delivery delivered (docs/webhooks.md)" },
          },
        },
      },
    ]),
  );
}
