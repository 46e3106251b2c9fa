/**
 * Webhook address policy edge cases, through the HTTP registration and PATCH routes of
 * all five webhook products. Each target below was accepted before the fix (100::/64 check that
 * could never match, IPv4-translated loopback, Teredo embedding a private IPv4, ...).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { loadConfig } from "../../api/config.ts";
import { WEBHOOK_PRODUCTS, type WebhookProduct } from "../../api/webhooks/catalogue.ts";
import { errorCode } from "../helpers/envelopes.ts";
import { bearer, makePlatform, type TestPlatform } from "../helpers/platform.ts";

type Obj = Record<string, unknown>;

const PRODUCTS = Object.keys(WEBHOOK_PRODUCTS) as WebhookProduct[];
const UPPER = (p: WebhookProduct) => p === "ocean" || p === "schedules" || p === "loading";

const REFUSED = [
  "https://[100::1]/", // discard-only 100::/64
  "https://[::ffff:0:7f00:1]/", // IPv4-translated 127.0.0.1
  "https://[::ffff:0:a9fe:a9fe]/latest/meta-data/", // IPv4-translated 169.254.169.254
  "https://[2001:0:4136:e378:8000:63bf:f5ff:fffe]/", // Teredo, client 10.0.0.1
  "https://[2001:0:7f00:1:8000:63bf:f7f7:f7f7]/", // Teredo, server 127.0.0.1
  "https://[64:ff9b:1::808:808]/", // local-use NAT64
  "https://[::8.8.8.8]/", // IPv4-compatible (deprecated form)
  "https://[5f00::1]/", // SRv6 SID space, outside 2000::/3
  "https://[3fff::1]/", // documentation 3fff::/20
  "https://[2001:2::1]/", // benchmarking
  "https://teredo.example.com/", // a name whose answer is a Teredo address
];

let p: TestPlatform;
let tenant: Awaited<ReturnType<TestPlatform["tenant"]>>;

beforeAll(async () => {
  const webhooks = {
    ...loadConfig({}).webhooks,
    resolve: {
      "hooks.example.com": ["93.184.216.34"],
      "teredo.example.com": ["2001:0:4136:e378:8000:63bf:f5ff:fffe"],
    },
  };
  p = await makePlatform({ webhooks, rateWindowMs: 60_000 });
  tenant = await p.tenant({ paid: true });
  await p.accounts.setPlan(tenant.orgId, { rateLimit: 100_000 });
});
afterAll(() => p.close());

async function call(product: WebhookProduct, method: string, path: string, body: unknown) {
  const res = await p.call(product, path, {
    method,
    body: JSON.stringify(body),
    ...bearer(tenant.keys[product], { "content-type": "application/json" }),
  });
  return { status: res.status, body: (await res.json()) as Obj & { data: Obj } };
}

describe.each(PRODUCTS)("%s", (product) => {
  const invalidUrl = UPPER(product) ? "INVALID_URL" : "invalid_url";

  test.each(REFUSED)("registering %s answers 400 INVALID_URL", async (url) => {
    const res = await call(product, "POST", "/v1/webhooks", { url });
    expect(res.status).toBe(400);
    expect(errorCode(res.body)).toBe(invalidUrl);
    expect(String((res.body.error as Obj).message)).toContain("refused");
  });

  test("a PATCH to any of them is refused and the endpoint keeps its url", async () => {
    const created = await call(product, "POST", "/v1/webhooks", { url: "https://hooks.example.com/in" });
    expect(created.status).toBe(201);
    const path = `/v1/webhooks/${created.body.data.id}`;
    for (const url of REFUSED) {
      const res = await call(product, "PATCH", path, { url });
      expect({ url, status: res.status, code: errorCode(res.body) }).toEqual({
        url,
        status: 400,
        code: invalidUrl,
      });
    }
    const detail = await p.call(product, path, bearer(tenant.keys[product]));
    expect(((await detail.json()) as { data: Obj }).data.url).toBe("https://hooks.example.com/in");
  });

  test("public IPv6 forms stay allowed (NAT64 and IPv4-translated of a public IPv4, global unicast)", async () => {
    for (const url of [
      "https://[64:ff9b::808:808]/",
      "https://[::ffff:0:808:808]/",
      "https://[2001:200::1]/",
    ]) {
      const res = await call(product, "POST", "/v1/webhooks", { url });
      expect({ url, status: res.status }).toEqual({ url, status: 201 });
    }
  });
});
