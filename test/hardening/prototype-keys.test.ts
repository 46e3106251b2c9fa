/**
 * Lookups keyed by input never read an object's prototype: a webhook host or a carrier's event code named like a prototype member ("constructor", "__proto__", ...) is looked up
 * as the unknown name it is. Webhook registration goes through HTTP on every webhook product, with
 * and without PORTOLAN_WEBHOOK_ALLOW_PRIVATE (the names do not resolve: each costs one DNS miss).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { loadConfig } from "../../api/config.ts";
import { WEBHOOK_PRODUCTS, type WebhookProduct } from "../../api/webhooks/catalogue.ts";
import type { DcsaEventLike } from "../../ingest/tracking/dcsa.ts";
import { toMilestone } from "../../ingest/tracking/timeline.ts";
import { errorCode } from "../helpers/envelopes.ts";
import { bearer, makePlatform, type TestPlatform } from "../helpers/platform.ts";

const PRODUCTS = Object.keys(WEBHOOK_PRODUCTS) as WebhookProduct[];
const NAMES = ["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf"];
/** Host names are lower-cased by URL parsing: these are the members a host can still name. */
const HOSTS = ["constructor", "__proto__"];

describe.each([false, true])(
  "webhook hosts named like prototype members (allowPrivate %p)",
  (allowPrivate) => {
    let p: TestPlatform;
    let tenant: Awaited<ReturnType<TestPlatform["tenant"]>>;
    beforeAll(async () => {
      const webhooks = {
        ...loadConfig({}).webhooks,
        allowPrivate,
        resolve: { "hooks.example.com": ["93.184.216.34"] },
      };
      p = await makePlatform({ webhooks });
      tenant = await p.tenant({ paid: true });
    });
    afterAll(() => p.close());

    test.each(PRODUCTS.flatMap((product) => HOSTS.map((host) => [product, host] as const)))(
      "%s: https://%s/ answers 400 invalid_url and registers nothing",
      async (product, host) => {
        const call = (method: string, body?: unknown) =>
          p.call(product, "/v1/webhooks", {
            method,
            body: body === undefined ? undefined : JSON.stringify(body),
            ...bearer(tenant.keys[product], { "content-type": "application/json" }),
          });
        const res = await call("POST", { url: `https://${host}/hook` });
        expect(res.status).toBe(400);
        expect(errorCode(await res.json())?.toUpperCase()).toBe("INVALID_URL");
        const listed = (await (await call("GET")).json()) as { data: { items?: unknown[] } | unknown[] };
        const items = Array.isArray(listed.data) ? listed.data : (listed.data.items ?? []);
        expect(items).toEqual([]);
      },
    );
  },
);

const event = (over: Partial<DcsaEventLike>): DcsaEventLike => ({
  eventID: "e1",
  eventType: "TRANSPORT",
  eventClassifierCode: "ACT",
  eventDateTime: "2026-11-21T12:00:00Z",
  eventCreatedDateTime: "2026-11-21T12:00:00Z",
  ...over,
});
const noPlaces = { timezone: () => null, name: () => null };

test("a carrier's event and document codes named like prototype members are labelled as the codes they are", () => {
  for (const code of NAMES) {
    const shipment = toMilestone(event({ eventType: "SHIPMENT", shipmentEventTypeCode: code }), noPlaces);
    expect(shipment.label).toBe(`Shipment ${code.toLowerCase()}`);
    const document = event({ eventType: "SHIPMENT", shipmentEventTypeCode: "ISSU", documentTypeCode: code });
    expect(toMilestone(document, noPlaces).label).toBe("Shipment issued");
    const transport = toMilestone(event({ transportEventTypeCode: code }), noPlaces);
    expect(transport.label).toBe(`${code} at an unnamed place`);
  }
});
