/**
 * The access plugin alone, over real accounts: each path's access, the key check before routing,
 * and the caller on the request context (`principal`, `{ keyed: true }`) and by request.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Elysia } from "elysia";
import {
  type Access,
  access,
  accessRules,
  caller,
  principalOf,
  requireEntitlement,
} from "../../../api/shared/plugins/access.ts";
import { ROUTER_HANDLER } from "../../../api/shared/plugins/request-target.ts";
import { type ProductId, product } from "../../../api/shared/products.ts";
import { makePlatform, type TestPlatform } from "../../helpers/platform.ts";

let p: TestPlatform;
let keys: Record<ProductId, string>;
let orgId: string;
beforeAll(async () => {
  p = await makePlatform();
  ({ keys, orgId } = await p.tenant());
});
afterAll(() => p.close());

describe("accessRules", () => {
  const open = (path: string): Access | undefined =>
    path.startsWith("/public/") ? { auth: "none", limited: true, errors: "open" } : undefined;
  test.each([
    ["ocean", "/healthz", { auth: "none", limited: false, errors: "open" }],
    ["ocean", "/swagger", { auth: "none", limited: true, errors: "open" }],
    ["rates", "/swagger/json", { auth: "none", limited: true, errors: "data" }],
    ["schedules", "/public/v1/ping", { auth: "none", limited: true, errors: "open" }],
    ["schedules", "/v1/point-to-point", { auth: "bearer", errors: "ok" }],
    ["distance", "/v1/distance/route", { auth: "bearer", errors: "data" }],
  ] as const)("%s %s", (id, path, expected) => {
    expect(accessRules(product(id), open)(path)).toEqual(expected);
  });
});

describe("access", () => {
  const appFor = (id: ProductId) => {
    const def = product(id);
    const rules = accessRules(def, (path) =>
      path.startsWith("/compat/") ? { auth: "query", errors: "compat" } : undefined,
    );
    return new Elysia({ handler: ROUTER_HANDLER })
      .use(access(def, p, rules))
      .get("/healthz", ({ principal }) => `open to ${principal?.org.id ?? "anyone"}`)
      .get(
        "/v1/who",
        ({ principal, request }) => `${principal.org.id} ${principalOf(request) === principal}`,
        {
          keyed: true,
        },
      )
      .get("/compat/who", ({ principal }) => principal?.org.id ?? "nobody");
  };
  const call = async (id: ProductId, path: string, headers: Record<string, string> = {}) => {
    const res = await appFor(id).handle(new Request(`http://localhost${path}`, { headers }));
    return [res.status, await res.text()];
  };
  const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

  test("a product's key puts its organisation on the context, the same principal as by request", async () => {
    expect(await call("ocean", "/v1/who", bearer(keys.ocean))).toEqual([200, `${orgId} true`]);
    expect(await call("schedules", "/v1/who", { "x-api-key": keys.schedules })).toEqual([
      200,
      `${orgId} true`,
    ]);
    expect(await call("air", "/v1/who", bearer(keys.ocean))).toEqual([200, `${orgId} true`]);
    expect(await call("ocean", `/compat/who?api_key=${keys.ocean}`)).toEqual([200, orgId]);
  });

  test("open paths need no key and carry no caller", async () => {
    expect(await call("ocean", "/healthz")).toEqual([200, "open to anyone"]);
  });

  test.each([
    ["ocean", "/v1/who", {}, "Missing API key: send it in Authorization: Bearer <key>."],
    ["ocean", "/compat/who", {}, "Missing API key: send it in the api_key query parameter."],
    ["ocean", "/v1/who", { authorization: "Basic abc" }, "Missing API key"],
    ["ocean", "/v1/who", { authorization: "Bearer oc_nope" }, "malformed, unknown, revoked or expired"],
    ["ocean", "/v1/who", { "x-api-key": "k" }, "Missing API key"],
    ["schedules", "/v1/who", { authorization: "Bearer oc_x" }, "for the Sailing schedules API"],
    ["ocean", "/nowhere", {}, "Missing API key"],
  ] as const)("%s %s %p: 401 before routing", async (id, path, headers, message) => {
    const [status, text] = await call(id, path, headers);
    expect(status).toBe(401);
    expect(text).toContain(message);
  });

  test("another product's key is refused, however valid, naming the prefix this host expects", async () => {
    const [status, text] = await call("schedules", "/v1/who", bearer(keys.rates));
    expect([status, text]).toEqual([
      401,
      "API key of another product: the Sailing schedules API expects a ss_ key, got rt_.",
    ]);
  });
});

describe("caller", () => {
  test("a keyed route the access plugin left without a caller answers 401, not a crash", async () => {
    const app = new Elysia().use(caller).get("/v1/who", ({ principal }) => principal.org.id, { keyed: true });
    const res = await app.handle(new Request("http://localhost/v1/who"));
    expect([res.status, await res.text()]).toEqual([401, "This route needs an API key."]);
  });
});

test("requireEntitlement reads the caller from the context or the request alike", async () => {
  const { org } = await p.accounts.authenticate(keys.ocean).then((x) => x!);
  const principal = { org, keyId: "k", keyProduct: "ocean" as const };
  await requireEntitlement(p, principal, "ocean");
  await p.accounts.setEntitlement(orgId, "loading", new Date(p.now() - 1000).toISOString());
  await expect(requireEntitlement(p, principal, "loading")).rejects.toThrow(
    "entitlement of this account has expired",
  );
  const request = new Request("http://localhost/v1/x");
  await expect(requireEntitlement(p, request, "ocean")).rejects.toThrow("This route needs an API key.");
});
