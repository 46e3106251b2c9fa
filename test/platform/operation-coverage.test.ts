/**
 * Operations no other test saw answer a success or a client error (scripts/openapi-coverage.ts
 * names them): each answered here through the platform helpers, so the answer check holds its
 * status, body and headers to the document. Key management and /healthz on every host; the ocean
 * host's terms, portfolio and compat aliases; the open schedule reads; the pages for people.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { PRODUCT_IDS, type ProductId } from "../../api/shared/products.ts";
import { makePlatform, type TestPlatform } from "../helpers/platform.ts";

let p: TestPlatform;
let keys: Record<ProductId, string>;
beforeAll(async () => {
  p = await makePlatform();
  keys = (await p.tenant({ paid: true })).keys;
});
afterAll(() => p.close());

const json = (method: string, key: string, body?: unknown) => ({
  method,
  headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
  ...(body === undefined ? {} : { body: JSON.stringify(body) }),
});

describe.each(PRODUCT_IDS)("%s", (product) => {
  test("/healthz answers 200, and 400 to a parameter it does not take", async () => {
    expect((await p.call(product, "/healthz")).status).toBe(200);
    expect((await p.call(product, "/healthz?verbose=1")).status).toBe(400);
  });

  test("the key list refuses a missing key (401)", async () => {
    expect((await p.call(product, "/v1/account/keys")).status).toBe(401);
  });
});

// Every rates route but the webhooks is GET only (docs/rates.md): its keys are issued elsewhere.
describe.each(PRODUCT_IDS.filter((id) => id !== "rates"))("%s", (product) => {
  test("a key is issued (201) and revoked (200); an unknown id answers 404", async () => {
    const issued = await p.call(product, "/v1/account/keys", json("POST", keys[product], { label: "ci" }));
    expect(issued.status).toBe(201);
    const { data } = (await issued.json()) as { data: { id: string } };
    expect((await p.call(product, `/v1/account/keys/${data.id}`, json("DELETE", keys[product]))).status).toBe(
      200,
    );
    const unknown = await p.call(
      product,
      `/v1/account/keys/${crypto.randomUUID()}`,
      json("DELETE", keys[product]),
    );
    expect(unknown.status).toBe(404);
  });
});

describe("ocean", () => {
  test("free-time terms are removed (200); the terms and the portfolio refuse a missing key (401)", async () => {
    const added = await p.call("ocean", "/v1/demurrage/terms", json("POST", keys.ocean, { free_days: 4 }));
    expect(added.status).toBe(201);
    const { data } = (await added.json()) as { data: { id: string } };
    expect((await p.call("ocean", `/v1/demurrage/terms/${data.id}`, json("DELETE", keys.ocean))).status).toBe(
      200,
    );
    expect((await p.call("ocean", "/v1/demurrage/terms")).status).toBe(401);
    expect((await p.call("ocean", "/v1/portfolio/summary")).status).toBe(401);
  });

  test("a webhook removal refuses a missing key (401); a connector notice for an unknown id answers 404", async () => {
    const id = crypto.randomUUID();
    expect((await p.call("ocean", `/v1/webhooks/${id}`, { method: "DELETE" })).status).toBe(401);
    const notice = await p.call(
      "ocean",
      `/v1/containers/${id}/notify-connector`,
      json("POST", keys.ocean, {}),
    );
    expect(notice.status).toBe(404);
  });

  test.each(["container", "reference"])(
    "the compat alias /compat/vendor/%s answers 200, and 401 without a key",
    async (alias) => {
      const path = `/compat/vendor/${alias}`;
      expect((await p.call("ocean", `${path}?api_key=${keys.ocean}&number=MSCU1234565`)).status).toBe(200);
      expect((await p.call("ocean", `${path}?number=MSCU1234565`)).status).toBe(401);
    },
  );
});

describe("pages for people", () => {
  test.each([
    ["ocean", "/track"],
    ["distance", "/map"],
  ] as const)("%s %s answers 200, and 400 to a target with a NUL", async (product, path) => {
    expect((await p.call(product, path)).status).toBe(200);
    expect((await p.call(product, `${path}?q=%00`)).status).toBe(400);
  });
});

test("schedules: the open port and vessel reads answer 200", async () => {
  expect((await p.call("schedules", "/public/v1/ports/NLRTM/calls")).status).toBe(200);
  expect((await p.call("schedules", "/public/v1/vessels/9811000/schedule")).status).toBe(200);
});

test("air: a quote without its fields answers 400", async () => {
  const res = await p.call("air", "/v1/rates/quote", json("POST", keys.air, { origin: "FRA" }));
  expect(res.status).toBe(400);
});
