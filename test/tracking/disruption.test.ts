/**
 * schedule_disruption: real sandbox voyages (the carrier in its own process, manual clock) through
 * the tracking engine's outbox to a signed delivery, then the rules over small hand-made event lists.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { deliveryIdFor } from "../../api/webhooks/dispatcher.ts";
import { verify } from "../../api/webhooks/verify.ts";
import type { DcsaEvent } from "../../ingest/carriers/dcsa.ts";
import { visibleEvents } from "../../ingest/sandbox/box-view.ts";
import { type SimulatedVoyage, simulateVoyage } from "../../ingest/sandbox/simulate.ts";
import { loadWorld, type SandboxWorld } from "../../ingest/sandbox/world.ts";
import type { DcsaEventLike } from "../../ingest/tracking/dcsa.ts";
import { type DisruptionContext, SLIP_MS, scheduleDisruptions } from "../../ingest/tracking/disruptions.ts";
import { currentEvents } from "../../ingest/tracking/timeline.ts";
import { ManualClock, type TestPlatform } from "../helpers/platform.ts";
import type { RunningSandbox } from "../sandbox/spawn.ts";
import { deliveryChecker } from "../webhooks/document-check.ts";
import { schemaProblems, storedEvents } from "../webhooks/event-schemas.ts";
import type { Receiver } from "../webhooks/receiver.ts";
import { apiOf, until, voyageWorld } from "../webhooks/setup.ts";

const H = 3_600_000;
const iso = (t: string | number) => new Date(typeof t === "number" ? t : Date.parse(t)).toISOString();
const hours = (ms: number) => Math.round(ms / 360_000) / 10;

const clock = new ManualClock(Date.parse("2026-11-01T00:00:00Z"));
let w: Awaited<ReturnType<typeof voyageWorld>>;
let sandbox: RunningSandbox;
let rx: Receiver;
let p: TestPlatform;
let world: SandboxWorld;

beforeAll(async () => {
  w = await voyageWorld(clock);
  ({ sandbox, rx, p } = w);
  world = await loadWorld();
});
afterAll(() => w.close());

/** Moves both clocks (ours and the carrier's) and lets the poller run. */
async function at(ms: number) {
  clock.t = ms;
  await sandbox.setClock({ now: iso(ms) });
  await p.tracking.ocean.pollDue();
}

async function tenant(name: string) {
  const org = await p.accounts.createOrg(name, { paid: true, rateLimit: 1_000_000 });
  await p.accounts.setEntitlement(org.id, "ocean", null);
  return { orgId: org.id, api: apiOf(p, (await p.accounts.createKey(org.id, "ocean")).key) };
}

const raised = async (orgId: string, type?: string) => {
  const { outbox } = p.storage.t;
  const rows = await p.storage.db.select().from(outbox).where(eq(outbox.orgId, orgId)).orderBy(outbox.seq);
  return rows.filter((o) => type === undefined || o.type === type);
};

/** The carrier's forecast of a call as the box's query saw it at `t` (the oracle: the simulator's own events). */
function forecastAt(v: SimulatedVoyage, box: string, t: number, code: "DEPA" | "ARRI", port: string) {
  const seen = visibleEvents(v, t, box).filter(
    (e): e is Extract<DcsaEvent, { eventType: "TRANSPORT" }> =>
      e.eventType === "TRANSPORT" &&
      e.eventClassifierCode !== "ACT" &&
      e.transportEventTypeCode === code &&
      e.transportCall.UNLocationCode === port,
  );
  return seen.at(-1)!;
}

describe("from the sandbox carrier", () => {
  test("a roll onto next week's sailing: one sailing_change when the carrier re-plans; the missed connection later is container_misrouted only", async () => {
    const ref = "MAEU0633650";
    const v = simulateVoyage(ref, { world })!;
    const box = v.containers.find((c) => c.number === ref)!;
    const [first, planned, rolled] = v.legs;
    // The voyage as simulated: rolled at the hub onto a sailing the carrier announces with a remark.
    expect(box.rolled).toBe(true);
    expect(rolled!.unplanned).toBe(true);
    const rollNews = visibleEvents(v, Number.POSITIVE_INFINITY, ref).find((e) =>
      /Missed connection/.test((e as { changeRemark?: string }).changeRemark ?? ""),
    )!;
    const rollKnownAt = Date.parse(rollNews.eventCreatedDateTime);
    const hub = planned!.from.locode;
    const destination = v.destination.locode;
    // Known a day after leaving the origin and a week before the other sailing: polls fall between.
    expect(rollKnownAt).toBeGreaterThan(Date.parse(first!.departure) + 6 * H);
    expect(rollKnownAt).toBeLessThan(Date.parse(rolled!.departure) - 24 * H);

    const { orgId, api } = await tenant("roll");
    await at(Date.parse(first!.plannedDeparture) - 48 * H);
    expect(
      (await api("POST", "/v1/containers", { identifier: ref, identifier_type: "container_id" })).status,
    ).toBe(201);
    await at(Date.parse(first!.departure) + 6 * H);
    expect(await raised(orgId, "schedule_disruption")).toHaveLength(0);
    const lastPoll = clock.t;

    await at(rollKnownAt + H);
    const disruptions = await raised(orgId, "schedule_disruption");
    expect(disruptions).toHaveLength(1);
    const wasDepa = forecastAt(v, ref, lastPoll, "DEPA", hub);
    const wasArri = forecastAt(v, ref, lastPoll, "ARRI", destination);
    // The new sailing as the carrier published it with the news (its estimates then, not its true times).
    const newDepa = Date.parse(forecastAt(v, ref, rollKnownAt + H, "DEPA", hub).eventDateTime);
    const newArri = Date.parse(forecastAt(v, ref, rollKnownAt + H, "ARRI", destination).eventDateTime);
    const depaDelay = hours(newDepa - Date.parse(wasDepa.eventDateTime));
    expect(disruptions[0]!.data).toMatchObject({
      container_number: ref,
      identifier: ref,
      identifier_type: "container_id",
      carrier_code: "MAEU",
      destination_unlocode: destination,
      kind: "sailing_change",
      event_type: "DEPA",
      location: hub,
      event_date_time: iso(newDepa),
      event_timezone: planned!.from.timezone,
      vessel_imo: rolled!.vessel.imo,
      vessel_name: rolled!.vessel.name,
      voyage: rolled!.voyage,
      previous_vessel_imo: planned!.vessel.imo,
      previous_vessel_name: planned!.vessel.name,
      previous_voyage: planned!.voyage,
      previous_time: iso(wasDepa.eventDateTime),
      new_time: iso(newDepa),
      delay_hours: depaDelay,
      change_remark: `Missed connection at ${hub}: rolled to ${rolled!.vessel.name} voyage ${rolled!.voyage}`,
      delay_reason_code: null,
      // One event for the sailing: its departure from the hub and its arrival at the destination.
      calls: [
        {
          event_type: "DEPA",
          location: hub,
          previous_time: iso(wasDepa.eventDateTime),
          new_time: iso(newDepa),
          delay_hours: depaDelay,
        },
        {
          event_type: "ARRI",
          location: destination,
          previous_time: iso(wasArri.eventDateTime),
          new_time: iso(newArri),
          delay_hours: hours(newArri - Date.parse(wasArri.eventDateTime)),
        },
      ],
    });
    expect(depaDelay).toBeGreaterThan(24);
    // The ETA moved a week too: that is eta_changed's news, raised beside it.
    expect((await raised(orgId, "eta_changed")).length).toBeGreaterThan(0);
    expect(await raised(orgId, "container_misrouted")).toHaveLength(0);

    // The box leaves the hub on the other vessel: the fact is container_misrouted, not a second disruption.
    await at(Date.parse(rolled!.departure) + 3 * H);
    expect(await raised(orgId, "container_misrouted")).toHaveLength(1);
    await at(Date.parse(box.milestones.discharged) + 3 * H);
    expect(await raised(orgId, "schedule_disruption")).toHaveLength(1);
    expect(await raised(orgId, "container_misrouted")).toHaveLength(1);
  });

  test("a departure slipping over a day: one slip, delivered signed to the subscribed endpoint; the arrival moving with it is eta_changed only", async () => {
    const ref = "MRKU1187986";
    const v = simulateVoyage(ref, { world })!;
    const box = v.containers.find((c) => c.number === ref)!;
    const leg = v.legs[0]!;
    expect(v.legs).toHaveLength(1); // direct: the only call ahead after departure is the destination
    const slip = Date.parse(leg.departure) - Date.parse(leg.plannedDeparture);
    expect(slip).toBeGreaterThanOrEqual(SLIP_MS);
    const news = forecastAt(v, ref, Date.parse(leg.departure) - H, "DEPA", leg.from.locode);
    expect(iso(news.eventDateTime)).toBe(iso(leg.departure));

    const { orgId, api } = await tenant("slip");
    const hook = (
      await api("POST", "/v1/webhooks", {
        url: rx.url("/ok/disruption"),
        event_types: ["schedule_disruption"],
      })
    ).body.data as { id: string; secret: string };
    await at(Date.parse(leg.plannedDeparture) - 6 * 24 * H);
    expect(
      (await api("POST", "/v1/containers", { identifier: ref, identifier_type: "container_id" })).status,
    ).toBe(201);
    await at(Date.parse(news.eventCreatedDateTime) + H);
    const rows = await raised(orgId, "schedule_disruption");
    expect(rows).toHaveLength(1);
    const row = rows[0]!;
    const call = {
      event_type: "DEPA",
      location: leg.from.locode,
      previous_time: iso(leg.plannedDeparture),
      new_time: iso(leg.departure),
      delay_hours: slip / H,
    };
    expect(row.data).toEqual({
      id: expect.any(String),
      identifier: ref,
      identifier_type: "container_id",
      container_number: ref,
      bl_number: null,
      booking_number: null,
      carrier_code: "MAEU",
      status: "in_transit",
      // The network moves the arrival estimate with the departure's (eta_changed's news, not a slip).
      eta: iso(
        forecastAt(v, ref, Date.parse(news.eventCreatedDateTime) + H, "ARRI", leg.to.locode).eventDateTime,
      ),
      origin_unlocode: leg.from.locode,
      destination_unlocode: leg.to.locode,
      event_type: "DEPA",
      label: expect.stringMatching(/\(estimated\)$/),
      location: leg.from.locode,
      vessel_imo: leg.vessel.imo,
      vessel_name: leg.vessel.name,
      event_date_time: iso(leg.departure),
      event_local_datetime: expect.any(String),
      utc_offset_minutes: expect.any(Number),
      event_timezone: leg.from.timezone,
      kind: "slip",
      voyage: leg.voyage,
      previous_vessel_imo: leg.vessel.imo,
      previous_vessel_name: leg.vessel.name,
      previous_voyage: leg.voyage,
      previous_time: call.previous_time,
      new_time: call.new_time,
      delay_hours: call.delay_hours,
      calls: [call],
      change_remark: null,
      delay_reason_code: null,
    });

    // Delivered once, signed with the endpoint's secret, the bytes carrying the outbox row, as the
    // ocean document's webhook.
    const [hit] = await rx.waitFor(1, (r) => r.path === "/ok/disruption");
    (await deliveryChecker(p, "ocean"))(hit!);
    expect(hit!.headers["x-portolan-ocean-event"]).toBe("schedule_disruption");
    expect(hit!.headers["x-portolan-ocean-delivery"]).toBe(deliveryIdFor(row.id, hook.id));
    expect(await verify(hit!.raw, hit!.headers["x-portolan-ocean-signature"]!, hook.secret)).toBe(true);
    expect(JSON.parse(hit!.raw.toString())).toEqual({
      id: deliveryIdFor(row.id, hook.id),
      type: "schedule_disruption",
      occurred_at: iso(row.occurredAt),
      data: row.data,
    });

    // After departure the arrival estimate carries the delay forward: eta_changed, no second slip.
    await at(Date.parse(leg.departure) + 6 * H);
    expect((await raised(orgId, "eta_changed")).length).toBeGreaterThan(0);
    await at(Date.parse(box.milestones.discharged) + 3 * H);
    expect(await raised(orgId, "schedule_disruption")).toHaveLength(1);
    await until(async () => {
      const { webhookDeliveries } = p.storage.t;
      const d = await p.storage.db
        .select()
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.endpointId, hook.id));
      return d.length === 1 && d[0]!.status === "delivered";
    });
    // One delivery: an attempt the dispatcher gave up on (at the test platform's timeout)
    // may still have reached the receiver, and its retry carries the same delivery id to dedupe on.
    const ids = rx.received
      .filter((r) => r.path === "/ok/disruption")
      .map((r) => r.headers["x-portolan-ocean-delivery"]);
    expect(new Set(ids)).toEqual(new Set([deliveryIdFor(row.id, hook.id)]));
  });
});

describe("the rules, over hand-made events", () => {
  const BOX = "MSCU1234565";
  const T0 = Date.parse("2026-10-01T00:00:00Z");
  const at = (h: number) => iso(T0 + h * H);
  let seq = 0;
  const call = (
    code: "DEPA" | "ARRI",
    port: string,
    h: number,
    o: {
      vessel?: string;
      voyage?: string | null;
      created?: number;
      boxes?: string[];
      act?: boolean;
    } = {},
  ): DcsaEventLike =>
    ({
      eventID: `00000000-0000-4000-8000-${String(++seq).padStart(12, "0")}`,
      eventType: "TRANSPORT",
      eventClassifierCode: o.act ? "ACT" : "EST",
      eventDateTime: at(h),
      eventCreatedDateTime: at(o.created ?? 0),
      transportEventTypeCode: code,
      transportCall: {
        UNLocationCode: port,
        ...(o.voyage === null ? {} : { carrierVoyageNumber: o.voyage ?? "101E" }),
        vessel: { vesselIMONumber: o.vessel ?? "9321483", vesselName: `V${o.vessel ?? "9321483"}` },
      },
      ...(o.boxes ? { references: o.boxes.map((b) => ({ referenceType: "EQ", referenceValue: b })) } : {}),
    }) as DcsaEventLike;
  const ctx: DisruptionContext = {
    container: BOX,
    destination: "NLRTM",
    previousDestination: "NLRTM",
    misrouted: false,
  };
  const route = [
    call("DEPA", "CNSHA", 100),
    call("ARRI", "SGSIN", 200),
    call("DEPA", "SGSIN", 220),
    call("ARRI", "NLRTM", 600),
  ];
  const diff = (later: DcsaEventLike[], c = ctx) =>
    scheduleDisruptions(currentEvents(route), currentEvents([...route, ...later]), c);

  test("a move under 24 h is noise; 24 h later or earlier is a slip, signed", () => {
    expect(diff([call("DEPA", "CNSHA", 123, { created: 1 })])).toEqual([]);
    const late = diff([call("DEPA", "CNSHA", 124, { created: 1 })]);
    expect(late.map((d) => [d.kind, d.calls])).toEqual([
      [
        "slip",
        [
          {
            event_type: "DEPA",
            location: "CNSHA",
            previous_time: at(100),
            new_time: at(124),
            delay_hours: 24,
          },
        ],
      ],
    ]);
    expect(diff([call("DEPA", "SGSIN", 190, { created: 1 })])[0]!.calls[0]!.delay_hours).toBe(-30);
  });

  test("one event per sailing: its departure and arrival slipping together are one slip", () => {
    const out = diff([
      call("DEPA", "CNSHA", 148, { created: 1 }),
      call("ARRI", "SGSIN", 248, { created: 1 }),
    ]);
    expect(out).toHaveLength(1);
    expect(out[0]!.calls.map((c) => c.location)).toEqual(["CNSHA", "SGSIN"]);
  });

  test("the arrival at the destination slipping is eta_changed's, not a disruption", () => {
    expect(diff([call("ARRI", "NLRTM", 700, { created: 1 })])).toEqual([]);
  });

  test("another vessel or voyage for a call is a sailing_change; a missing voyage is not", () => {
    const swapped = diff([call("DEPA", "SGSIN", 226, { created: 1, vessel: "9454448", voyage: "202W" })]);
    expect(swapped.map((d) => [d.kind, d.previous.voyage, d.current.voyage])).toEqual([
      ["sailing_change", "101E", "202W"],
    ]);
    expect(diff([call("DEPA", "SGSIN", 221, { created: 1, voyage: null })])).toEqual([]);
    // Reported as container_misrouted in the same refresh: not twice.
    expect(
      diff([call("DEPA", "SGSIN", 226, { created: 1, vessel: "9454448" })], { ...ctx, misrouted: true }),
    ).toEqual([]);
  });

  test("a port dropped from the box's calls is an omission; the destination dropped is container_misrouted's", () => {
    const hubArrival = route[1]!;
    const corrected = {
      ...hubArrival,
      transportCall: { ...hubArrival.transportCall, UNLocationCode: "MYPKG" },
    };
    const hubDeparture = {
      ...route[2]!,
      transportCall: { ...route[2]!.transportCall, UNLocationCode: "MYPKG" },
    };
    // The carrier corrects both calls at the hub (same eventIDs) to another port.
    const before = currentEvents(route);
    const after = currentEvents([route[0]!, corrected, hubDeparture, route[3]!]);
    const out = scheduleDisruptions(before, after, ctx);
    expect(out.map((d) => [d.kind, d.calls.map((c) => [c.event_type, c.location, c.new_time])])).toEqual([
      [
        "omission",
        [
          ["ARRI", "SGSIN", null],
          ["DEPA", "SGSIN", null],
        ],
      ],
    ]);
    const lastCall = { ...route[3]!, transportCall: { ...route[3]!.transportCall, UNLocationCode: "BEANR" } };
    expect(scheduleDisruptions(before, currentEvents([...route.slice(0, 3), lastCall]), ctx)).toEqual([]);
  });

  test("a call that happened, a sibling box's sailing and the same events again raise nothing", () => {
    // Departed 30 h late with no estimate first: vessel_departed reports it.
    expect(diff([call("DEPA", "CNSHA", 130, { created: 131, act: true })])).toEqual([]);
    // The newest forecast at the hub names only another box of the B/L (rolled elsewhere).
    expect(
      diff([call("DEPA", "SGSIN", 388, { created: 1, vessel: "9454448", boxes: ["MSCU7654321"] })]),
    ).toEqual([]);
    expect(scheduleDisruptions(currentEvents(route), currentEvents(route), ctx)).toEqual([]);
  });
});

test("every event raised above matches its schema in the event catalogue", async () => {
  const rows = await storedEvents(p.storage);
  expect(rows.length).toBeGreaterThan(0);
  expect(schemaProblems(rows)).toEqual([]);
});
