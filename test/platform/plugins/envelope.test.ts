/** The envelope plugin alone: what a handler answers, in its product's success body. */
import { describe, expect, test } from "bun:test";
import { Elysia } from "elysia";
import { RenderedJson } from "../../../api/shared/envelopes.ts";
import { envelope } from "../../../api/shared/plugins/envelope.ts";
import { API_VERSION, type ProductId, product } from "../../../api/shared/products.ts";

const appFor = (id: ProductId) =>
  new Elysia()
    .use(envelope(product(id)))
    .get("/data", ({ set }) => {
      set.headers["x-ratelimit-remaining"] = "7";
      return { a: 1 };
    })
    .post("/created", ({ set }) => {
      set.status = 201;
      return { id: "x" };
    })
    .get("/rendered", () => new RenderedJson('{"cached":true}'))
    .get(
      "/pieces",
      () => new RenderedJson([new TextEncoder().encode('{"in":'), new TextEncoder().encode("2}")]),
    )
    .get("/own", () => new Response("<svg/>", { headers: { "content-type": "image/svg+xml" } }));
const call = (id: ProductId, path: string, init?: RequestInit) =>
  appFor(id).handle(new Request(`http://localhost${path}`, init));

describe("envelope", () => {
  test.each([
    ["ocean", { api_version: API_VERSION, ok: true, data: { a: 1 } }],
    ["schedules", { ok: true, data: { a: 1 } }],
    ["air", { data: { a: 1 } }],
  ] as const)("%s", async (id, body) => {
    const res = await call(id, "/data");
    expect([res.status, res.headers.get("content-type"), await res.json()]).toEqual([
      200,
      "application/json; charset=utf-8",
      body,
    ]);
    // Headers a hook set (the rate window's) go out with the body.
    expect(res.headers.get("x-ratelimit-remaining")).toBe("7");
  });

  test("distance says how long the request took", async () => {
    const body = await (await call("distance", "/data")).json();
    expect(body.data).toEqual({ a: 1 });
    expect(body.meta.took_ms).toBeGreaterThanOrEqual(0);
  });

  test("a status the handler set stays", async () => {
    const res = await call("loading", "/created", { method: "POST" });
    expect([res.status, await res.json()]).toEqual([201, { ok: true, data: { id: "x" } }]);
  });

  test("data already written as JSON goes in as it is, as text or UTF-8 pieces", async () => {
    expect(await (await call("rates", "/rendered")).json()).toEqual({ data: { cached: true } });
    expect(await (await call("ocean", "/pieces")).json()).toEqual({
      api_version: API_VERSION,
      ok: true,
      data: { in: 2 },
    });
  });

  test("a handler's own Response goes out untouched", async () => {
    const res = await call("loading", "/own");
    expect([res.headers.get("content-type"), await res.text()]).toEqual(["image/svg+xml", "<svg/>"]);
  });
});
