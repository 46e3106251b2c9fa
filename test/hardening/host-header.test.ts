/**
 * A short Host header must not make the access check read /healthz while the router runs
 * /v1/distance/route (every distance route answering without a key or a limit). Each product is
 * served on a real socket and asked with odd Host headers and request targets: a keyed route never
 * answers without its key, and an open route answers the same as with a normal Host.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { PRODUCT_IDS, type ProductId } from "../../api/shared/products.ts";
import { errorProblems } from "../helpers/envelopes.ts";
import { makePlatform, type TestPlatform } from "../helpers/platform.ts";
import { type RawAnswer, rawGet, rawRequest, serveProducts } from "../helpers/raw-http.ts";

let p: TestPlatform;
let keys: Record<ProductId, string>;
let ports: Record<ProductId, number>;
let stopServers: () => void;

beforeAll(async () => {
  p = await makePlatform();
  keys = (await p.tenant()).keys;
  ({ ports, stop: stopServers } = serveProducts(p.apps));
});
afterAll(async () => {
  stopServers();
  await p.close();
});

/** Keyed targets hidden where a misread URL would find them. */
const KEYED: Record<ProductId, string> = {
  ocean: "/v1/containers",
  air: "/v1/account",
  schedules: "/v1/account",
  loading: "/v1/account",
  rates: "/v1/account",
  distance: "/v1/distance/route?from=NLRTM&to=SGSIN",
};

const HOSTS: Array<string | null> = [
  "x",
  "ab",
  "abc",
  "abcd",
  "",
  null,
  "[::1]",
  "[::1]:8085",
  "[::ffff:127.0.0.1]",
  "127.0.0.1:1",
  "a?b",
  "a#b",
  "a b",
  "a/v1/account?",
  "a@b",
];

const json = (a: RawAnswer) => {
  try {
    return JSON.parse(a.body) as Record<string, unknown>;
  } catch {
    return null;
  }
};

/** The healthz answer of a product (data or ok family), or null. */
const healthOf = (a: RawAnswer) => {
  const body = json(a);
  const data = (body?.data ?? null) as { status?: string; product?: string } | null;
  return a.status === 200 && data?.status ? data.product : null;
};

/** What a request without a key may get: the open route's own answer or an error in the envelope. */
function assertNoBypass(id: ProductId, a: RawAnswer, openTarget: "healthz" | "swagger", what: string) {
  expect(a.status, what).not.toBe(500);
  if (a.status === 400 && a.body === "") {
    // Only a request without any Host line is refused by Bun itself (docs: the HTTP layer).
    expect(what, "empty 400 for a request that had a Host").toContain("Host null");
    return;
  }
  if (a.status === 200) {
    if (openTarget === "healthz") expect(healthOf(a), what).toBe(id);
    else expect(a.headers["content-type"] ?? "", what).toContain("text/html");
    return;
  }
  expect([400, 401], what).toContain(a.status);
  const body = json(a);
  expect(body, `${what}: ${a.body}`).not.toBeNull();
  expect(
    errorProblems(id, body!, { open: true }).length === 0 || errorProblems(id, body!).length === 0,
    what,
  ).toBe(true);
}

describe.each(PRODUCT_IDS)("%s", (id) => {
  test("a keyed route hidden behind an open path never answers without a key, whatever the Host", async () => {
    for (const open of ["/healthz", "/swagger"] as const) {
      for (const host of HOSTS) {
        const target = `${open}?x=${KEYED[id]}`;
        const a = await rawRequest(ports[id], rawGet(target, host));
        assertNoBypass(
          id,
          a,
          open === "/healthz" ? "healthz" : "swagger",
          `${target} Host ${JSON.stringify(host)}`,
        );
      }
    }
  });

  test("absolute-form targets are routed by their path, not by text in their query", async () => {
    for (const target of [
      `http://x/healthz?x=${KEYED[id]}`,
      `https://e/healthz?x=${KEYED[id]}`,
      `http://[::1]/healthz?x=${KEYED[id]}`,
      `http://[::1]:1${KEYED[id]}`,
    ]) {
      for (const host of ["x", "localhost"]) {
        const a = await rawRequest(ports[id], rawGet(target, host));
        const what = `${target} Host ${host}`;
        if (target.includes("/healthz")) assertNoBypass(id, a, "healthz", what);
        else expect(a.status, what).toBe(401);
      }
    }
  });

  test("the keyed route itself needs its key with any Host, and works with it", async () => {
    for (const host of ["x", "[::1]", "127.0.0.1:9", "ab"]) {
      const without = await rawRequest(ports[id], rawGet(KEYED[id], host));
      expect(without.status, `no key, Host ${host}`).toBe(401);
      const withKey = await rawRequest(
        ports[id],
        rawGet(KEYED[id], host, `Authorization: Bearer ${keys[id]}\r\n`),
      );
      expect(withKey.status, `key, Host ${host}: ${withKey.body}`).toBe(200);
    }
  });

  test("a missing Host is refused by the HTTP layer, an unusable one by the app in its envelope", async () => {
    const missing = await rawRequest(
      ports[id],
      rawGet(KEYED[id], null, `Authorization: Bearer ${keys[id]}\r\n`),
    );
    expect(missing.status).toBe(400);
    expect(missing.body).toBe("");
    for (const host of ["", "a?b", "a b", "a#b"]) {
      const a = await rawRequest(ports[id], rawGet(KEYED[id], host, `Authorization: Bearer ${keys[id]}\r\n`));
      expect(a.status, `Host ${JSON.stringify(host)}`).toBe(400);
      expect(json(a), a.body).not.toBeNull();
    }
  });
});
