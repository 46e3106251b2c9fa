/**
 * POST/GET /v1/follows and GET/DELETE /v1/follows/{id} through the real schedules app
 * (app.handle), on SQLite and, under PORTOLAN_TEST_DB, PostgreSQL: each type stored as sent, the
 * same follow again answers the stored one, another account's follow is a 404, writes need the
 * entitlement, the cap per account, a table of bad bodies answering VALIDATION_ERROR naming the
 * field, and fast-check bodies never answering 500.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import fc from "fast-check";
import { LEAD_HOURS, MAX_FOLLOWS } from "../../ingest/schedules/follows.ts";
import { errorProblems, successProblems } from "../helpers/envelopes.ts";
import { bearer, makePlatform, type TestPlatform } from "../helpers/platform.ts";

// biome-ignore lint/suspicious/noExplicitAny: response bodies are read field by field and checked by the assertions
type Json = Record<string, any>;

const SAILING = "MAEU/AE1/2610W";
let p: TestPlatform;
let key: string;
let otherKey: string;

async function call(
  method: string,
  path: string,
  body?: unknown,
  k = key,
): Promise<{ status: number; body: Json }> {
  const res = await p.call("schedules", path, {
    method,
    ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
    ...bearer(k, body === undefined ? {} : { "content-type": "application/json" }),
  });
  const json = (await res.json()) as Json;
  expect(res.ok ? successProblems("schedules", json) : errorProblems("schedules", json)).toEqual([]);
  return { status: res.status, body: json };
}

beforeAll(async () => {
  p = await makePlatform();
  const a = await p.tenant({ name: "follower" });
  const b = await p.tenant({ name: "someone else" });
  key = a.keys.schedules;
  otherKey = b.keys.schedules;
  for (const t of [a, b]) await p.accounts.setPlan(t.orgId, { rateLimit: 1_000_000 });
  // One stored sailing to follow by id (the refresh's row shape; its calls do not matter here).
  await p.storage.sailings.insert({
    id: SAILING,
    carrier: "MAEU",
    serviceCode: "AE1",
    serviceName: "Asia-Europe 1",
    voyage: "2610W",
    vesselImo: "9778791",
    vesselName: "TEST",
    calls: [],
    departsAt: "2026-03-02T00:00:00.000Z",
    arrivesAt: "2026-04-02T00:00:00.000Z",
    status: "active",
    firstSeenAt: "2026-02-01T00:00:00.000Z",
    changedAt: "2026-02-01T00:00:00.000Z",
  });
});
afterAll(async () => {
  await p?.close();
});

describe("each type, stored as sent", () => {
  // [body, stored fields]
  test.each([
    [
      { type: "sailing", sailing_id: SAILING },
      { sailing_id: SAILING, carrier: null, origin: null, lead_hours: LEAD_HOURS.default, cut_off_codes: [] },
    ],
    [
      {
        type: "lane",
        origin: "cnsha",
        destination: "NLRTM",
        lead_hours: 48,
        cut_off_codes: ["VCO", "FCO", "FCO"],
      },
      { origin: "CNSHA", destination: "NLRTM", carrier: null, lead_hours: 48, cut_off_codes: ["FCO", "VCO"] },
    ],
    [
      { type: "lane", carrier: "oney", origin: "JPTYO", destination: "USLAX" },
      { origin: "JPTYO", destination: "USLAX", carrier: "ONEY", lead_hours: 24 },
    ],
    [
      { type: "service", carrier: "MSCU", service_code: "INDUS", lead_hours: LEAD_HOURS.max },
      { carrier: "MSCU", service_code: "INDUS", sailing_id: null, lead_hours: LEAD_HOURS.max },
    ],
  ] as const)("%j", async (body, stored) => {
    const made = await call("POST", "/v1/follows", body);
    expect(made.status).toBe(201);
    expect(made.body.data).toMatchObject({ type: body.type, ...stored });
    const id = made.body.data.id as string;
    expect((await call("GET", `/v1/follows/${id}`)).body.data).toEqual(made.body.data);
    // The same follow again (codes in any order, a code twice) is the stored one, answered 200.
    const again = await call("POST", "/v1/follows", body);
    expect([again.status, again.body.data]).toEqual([200, made.body.data]);
    const list = (await call("GET", "/v1/follows")).body.data;
    expect(list.items.filter((f: Json) => f.id === id)).toEqual([made.body.data]);
    expect(list.limit).toBe(MAX_FOLLOWS);
  });
});

test("another account's follow answers 404 to read and delete; delete is then 404 for the owner too", async () => {
  const made = (await call("POST", "/v1/follows", { type: "lane", origin: "SGSIN", destination: "DEHAM" }))
    .body.data;
  for (const method of ["GET", "DELETE"]) {
    const r = await call(method, `/v1/follows/${made.id}`, undefined, otherKey);
    expect([r.status, r.body.error.code]).toEqual([404, "NOT_FOUND"]);
  }
  expect((await call("GET", "/v1/follows", undefined, otherKey)).body.data.items).toEqual([]);
  expect((await call("DELETE", `/v1/follows/${made.id}`)).body.data).toEqual({ id: made.id, deleted: true });
  expect((await call("GET", `/v1/follows/${made.id}`)).status).toBe(404);
  expect((await call("DELETE", `/v1/follows/${made.id}`)).status).toBe(404);
});

test("creating needs the schedules entitlement; listing and deleting only a key", async () => {
  const org = await p.accounts.createOrg("no entitlement", { rateLimit: 1_000_000 });
  const k = (await p.accounts.createKey(org.id, "schedules")).key;
  const r = await call("POST", "/v1/follows", { type: "lane", origin: "CNSHA", destination: "NLRTM" }, k);
  expect([r.status, r.body.error.code]).toEqual([403, "FORBIDDEN"]);
  expect((await call("GET", "/v1/follows", undefined, k)).body.data.items).toEqual([]);
  expect((await call("DELETE", "/v1/follows/nope", undefined, k)).status).toBe(404);
  const none = await p.call("schedules", "/v1/follows");
  expect(none.status).toBe(401);
});

test(`at most ${MAX_FOLLOWS} follows per account: the next is 409 FOLLOW_LIMIT_REACHED, a duplicate still answers`, async () => {
  const t = await p.tenant({ name: "busy" });
  await p.accounts.setPlan(t.orgId, { rateLimit: 1_000_000 });
  const lead = (i: number) => ({ type: "lane", origin: "CNSHA", destination: "NLRTM", lead_hours: i + 1 });
  // Concurrent posts: the organisation's row lock keeps the count exact.
  const made = await Promise.all(
    Array.from({ length: MAX_FOLLOWS }, (_, i) => call("POST", "/v1/follows", lead(i), t.keys.schedules)),
  );
  expect(made.every((r) => r.status === 201)).toBe(true);
  const over = await call("POST", "/v1/follows", lead(MAX_FOLLOWS), t.keys.schedules);
  expect([over.status, over.body.error.code]).toEqual([409, "FOLLOW_LIMIT_REACHED"]);
  expect((await call("POST", "/v1/follows", lead(0), t.keys.schedules)).status).toBe(200);
  expect((await call("GET", "/v1/follows", undefined, t.keys.schedules)).body.data.items).toHaveLength(
    MAX_FOLLOWS,
  );
});

// [body, the field the message names]
test.each([
  [{}, "type"],
  [{ type: "voyage" }, "type"],
  [{ type: "sailing" }, "sailing_id"],
  [{ type: "sailing", sailing_id: "not a sailing" }, "sailing_id"],
  [{ type: "sailing", sailing_id: "MAEU/AE1/9999W" }, "sailing_id"],
  [{ type: "sailing", sailing_id: SAILING, origin: "CNSHA" }, "origin"],
  [{ type: "lane", destination: "NLRTM" }, "origin"],
  [{ type: "lane", origin: "CNSHA" }, "destination"],
  [{ type: "lane", origin: "CNSH", destination: "NLRTM" }, "origin"],
  [{ type: "lane", origin: "CNSHA", destination: "NL1TM" }, "destination"],
  [{ type: "lane", origin: "CNSHA", destination: "CNSHA" }, "destination"],
  [{ type: "lane", origin: "CNSHA", destination: "NLRTM", carrier: "M4EU" }, "carrier"],
  [{ type: "lane", origin: "CNSHA", destination: "NLRTM", service_code: "AE1" }, "service_code"],
  [{ type: "service", service_code: "AE1" }, "carrier"],
  [{ type: "service", carrier: "MAEU" }, "service_code"],
  [{ type: "service", carrier: "MAEU", service_code: "AE 1" }, "service_code"],
  [{ type: "service", carrier: "MAEU", service_code: "AE1", sailing_id: SAILING }, "sailing_id"],
  [{ type: "lane", origin: "CNSHA", destination: "NLRTM", lead_hours: 0 }, "lead_hours"],
  [{ type: "lane", origin: "CNSHA", destination: "NLRTM", lead_hours: LEAD_HOURS.max + 1 }, "lead_hours"],
  [{ type: "lane", origin: "CNSHA", destination: "NLRTM", lead_hours: 1.5 }, "lead_hours"],
  [{ type: "lane", origin: "CNSHA", destination: "NLRTM", lead_hours: "a day" }, "lead_hours"],
  [{ type: "lane", origin: "CNSHA", destination: "NLRTM", cut_off_codes: ["fco"] }, "cut_off_codes"],
  [{ type: "lane", origin: "CNSHA", destination: "NLRTM", cut_off_codes: "FCO" }, "cut_off_codes"],
  [
    { type: "lane", origin: "CNSHA", destination: "NLRTM", cut_off_codes: Array(11).fill("FCO") },
    "cut_off_codes",
  ],
  [{ type: "lane", origin: 5, destination: "NLRTM" }, "origin"],
  ["[1]", "body"],
  ["{", "JSON"],
] as const)("bad body %j names %s", async (body, field) => {
  const r = await call("POST", "/v1/follows", body as unknown);
  expect(r.status, JSON.stringify(r.body)).toBe(400);
  expect(r.body.error.code).toBe("VALIDATION_ERROR");
  expect(r.body.error.message).toContain(field);
});

test("fast-check: any body answers 200, 201, 400 or 409, never 500", async () => {
  const code = fc.constantFrom("CNSHA", "NLRTM", "SGSIN", "cnsha", "XX", "", "NL RTM");
  const body = fc.record(
    {
      type: fc.oneof(fc.constantFrom("sailing", "lane", "service"), fc.string()),
      sailing_id: fc.oneof(fc.constant(SAILING), fc.string()),
      carrier: fc.oneof(fc.constantFrom("MAEU", "ONEY", "m", "TOOLONGCARRIER"), fc.string()),
      origin: code,
      destination: code,
      service_code: fc.oneof(fc.constantFrom("AE1", "INDUS"), fc.string()),
      lead_hours: fc.oneof(fc.integer({ min: -5, max: 400 }), fc.double(), fc.string()),
      cut_off_codes: fc.oneof(fc.array(fc.constantFrom("FCO", "VCO", "DCO", "x")), fc.anything()),
    },
    { requiredKeys: [] },
  );
  await fc.assert(
    fc.asyncProperty(fc.oneof(body, fc.anything()), async (b) => {
      const res = await p.call("schedules", "/v1/follows", {
        method: "POST",
        body: JSON.stringify(b) ?? "",
        ...bearer(key, { "content-type": "application/json" }),
      });
      expect([200, 201, 400, 409]).toContain(res.status);
    }),
    { numRuns: 300 },
  );
});

test("the OpenAPI lists the follow routes", async () => {
  const doc = (await (await p.call("schedules", "/swagger/json")).json()) as Json;
  expect(Object.keys(doc.paths["/v1/follows"]).sort()).toEqual(["get", "post"]);
  expect(Object.keys(doc.paths["/v1/follows/{id}"]).sort()).toEqual(["delete", "get"]);
});
