/**
 * What a client that knocked on the wrong door is told: a key of another product names the prefix
 * the host expects, an Authorization header without the Bearer scheme says so, and a path another
 * host serves names that host. The product path table (api/shared/products.ts) agrees with every
 * host's OpenAPI document.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { PRODUCT_IDS, type ProductId, productServing } from "../../api/shared/products.ts";
import { bearer, makePlatform, type TestPlatform } from "../helpers/platform.ts";

let p: TestPlatform;
let keys: Record<ProductId, string>;
beforeAll(async () => {
  p = await makePlatform();
  keys = (await p.tenant()).keys;
});
afterAll(() => p.close());

const answer = async (product: ProductId, path: string, init?: RequestInit) => {
  const res = await p.call(product, path, init);
  return [res.status, await res.json()] as const;
};

test("a key of another product answers 401 naming the prefix this host expects", async () => {
  expect(await answer("distance", "/v1/account", bearer(keys.ocean))).toEqual([
    401,
    {
      error: {
        code: "missing_key",
        message:
          "API key of another product: the Distance and multimodal routing API expects a ds_ key, got oc_.",
        request_id: expect.any(String),
      },
    },
  ]);
  const [, air] = await answer("air", "/v1/account", bearer(keys.rates));
  expect(air).toEqual({
    error: {
      code: "missing_key",
      message: "API key of another product: the Air cargo API expects an ac_ or oc_ key, got rt_.",
      request_id: expect.any(String),
    },
  });
});

test("an Authorization header without the Bearer scheme says so", async () => {
  const [status, body] = await answer("ocean", "/v1/account", { headers: { authorization: keys.ocean } });
  expect(status).toBe(401);
  expect((body as { error: { message: string } }).error.message).toBe(
    'Missing API key: the Authorization header must read "Bearer <key>" (it has no Bearer scheme or no key).',
  );
});

test("a path of another host answers 404 naming the host that serves it", async () => {
  const [status, body] = await answer("ocean", "/v1/distance/route?from=NLRTM&to=SGSIN", bearer(keys.ocean));
  expect(status).toBe(404);
  expect((body as { error: { message: string } }).error.message).toBe(
    `No route GET /v1/distance/route on the Ocean tracking host: the Distance and multimodal routing host serves it (${p.config.publicUrls.distance}).`,
  );
  const [, none] = await answer("ocean", "/v1/nothing", bearer(keys.ocean));
  expect((none as { error: { message: string } }).error.message).toBe("No route GET /v1/nothing.");
});

test("every documented route of a product is in its own path table, and in no other's", async () => {
  const shared = /^\/(healthz|v1\/account|v1\/webhooks)(\/|$)/;
  for (const id of PRODUCT_IDS) {
    const doc = (await (await p.call(id, "/docs/json")).json()) as { paths: Record<string, unknown> };
    for (const path of Object.keys(doc.paths).filter((x) => !shared.test(x))) {
      expect(productServing(path)?.id, `${id} ${path}`).toBe(id);
    }
  }
});
