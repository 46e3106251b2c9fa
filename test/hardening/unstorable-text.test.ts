/**
 * NUL characters and unpaired surrogates are refused at the edge, with 400 in the product's
 * envelope, alike on SQLite and (in the PostgreSQL pass) PostgreSQL, which stores neither: in query
 * filters, in cursors, and in any string of a body. Nothing is written, and a record can no longer
 * be stored with such a tag and poison its organisation's tag-filtered lists.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { ProductId } from "../../api/shared/products.ts";
import { compatProblems, errorProblems } from "../helpers/envelopes.ts";
import { bearer, makePlatform, type TestPlatform } from "../helpers/platform.ts";

let p: TestPlatform;
let keys: Record<ProductId, string>;

beforeAll(async () => {
  p = await makePlatform({ sandbox: false });
  const tenant = await p.tenant({ paid: true });
  await p.accounts.setPlan(tenant.orgId, { rateLimit: 1_000_000 });
  keys = tenant.keys;
});
afterAll(() => p.close());

const cursor = (fields: Record<string, string>) => Buffer.from(JSON.stringify(fields)).toString("base64url");

async function call(product: ProductId, method: string, path: string, body?: unknown) {
  const res = await p.call(product, path, {
    method,
    body: body === undefined ? undefined : JSON.stringify(body),
    ...bearer(keys[product], { "content-type": "application/json" }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const QUERIES: Array<[ProductId, string]> = [
  ["ocean", "/v1/containers?tags=%00"],
  ["ocean", "/v1/containers?tags=a%00b&status=in_transit"],
  ["ocean", "/v2/events?equipmentReference=%00"],
  ["ocean", "/v2/events?transportDocumentReference=%00"],
  ["ocean", "/v2/events?carrierBookingReference=%00"],
  ["ocean", "/v2/events?eventType=%00"],
  ["ocean", `/v1/containers?cursor=${cursor({ u: "\u0000", i: "x" })}`],
  ["ocean", `/v2/events?cursor=${cursor({ c: "2026-01-01", i: "\u0000" })}`],
  ["rates", "/v1/rates/sheets?carrier=%00"],
  ["air", "/v1/awbs?status=%00"],
  ["distance", "/v1/distance/locations?q=%00"],
  ["schedules", "/v1/follows?cursor=%00"],
];

test.each(QUERIES)("%s GET %s answers 400 in the product's envelope", async (product, path) => {
  const { status, body } = await call(product, "GET", path);
  expect(status).toBe(400);
  expect(errorProblems(product, body)).toEqual([]);
});

test("the compat surface refuses a NUL in its own envelope", async () => {
  const res = await p.call("ocean", `/compat/vendor/tracking?api_key=${keys.ocean}&number=%00`);
  expect(res.status).toBeLessThan(500);
  const body = (await res.json()) as Record<string, unknown>;
  expect(compatProblems(body)).toEqual([]);
  expect(body.status).toBe("error");
});

const BODIES: Array<[ProductId, string, string, Record<string, unknown>]> = [
  ["ocean", "POST", "/v1/webhooks", { url: "https://hooks.example.com/\u0000" }],
  ["ocean", "POST", "/v1/webhooks", { url: "https://hooks.example.com/in", description: "a\u0000b" }],
  ["loading", "POST", "/v1/webhooks", { url: "https://hooks.example.com/in", description: "\ud800" }],
  ["ocean", "POST", "/v1/account/keys", { label: "\u0000" }],
  ["distance", "POST", "/v1/account/keys", { label: "key \udc00" }],
  ["ocean", "POST", "/v1/demurrage/terms", { carrier_code: "\u0000", free_days: 3 }],
  [
    "ocean",
    "POST",
    "/v1/containers",
    { identifier: "MAEU\u0000200000005", identifier_type: "bill_of_lading" },
  ],
  [
    "ocean",
    "POST",
    "/v1/containers",
    { identifier: "MSCU2375717", identifier_type: "container_id", tags: ["\u0000"] },
  ],
  ["ocean", "POST", "/v1/containers", { identifier: "MSCU2375717", tags: ["ok", "\ud83d"] }],
  ["schedules", "POST", "/v1/follows", { sailing_id: "\u0000" }],
  ["air", "POST", "/v1/awbs", { awb: "160-1815\u00006574" }],
  ["loading", "POST", "/v1/load-plans", { reference: { "\u0000": 1 } }],
];

/** What the tenant holds that those bodies would write to, read back through the API. */
async function holdings(): Promise<string> {
  const lists: Array<[ProductId, string]> = [
    ["ocean", "/v1/webhooks"],
    ["loading", "/v1/webhooks"],
    ["ocean", "/v1/account/keys"],
    ["ocean", "/v1/demurrage/terms"],
    ["ocean", "/v1/containers"],
    ["schedules", "/v1/follows"],
    ["air", "/v1/awbs"],
    ["loading", "/v1/load-plans"],
  ];
  const answers = await Promise.all(lists.map(([product, path]) => call(product, "GET", path)));
  return JSON.stringify(answers.map((a) => [a.status, (a.body as { data?: unknown }).data]));
}

test.each(BODIES)(
  "%s %s %s %j answers 400 naming the field and writes nothing",
  async (product, method, path, body) => {
    const before = await holdings();
    const answer = await call(product, method, path, body);
    expect(answer.status).toBe(400);
    expect(errorProblems(product, answer.body)).toEqual([]);
    expect(JSON.stringify(answer.body)).toMatch(/NUL|surrogate/);
    expect(await holdings()).toBe(before);
  },
);

test("a tag-filtered list answers after a NUL tag was refused", async () => {
  const refused = await call("ocean", "POST", "/v1/containers", {
    identifier: "MSCU2375717",
    identifier_type: "container_id",
    tags: ["\u0000"],
  });
  expect(refused.status).toBe(400);
  const listed = await call("ocean", "GET", "/v1/containers?tags=priority");
  expect(listed.status).toBe(200);
});
