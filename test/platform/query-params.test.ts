/**
 * Unknown query parameters (api/shared/plugins/query-params.ts): on every product a parameter the
 * route's operation does not list answers 400 in the product's envelope naming it and the one
 * likely meant; the parameters the document lists still pass; the vendor-compatible surface and
 * the pages for people ignore extras.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { PRODUCT_IDS, type ProductId } from "../../api/shared/products.ts";
import { bearer, makePlatform, type TestPlatform } from "../helpers/platform.ts";

let p: TestPlatform;
let keys: Record<ProductId, string>;
beforeAll(async () => {
  p = await makePlatform();
  keys = (await p.tenant({ paid: true })).keys;
});
afterAll(() => p.close());

const get = (product: ProductId, path: string) => p.call(product, path, bearer(keys[product]));

/** The error message of a refusal, whatever the product's envelope. */
async function refusal(res: Response): Promise<{ status: number; code: string; message: string }> {
  const body = (await res.json()) as { error: { code: string; message: string } };
  return { status: res.status, code: body.error.code, message: body.error.message };
}

describe("a parameter the route does not list is refused, naming it", () => {
  test("distance: speed for speed_knots", async () => {
    const { status, code, message } = await refusal(
      await get("distance", "/v1/distance/route?from=NLRTM&to=SGSIN&speed=20"),
    );
    expect([status, code]).toEqual([400, "invalid_request"]);
    expect(message).toStartWith(
      "Unknown query parameter `speed` (did you mean `speed_knots`?); this route takes from, to, mode, speed_knots,",
    );
  });

  test("ocean: a misspelt limit, in the upper-case envelope", async () => {
    const res = await get("ocean", "/v1/containers?status=in_transit&limt=10");
    const body = await res.json();
    expect([res.status, body.ok, body.error.code]).toEqual([400, false, "VALIDATION_ERROR"]);
    expect(body.error.message).toStartWith("Unknown query parameter `limt` (did you mean `limit`?); ");
  });

  test("air, rates and loading: each unknown name listed once", async () => {
    expect((await refusal(await get("air", "/v1/awbs?stauts=in_transit"))).message).toStartWith(
      "Unknown query parameter `stauts` (did you mean `status`?); ",
    );
    expect(
      (await refusal(await get("rates", "/v1/rates/search?origin=CNSHA&dest=NLRTM&x=1&x=2"))).message,
    ).toStartWith("Unknown query parameters `dest` (did you mean `destination`?), `x`; ");
    expect((await refusal(await get("loading", "/v1/load-plans?page=2"))).message).toStartWith(
      "Unknown query parameter `page`; ",
    );
    const long = "x".repeat(5000);
    expect((await refusal(await get("loading", `/v1/load-plans?${long}=1`))).message).toStartWith(
      `Unknown query parameter \`${"x".repeat(64)}…\`; `,
    );
  });

  test("schedules and the shared routes: a route with no parameters says it takes none", async () => {
    const res = await get("schedules", "/v1/account?_=1712345678");
    const body = await res.json();
    expect([res.status, body.error.code, body.error.message]).toEqual([
      400,
      "VALIDATION_ERROR",
      "Unknown query parameter `_`; this route takes none.",
    ]);
    expect((await get("schedules", "/v1/reliability?carrier=MAEU&window=30")).status).toBe(400);
  });
});

type Operation = { responses: Record<string, unknown>; "x-extra-query-parameters"?: string };

test("every operation that lists its parameters refuses another with 400, before its handler runs", async () => {
  const seen: string[] = [];
  for (const product of PRODUCT_IDS) {
    const doc = (await (await p.call(product, "/docs/json")).json()) as {
      paths: Record<string, Record<string, Operation>>;
    };
    for (const [template, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        if (op["x-extra-query-parameters"] === "ignored") continue;
        const path = template.replace(/\{[^}]+\}/g, crypto.randomUUID());
        const body = method === "get" || method === "delete" ? {} : { body: "{}" };
        const init = bearer(keys[product], { "content-type": "application/json" });
        const res = await p.call(product, `${path}?unlisted=1`, { method, ...init, ...body });
        const label = `${product} ${method.toUpperCase()} ${template}`;
        expect(res.status, label).toBe(400);
        // Open routes answer the message beside ok:false, the others inside error.
        const answer = (await res.json()) as { message?: string; error?: { message: string } };
        expect(answer.error?.message ?? answer.message, label).toStartWith(
          "Unknown query parameter `unlisted`; ",
        );
        seen.push(label);
      }
    }
  }
  // Each product's keyed deletes are among them: a refused delete deletes nothing.
  expect(seen).toContain("ocean DELETE /v1/webhooks/{id}");
  expect(seen.length).toBeGreaterThan(100);
});

describe("what the document lists passes", () => {
  test("README's queries and the listed parameters answer as before", async () => {
    expect((await get("ocean", "/v1/containers?status=in_transit&limit=10")).status).toBe(200);
    expect((await get("air", "/v1/awbs?status=in_transit")).status).toBe(200);
    expect((await get("distance", "/v1/distance/locations?q=rotter&limit=5&geocode=false")).status).toBe(200);
    expect((await get("loading", "/v1/load-plans?limit=5")).status).toBe(200);
    expect((await get("schedules", "/v1/reliability?carrier=MAEU&window_days=30")).status).toBe(200);
    const search = await get(
      "rates",
      "/v1/rates/search?origin=CNSHA&destination=NLRTM&mode=OCEAN_FCL&equipment=40HC&quantity=2",
    );
    expect(search.status).not.toBe(400);
  });

  test("the DCSA feed's parameters, documented beside its route, pass", async () => {
    const res = await get("ocean", "/v2/events?limit=5&eventType=EQUIPMENT&equipmentReference=MSCU1234565");
    expect(res.status).toBe(200);
    expect((await get("ocean", "/v2/events?event_type=EQUIPMENT")).status).toBe(400);
  });
});

describe("the lenient surfaces", () => {
  test("the vendor-compatible surface ignores parameters its clients add", async () => {
    const res = await p.call(
      "ocean",
      `/compat/vendor/tracking?api_key=${keys.ocean}&number=MSCU1234565&client=erp&_=1`,
    );
    const body = await res.json();
    expect(body.message).not.toContain("Unknown query parameter");
    expect(res.status).toBe(200);
  });

  test("their operations say so in the document", async () => {
    const doc = await (await p.call("ocean", "/docs/json")).json();
    expect(doc.paths["/compat/vendor/tracking"].get["x-extra-query-parameters"]).toBe("ignored");
    expect(doc.paths["/v1/containers"].get["x-extra-query-parameters"]).toBeUndefined();
  });
});
