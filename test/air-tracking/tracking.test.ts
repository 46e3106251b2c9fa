/**
 * Air-waybill tracking end to end over HTTP: the sandbox airline (ONE Record, its own process, a
 * manual clock) publishes a waybill's events as its clock moves; the air host tracks the waybill,
 * added with the ocean family key; the poller fills its timeline; every awb_* event reaches a real
 * HTTPS receiver once, signed with the air-cargo header, as the air document's webhook. Runs on
 * SQLite and, under PORTOLAN_TEST_DB, on PostgreSQL.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { deliveryIdFor } from "../../api/webhooks/dispatcher.ts";
import { verify } from "../../api/webhooks/verify.ts";
import { formatAwb } from "../../ingest/airlines/awb.ts";
import type { SimulatedAwb } from "../../ingest/sandbox/airline-simulate.ts";
import { type AirlineWorld, loadAirlineWorld } from "../../ingest/sandbox/airline-world.ts";
import { ManualClock } from "../helpers/platform.ts";
import { deliveryChecker } from "../webhooks/document-check.ts";
import { schemaProblems, storedEvents } from "../webhooks/event-schemas.ts";
import { until } from "../webhooks/setup.ts";
import { airApi, airWorld, findAwb } from "./setup.ts";

const MIN = 60_000;
const clock = new ManualClock();
let world: AirlineWorld;
/** A three-airport Lufthansa waybill flown whole: no split, offload or rebooking. */
let plain: SimulatedAwb;
let w: Awaited<ReturnType<typeof airWorld>>;

beforeAll(async () => {
  world = await loadAirlineWorld();
  plain = findAwb(
    world,
    "020",
    (s) => s.stops.length === 3 && !s.split && s.offload === null && s.parts.every((p) => !p.rebooked),
  );
  // Just after the booking was published: the airline shows BKD and the planned flights.
  clock.t = plain.bookedAt + 30 * MIN;
  w = await airWorld(clock);
});
afterAll(() => w?.close());

test("an AWB added with the family key fills its timeline as the clock moves; each awb_* webhook arrives once, signed", async () => {
  const { p, rx } = w;
  const t = await p.tenant({ paid: true });
  await p.accounts.setPlan(t.orgId, { rateLimit: 1_000_000 });
  // The ocean key: the air-cargo host accepts the shared family key.
  const api = airApi(p, t.keys.ocean);
  const hook = await api("POST", "/v1/webhooks", { url: rx.url("/ok/air") });
  expect(hook.status).toBe(201);
  const secret = hook.body.data.secret as string;

  const added = await api("POST", "/v1/awbs", { awb: formatAwb(plain.awb) });
  expect(added.status).toBe(201);
  expect(added.body.warning).toBeUndefined();
  const id = added.body.data.id as string;
  expect(added.body.data).toMatchObject({
    awb: formatAwb(plain.awb),
    airline_iata: "LH",
    status: "booked",
    origin: plain.origin.iata,
    destination: plain.destination.iata,
    pieces: plain.pieces,
    connector_status: null,
  });

  // Half-hour steps to the last event the airline publishes, and one poll interval (at most two
  // hours before delivery) beyond.
  const end = Math.max(...plain.events.map((e) => e.created)) + 150 * MIN;
  const statuses: string[] = ["booked"];
  let actualSoFar = 0;
  for (let now = clock.t + 30 * MIN; now <= end; now += 30 * MIN) {
    await w.at(now);
    const read = await api("GET", `/v1/awbs/${id}`);
    expect(read.status).toBe(200);
    const data = read.body.data as { status: string; timeline: Array<{ is_actual: boolean }> };
    if (statuses.at(-1) !== data.status) statuses.push(data.status);
    // Actual milestones only ever accumulate (forecasts come and go).
    const actual = data.timeline.filter((m) => m.is_actual).length;
    expect(actual).toBeGreaterThanOrEqual(actualSoFar);
    actualSoFar = actual;
  }
  expect(statuses).toEqual(["booked", "received", "in_transit", "arrived", "available", "delivered"]);

  const done = (await api("GET", `/v1/awbs/${id}`)).body.data as Record<string, unknown> & {
    timeline: Array<Record<string, string | number | boolean | null>>;
  };
  // Every event the airline published is on the timeline, actual, at its airport's wall clock.
  expect(done.timeline.filter((m) => m.is_actual)).toHaveLength(
    plain.events.filter((e) => e.timeType === "ACTUAL").length,
  );
  expect(done).toMatchObject({ exceptions: [], eta_is_estimated: false, next_poll_at: null });
  for (const m of done.timeline) {
    const airport = world.airport(m.location as string);
    expect(m.event_timezone).toBe(airport.timezone);
    const wall = Date.parse(`${m.event_local_datetime}Z`);
    expect(wall - (m.utc_offset_minutes as number) * MIN).toBe(Date.parse(m.timestamp as string));
  }
  const dlv = plain.events.find((e) => e.code === "DLV")!;
  expect(done.delivered_at).toBe(new Date(dlv.at).toISOString());

  // The outbox holds each air event once, and the receiver got each once, signed.
  const { outbox } = p.storage.t;
  const rows = await p.storage.db
    .select()
    .from(outbox)
    .where(and(eq(outbox.orgId, t.orgId), eq(outbox.product, "air")))
    .orderBy(outbox.seq);
  expect(rows.map((r) => r.type)).toEqual([
    "awb_accepted",
    "awb_in_transit",
    "awb_arrived",
    "awb_available",
    "awb_delivered",
  ]);
  await rx.waitFor(rows.length, (r) => r.path === "/ok/air");
  await until(async () => {
    const d = (await api("GET", `/v1/webhooks/${hook.body.data.id}`)).body.data;
    return (d.recent_deliveries as Array<{ status: string }>).every((x) => x.status === "delivered");
  });
  await Bun.sleep(200); // anything extra would have arrived by now
  const hits = rx.received.filter((r) => r.path === "/ok/air");
  expect(hits).toHaveLength(rows.length);
  const documented = await deliveryChecker(p, "air");
  for (const row of rows) {
    const hit = hits.find(
      (h) => h.headers["x-portolan-air-delivery"] === deliveryIdFor(row.id, hook.body.data.id as string),
    )!;
    documented(hit);
    expect(hit.headers["x-portolan-air-event"]).toBe(row.type);
    expect(hit.headers["user-agent"]).toBe("Portolan-Air-Webhooks/1");
    expect(await verify(hit.raw, hit.headers["x-portolan-air-signature"]!, secret)).toBe(true);
    const body = JSON.parse(hit.raw.toString());
    expect(body).toEqual({
      id: hit.headers["x-portolan-air-delivery"],
      type: row.type,
      occurred_at: new Date(row.occurredAt).toISOString(),
      data: row.data,
    });
    expect(body.data).toMatchObject({ id, awb: formatAwb(plain.awb), airline_iata: "LH" });
    // Each is told at the airport where it happened, in UTC and on the local clock.
    expect(body.data.event_date_time).toMatch(/Z$/);
    expect(body.data.event_timezone).toBe(world.airport(body.data.location).timezone);
  }
}, 120_000);

test("a wrong check digit is refused with the likely number; nothing is tracked", async () => {
  const { p } = w;
  const t = await p.tenant();
  const api = airApi(p, t.keys.air);
  const typo = `${plain.awb.slice(0, 10)}${(Number(plain.awb[10]) + 1) % 7}`;
  const res = await api("POST", "/v1/awbs", { awb: formatAwb(typo) });
  expect(res.status).toBe(400);
  expect(res.body.error).toMatchObject({ code: "invalid_request", hint: formatAwb(plain.awb) });
  expect(res.body.error!.message).toContain(`did you mean ${formatAwb(plain.awb)}`);
  expect((await api("GET", "/v1/awbs")).body.data.items).toEqual([]);
});

test("another account's AWB answers 404, like one that never existed", async () => {
  const { p } = w;
  const [a, b] = [await p.tenant({ name: "a" }), await p.tenant({ name: "b" })];
  const [apiA, apiB] = [airApi(p, a.keys.air), airApi(p, b.keys.ocean)];
  const added = await apiA("POST", "/v1/awbs", { awb: plain.awb });
  expect(added.status).toBe(201);
  const id = added.body.data.id as string;
  for (const method of ["GET", "DELETE"]) {
    const res = await apiB(method, `/v1/awbs/${id}`);
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ code: "not_found" });
    // The same words as for an id that never existed.
    expect(res.body.error!.message).toBe(`No tracked air waybill ${id} on this account.`);
  }
  expect((await apiB("GET", "/v1/awbs")).body.data.items).toEqual([]);
  // Still there, untouched, for its owner.
  expect((await apiA("GET", `/v1/awbs/${id}`)).body.data).toMatchObject({ id, archived_at: null });
});

test("every event raised above matches its schema in the event catalogue", async () => {
  const rows = await storedEvents(w.p.storage);
  expect(rows.length).toBeGreaterThan(0);
  expect(schemaProblems(rows)).toEqual([]);
});
