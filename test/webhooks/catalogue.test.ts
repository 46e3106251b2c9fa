/**
 * The event catalogue (common/events) as each product answers it over HTTP and as the docs list it:
 * registration keeps exactly the product's own events and ping, in catalogue order, and drops
 * another product's. Then what the types refuse: a payload with a field missing, an extra one, or
 * one of another event, does not compile (tsc runs over test/), and its schema refuses it too.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Value } from "@sinclair/typebox/value";
import { loadConfig } from "../../api/config.ts";
import { serveBun } from "../../api/runtime/bun-serve.ts";
import { WEBHOOK_PRODUCTS, type WebhookProduct } from "../../api/webhooks/catalogue.ts";
import {
  type EventProduct,
  eventTypes,
  type OutboxEvent,
  PRODUCT_EVENTS,
  type ProductEvent,
} from "../../common/events/catalogue.ts";
import { recordingFetch } from "../helpers/issued-secrets.ts";
import { bearer, makePlatform, type TestPlatform } from "../helpers/platform.ts";
import { sampleDeletedPlan, sampleSheet } from "./event-samples.ts";

const PRODUCTS = Object.keys(WEBHOOK_PRODUCTS) as WebhookProduct[];

let p: TestPlatform;
let keys: Record<string, string>;
const servers: Array<ReturnType<typeof serveBun>> = [];
const urls = {} as Record<WebhookProduct, string>;

beforeAll(async () => {
  const webhooks = { ...loadConfig({}).webhooks, resolve: { "hooks.example.com": ["93.184.216.34"] } };
  p = await makePlatform({ webhooks });
  const t = await p.tenant({ paid: true });
  keys = t.keys;
  for (const product of PRODUCTS) {
    const server = serveBun(p.apps[product], "127.0.0.1", 0);
    servers.push(server);
    urls[product] = `http://127.0.0.1:${server.port}`;
  }
});
afterAll(async () => {
  for (const server of servers) server.stop(true);
  await p.close();
});

async function register(product: WebhookProduct, eventTypes: string[]): Promise<unknown> {
  const res = await recordingFetch(`${urls[product]}/v1/webhooks`, {
    method: "POST",
    body: JSON.stringify({ url: "https://hooks.example.com/in", event_types: eventTypes }),
    ...bearer(keys[product]!, { "content-type": "application/json" }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { data: { event_types: unknown } }).data.event_types;
}

describe.each(PRODUCTS)("%s", (product) => {
  const others = PRODUCTS.filter((o) => o !== product).flatMap((o) => eventTypes(o));

  test("registration keeps exactly the product's catalogue and ping, and drops another product's events", async () => {
    const own = [...eventTypes(product), "ping"];
    expect(own).toEqual([...WEBHOOK_PRODUCTS[product].events]);
    expect(await register(product, [...others, ...own].reverse())).toEqual([...own].reverse());
    expect(await register(product, [others[0]!, own[0]!])).toEqual([own[0]]);
  });
});

/** The docs that describe each product's payloads. */
const DOCS: Record<EventProduct, string> = {
  ocean: "webhooks.md",
  schedules: "schedules.md",
  air: "air-cargo.md",
  loading: "loadplan.md",
  rates: "rates.md",
};

const readDoc = (file: string) => readFileSync(join(import.meta.dir, "../../docs", file), "utf8");

/** The catalogue table of docs/webhooks.md: by each row's tag, its event names in order. */
function documentedCatalogues(): Record<string, string[]> {
  const doc = readDoc("webhooks.md");
  const section = doc.slice(doc.indexOf("## Event catalogues"), doc.indexOf("## Delivery"));
  const rows = section.split("\n").filter((l) => l.startsWith("| ") && !l.startsWith("| Product"));
  return Object.fromEntries(
    rows.map((row) => {
      const [, tag, events] = row
        .split("|")
        .slice(1)
        .map((c) => c.trim());
      return [tag!.replaceAll("`", ""), events!.split(";")[0]!.match(/\b[a-z]+(?:_[a-z]+)+\b/g) ?? []];
    }),
  );
}

test("docs/webhooks.md lists each product's catalogue in catalogue order, by its tag", () => {
  const documented = documentedCatalogues();
  const tag = (p: WebhookProduct) => WEBHOOK_PRODUCTS[p].tag;
  expect(Object.keys(documented).sort()).toEqual(PRODUCTS.map(tag).sort());
  for (const product of PRODUCTS) expect(documented[tag(product)]).toEqual(eventTypes(product));
});

test("each product's docs name every field of its events' data", () => {
  const undocumented = PRODUCTS.flatMap((product) => {
    const text = readDoc(DOCS[product]);
    return Object.entries(PRODUCT_EVENTS[product]).flatMap(([type, schema]) =>
      Object.keys(schema.properties)
        .filter((field) => !new RegExp(`\\b${field}\\b`).test(text))
        .map((field) => `${product} ${type}.${field}`),
    );
  });
  expect(undocumented).toEqual([]);
});

describe("a payload its event's type does not describe", () => {
  const deleted = sampleDeletedPlan("p1");
  const check = (e: OutboxEvent) => Value.Check(PRODUCT_EVENTS.loading.plan_deleted, e.data);

  test("the right fields compile and pass the schema", () => {
    const ok: OutboxEvent = { orgId: "o", product: "loading", type: "plan_deleted", data: deleted };
    expect(check(ok)).toBe(true);
  });

  test("an extra field does not compile, and the schema refuses it", () => {
    const extra: OutboxEvent = {
      orgId: "o",
      product: "loading",
      type: "plan_deleted",
      data: {
        ...deleted,
        // @ts-expect-error: plan_deleted's data names no colour
        colour: "red",
      },
    };
    expect(check(extra)).toBe(false);
  });

  test("a missing field does not compile, and the schema refuses it", () => {
    const { deleted_at: _, ...rest } = deleted;
    // @ts-expect-error: plan_deleted's data needs deleted_at
    const missing: OutboxEvent = { orgId: "o", product: "loading", type: "plan_deleted", data: rest };
    expect(check(missing)).toBe(false);
  });

  test("another event's data, or another product's event, does not compile", () => {
    // @ts-expect-error: rate_added's data is a sheet, not a deleted plan
    const wrong: OutboxEvent = { orgId: "o", product: "rates", type: "rate_added", data: deleted };
    // @ts-expect-error: plan_deleted is a load-plan event, not a rates one
    const elsewhere: OutboxEvent = { orgId: "o", product: "rates", type: "plan_deleted", data: deleted };
    const sheet = sampleSheet("s1");
    const raised: ProductEvent<"rates"> = {
      type: "rate_expiring",
      data: {
        ...sheet,
        days_left: 3,
        expiring_days: 14,
        // @ts-expect-error: a field of another rates event (rate_changed)
        surcharges_changed: false,
      },
    };
    expect(Value.Check(PRODUCT_EVENTS.rates.rate_added, wrong.data)).toBe(false);
    expect(Value.Check(PRODUCT_EVENTS.rates.rate_added, elsewhere.data)).toBe(false);
    expect(Value.Check(PRODUCT_EVENTS.rates.rate_expiring, raised.data)).toBe(false);
  });
});
