/**
 * What Elysia prepares for each request of every route the products serve (the keyed no-op
 * GET /v1/account is the request layer's baseline). It compiles each route from what its hooks
 * and handler read (sucrose reads their source); a handler handing the whole context on makes it
 * parse the cookies on every request of that route, and none reads a cookie.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { PRODUCT_IDS } from "../../api/shared/products.ts";
import { makePlatform, type TestPlatform } from "../helpers/platform.ts";

let p: TestPlatform;
beforeAll(async () => {
  p = await makePlatform();
});
afterAll(() => p.close());

interface CompiledRoute {
  method: string;
  path: string;
  compile(): (context: unknown) => unknown;
}

describe.each(PRODUCT_IDS)("%s", (product) => {
  test("no route parses the request's cookies", () => {
    const routes = (p.apps[product] as unknown as { routes: CompiledRoute[] }).routes;
    expect(routes.filter((r) => r.path.startsWith("/v1/account")).length).toBe(4);
    const parsing = routes
      .filter((r) => String(r.compile()).includes("parseCookie("))
      .map((r) => `${r.method} ${r.path}`);
    expect(parsing).toEqual([]);
  });
});
