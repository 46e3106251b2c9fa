/**
 * Throws arbitrary methods, paths, headers, query strings and bodies at every product and checks
 * that nothing answers 500 and every answer is in the product's envelope.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import fc from "fast-check";
import { PRODUCT_IDS, type ProductId } from "../../api/shared/products.ts";
import { compatProblems, errorProblems, successProblems } from "../helpers/envelopes.ts";
import { makePlatform, type TestPlatform } from "../helpers/platform.ts";

let p: TestPlatform;
let keys: Record<ProductId, string>;
beforeAll(async () => {
  p = await makePlatform({ maxBodyBytes: 2048, trustProxy: true });
  const tenant = await p.tenant({ paid: true });
  // An arranged ceiling: with 120 per window the run would turn into a wall of 429s after a few
  // dozen requests and never reach the handlers.
  await p.accounts.setPlan(tenant.orgId, { rateLimit: 1_000_000_000 });
  keys = tenant.keys;
});
afterAll(() => p.close());

const segment = fc.oneof(
  fc.constantFrom(
    "v1",
    "v2",
    "account",
    "keys",
    "webhooks",
    "public",
    "compat",
    "vendor",
    "tracking",
    "swagger",
    "json",
    "healthz",
    "..",
    "",
    "%00",
    "%2F",
    "constructor",
    "__proto__",
    "ü",
    "a b",
  ),
  fc.string({ minLength: 1, maxLength: 12 }),
);
/** Path parameters as raw bytes on the wire: any %XX (valid UTF-8 or not), lone and truncated escapes. */
const rawEscapes = fc
  .array(
    fc.oneof(
      fc.nat({ max: 255 }).map((b) => `%${b.toString(16).toUpperCase().padStart(2, "0")}`),
      fc.constantFrom("%", "%2", "%G1", "%C0%AF", "%ED%A0%80", "%E2%82"),
      fc.stringMatching(/^[A-Z0-9]{1,4}$/),
    ),
    { minLength: 1, maxLength: 8 },
  )
  .map((parts) => parts.join(""));
const path = fc.oneof(
  // Mostly real routes, so their parsers and handlers see the generated inputs.
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      "/v1/account",
      "/v1/account/keys",
      "/healthz",
      "/swagger",
      "/swagger/json",
      "/public/v1/x",
      "/compat/vendor/tracking",
      "/v1/webhooks",
      "/v1/containers",
      "/v1/containers/lookup/CSQU3054384",
      "/v1/portfolio/summary",
      "/v1/demurrage/terms",
      "/v1/rates/sheets",
      "/v1/follows",
      "/v1/awbs",
      "/v1/load-plans",
      "/v2/events",
      "/public/v1/lookup/CSQU3054383",
      "/v1/distance/route",
      "/v1/distance/locations",
    ),
  },
  fc.array(segment, { minLength: 0, maxLength: 5 }).map((s) => `/${s.map(encodeURIComponent).join("/")}`),
  fc
    .tuple(
      fc.constantFrom(
        "/v1/account/keys/",
        "/v1/containers/",
        "/v1/containers/lookup/",
        "/public/v1/lookup/",
        "/v1/webhooks/",
      ),
      fc.oneof(fc.string({ maxLength: 40 }).map(encodeURIComponent), rawEscapes),
    )
    .map(([a, b]) => a + b),
);
/** Strings a database cannot store, and names of prototype members (lookups keyed by input). */
const hostile = fc.constantFrom(
  "\u0000",
  "a\u0000b",
  "\ud800",
  "x\udc00",
  "constructor",
  "__proto__",
  "toString",
);
const text = (maxLength: number) => fc.oneof({ arbitrary: fc.string({ maxLength }), weight: 4 }, hostile);
/** Query names the products read, so filters see the generated values. */
const queryName = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.constantFrom(
    "tags",
    "status",
    "cursor",
    "limit",
    "carrier",
    "equipmentReference",
    "q",
    "from",
    "to",
    "number",
  ),
);
const query = fc.dictionary(queryName, text(20), { maxKeys: 4 });
const method = fc.constantFrom("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "TRACE", "FOO");
const body = fc.oneof(
  fc.constant(undefined),
  fc.string({ maxLength: 300 }),
  fc.json({ maxDepth: 3 }),
  fc
    .record(
      {
        label: fc.oneof(text(40), fc.integer()),
        expires_in_days: fc.oneof(fc.integer(), fc.double(), fc.string()),
      },
      { requiredKeys: [] },
    )
    .map((o) => JSON.stringify(o)),
  // Bodies the write routes take, with hostile strings where they store text.
  fc
    .record(
      {
        url: fc.oneof(
          text(20).map((h) => `https://${h}/in`),
          text(40),
        ),
        description: text(40),
        identifier: fc.oneof(fc.constant("MSCU2375717"), text(20)),
        tags: fc.array(text(10), { maxLength: 3 }),
        carrier_code: text(8),
        free_days: fc.integer({ min: -1, max: 400 }),
        sailing_id: text(20),
        awb: text(14),
      },
      { requiredKeys: [] },
    )
    .map((o) => JSON.stringify(o)),
  fc.tuple(hostile, text(4)).map(([k, v]) => JSON.stringify({ [k]: v })),
  fc.nat({ max: 5000 }).map((n) => "x".repeat(n)),
);
const auth = (product: ProductId) =>
  fc.oneof(
    fc.constant(undefined),
    // Mostly the right key, so the handlers behind authentication get the inputs.
    { arbitrary: fc.constant(`Bearer ${keys[product]}`), weight: 8 },
    fc.constant(`Bearer ${keys.ocean}`),
    fc.string({ maxLength: 60 }),
    fc.string({ maxLength: 40 }).map((s) => `Bearer ${s}`),
  );
const contentType = fc.constantFrom(
  undefined,
  "application/json",
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data",
  "application/json; charset=utf-8",
  "garbage/",
);

test.each(PRODUCT_IDS)("%s: no 500, every answer in the envelope", async (product) => {
  await fc.assert(
    fc.asyncProperty(
      method,
      path,
      query,
      body,
      auth(product),
      contentType,
      fc.ipV4(),
      async (m, pth, q, b, a, ct, ip) => {
        const url = new URL(`http://localhost${pth}`);
        for (const [k, v] of Object.entries(q)) url.searchParams.set(k, v);
        if (product === "ocean" && pth.startsWith("/compat") && a?.startsWith("Bearer "))
          url.searchParams.set("api_key", a.slice(7));
        const headers = new Headers({ "x-forwarded-for": ip });
        let request: Request;
        try {
          if (a !== undefined) headers.set("authorization", a);
          if (ct !== undefined) headers.set("content-type", ct);
          request = new Request(url, {
            method: m,
            headers,
            body: m === "GET" || m === "HEAD" ? undefined : b,
          });
        } catch {
          return; // not a request a client can send
        }
        const res = await p.apps[product].handle(request);
        expect(res.status).toBeLessThan(500);
        if (m === "HEAD") return;
        const text = await res.text();
        const where = url.pathname;
        if (res.ok && where.startsWith("/swagger")) return; // the OpenAPI document and its UI
        let json: Record<string, unknown>;
        try {
          json = JSON.parse(text);
        } catch {
          throw new Error(`${m} ${url} answered ${res.status} with non-JSON: ${text.slice(0, 200)}`);
        }
        const publicSurface = ["ocean", "air", "schedules"].includes(product) && where.startsWith("/public/");
        const open = where === "/healthz" || where.startsWith("/swagger") || publicSurface;
        const compat = product === "ocean" && where.startsWith("/compat/vendor/");
        const problems = compat
          ? compatProblems(json)
          : res.ok
            ? successProblems(product, json, where)
            : errorProblems(product, json, { open });
        if (problems.length) throw new Error(`${m} ${url} -> ${res.status}: ${problems.join("; ")}`);
      },
    ),
    { numRuns: 400 },
  );
});

/** The routes that filter on query text or store body text, with the fields they read. */
const WRITES: Array<{ product: ProductId; method: string; path: string; query: string[]; body: string[] }> = [
  {
    product: "ocean",
    method: "GET",
    path: "/v1/containers",
    query: ["tags", "status", "cursor", "carrier"],
    body: [],
  },
  { product: "ocean", method: "POST", path: "/v1/containers", query: [], body: ["identifier", "tags"] },
  {
    product: "ocean",
    method: "GET",
    path: "/v2/events",
    query: ["equipmentReference", "eventType", "cursor"],
    body: [],
  },
  {
    product: "ocean",
    method: "POST",
    path: "/v1/demurrage/terms",
    query: [],
    body: ["carrier_code", "equipment"],
  },
  { product: "ocean", method: "POST", path: "/v1/webhooks", query: [], body: ["url", "description"] },
  { product: "ocean", method: "POST", path: "/v1/account/keys", query: [], body: ["label"] },
  { product: "air", method: "POST", path: "/v1/awbs", query: [], body: ["awb"] },
  { product: "air", method: "GET", path: "/v1/awbs", query: ["status", "cursor"], body: [] },
  { product: "schedules", method: "POST", path: "/v1/follows", query: [], body: ["sailing_id", "carrier"] },
  { product: "rates", method: "GET", path: "/v1/rates/sheets", query: ["carrier", "mode"], body: [] },
  { product: "loading", method: "POST", path: "/v1/webhooks", query: [], body: ["url", "description"] },
  { product: "distance", method: "GET", path: "/v1/distance/locations", query: ["q", "country"], body: [] },
];

test("hostile text in every filter and stored field: no 500, every answer in the envelope", async () => {
  const anyText = fc.oneof(hostile, fc.string({ maxLength: 12 }));
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...WRITES),
      fc.array(anyText, { minLength: 4, maxLength: 4 }),
      fc.boolean(),
      async (route, values, tagList) => {
        const url = new URL(`http://localhost${route.path}`);
        for (const [i, name] of route.query.entries()) url.searchParams.set(name, values[i % values.length]!);
        const fields = route.body.map((name, i) => [name, values[i % values.length]!] as const);
        const body = Object.fromEntries(fields.map(([n, v]) => [n, n === "tags" && tagList ? [v] : v]));
        const res = await p.apps[route.product].handle(
          new Request(url, {
            method: route.method,
            headers: { authorization: `Bearer ${keys[route.product]}`, "content-type": "application/json" },
            body: route.method === "GET" ? undefined : JSON.stringify(body),
          }),
        );
        expect(res.status).toBeLessThan(500);
        const json = (await res.json()) as Record<string, unknown>;
        const problems = res.ok
          ? successProblems(route.product, json, route.path)
          : errorProblems(route.product, json);
        if (problems.length)
          throw new Error(`${route.method} ${url} -> ${res.status}: ${problems.join("; ")}`);
      },
    ),
    { numRuns: 300 },
  );
});
