/** The account routes behind the access plugin, over real accounts: the keyed no-op and the product's keys. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Elysia } from "elysia";
import { access, accessRules } from "../../../api/shared/plugins/access.ts";
import { accountRoutes } from "../../../api/shared/plugins/account-routes.ts";
import { ROUTER_HANDLER } from "../../../api/shared/plugins/request-target.ts";
import { type ProductId, product } from "../../../api/shared/products.ts";
import { makePlatform, type TestPlatform } from "../../helpers/platform.ts";

let p: TestPlatform;
let keys: Record<ProductId, string>;
let orgId: string;
beforeAll(async () => {
  p = await makePlatform();
  ({ keys, orgId } = await p.tenant({ paid: true, name: "Acme" }));
});
afterAll(() => p.close());

const call = async (id: ProductId, key: string, method: string, path: string, body?: unknown) => {
  const def = product(id);
  const app = new Elysia({ handler: ROUTER_HANDLER })
    .use(access(def, p, accessRules(def)))
    .use(accountRoutes(def, p));
  const res = await app.handle(
    new Request(`http://localhost${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
  return { status: res.status, body: await res.json().catch(() => null) };
};

test("GET /v1/account: the caller's organisation, plan, entitlement and window", async () => {
  expect(await call("air", keys.ocean, "GET", "/v1/account")).toEqual({
    status: 200,
    body: {
      org_id: orgId,
      org_name: "Acme",
      plan: "pro",
      paid: true,
      key_product: "ocean",
      entitlement: "active",
      rate_limit: { limit: 120, window_seconds: 20 },
    },
  });
});

test("a product's key issues, lists and revokes that product's keys; the key shows once", async () => {
  const made = await call("rates", keys.rates, "POST", "/v1/account/keys", {
    label: "ci",
    expires_in_days: 2,
  });
  expect(made.status).toBe(201);
  expect(made.body.key).toStartWith("rt_");
  const listed = await call("rates", keys.rates, "GET", "/v1/account/keys");
  const mine = listed.body.items.find((k: { id: string }) => k.id === made.body.id);
  expect(mine).toEqual({ ...made.body, key: undefined });
  expect(JSON.stringify(listed.body)).not.toContain(made.body.key);
  expect(await call("rates", keys.rates, "DELETE", `/v1/account/keys/${made.body.id}`)).toEqual({
    status: 200,
    body: { id: made.body.id, revoked: true },
  });
  expect((await call("rates", keys.rates, "DELETE", `/v1/account/keys/${made.body.id}x`)).status).toBe(404);
});

test("the family key another product accepts manages none of that product's keys", async () => {
  const refused = await call("air", keys.ocean, "GET", "/v1/account/keys");
  expect(refused.status).toBe(403);
});
