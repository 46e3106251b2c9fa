/**
 * The compat surface's rules (spec, Compatibility surface, rules 1 to 5; Limits; Versioning 3),
 * driven over the ocean app with the sandbox carrier behind a counting proxy.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { errorProblems } from "../helpers/envelopes.ts";
import { type CompatWorld, compatGet, compatWorld, type Json } from "./setup.ts";

const CEILING_MS = 400;
const S = 1000;
let w: CompatWorld;

beforeAll(async () => {
  w = await compatWorld({
    config: { compat: { ceilingMs: CEILING_MS, cacheMs: 90 * S, monthlyCalls: null } },
  });
});
afterAll(() => w.close());

const meta = (body: Json) => (body.data as Json).metadata as Json;
/** Data without the per-call counters, for comparing answers of different calls. */
const stable = (body: Json) => {
  const { api_calls: _a, unique_shipments: _u, ...rest } = meta(body);
  return { ...(body.data as Json), metadata: rest };
};

async function keyFor(orgName: string, plan: Parameters<CompatWorld["p"]["accounts"]["createOrg"]>[1] = {}) {
  const org = await w.p.accounts.createOrg(orgName, { paid: true, rateLimit: 1_000_000, ...plan });
  await w.p.accounts.setEntitlement(org.id, "ocean", null);
  return { orgId: org.id, key: (await w.p.accounts.createKey(org.id, "ocean")).key };
}
const withKey = (key: string, query: Record<string, string>, path?: string) =>
  compatGet({ ...w, key }, query, path);

describe("request surface", () => {
  test("/tracking, /container and /reference answer the same", async () => {
    const [a, b, c] = [
      await compatGet(w, { number: "MAEU0712717" }),
      await compatGet(w, { number: "MAEU0712717" }, "/compat/vendor/container"),
      await compatGet(w, { number: "MAEU0712717" }, "/compat/vendor/reference"),
    ];
    expect(a.body.status).toBe("success");
    expect(stable(b.body)).toEqual(stable(a.body));
    expect(stable(c.body)).toEqual(stable(a.body));
  });

  test("number is trimmed and upper-cased; metadata.number echoes it; container= is read as number", async () => {
    const before = (meta((await compatGet(w, { number: "MSCU2375717" })).body).unique_shipments as Json).used;
    const loose = await compatGet(w, { number: "  mscu2375717 " });
    expect(meta(loose.body).number).toBe("MSCU2375717");
    const byContainer = await compatGet(w, { container: "MSCU2375717" });
    expect(meta(byContainer.body).number).toBe("MSCU2375717");
    expect(stable(byContainer.body)).toEqual(stable(loose.body));
    // The same shipment: no second slot.
    expect((meta(byContainer.body).unique_shipments as Json).used).toBe(before);
  });

  test("type declares the kind; without it the kind is detected; another value is WRONG_TYPE (400)", async () => {
    expect(meta((await compatGet(w, { number: "MEDU200324679", type: "BK" })).body).type).toBe("BK");
    expect(meta((await compatGet(w, { number: "MEDU200142542" })).body).type).toBe("BL");
    expect(meta((await compatGet(w, { number: "CMAU1663002" })).body).type).toBe("CT");
    const bad = await compatGet(w, { number: "CMAU1663002", type: "XX" });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ status: "error", message: "WRONG_TYPE", data: null });
    const sealine = await compatGet(w, { number: "CMAU1663002", sealine: "not a scac" });
    expect(sealine.status).toBe(400);
    expect(sealine.body.message).toBe("WRONG_SEALINE");
    const mismatch = await compatGet(w, { number: "MEDU200142542", type: "CT" });
    expect(mismatch.status).toBe(200);
    expect(mismatch.body.message).toBe("WRONG_NUMBER");
  });

  test("route_data whenever a route is plottable, route=false turns it off, ais=true adds its block", async () => {
    const ref = "HLCU1662993";
    const routeData = async (query: Record<string, string>) =>
      ((await compatGet(w, { number: ref, ...query })).body.data as Json).route_data as Json | null;
    const plain = await routeData({});
    expect(Object.keys(plain!)).toEqual(["route", "pin"]);
    expect((plain!.route as Json[]).length).toBeGreaterThan(0);
    // One cached snapshot, rendered per request: the flags of one call never leak into the next.
    expect(await routeData({ route: "false" })).toBeNull();
    expect(await routeData({ route: "0" })).toBeNull();
    expect(await routeData({})).toEqual(plain);
    expect(await routeData({ route: "1" })).toEqual(plain);
    expect(await routeData({ route: "" })).toEqual(plain);
    const ais = await routeData({ ais: "yes" });
    expect(ais).toMatchObject({ route: plain!.route, pin: plain!.pin });
    expect((ais!.ais as Json).status).toEqual(expect.any(String));
    expect(await routeData({ ais: "yes", route: "no" })).toMatchObject({ route: [], ais: ais!.ais });
    expect(w.proxy.asked(ref)).toBe(1);
  });

  test("a box whose empty is back reads DELIVERED with the delivery tail, and is not registered again", async () => {
    const ref = "MAEU0000008";
    const first = await compatGet(w, { number: ref });
    expect(meta(first.body).status).toBe("DELIVERED");
    const box = ((first.body.data as Json).containers as Json[])[0]!;
    expect(box.status).toBe("DELIVERED");
    expect((box.events as Json[]).map((e) => e.status).slice(-3)).toEqual(["CGO", "CDC", "CER"]);
    await w.at(w.clock.t + 91 * S);
    expect((await compatGet(w, { number: ref })).body.status).toBe("success");
    const { tracked } = w.p.storage.t;
    expect(await w.p.storage.db.select().from(tracked).where(eq(tracked.identifier, ref))).toHaveLength(1);
    expect(w.proxy.asked(ref)).toBe(1);
  });
});

describe("answers that are not data (HTTP 200, never 404)", () => {
  test("an invalid container number is WRONG_NUMBER with a check-digit hint", async () => {
    const res = await compatGet(w, { number: "MAEU4988976" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: "error",
      message: "WRONG_NUMBER",
      data: {},
      detail: expect.stringContaining("did you mean MAEU4988977?"),
    });
    const bl = await compatGet(w, { number: "MAEU-12", type: "BL" });
    expect(bl.body.message).toBe("WRONG_NUMBER");
  });

  test("a reference the carrier does not know is NO_TRACKING_INFO, registered all the same", async () => {
    const res = await compatGet(w, { number: "MEDU123456789", type: "BL", sealine: "MAEU" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "error", message: "NO_TRACKING_INFO", data: {} });
    expect(await w.p.tracking.ocean.findActive(w.orgId, "MEDU123456789")).toBeDefined();
  });

  test("no line recognises the reference: NO_TRACKING_INFO naming sealine", async () => {
    const res = await compatGet(w, { number: "ZZZZ123456789" });
    expect(res.body).toMatchObject({ status: "error", message: "NO_TRACKING_INFO", data: {} });
    expect(res.body.detail).toContain("sealine");
  });

  test("a line we know but have no connector for: success with a sentence, empty timelines", async () => {
    const res = await compatGet(w, { number: "CBHU3054384", route: "true" });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe("success");
    expect(res.body.message).toMatch(/not connected/);
    const data = res.body.data as Json;
    expect(meta(res.body)).toMatchObject({ sealine: "COSU", status: "UNKNOWN" });
    expect((data.containers as Json[])[0]).toMatchObject({ number: "CBHU3054384", events: [] });
    expect(data.route_data).toBeNull();
  });

  test("a slow carrier: held until the ceiling, NO_TRACKING_INFO, and a retry shortly after succeeds", async () => {
    w.proxy.delayMs = 3 * CEILING_MS;
    try {
      const started = performance.now();
      const res = await compatGet(w, { number: "ONEU1425428" });
      const held = performance.now() - started;
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ status: "error", message: "NO_TRACKING_INFO", data: {} });
      expect(held).toBeGreaterThanOrEqual(CEILING_MS - 20);
      expect(held).toBeLessThan(3 * CEILING_MS);
      await Bun.sleep(3 * CEILING_MS);
    } finally {
      w.proxy.delayMs = 0;
    }
    const retry = await compatGet(w, { number: "ONEU1425428" });
    expect(retry.body.status).toBe("success");
    expect(((retry.body.data as Json).containers as Json[]).length).toBe(1);
  });
});

describe("cache (about 90 s per organisation) and force_update", () => {
  test("a poll within the window is served from the cache; after it the carrier is asked again", async () => {
    const ref = "CMAU3325998";
    await compatGet(w, { number: ref });
    const asked = w.proxy.asked(ref);
    expect(asked).toBe(1);
    await w.at(w.clock.t + 60 * S);
    await compatGet(w, { number: ref });
    expect(w.proxy.asked(ref)).toBe(asked);
    await w.at(w.clock.t + 31 * S);
    await compatGet(w, { number: ref });
    expect(w.proxy.asked(ref)).toBe(asked + 1);
    await compatGet(w, { number: ref, force_update: "true" });
    expect(w.proxy.asked(ref)).toBe(asked + 2);
  });

  test("a carrier asking us to back off is not asked again before its Retry-After; answers stay", async () => {
    const ref = "ONEU4276267";
    await compatGet(w, { number: ref });
    w.proxy.fail = { status: 429, retryAfter: 3600 };
    try {
      await w.at(w.clock.t + 91 * S);
      expect((await compatGet(w, { number: ref })).body.status).toBe("success");
      expect(w.proxy.asked(ref)).toBe(2);
      await w.at(w.clock.t + 91 * S);
      expect((await compatGet(w, { number: ref })).body.status).toBe("success");
      expect(w.proxy.asked(ref)).toBe(2);
    } finally {
      w.proxy.fail = null;
    }
  });

  test("the cache is per organisation", async () => {
    const ref = "HLCU4276280";
    await compatGet(w, { number: ref });
    const other = await keyFor("other org");
    await withKey(other.key, { number: ref });
    expect(w.proxy.asked(ref)).toBe(2);
  });

  test("100 parallel polls of a never-seen reference ask the carrier once", async () => {
    const ref = "MSCU5226569";
    const answers = await Promise.all(Array.from({ length: 100 }, () => compatGet(w, { number: ref })));
    expect(w.proxy.asked(ref)).toBe(1);
    expect(new Set(answers.map((a) => JSON.stringify(stable(a.body)))).size).toBe(1);
    expect(answers[0]!.body.status).toBe("success");
    // The next window: 100 more parallel polls, one more carrier call.
    await w.at(w.clock.t + 91 * S);
    await Promise.all(Array.from({ length: 100 }, () => compatGet(w, { number: ref })));
    expect(w.proxy.asked(ref)).toBe(2);
  });
});

describe("transport errors: 400, 401, 403, 429 with data null", () => {
  const isTransport = (body: Json) => errorProblems("ocean", body, { compat: true });

  test("missing number: 400 on each alias", async () => {
    for (const path of ["/compat/vendor/tracking", "/compat/vendor/container", "/compat/vendor/reference"]) {
      const res = await compatGet(w, {}, path);
      expect(res.status, path).toBe(400);
      expect(res.body).toEqual({ status: "error", message: "WRONG_PARAMETERS", data: null });
    }
  });

  test("missing, unknown, revoked or expired key: 401", async () => {
    const { orgId, key } = await keyFor("keys");
    const expiring = await w.p.accounts.createKey(orgId, "ocean", {
      expiresAt: new Date(w.clock.t + S).toISOString(),
    });
    await w.p.accounts.revokeKey(key);
    const answers = [
      await w.p.call("ocean", "/compat/vendor/tracking?number=MAEU4988977"),
      await w.p.call("ocean", "/compat/vendor/tracking?number=MAEU4988977&api_key=oc_nope"),
      await w.p.call("ocean", `/compat/vendor/tracking?number=MAEU4988977&api_key=${key}`),
    ];
    await w.at(w.clock.t + 2 * S);
    answers.push(
      await w.p.call("ocean", `/compat/vendor/tracking?number=MAEU4988977&api_key=${expiring.key}`),
    );
    for (const res of answers) {
      expect(res.status).toBe(401);
      expect(isTransport((await res.json()) as Json)).toEqual([]);
    }
  });

  test("no or expired ocean entitlement: 403", async () => {
    const { orgId, key } = await keyFor("entitlement");
    await w.p.accounts.setEntitlement(orgId, "ocean", new Date(w.clock.t - S).toISOString());
    const expired = await withKey(key, { number: "MAEU4988977" });
    expect(expired.status).toBe(403);
    expect(expired.body).toEqual({ status: "error", message: "API_KEY_EXPIRED", data: null });
    await w.p.accounts.removeEntitlement(orgId, "ocean");
    const none = await withKey(key, { number: "MAEU4988977" });
    expect(none.status).toBe(403);
    expect(none.body).toEqual({ status: "error", message: "API_KEY_ACCESS_DENIED", data: null });
  });

  test("burst over the rate window: 429", async () => {
    const { key } = await keyFor("burst", { rateLimit: 2 });
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await withKey(key, { number: "MAEU4988977" });
      statuses.push(res.status);
      if (res.status === 429) expect(isTransport(res.body)).toEqual([]);
    }
    expect(statuses).toEqual([200, 200, 429]);
  });

  test("spent plan allowance: unique shipments, then monthly calls: 429", async () => {
    const { key } = await keyFor("quota", { shipmentQuota: 1 });
    const first = await withKey(key, { number: "CMAU7127120" });
    expect(meta(first.body).unique_shipments).toEqual({ total: 1, used: 1, remaining: 0 });
    const second = await withKey(key, { number: "HLXU6867407" });
    expect(second.status).toBe(429);
    expect(second.body).toEqual({ status: "error", message: "API_KEY_LIMIT_REACHED", data: null });
    // Re-reading the shipment already counted stays free.
    expect((await withKey(key, { number: "CMAU7127120" })).status).toBe(200);

    const calls = await keyFor("calls");
    w.p.config.compat.monthlyCalls = 2;
    try {
      const a = await withKey(calls.key, { number: "CMAU7127120" });
      expect(meta(a.body).api_calls).toEqual({ total: 2, used: 1, remaining: 1 });
      await withKey(calls.key, { number: "CMAU7127120" });
      const c = await withKey(calls.key, { number: "CMAU7127120" });
      expect(c.status).toBe(429);
      expect(c.body.message).toBe("API_KEY_LIMIT_REACHED");
    } finally {
      w.p.config.compat.monthlyCalls = null;
    }
  });
});

describe("headers and counters", () => {
  test("API-Version, X-Schema-Version and X-Usage-* per key; api_calls per organisation", async () => {
    const { orgId, key } = await keyFor("usage");
    const second = (await w.p.accounts.createKey(orgId, "ocean")).key;
    const one = await withKey(key, { number: "MAEU4988977" });
    expect(one.headers.get("api-version")).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(one.headers.get("x-schema-version")).toBe("vendor-compat/1");
    const usage = (h: Headers) => ["day", "week", "month", "total"].map((p) => Number(h.get(`x-usage-${p}`)));
    expect(usage(one.headers)).toEqual([1, 1, 1, 1]);
    const two = await withKey(key, { number: "nothing-valid!" });
    expect(usage(two.headers)).toEqual([2, 2, 2, 2]);
    // A new day: the day counter starts again, the others run on.
    await w.at(w.clock.t + 86_400 * S);
    const three = await withKey(key, { number: "MAEU4988977" });
    expect(usage(three.headers)[0]).toBe(1);
    expect(usage(three.headers)[3]).toBe(3);
    // Another key of the same organisation: its own headers, the organisation's api_calls.
    const other = await withKey(second, { number: "MAEU4988977" });
    expect(usage(other.headers)).toEqual([1, 1, 1, 1]);
    expect((meta(other.body).api_calls as Json).used).toBe(4);
    expect(meta(other.body)).toMatchObject({
      is_status_from_sealine: false,
      from_cache: false,
      sealine: "MAEU",
      sealine_name: expect.any(String),
    });
    // A transport error from the handler carries the version headers too.
    const missing = await withKey(key, {});
    expect(missing.headers.get("x-schema-version")).toBe("vendor-compat/1");
  });
});
