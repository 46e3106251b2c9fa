/**
 * The keyed air-waybill routes through app.handle on a real platform with no airline connected
 * (adds are tracked as not_connected, nothing is fetched): bodies, errors, quotas, paging, deletes
 * and keys. What the airline says is tracking.test.ts's part.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import fc from "fast-check";
import { formatAwb, withAwbCheckDigit } from "../../ingest/airlines/awb.ts";
import { makePlatform, type TestPlatform } from "../helpers/platform.ts";
import { airApi } from "./setup.ts";

let p: TestPlatform;
beforeAll(async () => {
  p = await makePlatform();
});
afterAll(() => p.close());

/** A fresh paid account (no rate window worries) and its air-host caller. */
async function account(key: "air" | "ocean" = "air") {
  const t = await p.tenant({ paid: true });
  await p.accounts.setPlan(t.orgId, { rateLimit: 1_000_000 });
  return { ...t, api: airApi(p, t.keys[key]) };
}
const rowsOf = async (orgId: string) => {
  const { airWaybills, shipmentUsage } = p.storage.t;
  return {
    waybills: (await p.storage.db.select().from(airWaybills).where(eq(airWaybills.orgId, orgId))).length,
    charged: (await p.storage.db.select().from(shipmentUsage).where(eq(shipmentUsage.orgId, orgId))).length,
  };
};

/** Air France (057): in the prefix table, not a sandbox airline, and no connector here. */
const AF = (n: number) => withAwbCheckDigit(`057${1_000_000 + n}`);

describe("add", () => {
  test.each([
    ["no body", undefined],
    ["not JSON", "{awb:"],
    ["an array", "[]"],
    ["null", "null"],
    ["awb missing", {}],
    ["awb a number", { awb: 5712345675 }],
    ["awb null", { awb: null }],
    ["awb empty", { awb: "" }],
    ["awb too long", { awb: "0".repeat(65) }],
    ["letters", { awb: "057-ABCDEFGH" }],
    ["ten digits", { awb: "057-1234567" }],
    ["twelve digits", { awb: "057-123456756" }],
    ["a wrong check digit", { awb: "057-12345676" }],
    ["a prefix no airline holds", { awb: withAwbCheckDigit("0001234567") }],
  ] as const)("%s: 400 invalid_request, nothing written", async (_name, body) => {
    const a = await account();
    const res = await a.api("POST", "/v1/awbs", body);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: "invalid_request", message: expect.any(String) });
    expect(await rowsOf(a.orgId)).toEqual({ waybills: 0, charged: 0 });
  });

  test("the prefix and the fix are named", async () => {
    const a = await account();
    const unknown = await a.api("POST", "/v1/awbs", { awb: withAwbCheckDigit("0001234567") });
    expect(unknown.body.error!.message).toContain("prefix 000");
    const typo = await a.api("POST", "/v1/awbs", { awb: "057-12345676" });
    // 1234567 mod 7 is 5; 1324567 mod 7 is 6: one swap of adjacent digits also gives a valid number.
    expect(typo.body.error).toMatchObject({
      hint: "057-12345675",
      suggestions: ["057-12345675", "057-13245676"],
    });
  });

  test("any body answers 201 or a 4xx with a lower-case code, never a 500", async () => {
    const a = await account();
    await p.accounts.setPlan(a.orgId, { shipmentQuota: null });
    const awb = fc.oneof(
      fc.string({ maxLength: 70 }),
      fc.stringMatching(/^0[0-9]{2}[- ]?[0-9]{4} ?[0-9]{4}$/),
      fc.integer().map((n) => withAwbCheckDigit(String(Math.abs(n) % 10_000_000_000).padStart(10, "0"))),
    );
    const body = fc.oneof(fc.record({ awb }), fc.jsonValue(), fc.dictionary(fc.string(), fc.jsonValue()));
    await fc.assert(
      fc.asyncProperty(body, async (b) => {
        const res = await a.api("POST", "/v1/awbs", JSON.stringify(b));
        expect([201, 400, 409]).toContain(res.status);
        if (res.status !== 201) expect(res.body.error!.code).toMatch(/^[a-z_]+$/);
      }),
      { numRuns: 150 },
    );
  });

  test("an airline without a ONE Record connection: tracked, with a warning", async () => {
    const a = await account("ocean");
    const res = await a.api("POST", "/v1/awbs", { awb: AF(1) });
    expect(res.status).toBe(201);
    expect(res.body.warning).toContain("Air France");
    expect(res.body.data).toMatchObject({
      awb: formatAwb(AF(1)),
      airline_iata: "AF",
      airline_name: "Air France",
      connector_status: "not_connected",
      status: "unknown",
      timeline: [],
    });
    expect(res.body.data.next_poll_at).toEqual(expect.any(String));
    expect(await rowsOf(a.orgId)).toEqual({ waybills: 1, charged: 1 });
  });

  test("tracked already: 409 naming the waybill; spacing does not make it another", async () => {
    const a = await account();
    const first = await a.api("POST", "/v1/awbs", { awb: AF(2) });
    const again = await a.api("POST", "/v1/awbs", { awb: ` ${AF(2).slice(0, 3)} ${AF(2).slice(3)} ` });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: "already_tracked", id: first.body.data.id });
  });

  test("the month's shipment quota counts AWBs; re-adding one counted this month is free", async () => {
    const a = await account();
    await p.accounts.setPlan(a.orgId, { shipmentQuota: 1 });
    const first = await a.api("POST", "/v1/awbs", { awb: AF(3) });
    expect(first.status).toBe(201);
    const second = await a.api("POST", "/v1/awbs", { awb: AF(4) });
    expect(second.status).toBe(402);
    expect(second.body.error).toMatchObject({ code: "unique_quota_exceeded" });
    expect((await a.api("DELETE", `/v1/awbs/${first.body.data.id}`)).status).toBe(200);
    expect((await a.api("POST", "/v1/awbs", { awb: AF(3) })).status).toBe(201);
    expect(await rowsOf(a.orgId)).toEqual({ waybills: 2, charged: 1 });
  });

  test("adding needs the air-cargo entitlement; reading does not", async () => {
    const a = await account();
    const added = await a.api("POST", "/v1/awbs", { awb: AF(5) });
    await p.accounts.removeEntitlement(a.orgId, "air");
    const refused = await a.api("POST", "/v1/awbs", { awb: AF(6) });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: "forbidden" });
    expect((await a.api("GET", `/v1/awbs/${added.body.data.id}`)).status).toBe(200);
    expect((await a.api("GET", "/v1/awbs")).body.data.items).toHaveLength(1);
  });

  test("keys: the air and the ocean family key; another product's key is refused", async () => {
    const a = await account();
    for (const [key, status] of [
      [a.keys.air, 200],
      [a.keys.ocean, 200],
      [a.keys.schedules, 401],
      ["", 401],
    ] as const) {
      const res = await p.call("air", "/v1/awbs", { headers: { authorization: `Bearer ${key}` } });
      expect(res.status).toBe(status);
      if (status === 401)
        expect(((await res.json()) as { error: { code: string } }).error.code).toBe("missing_key");
    }
  });
});

describe("list, read, delete", () => {
  test("pages most recently updated first; cursors, filters and bad queries", async () => {
    const a = await account();
    const ids: string[] = [];
    for (let i = 10; i < 13; i++)
      ids.push((await a.api("POST", "/v1/awbs", { awb: AF(i) })).body.data.id as string);
    const first = await a.api("GET", "/v1/awbs?limit=2");
    const cursor = first.body.data.next_cursor as string;
    expect(first.body.data.has_more).toBe(true);
    const second = await a.api("GET", `/v1/awbs?limit=2&cursor=${cursor}`);
    expect(second.body.data).toMatchObject({ has_more: false, next_cursor: null });
    const listed = [...first.body.data.items!, ...second.body.data.items!].map((r) => r.id);
    expect(new Set(listed)).toEqual(new Set(ids));
    expect((await a.api("GET", "/v1/awbs?status=unknown")).body.data.items).toHaveLength(3);
    expect((await a.api("GET", "/v1/awbs?status=delivered")).body.data.items).toHaveLength(0);
    for (const q of ["limit=0", "limit=501", "limit=x", "status=lost", "cursor=nope", "archived=maybe"]) {
      const res = await a.api("GET", `/v1/awbs?${q}`);
      expect(res.status).toBe(400);
      expect(res.body.error!.code).toBe("invalid_request");
    }
  });

  test("delete archives: readable, listed under archived=true, and the AWB can be tracked again", async () => {
    const a = await account();
    const added = await a.api("POST", "/v1/awbs", { awb: AF(20) });
    const id = added.body.data.id as string;
    const deleted = await a.api("DELETE", `/v1/awbs/${id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toMatchObject({ id, archived_reason: "deleted", next_poll_at: null });
    expect((await a.api("DELETE", `/v1/awbs/${id}`)).body.data.archived_at).toBe(
      deleted.body.data.archived_at,
    );
    expect((await a.api("GET", `/v1/awbs/${id}`)).body.data.archived_at).toEqual(expect.any(String));
    expect((await a.api("GET", "/v1/awbs")).body.data.items).toEqual([]);
    expect((await a.api("GET", "/v1/awbs?archived=true")).body.data.items!.map((r) => r.id)).toEqual([id]);
    const again = await a.api("POST", "/v1/awbs", { awb: AF(20) });
    expect(again.status).toBe(201);
    expect(again.body.data.id).not.toBe(id);
  });

  test("unknown ids answer 404 not_found; other methods 405", async () => {
    const a = await account();
    for (const id of [crypto.randomUUID(), "not-a-uuid", "%E2%98%83", "x".repeat(300)]) {
      const res = await a.api("GET", `/v1/awbs/${id}`);
      expect(res.status).toBe(404);
      expect(res.body.error!.code).toBe("not_found");
    }
    expect((await a.api("PUT", "/v1/awbs", {})).status).toBe(405);
  });
});
