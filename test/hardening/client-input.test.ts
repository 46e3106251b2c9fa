/**
 * Client input that must not answer 500 (cursor shapes, a thousand tags, broken
 * percent-encoding in path parameters) or was accepted when it should not have been (non-object key
 * bodies), and page links that must not echo the client's Host.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { encodeCursor } from "../../api/shared/cursor.ts";
import { PRODUCT_IDS, type ProductId } from "../../api/shared/products.ts";
import { errorCode, errorProblems } from "../helpers/envelopes.ts";
import { bearer, makePlatform, type TestPlatform } from "../helpers/platform.ts";

let p: TestPlatform;
let orgId: string;
let keys: Record<ProductId, string>;
beforeAll(async () => {
  p = await makePlatform();
  ({ orgId, keys } = await p.tenant());
});
afterAll(() => p.close());

const b64 = (s: string) => Buffer.from(s).toString("base64url");
const WRONG_SHAPES = ["{}", "null", "[]", "1", '"x"', '{"c":1,"i":"a"}', '{"u":"a"}', "true"].map(b64);

describe("cursors of the wrong shape are refused, not a 500", () => {
  test.each(WRONG_SHAPES)("/v2/events cursor %s", async (cursor) => {
    const res = await p.call("ocean", `/v2/events?cursor=${cursor}`, bearer(keys.ocean));
    expect(res.status).toBe(400);
    expect(errorCode(await res.json())).toBe("VALIDATION_ERROR");
  });
  test.each(WRONG_SHAPES)("/v1/containers cursor %s", async (cursor) => {
    const res = await p.call("ocean", `/v1/containers?cursor=${cursor}`, bearer(keys.ocean));
    expect(res.status).toBe(400);
    expect(errorCode(await res.json())).toBe("VALIDATION_ERROR");
  });
  test("a well-formed cursor still pages", async () => {
    const c = encodeCursor({ u: "2026-01-01T00:00:00Z", i: "x" });
    const res = await p.call("ocean", `/v1/containers?cursor=${c}`, bearer(keys.ocean));
    expect(res.status).toBe(200);
  });
});

test("a tags filter longer than a record can carry is a validation error; 20 tags still list", async () => {
  const many = Array.from({ length: 1000 }, (_, i) => `t${i}`).join(",");
  const res = await p.call("ocean", `/v1/containers?tags=${many}`, bearer(keys.ocean));
  expect(res.status).toBe(400);
  const body = await res.json();
  expect(errorCode(body)).toBe("VALIDATION_ERROR");
  expect(body.error.message).toContain("20");
  const twenty = Array.from({ length: 20 }, (_, i) => `t${i}`).join(",");
  const ok = await p.call("ocean", `/v1/containers?tags=${twenty}`, bearer(keys.ocean));
  expect(ok.status).toBe(200);
});

// A NUL decodes, but no id holds one and PostgreSQL refuses it in any text (a 500 there, once).
const BROKEN = [
  "%FF",
  "%ZZ",
  "%",
  "%C0%AF",
  "%ED%A0%80",
  "A%2",
  "%E2%82",
  "MSCU%G0",
  "%00",
  "MSCU%001234567",
];

describe("malformed percent-encoding in a path answers 400 in the product's envelope", () => {
  test.each(BROKEN)("ocean lookups %s", async (x) => {
    const keyed = await p.call("ocean", `/v1/containers/lookup/${x}`, bearer(keys.ocean));
    expect(keyed.status).toBe(400);
    expect(errorProblems("ocean", await keyed.json())).toEqual([]);
    const open = await p.call("ocean", `/public/v1/lookup/${x}`);
    expect(open.status).toBe(400);
    expect(errorProblems("ocean", await open.json(), { open: true })).toEqual([]);
  });
  test.each(PRODUCT_IDS)("%s: a broken parameter on a keyed route", async (id) => {
    for (const x of BROKEN) {
      const res = await p.call(id, `/v1/webhooks/${x}`, bearer(keys[id]));
      expect(res.status, x).toBe(400);
      expect(errorProblems(id, await res.json()), x).toEqual([]);
    }
  });
  test("well-formed encodings still reach the handler", async () => {
    const res = await p.call("ocean", "/public/v1/lookup/MSCU%201234567", {});
    expect(JSON.stringify(await res.json())).toContain("MSCU1234567");
  });
});

describe("POST /v1/account/keys takes an object body only", () => {
  test.each(["null", "[]", "123", '"str"', "true"])("%s is refused and creates no key", async (body) => {
    const before = (await p.accounts.listKeys(orgId)).length;
    const res = await p.call("ocean", "/v1/account/keys", {
      method: "POST",
      body,
      headers: { authorization: `Bearer ${keys.ocean}`, "content-type": "application/json" },
    });
    expect(res.status).toBe(400);
    expect(errorCode(await res.json())).toBe("VALIDATION_ERROR");
    expect((await p.accounts.listKeys(orgId)).length).toBe(before);
  });
  test("an object or no body still issues a key", async () => {
    for (const body of ["{}", undefined]) {
      const res = await p.call("ocean", "/v1/account/keys", { method: "POST", body, ...bearer(keys.ocean) });
      expect(res.status).toBe(201);
    }
  });
  test("rates answers GET only (spec), key management there included", async () => {
    const res = await p.call("rates", "/v1/account/keys", {
      method: "POST",
      body: "{}",
      ...bearer(keys.rates),
    });
    expect(res.status).toBe(405);
    expect(errorCode(await res.json())).toBe("method_not_allowed");
    const list = await p.call("rates", "/v1/account/keys", bearer(keys.rates));
    expect(list.status).toBe(200);
  });
});

test("/v2/events page links use the configured public URL, not the request's Host", async () => {
  const res = await p.apps.ocean.handle(
    new Request("http://evil.example:1/v2/events?limit=5", bearer(keys.ocean)),
  );
  expect(res.status).toBe(200);
  const current = res.headers.get("current-page")!;
  expect(current.startsWith(`${p.config.publicUrls.ocean}/v2/events`)).toBe(true);
  expect(current).not.toContain("evil");
});

describe("list filters name their allowed values instead of answering an empty list", () => {
  test.each(["status=bogus", "status=IN_TRANSIT", "status=", "archived=maybe", "archived=yes"])(
    "%s",
    async (q) => {
      const res = await p.call("ocean", `/v1/containers?${q}`, bearer(keys.ocean));
      expect(res.status).toBe(400);
      const body = await res.json();
      expect(errorCode(body)).toBe("VALIDATION_ERROR");
      expect(body.error.message).toMatch(q.startsWith("status") ? /in_transit, discharged/ : /true or false/);
    },
  );
  test.each(["status=in_transit", "status=customs_hold", "archived=true", "archived=0"])(
    "%s lists",
    async (q) => {
      expect((await p.call("ocean", `/v1/containers?${q}`, bearer(keys.ocean))).status).toBe(200);
    },
  );
});

describe("boolean query parameters read alike on every product (README, Choices where the spec is silent)", () => {
  const withFlag: Partial<Record<ProductId, string>> = {
    ocean: "/v1/containers?archived=",
    air: "/v1/awbs?archived=",
    schedules: "/v1/point-to-point?origin=CNSHA&destination=NLRTM&direct_only=",
    rates: "/v1/rates/search?origin=CNSHA&destination=NLRTM&mode=OCEAN_FCL&indicative=",
    distance: "/v1/distance/route?from=NLRTM&to=SGSIN&alternatives=false&path=",
  };
  const FLAGS = Object.entries(withFlag) as Array<[ProductId, string]>;
  // A tenant of its own, with room for these calls in one rate window.
  let own: Record<ProductId, string>;
  beforeAll(async () => {
    const t = await p.tenant({ paid: true });
    await p.accounts.setPlan(t.orgId, { rateLimit: 1_000_000 });
    own = t.keys;
  });
  const call = (product: ProductId, path: string) => p.call(product, path, bearer(own[product]));
  test.each(FLAGS)("%s %s: true, false, 1, 0 in any case, and empty", async (product, path) => {
    for (const v of ["TRUE", "False", "true", "0", "1", ""]) {
      expect([v, (await call(product, `${path}${v}`)).status]).toEqual([v, 200]);
    }
  });
  test.each(FLAGS)("%s %s: anything else is named back", async (product, path) => {
    for (const v of ["yes", "2", "maybe"]) {
      const res = await call(product, `${path}${v}`);
      const body = await res.json();
      expect([res.status, errorProblems(product, body)]).toEqual([400, []]);
      expect(body.error.message).toMatch(/must be true or false; got/);
    }
  });
});

test("a wrong identifier_type names the three values", async () => {
  const res = await p.call("ocean", "/v1/containers", {
    method: "POST",
    body: JSON.stringify({ identifier: "MSCU1234566", identifier_type: "container" }),
    headers: { authorization: `Bearer ${keys.ocean}`, "content-type": "application/json" },
  });
  expect(res.status).toBe(400);
  const message = (await res.json()).error.message as string;
  expect(message).toContain("container_id, bill_of_lading, booking");
  expect(message).not.toContain("'string'");
});
