/**
 * Request handling as properties over a raw socket: arbitrary methods, request targets (with
 * arbitrary percent-encoding, absolute forms, keyed paths hidden in queries), Host headers and
 * Content-Length values against every product. Every answer is either in the product's envelope or
 * one of the documented refusals of the HTTP layer (README, "What the HTTP layer refuses"); nothing
 * answers 500; nothing keyed answers 2xx without a key.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import fc from "fast-check";
import { PRODUCT_IDS, type ProductId } from "../../api/shared/products.ts";
import { errorProblems, successProblems } from "../helpers/envelopes.ts";
import { makePlatform, type TestPlatform } from "../helpers/platform.ts";
import { rawRequest, serveProducts } from "../helpers/raw-http.ts";

let p: TestPlatform;
let keys: Record<ProductId, string>;
let ports: Record<ProductId, number>;
let stopServers: () => void;

beforeAll(async () => {
  p = await makePlatform({ maxBodyBytes: 4096 });
  const tenant = await p.tenant({ paid: true });
  await p.accounts.setPlan(tenant.orgId, { rateLimit: 1_000_000_000 });
  keys = tenant.keys;
  ({ ports, stop: stopServers } = serveProducts(p.apps));
});
afterAll(async () => {
  stopServers();
  await p.close();
});

const STANDARD = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"];
const method = fc.constantFrom(...STANDARD, "PROPFIND", "TRACE", "get", "Post", "FOO", "G T", "");

/** Bytes as they may appear in a path: plain, escaped valid, escaped invalid, lone or truncated %. */
const pathPiece = fc.oneof(
  fc.constantFrom("v1", "account", "keys", "webhooks", "healthz", "swagger", "public", "lookup", ".."),
  fc.constantFrom("%", "%2", "%ZZ", "%FF", "%C0%AF", "%ED%A0%80", "%E2%82", "%2F", "%25", "%00", "%20"),
  fc
    .uint8Array({ minLength: 1, maxLength: 4 })
    .map((b) => [...b].map((x) => `%${x.toString(16).padStart(2, "0")}`).join("")),
  fc.stringMatching(/^[A-Za-z0-9._~-]{1,8}$/),
);
const HIDDEN = ["/v1/account", "/v1/containers", "/v1/distance/route?from=NLRTM&to=SGSIN", "/v1/webhooks"];
const target = fc.oneof(
  fc.array(pathPiece, { minLength: 1, maxLength: 5 }).map((parts) => `/${parts.join("/")}`),
  fc
    .tuple(fc.constantFrom("/healthz", "/swagger", "/v1/account"), fc.constantFrom(...HIDDEN))
    .map(([a, b]) => `${a}?x=${b}`),
  fc
    .tuple(
      fc.constantFrom("http://x", "https://e", "http://[::1]:1", "http://a?b"),
      fc.constantFrom("/healthz", ...HIDDEN),
    )
    .map(([a, b]) => `${a}${b}`),
  fc.constantFrom("*", "x", "//v1/account", "/v1/containers/lookup/%FF", "/public/v1/lookup/%C0%AF"),
);
const host = fc.oneof(
  fc.constantFrom<string | null>(
    null,
    "",
    "x",
    "ab",
    "[::1]",
    "[::1]:80",
    "127.0.0.1",
    "a?b",
    "a b",
    "a/v1/account?",
  ),
  fc.stringMatching(/^[a-z0-9.:[\]?#/@-]{0,6}$/),
);
const contentLength = fc.constantFrom<string | null>(
  null,
  null,
  "0",
  "5",
  "-1",
  "abc",
  "17000000",
  "99999999999",
);

test("every raw request gets an envelope answer or a documented HTTP-layer refusal, never a 500 or a keyless keyed answer", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...PRODUCT_IDS),
      method,
      target,
      host,
      contentLength,
      fc.boolean(),
      async (id, m, tgt, h, length, withKey) => {
        const lines = [`${m} ${tgt} HTTP/1.1`];
        if (h !== null) lines.push(`Host: ${h}`);
        if (withKey) lines.push(`Authorization: Bearer ${keys[id]}`);
        if (length !== null) lines.push(`Content-Length: ${length}`);
        lines.push("Connection: close", "", "");
        const a = await rawRequest(ports[id], lines.join("\r\n"), 2000);
        const what = `${id} ${JSON.stringify(lines.slice(0, -3))} -> ${a.status} ${a.body.slice(0, 200)}`;
        expect(a.status, what).not.toBe(500);
        if (a.status === 0) {
          // Bun closes the connection on methods it does not know (lower-case ones included).
          expect(STANDARD.includes(m) && h !== null && length === null, what).toBe(false);
          return;
        }
        if (a.body === "" && m !== "HEAD") {
          // Refusals of the HTTP layer, before the app sees the request (documented in the README).
          expect([400, 431, 505], what).toContain(a.status);
          return;
        }
        if (m === "HEAD") return;
        const type = a.headers["content-type"] ?? "";
        if (type.includes("text/html")) {
          expect(tgt.startsWith("/swagger") || tgt.includes("/swagger"), what).toBe(true);
          return;
        }
        const body = JSON.parse(a.body) as Record<string, unknown>;
        if (a.status < 300) {
          const open = body.openapi !== undefined || JSON.stringify(body).includes(`"product":"${id}"`);
          if (!withKey) expect(open, `keyless 2xx on a keyed route: ${what}`).toBe(true);
          if (body.openapi === undefined) expect(successProblems(id, body), what).toEqual([]);
          return;
        }
        const inEnvelope =
          errorProblems(id, body).length === 0 ||
          errorProblems(id, body, { open: true }).length === 0 ||
          errorProblems(id, body, { compat: true }).length === 0;
        expect(inEnvelope, what).toBe(true);
      },
    ),
    { numRuns: 600 },
  );
}, 120_000);

test("a declared body over the limit answers 400 in the envelope on a real socket, not Bun's empty 413", async () => {
  for (const id of PRODUCT_IDS) {
    for (const length of ["17000000", "99999999999"]) {
      const a = await rawRequest(
        ports[id],
        `POST /v1/webhooks HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${keys[id]}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\nConnection: close\r\n\r\n{}`,
      );
      const what = `${id} ${length}: ${a.status} ${a.body}`;
      expect(a.status, what).toBe(400);
      expect(errorProblems(id, JSON.parse(a.body)), what).toEqual([]);
    }
  }
});
