/**
 * The client's retries (clients/typescript/src/retry.ts) against a real local HTTP server that
 * answers 429 or 503 with a Retry-After, then 200: the waits asked for are the ones made (through
 * an injected sleep that records them, so nothing is timed), the same request is sent again body
 * and key included, attempts are bounded, and a wait beyond the cap is not made.
 */
import { afterAll, beforeEach, expect, test } from "bun:test";
import { createDistanceClient, createLoadPlanClient, unwrap } from "../../clients/typescript/src/index.ts";

interface Seen {
  method: string;
  authorization: string | null;
  body: string;
}
const seen: Seen[] = [];
/** What the server answers, in order; the last one again once the list is used up. */
let script: Array<() => Response> = [];
const server = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  async fetch(req) {
    seen.push({
      method: req.method,
      authorization: req.headers.get("authorization"),
      body: await req.text(),
    });
    return (script[seen.length - 1] ?? script.at(-1)!)();
  },
});
afterAll(() => server.stop(true));
beforeEach(() => {
  seen.length = 0;
});

const base = `http://127.0.0.1:${server.port}`;
const refused = (status: number, retryAfter?: string) => () =>
  Response.json(
    { error: { code: status === 429 ? "rate_limited" : "unavailable", message: "not now" } },
    { status, headers: retryAfter === undefined ? {} : { "retry-after": retryAfter } },
  );
const route = () =>
  Response.json({
    data: {
      from: { locode: "NLRTM", lat: 51.95, lng: 4.14 },
      to: { locode: "SGSIN", lat: 1.26, lng: 103.84 },
    },
    meta: { took_ms: 3 },
  });

function client(retry: { attempts?: number; maxDelayMs?: number; now?: () => number } = {}) {
  const waits: number[] = [];
  const sleep = async (ms: number) => {
    waits.push(ms);
  };
  const distance = createDistanceClient({ baseUrl: base, apiKey: "ds_test", retry: { ...retry, sleep } });
  const call = () =>
    distance.GET("/v1/distance/route", { params: { query: { from: "NLRTM", to: "SGSIN" } } });
  return { waits, call };
}

test("429 then 200: waits the Retry-After seconds once, then reads the typed answer", async () => {
  script = [refused(429, "7"), route];
  const { waits, call } = client();
  const answer = unwrap(await call());
  expect(answer.data.from).toEqual({ locode: "NLRTM", lat: 51.95, lng: 4.14 });
  expect(answer.meta.took_ms).toBe(3);
  expect(waits).toEqual([7000]);
  expect(seen.map((s) => s.authorization)).toEqual(["Bearer ds_test", "Bearer ds_test"]);
});

test("503 with an HTTP-date Retry-After waits until that date; a POST is sent again with its body", async () => {
  const now = Date.parse("2026-12-07T12:00:00Z");
  script = [
    refused(503, "Mon, 07 Dec 2026 12:00:05 GMT"),
    () => Response.json({ ok: true, data: {} }, { status: 201 }),
  ];
  const waits: number[] = [];
  const plans = createLoadPlanClient({
    baseUrl: base,
    apiKey: "lp_test",
    retry: { now: () => now, sleep: async (ms) => void waits.push(ms) },
  });
  const body = {
    name: "PO 1",
    dimension_unit: "cm" as const,
    weight_unit: "kg" as const,
    equipment: ["20GP"],
    items: [{ id: "box", length: 100, width: 100, height: 100, weight: 10, quantity: 1 }],
  };
  const { response } = await plans.POST("/v1/load-plans", { body });
  expect(response.status).toBe(201);
  expect(waits).toEqual([5000]);
  expect(seen.map((s) => s.method)).toEqual(["POST", "POST"]);
  expect(seen.map((s) => JSON.parse(s.body))).toEqual([body, body]);
});

test("attempts are bounded: the last 429 is the answer, its error readable", async () => {
  script = [refused(429)];
  const { waits, call } = client({ attempts: 3 });
  const { error, response } = await call();
  expect(response.status).toBe(429);
  expect(error).toEqual({ error: { code: "rate_limited", message: "not now" } });
  expect(seen.length).toBe(3);
  // No Retry-After: 1 s, then 2 s.
  expect(waits).toEqual([1000, 2000]);
  expect(() => unwrap({ error, response })).toThrow("not now");
});

test("a Retry-After beyond maxDelayMs is not waited for; other statuses are never retried", async () => {
  script = [refused(503, "3600"), route];
  const capped = client({ maxDelayMs: 60_000 });
  expect((await capped.call()).response.status).toBe(503);
  expect([seen.length, capped.waits]).toEqual([1, []]);

  seen.length = 0;
  script = [refused(500, "1"), route];
  const plain = client();
  expect((await plain.call()).response.status).toBe(500);
  expect([seen.length, plain.waits]).toEqual([1, []]);
});
