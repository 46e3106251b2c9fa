/**
 * The plugins composed as every product app: the order of the checks before routing, and hooks
 * that make Elysia prepare nothing they do not read.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { PRODUCT_IDS, type ProductId } from "../../../api/shared/products.ts";
import { errorProblems } from "../../helpers/envelopes.ts";
import { bearer, makePlatform, type TestPlatform } from "../../helpers/platform.ts";

let p: TestPlatform;
let keys: Record<ProductId, string>;
beforeAll(async () => {
  p = await makePlatform({ maxBodyBytes: 1024 });
  ({ keys } = await p.tenant());
});
afterAll(() => p.close());

// Elysia (sucrose) reads each hook's source: a hook that reads the headers object, the cookies or
// the query, or hands its whole context to a function, makes it build all of them on every request
// of every route. The pre-routing hooks read the path, `set` and (for the client's IP) `server`;
// the access log reads the route's template, a constant of each route.
test.each(PRODUCT_IDS)("%s: its hooks make Elysia prepare only the path, route, set and server", (id) => {
  expect((p.apps[id] as unknown as { inference: Record<string, boolean> }).inference).toEqual({
    body: false,
    cookie: false,
    headers: false,
    query: false,
    set: true,
    server: true,
    url: false,
    route: true,
    path: true,
  });
});

test.each([
  [
    "a Host the path cannot be read under, before the method rule",
    "rates",
    "https://localhost/v1/x",
    "POST",
    {},
    400,
  ],
  [
    "a method the path refuses, before the body cap and the key",
    "rates",
    "/v1/rates/search",
    "POST",
    { "content-length": "4096" },
    405,
  ],
  [
    "a declared body over the cap, before the key",
    "ocean",
    "/v1/containers",
    "POST",
    { "content-length": "4096" },
    400,
  ],
  ["no key, before routing", "ocean", "/v1/nowhere", "GET", {}, 401],
  ["a key: the route decides", "ocean", "/v1/nowhere", "GET", { authorization: "key" }, 404],
] as const)("%s", async (_, id, target, method, headers, status) => {
  const url = target.startsWith("/") ? `http://localhost${target}` : target;
  const auth = "authorization" in headers ? bearer(keys[id]).headers : {};
  const res = await p.apps[id].handle(new Request(url, { method, headers: { ...headers, ...auth } }));
  expect([res.status, errorProblems(id, await res.json())]).toEqual([status, []]);
});
