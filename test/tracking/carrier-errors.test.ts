/**
 * A misbehaving carrier over real HTTP: 503s and 429s back off (Retry-After honoured), a carrier
 * that keeps answering 404 gives resolution up after three days, and recovery resets the count.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { bearer, ManualClock, makePlatform, type TestPlatform } from "../helpers/platform.ts";

let answer: { status: number; headers?: Record<string, string>; body?: unknown } = { status: 503 };
let calls = 0;
const asked: string[] = [];
const carrier = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  fetch: (req) => {
    calls++;
    asked.push(req.url);
    return new Response(JSON.stringify(answer.body ?? { message: "unavailable" }), {
      status: answer.status,
      headers: { "content-type": "application/json", ...answer.headers },
    });
  },
});
const clock = new ManualClock(Date.parse("2026-11-21T00:00:00Z"));
let p: TestPlatform;
let key: string;
let orgId: string;
beforeAll(async () => {
  p = await makePlatform(
    { carriers: [{ scac: "HLCU", baseUrl: `http://127.0.0.1:${carrier.port}/HLCU`, timeoutMs: 2000 }] },
    clock.now,
  );
  const org = await p.accounts.createOrg("errors", { paid: true });
  await p.accounts.setEntitlement(org.id, "ocean", null);
  orgId = org.id;
  key = (await p.accounts.createKey(org.id, "ocean")).key;
});
afterAll(async () => {
  carrier.stop(true);
  await p.close();
});

const tracked = () => p.storage.t.tracked;
const row = async (id: string) =>
  (await p.storage.db.select().from(tracked()).where(eq(tracked().id, id)).limit(1))[0]!;
const minutesUntilNextPoll = async (id: string) =>
  (Date.parse((await row(id)).nextPollAt!) - clock.t) / 60_000;

test("5xx backs off 1, 2, 4 minutes; Retry-After on 429 is honoured; success resets", async () => {
  answer = { status: 503 };
  const res = await p.call("ocean", "/v1/containers", {
    method: "POST",
    body: JSON.stringify({ identifier: "HLCU1662993", identifier_type: "container_id" }),
    ...bearer(key, { "content-type": "application/json" }),
  });
  expect(res.status).toBe(201);
  const body = (await res.json()) as { warning: string; data: { id: string; status: string } };
  expect(body.warning).toMatch(/did not answer/);
  expect(body.data.status).toBe("unknown");
  const id = body.data.id;
  expect((await row(id)).pollFailures).toBe(1);
  expect(await minutesUntilNextPoll(id)).toBe(1);
  clock.advance(60_000);
  await p.tracking.ocean.pollDue();
  expect((await row(id)).pollFailures).toBe(2);
  expect(await minutesUntilNextPoll(id)).toBe(2);
  clock.advance(2 * 60_000);
  await p.tracking.ocean.pollDue();
  expect((await row(id)).pollFailures).toBe(3);
  expect(await minutesUntilNextPoll(id)).toBe(4);
  // Not due yet: nothing is asked.
  const before = calls;
  clock.advance(60_000);
  await p.tracking.ocean.pollDue();
  expect(calls).toBe(before);

  answer = { status: 429, headers: { "retry-after": "900" }, body: { message: "slow down" } };
  clock.advance(3 * 60_000);
  await p.tracking.ocean.pollDue();
  expect(await minutesUntilNextPoll(id)).toBe(15);

  answer = { status: 200, body: [] };
  clock.advance(15 * 60_000);
  await p.tracking.ocean.pollDue();
  expect((await row(id)).pollFailures).toBe(0);
  expect((await row(id)).pollPriority).toBe("pre_departure");
  expect(await minutesUntilNextPoll(id)).toBe(12 * 60);
});

test("a reference the carrier keeps not knowing is given up after three days", async () => {
  answer = { status: 404, body: { message: "unknown reference" } };
  const res = await p.call("ocean", "/v1/containers", {
    method: "POST",
    body: JSON.stringify({ identifier: "HLCU4276280", identifier_type: "container_id" }),
    ...bearer(key, { "content-type": "application/json" }),
  });
  const id = ((await res.json()) as { data: { id: string } }).data.id;
  expect((await row(id)).unresolvableSince).toBeNull();
  clock.advance(3 * 86_400_000 + 60_000);
  await p.tracking.ocean.refresh(id);
  expect((await row(id)).unresolvedReason).toBe("not_found");
  expect((await row(id)).unresolvableSince).not.toBeNull();
  const list = (await (await p.call("ocean", "/v1/containers", bearer(key))).json()) as {
    data: { items: Array<{ id: string; unresolved_reason: string }> };
  };
  expect(list.data.items.find((i) => i.id === id)?.unresolved_reason).toBe("not_found");
});

test("notify-connector records the request for a line without a connector", async () => {
  const res = await p.call("ocean", "/v1/containers", {
    method: "POST",
    body: JSON.stringify({ identifier: "MSCU2375717", identifier_type: "container_id" }),
    ...bearer(key, { "content-type": "application/json" }),
  });
  const id = ((await res.json()) as { data: { id: string } }).data.id;
  const notify = await p.call("ocean", `/v1/containers/${id}/notify-connector`, {
    method: "POST",
    ...bearer(key),
  });
  expect(notify.status).toBe(200);
  const data = (
    (await notify.json()) as { data: { connector_status: string; connector_notify_requested_at: string } }
  ).data;
  expect(data.connector_status).toBe("notify_requested");
  expect(data.connector_notify_requested_at).toBe(new Date(clock.t).toISOString());
  expect(orgId).toBeDefined();
});

test("eta_confidence_pct: null under five voyages on the lane, then the on-time share", async () => {
  const base = (await p.storage.db.select().from(tracked()).limit(1))[0]!;
  const lane = { carrierCode: "ZZZZ", originUnlocode: "NLRTM", destinationUnlocode: "SGSIN" };
  const insert = (delay: number) =>
    p.storage.db.insert(tracked()).values({
      ...base,
      ...lane,
      id: crypto.randomUUID(),
      identifier: `Z${Math.random()}`,
      stage: "delivered",
      delayBars: [null, null, null, delay, null],
    });
  const probe = { ...base, ...lane };
  for (const d of [0.2, -0.5, 3]) await insert(d);
  expect(await p.tracking.confidence(probe)).toBeNull();
  clock.advance(61_000); // past the lane cache
  for (const d of [0.9, 2.5]) await insert(d);
  expect(await p.tracking.confidence(probe)).toBe(60);
});

test("a number the carrier rejects as malformed: the add answers 400 and keeps nothing; compat says WRONG_NUMBER", async () => {
  answer = { status: 400, body: { message: "HLCU12345 is not a Hapag-Lloyd B/L number" } };
  const res = await p.call("ocean", "/v1/containers", {
    method: "POST",
    body: JSON.stringify({ identifier: "HLCU12345", identifier_type: "bill_of_lading" }),
    ...bearer(key, { "content-type": "application/json" }),
  });
  expect(res.status).toBe(400);
  expect(((await res.json()) as { error: { code: string } }).error.code).toBe("VALIDATION_ERROR");
  const kept = () => p.storage.db.select().from(tracked()).where(eq(tracked().identifier, "HLCU12345"));
  expect(await kept()).toEqual([]);
  const askedFor = () => asked.filter((u) => u.includes("HLCU12345")).length;
  const before = askedFor();
  clock.advance(86_400_000);
  await p.tracking.ocean.pollDue();
  expect(askedFor()).toBe(before);
  const compat = await p.call("ocean", `/compat/vendor/tracking?api_key=${key}&number=HLCU12345&type=BL`);
  expect(compat.status).toBe(200);
  expect(await compat.json()).toMatchObject({ status: "error", message: "WRONG_NUMBER", data: {} });
  expect(await kept()).toEqual([]);
});
