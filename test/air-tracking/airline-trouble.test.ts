/**
 * When the airline is the trouble: a body the ONE Record client cannot read changes nothing (no
 * event, no state, no webhook; the next good answer applies), an airline that is down leaves the add
 * standing with a warning, and a waybill whose pieces travel apart (an offload) is flagged while
 * they are apart and told arrived once, when the last piece is in. Lufthansa goes through a small
 * real HTTP proxy in front of the sandbox airline that can break bodies or answer 503.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { formatAwb } from "../../ingest/airlines/awb.ts";
import type { SimulatedAwb } from "../../ingest/sandbox/airline-simulate.ts";
import { type AirlineWorld, loadAirlineWorld } from "../../ingest/sandbox/airline-world.ts";
import { ManualClock } from "../helpers/platform.ts";
import { airApi, airWorld, findAwb, sandboxAirlines } from "./setup.ts";

const MIN = 60_000;
const H = 60 * MIN;

/** Forwards to the sandbox airline; "corrupt" breaks the last event's date, "down" answers 503. */
function troubleProxy() {
  const state = { target: "", mode: "pass" as "pass" | "corrupt" | "down" };
  const server: ReturnType<typeof Bun.serve> = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req): Promise<Response> {
      if (state.mode === "down") return new Response("maintenance", { status: 503 });
      const url = new URL(req.url);
      const own = `http://127.0.0.1:${server.port}`;
      const res = await fetch(`${state.target}${url.pathname}${url.search}`, {
        headers: req.headers,
        redirect: "manual",
      });
      // The airline names its objects by absolute URI: they must name the proxy.
      let body = (await res.text()).replaceAll(state.target, own);
      if (state.mode === "corrupt" && url.pathname.endsWith("/logistics-events") && res.ok) {
        const json = JSON.parse(body);
        const items = [json["api:hasItem"]].flat();
        items.at(-1)["cargo:eventDate"] = { "@type": "xsd:dateTime", "@value": "after lunch" };
        body = JSON.stringify(json);
      }
      const headers = new Headers(res.headers);
      headers.delete("content-length");
      const location = headers.get("location");
      if (location) headers.set("location", location.replace(state.target, own));
      return new Response(body, { status: res.status, headers });
    },
  });
  return { state, url: `http://127.0.0.1:${server.port}`, stop: () => server.stop(true) };
}

const clock = new ManualClock();
let world: AirlineWorld;
let w: Awaited<ReturnType<typeof airWorld>>;
let proxy: ReturnType<typeof troubleProxy>;
const plainOf = (s: SimulatedAwb) =>
  s.stops.length >= 2 && !s.split && s.offload === null && s.parts.every((p) => !p.rebooked);
let plain: SimulatedAwb;

beforeAll(async () => {
  world = await loadAirlineWorld();
  plain = findAwb(world, "020", plainOf);
  clock.t = plain.bookedAt + 30 * MIN;
  proxy = troubleProxy();
  w = await airWorld(clock, (airUrl) => {
    proxy.state.target = airUrl;
    return sandboxAirlines(airUrl).map((a) => (a.iata === "LH" ? { ...a, baseUrl: `${proxy.url}/LH` } : a));
  });
});
afterAll(async () => {
  await w?.close();
  proxy?.stop();
});

async function account() {
  const t = await w.p.tenant({ paid: true });
  await w.p.accounts.setPlan(t.orgId, { rateLimit: 1_000_000 });
  return { ...t, api: airApi(w.p, t.keys.air) };
}

/** What a refresh may write: the row, its stored events and the organisation's outbox rows. */
async function written(orgId: string, id: string) {
  const { db, t } = w.p.storage;
  const [row] = await db.select().from(t.airWaybills).where(eq(t.airWaybills.id, id));
  const events = await db.select().from(t.airWaybillEvents).where(eq(t.airWaybillEvents.waybillId, id));
  const outbox = await db
    .select()
    .from(t.outbox)
    .where(and(eq(t.outbox.orgId, orgId), eq(t.outbox.product, "air")))
    .orderBy(t.outbox.seq);
  return { row: row!, events: events.length, outbox: outbox.map((r) => r.type) };
}

test("a body the client cannot read changes nothing; the next good answer applies", async () => {
  const a = await account();
  proxy.state.mode = "pass";
  const added = await a.api("POST", "/v1/awbs", { awb: plain.awb });
  expect(added.body.data.status).toBe("booked");
  const id = added.body.data.id as string;
  const before = await written(a.orgId, id);

  // The acceptance is published, but the events list the airline serves is broken.
  const rcs = plain.events.find((e) => e.code === "RCS")!;
  proxy.state.mode = "corrupt";
  await w.at(Math.max(rcs.created, clock.t + 2 * H) + MIN);
  const after = await written(a.orgId, id);
  expect({ events: after.events, outbox: after.outbox }).toEqual({ events: before.events, outbox: [] });
  expect(after.row).toMatchObject({
    status: "booked",
    lastError: "malformed",
    pollFailures: 1,
    notified: before.row.notified,
    nextPollAt: new Date(clock.t + MIN).toISOString(),
  });
  expect((await a.api("GET", `/v1/awbs/${id}`)).body.data.last_error).toBe("malformed");

  proxy.state.mode = "pass";
  await w.at(clock.t + 2 * MIN);
  const good = await written(a.orgId, id);
  expect(good.row).toMatchObject({ status: "received", lastError: null, pollFailures: 0 });
  expect(good.events).toBeGreaterThan(before.events);
  expect(good.outbox).toEqual(["awb_accepted"]);
});

test("an airline that is down: the add stands with a warning, and polling catches up", async () => {
  const a = await account();
  const other = findAwb(world, "020", (s) => plainOf(s) && s.bookedAt < clock.t, 1_100_000);
  proxy.state.mode = "down";
  const added = await a.api("POST", "/v1/awbs", { awb: formatAwb(other.awb) });
  expect(added.status).toBe(201);
  expect(added.body.warning).toContain("unavailable");
  expect(added.body.data).toMatchObject({ status: "unknown", last_error: "unavailable", timeline: [] });
  proxy.state.mode = "pass";
  await w.at(clock.t + 2 * MIN);
  const read = await a.api("GET", `/v1/awbs/${added.body.data.id}`);
  expect(read.body.data).toMatchObject({ last_error: null, origin: other.origin.iata });
  expect(read.body.data.status).not.toBe("unknown");
});

test("pieces offloaded and flown a day later: flagged while apart, one awb_arrived when the last is in", async () => {
  const a = await account();
  // Part of the consignment offloaded at the origin; the rest flies on as planned.
  const s = findAwb(
    world,
    "020",
    (x) =>
      !x.split &&
      x.offload !== null &&
      x.offload.pieces < x.pieces &&
      x.offload.airport === x.origin &&
      x.bookedAt + 30 * MIN > clock.t,
  );
  await w.at(s.bookedAt + 30 * MIN);
  const added = await a.api("POST", "/v1/awbs", { awb: s.awb });
  const id = added.body.data.id as string;
  const flags = new Set<string>();
  const end = Math.max(...s.events.map((e) => e.created)) + 150 * MIN;
  for (let now = clock.t + 30 * MIN; now <= end; now += 30 * MIN) {
    await w.at(now);
    for (const f of (await a.api("GET", `/v1/awbs/${id}`)).body.data.exceptions as string[]) flags.add(f);
  }
  // Offloaded until the left-behind pieces flew; split while the first part was in and they were not.
  expect(flags).toContain("offloaded");
  expect(flags).toContain("split");
  const done = await written(a.orgId, id);
  expect(done.row.status).toBe("delivered");
  expect(done.row.exceptions.filter((f) => f !== "delayed")).toEqual([]);
  expect(done.outbox).toEqual([
    "awb_accepted",
    "awb_in_transit",
    "awb_arrived",
    "awb_available",
    "awb_delivered",
  ]);
  // awb_arrived came with the arrival that completed the pieces: the offloaded part's.
  const { db, t } = w.p.storage;
  const [arrived] = await db
    .select()
    .from(t.outbox)
    .where(and(eq(t.outbox.orgId, a.orgId), eq(t.outbox.type, "awb_arrived")));
  const lastIn = s.events
    .filter((e) => e.timeType === "ACTUAL" && e.code === "ARR" && e.airport === s.destination)
    .reduce((x, y) => (y.at > x.at ? y : x));
  expect(Date.parse(arrived!.occurredAt)).toBeGreaterThanOrEqual(lastIn.created);
  expect(arrived!.data).toMatchObject({ event_pieces: s.offload!.pieces, location: s.destination.iata });
}, 60_000);
