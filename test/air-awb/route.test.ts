/**
 * GET {air_url}/public/v1/awb-prefixes/{prefix_or_awb} through the real air-cargo app (app.handle):
 * open, limited per client IP, {data} and {error:{code, message}} envelopes, and never a 500 for
 * whatever a client puts in the path.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import fc from "fast-check";
import { parseAwb } from "../../ingest/airlines/awb.ts";
import { errorCode, errorProblems, successProblems } from "../helpers/envelopes.ts";
import { bearer, ManualClock, makePlatform, type TestPlatform } from "../helpers/platform.ts";

const ROUTE = "/public/v1/awb-prefixes";
const LUFTHANSA = { iata: "LH", icao: "GEC", name: "Lufthansa Cargo" };

let p: TestPlatform;
let keys: Awaited<ReturnType<TestPlatform["tenant"]>>["keys"];
// A fresh client address per request keeps these tests clear of the per-IP window.
let nextIp = 1;
const freshIp = () => `198.51.${Math.floor(nextIp / 250) % 250}.${(nextIp++ % 250) + 1}`;

const get = (segment: string, init: RequestInit = {}) =>
  p.call("air", `${ROUTE}/${segment}`, {
    ...init,
    headers: { "x-forwarded-for": freshIp(), ...(init.headers as Record<string, string>) },
  });

type Json = Record<string, unknown>;

/** The body, checked against the air-cargo envelope of an open route. */
async function body(res: Response): Promise<Json> {
  const json = (await res.json()) as Json;
  expect(res.ok ? successProblems("air", json) : errorProblems("air", json, { open: true })).toEqual([]);
  return json;
}

beforeAll(async () => {
  p = await makePlatform({ trustProxy: true });
  keys = (await p.tenant()).keys;
});
afterAll(() => p.close());

describe("answers", () => {
  test.each([
    ["020", { prefix: "020", airline: LUFTHANSA, awb: null, valid: null, check_digit: null }],
    ["176", { prefix: "176", airline: { iata: "EK", icao: "UAE", name: "Emirates" }, awb: null }],
    ["020-12345675", { prefix: "020", airline: LUFTHANSA, awb: "02012345675", valid: true, check_digit: 5 }],
    ["02012345675", { awb: "02012345675", valid: true, check_digit: 5, hint: null, suggestions: [] }],
    ["020%2012345675", { awb: "02012345675", valid: true }], // percent-encoded space
    ["020%2D1234%205675", { awb: "02012345675", valid: true }], // encoded dash and space
    ["020%E2%80%9312345675", { awb: "02012345675", valid: true }], // en dash
    ["%20020%20", { prefix: "020", awb: null }],
    [
      "999-00000000",
      { airline: { iata: "CA", icao: "CCA", name: "Air China" }, valid: true, check_digit: 0 },
    ],
  ])("%s", async (segment, expected) => {
    const res = await get(segment);
    expect(res.status).toBe(200);
    expect((await body(res)).data).toMatchObject(expected);
  });

  test("every answer carries the same keys, prefix or whole AWB", async () => {
    const shapes = new Set<string>();
    for (const s of ["020", "020-12345675", "020-12345670"]) {
      shapes.add(Object.keys((await body(await get(s))).data as Json).join(","));
    }
    expect([...shapes]).toEqual(["prefix,airline,awb,valid,check_digit,hint,suggestions"]);
  });

  test.each([
    ["020-12345674", 5, ["02012345675", "02012346574"]],
    ["020-12345679", 5, ["02012345675"]],
    ["020-13245675", 6, ["02013245676"]],
    ["020-12345657", 3, ["02012345653", "02012345675"]],
  ])(
    "a wrong check digit (%s) is a 200 with valid false and a hint",
    async (segment, checkDigit, suggestions) => {
      const res = await get(segment);
      expect(res.status).toBe(200);
      const data = (await body(res)).data as Json;
      expect(data).toMatchObject({
        prefix: "020",
        airline: LUFTHANSA,
        valid: false,
        check_digit: checkDigit,
      });
      expect(data.suggestions).toEqual(suggestions);
      expect(data.hint).toContain(`${segment} is not a valid air waybill number`);
      expect(data.hint).toContain(`check digit should be ${checkDigit}`);
      expect(data.hint).toContain(`did you mean 020-${suggestions[0]!.slice(3)}`);
    },
  );

  test.each([
    ["000", "000"],
    ["000-12345675", "000"], // valid check digit, unknown prefix
    ["000-12345670", "000"], // unknown prefix wins over the check digit: nothing to resolve
    ["998", "998"],
  ])("an unknown prefix (%s) is not_found", async (segment, prefix) => {
    const res = await get(segment);
    expect(res.status).toBe(404);
    const json = await body(res);
    expect(errorCode(json)).toBe("not_found");
    expect(JSON.stringify(json)).toContain(`prefix ${prefix}`);
  });

  test.each([
    "02",
    "0201",
    "020-1234567",
    "020-123456755",
    "abc",
    "O20",
    "020.12345675",
    "%25",
    "%00",
    "%F0%9F%9B%AB", // an aeroplane emoji
    "%D9%A0%D9%A2%D9%A0", // Arabic-Indic digits
    "%EF%BC%90%EF%BC%92%EF%BC%90", // full-width digits
    "..%2F..%2Fetc%2Fpasswd",
    "9".repeat(100_000),
    "%20".repeat(5_000),
  ])("malformed input %s is invalid_request with a message", async (segment) => {
    const res = await get(segment);
    expect(res.status).toBe(400);
    const json = await body(res);
    expect(errorCode(json)).toBe("invalid_request");
    const message = String((json.error as Json).message);
    expect(message.length).toBeLessThan(200); // the input is not echoed back
  });

  test("malformed percent-encoding is refused before the route", async () => {
    for (const segment of ["%E0%A4%A", "%ZZ", "%C3%28"]) {
      const res = await get(segment);
      expect(res.status).toBe(400);
      expect(errorCode(await body(res))).toBe("invalid_request");
    }
  });

  test("anything beyond one segment, or no segment, is not a route", async () => {
    for (const path of [`${ROUTE}/020/12345675`, `${ROUTE}/`, ROUTE]) {
      const res = await p.call("air", path, { headers: { "x-forwarded-for": freshIp() } });
      expect(res.status).toBe(404);
      expect(errorCode(await body(res))).toBe("not_found");
    }
  });

  test("other methods answer 405", async () => {
    const res = await get("020", {
      method: "POST",
      body: "{}",
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(405);
    expect(errorCode(await body(res))).toBe("method_not_allowed");
  });
});

describe("access", () => {
  test("open: no key needed, and a key (good, bad or another product's) changes nothing", async () => {
    const answers = await Promise.all(
      [{}, bearer(keys.air), bearer(keys.ocean), bearer(keys.rates), bearer("ac_not-a-real-key")].map(
        async (init) => {
          const res = await get("020-12345675", init);
          return [res.status, await res.text()] as const;
        },
      ),
    );
    for (const a of answers) expect(a).toEqual(answers[0]!);
    expect(answers[0]![0]).toBe(200);
  });

  test("limited per client IP: 40 per window, then 429 invalid_request with Retry-After", async () => {
    const clock = new ManualClock();
    const q = await makePlatform({ trustProxy: true }, clock.now);
    try {
      const from = (ip: string, segment = "020") =>
        q.call("air", `${ROUTE}/${segment}`, { headers: { "x-forwarded-for": ip } });
      const first = await from("203.0.113.7");
      expect(first.headers.get("x-ratelimit-limit")).toBe("40");
      expect(first.headers.get("x-ratelimit-remaining")).toBe("39");
      const statuses = [first.status];
      // Errors count too: a bad AWB spends a request like a good one.
      for (let i = 1; i < 40; i++) statuses.push((await from("203.0.113.7", i % 2 ? "020" : "xyz")).status);
      expect(statuses.filter((s) => s === 200).length).toBe(21);
      expect(statuses.filter((s) => s === 400).length).toBe(19);
      const over = await from("203.0.113.7");
      expect(over.status).toBe(429);
      expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
      const json = (await over.json()) as Json;
      expect(errorProblems("air", json, { open: true })).toEqual([]);
      expect(errorCode(json)).toBe("invalid_request");
      expect(JSON.stringify(json)).toMatch(/rate limit exceeded/i);
      // Another address has its own window; the first gets room again once the window rolls.
      expect((await from("203.0.113.8")).status).toBe(200);
      clock.advance(20_000);
      expect((await from("203.0.113.7")).status).toBe(200);
    } finally {
      await q.close();
    }
  });

  test("keyed air routes stay keyed", async () => {
    const res = await p.call("air", "/v1/account", { headers: { "x-forwarded-for": freshIp() } });
    expect(res.status).toBe(401);
  });
});

describe("any path segment", () => {
  test("answers 200, 400 or 404 in the envelope, and 200 agrees with parseAwb", async () => {
    const segment = fc.oneof(
      fc.string({ unit: "binary", maxLength: 40 }).map(encodeURIComponent),
      fc.string({ unit: fc.constantFrom(..."0123456789- %"), maxLength: 20 }),
      fc
        .tuple(
          fc.stringMatching(/^\d{3}$/),
          fc.constantFrom("", "-", " ", "%20"),
          fc.stringMatching(/^\d{8}$/),
        )
        .map(([a, s, b]) => `${a}${s}${b}`),
    );
    await fc.assert(
      fc.asyncProperty(segment, async (s) => {
        let res: Response;
        try {
          res = await get(s);
        } catch {
          return; // not a URL a client can send
        }
        expect([200, 400, 404]).toContain(res.status);
        const json = await body(res);
        if (res.status !== 200) return;
        const data = json.data as Json;
        if (data.awb === null) return;
        const parsed = parseAwb(String(data.awb));
        expect(data.valid).toBe(parsed.ok);
        expect(data.prefix).toBe(String(data.awb).slice(0, 3));
      }),
      { numRuns: 300 },
    );
  });
});
