import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { PRODUCT_IDS, type ProductId } from "../../api/shared/products.ts";
import { errorCode, errorProblems, successProblems } from "../helpers/envelopes.ts";
import { bearer, makePlatform, type TestPlatform } from "../helpers/platform.ts";

let p: TestPlatform;
let keys: Record<ProductId, string>;

beforeAll(async () => {
  p = await makePlatform({ maxBodyBytes: 4096 });
  keys = (await p.tenant()).keys;
});
afterAll(() => p.close());

const UPPER: Record<string, string> = { ocean: "U", schedules: "U", loading: "U" };
const code = (product: ProductId, upper: string, lower: string) => (UPPER[product] ? upper : lower);

describe.each(PRODUCT_IDS)("%s envelopes", (product) => {
  test("success on the keyed no-op and on /healthz", async () => {
    for (const path of ["/v1/account", "/healthz"]) {
      const res = await p.call(product, path, bearer(keys[product]));
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toContain("application/json");
      expect(successProblems(product, (await res.json()) as Record<string, unknown>)).toEqual([]);
    }
  });

  test("401 for a missing, malformed, foreign-product or unknown key", async () => {
    const other = product === "rates" ? keys.loading : keys.rates;
    for (const init of [
      {},
      bearer("nonsense"),
      bearer(other),
      bearer(`${keys[product].slice(0, 3)}${"A".repeat(32)}`),
    ]) {
      const res = await p.call(product, "/v1/account", init);
      expect(res.status).toBe(401);
      const body = (await res.json()) as Record<string, unknown>;
      expect(errorProblems(product, body)).toEqual([]);
      expect(errorCode(body)).toBe(code(product, "UNAUTHORIZED", "missing_key"));
    }
  });

  test("404 for an unknown route, in the product envelope", async () => {
    const res = await p.call(product, "/v1/no-such-thing", bearer(keys[product]));
    expect(res.status).toBe(404);
    const body = (await res.json()) as Record<string, unknown>;
    expect(errorProblems(product, body)).toEqual([]);
    expect(errorCode(body)).toBe(code(product, "NOT_FOUND", "not_found"));
  });

  test("405 for a wrong method on a known path", async () => {
    const res = await p.call(product, "/v1/account", { method: "PUT", ...bearer(keys[product]) });
    expect(res.status).toBe(405);
    const body = (await res.json()) as Record<string, unknown>;
    expect(errorProblems(product, body)).toEqual([]);
    expect(errorCode(body)).toBe(code(product, "METHOD_NOT_ALLOWED", "method_not_allowed"));
  });

  if (product !== "rates") {
    test("400 for malformed JSON, a schema violation and an oversized body (declared or chunked)", async () => {
      const post = (body: BodyInit, headers: Record<string, string> = {}) =>
        p.call(product, "/v1/account/keys", {
          method: "POST",
          body,
          headers: {
            authorization: `Bearer ${keys[product]}`,
            "content-type": "application/json",
            ...headers,
          },
        });
      const big = "x".repeat(5000);
      const chunked = new ReadableStream({
        start(c) {
          c.enqueue(new TextEncoder().encode(`{"label":"${big}"}`));
          c.close();
        },
      });
      const cases: Array<[Response, RegExp]> = [
        [await post("{not json"), /not valid JSON/],
        [await post(JSON.stringify({ label: 7 })), /label/],
        [await post(JSON.stringify({ expires_in_days: 0 })), /expires_in_days/],
        [await post(JSON.stringify({ label: big })), /byte limit/],
        [await post(chunked), /byte limit/],
      ];
      for (const [res, message] of cases) {
        expect(res.status).toBe(400);
        const body = (await res.json()) as Record<string, unknown>;
        expect(errorProblems(product, body)).toEqual([]);
        expect(errorCode(body)).toBe(code(product, "VALIDATION_ERROR", "invalid_request"));
        expect(JSON.stringify(body)).toMatch(message);
      }
      // Nothing was created by the rejected bodies: the product's keys are still its one key.
      const list = (await (await p.call(product, "/v1/account/keys", bearer(keys[product]))).json()) as {
        data: { items: unknown[] };
      };
      expect(list.data.items.length).toBe(1);
    });
  }

  test("OpenAPI JSON and UI are served without a key", async () => {
    const json = await p.call(product, "/swagger/json");
    expect(json.status).toBe(200);
    const doc = (await json.json()) as { openapi: string; paths: Record<string, unknown> };
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toContain("/v1/account");
    const ui = await p.call(product, "/swagger");
    expect(ui.status).toBe(200);
    expect(ui.headers.get("content-type")).toContain("text/html");
  });
});

test("rates answers 405 method_not_allowed for any method but GET, before auth", async () => {
  for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
    const res = await p.call("rates", "/v1/anything", { method });
    expect(res.status).toBe(405);
    expect(await res.json()).toEqual({
      error: { code: "method_not_allowed", message: expect.any(String), request_id: expect.any(String) },
    });
  }
});

test("open routes of ok-family products answer {ok:false, message}", async () => {
  const res = await p.call("schedules", "/public/v1/nothing-here");
  expect(res.status).toBe(404);
  const body = (await res.json()) as Record<string, unknown>;
  expect(errorProblems("schedules", body, { open: true })).toEqual([]);
});

test("the compat surface uses the transport error envelope for a missing key", async () => {
  const res = await p.call("ocean", "/compat/vendor/tracking?number=MSCU1234565");
  expect(res.status).toBe(401);
  const body = (await res.json()) as Record<string, unknown>;
  expect(errorProblems("ocean", body, { compat: true })).toEqual([]);
  expect(body.message).toBe("API_KEY_WRONG"); // the vendor's code, so migrated clients classify it as auth
});

test("the air-cargo host accepts the ocean family key; schedules does not", async () => {
  expect((await p.call("air", "/v1/account", bearer(keys.ocean))).status).toBe(200);
  expect((await p.call("air", "/v1/account", bearer(keys.air))).status).toBe(200);
  expect((await p.call("schedules", "/v1/account", bearer(keys.ocean))).status).toBe(401);
});

test("x-api-key is accepted on schedules, load plans and rates only", async () => {
  for (const product of PRODUCT_IDS) {
    const res = await p.call(product, "/v1/account", { headers: { "x-api-key": keys[product] } });
    expect([product, res.status]).toEqual([
      product,
      ["schedules", "loading", "rates"].includes(product) ? 200 : 401,
    ]);
  }
});

test("path parameters are decoded once: a lone % is a 400, not a crash", async () => {
  for (const path of ["/public/v1/lookup/%25", "/v1/containers/lookup/%25"]) {
    const res = await p.call("ocean", path, path.startsWith("/public") ? {} : bearer(keys.ocean));
    expect([path, res.status]).toEqual([path, path.startsWith("/public") ? 400 : 404]);
  }
});
