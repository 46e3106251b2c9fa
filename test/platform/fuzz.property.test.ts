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
const query = fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 20 }), { maxKeys: 4 });
const method = fc.constantFrom("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "TRACE", "FOO");
const body = fc.oneof(
  fc.constant(undefined),
  fc.string({ maxLength: 300 }),
  fc.json({ maxDepth: 3 }),
  fc
    .record(
      {
        label: fc.oneof(fc.string(), fc.integer()),
        expires_in_days: fc.oneof(fc.integer(), fc.double(), fc.string()),
      },
      { requiredKeys: [] },
    )
    .map((o) => JSON.stringify(o)),
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
        // The DCSA 2.2 feed answers a bare array, as the DCSA API does.
        if (res.ok && product === "ocean" && where === "/v2/events") {
          if (!Array.isArray(json)) throw new Error(`${url}: the DCSA feed answered ${text.slice(0, 100)}`);
          return;
        }
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
