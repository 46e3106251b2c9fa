/**
 * The sandbox carrier as a real process on a manual clock, read through the DCSA connector: a
 * voyage driven from booking to empty return, ETA revisions, transshipment with a missed
 * connection, customs hold and release, B/L and booking fan-out, determinism, pagination, errors.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { CarrierError, DcsaConnector, type TrackingReference } from "../../ingest/carriers/connector.ts";
import type {
  DcsaEquipmentEvent,
  DcsaEvent,
  DcsaShipmentEvent,
  DcsaTransportEvent,
} from "../../ingest/carriers/dcsa.ts";
import { validateContainerNumber } from "../../ingest/iso6346.ts";
import { visibleEvents } from "../../ingest/sandbox/box-view.ts";
import { DEMO_REFERENCES, type DemoScenario } from "../../ingest/sandbox/demo.ts";
import { isValidImo } from "../../ingest/sandbox/fleet.ts";
import { type SimulatedVoyage, simulateVoyage } from "../../ingest/sandbox/simulate.ts";
import { loadWorld, type SandboxWorld } from "../../ingest/sandbox/world.ts";
import { type RunningSandbox, startSandbox } from "./spawn.ts";

const KEY = "sandbox-test-key";
const H = 3600_000;
let sandbox: RunningSandbox;
let world: SandboxWorld;

beforeAll(async () => {
  [sandbox, world] = await Promise.all([startSandbox({ SANDBOX_API_KEY: KEY }), loadWorld()]);
});
afterAll(() => sandbox?.stop());

/** The sandbox's manual clock; the connector bounds eventCreatedDateTime by it. */
let clock = Date.now();
const connector = (scac: string, pageLimit = 100) =>
  new DcsaConnector({ scac, baseUrl: sandbox.carrierUrl(scac), apiKey: KEY, pageLimit, now: () => clock });
const at = (ms: number) => {
  clock = ms;
  return sandbox.setClock({ now: new Date(ms).toISOString() });
};
const demo = (scac: string, scenario: DemoScenario) =>
  DEMO_REFERENCES.find((d) => d.scac === scac && d.scenario === scenario)!;
const voyageOf = (reference: string): SimulatedVoyage => simulateVoyage(reference, { world })!;
const t = (s: string) => Date.parse(s);

const isEquipment = (e: DcsaEvent): e is DcsaEquipmentEvent => e.eventType === "EQUIPMENT";
const isTransport = (e: DcsaEvent): e is DcsaTransportEvent => e.eventType === "TRANSPORT";
const isShipment = (e: DcsaEvent): e is DcsaShipmentEvent => e.eventType === "SHIPMENT";

async function fetchAt(now: number, scac: string, ref: TrackingReference, pageLimit = 100) {
  await at(now);
  return connector(scac, pageLimit).fetchEvents(ref);
}

describe("a transshipped box that misses its connection, from booking to empty return", () => {
  const d = demo("MAEU", "missed_connection");
  const ref: TrackingReference = { kind: "container", value: d.reference };
  let v: SimulatedVoyage;
  let final: DcsaEvent[];
  let done: number;

  beforeAll(async () => {
    v = voyageOf(d.reference);
    done = t(v.containers.find((c) => c.number === d.reference)!.milestones.emptyReturn) + 48 * H;
    final = await fetchAt(done, "MAEU", ref);
  });

  test("nothing is visible before the booking; the feed only grows as the clock moves", async () => {
    expect(await fetchAt(t(v.bookedAt) - H, "MAEU", ref)).toEqual([]);
    let previous: DcsaEvent[] = [];
    const end = done + 10 * 24 * H;
    for (let now = t(v.bookedAt); now <= end; now += 3 * 24 * H) {
      const events = await fetchAt(now, "MAEU", ref);
      expect(events.slice(0, previous.length)).toEqual(previous);
      for (const e of events) {
        expect(t(e.eventCreatedDateTime)).toBeLessThanOrEqual(now);
        if (e.eventClassifierCode === "ACT") expect(t(e.eventDateTime)).toBeLessThanOrEqual(now);
      }
      previous = events;
    }
    expect(previous).toEqual(final);
  });

  test("the feed is ordered by eventCreatedDateTime and the box's moves follow the voyage", () => {
    const created = final.map((e) => t(e.eventCreatedDateTime));
    expect(created).toEqual([...created].sort((a, b) => a - b));
    // A customs inspection (INSP) may sit between discharge and gate-out; the customs test covers it.
    const moves = final
      .filter((e) => isEquipment(e) && e.equipmentEventTypeCode !== "INSP")
      .map((e) => e as DcsaEquipmentEvent)
      .sort((a, b) => t(a.eventDateTime) - t(b.eventDateTime))
      .map((e) => `${e.equipmentEventTypeCode}:${e.emptyIndicatorCode === "EMPTY" ? "E" : "F"}`);
    expect(moves).toEqual([
      "PICK:E",
      "GTIN:F",
      "LOAD:F",
      "DISC:F",
      "LOAD:F",
      "DISC:F",
      "GTOT:F",
      "STRP:F",
      "GTIN:E",
    ]);
    expect(final.filter(isEquipment).every((e) => e.equipmentReference === d.reference)).toBe(true);
    const codes = final.filter(isShipment).map((e) => `${e.documentTypeCode}:${e.shipmentEventTypeCode}`);
    expect(codes).toEqual(
      expect.arrayContaining(["BKG:RECE", "BKG:CONF", "SHI:RECE", "TRD:ISSU", "ARN:ISSU"]),
    );
  });

  test("classifiers: PLN schedule, EST revisions with new eventIDs, ACT with vessel and voyage", () => {
    const transport = final.filter(isTransport);
    expect(new Set(transport.map((e) => e.eventClassifierCode))).toEqual(new Set(["PLN", "EST", "ACT"]));
    for (const e of transport) {
      expect(e.transportCall.modeOfTransport).toBe("VESSEL");
      expect(isValidImo(e.transportCall.vessel!.vesselIMONumber)).toBe(true);
      expect(e.transportCall.carrierVoyageNumber).toMatch(/^\d{4}[NEWS]$/);
      expect(e.eventDateTime).toMatch(/[+-]\d{2}:\d{2}$/);
    }
    const destination = v.destination.locode;
    const etas = transport.filter(
      (e) =>
        e.eventClassifierCode === "EST" &&
        e.transportEventTypeCode === "ARRI" &&
        e.transportCall.UNLocationCode === destination,
    );
    expect(etas.length).toBeGreaterThanOrEqual(2);
    expect(new Set(etas.map((e) => e.eventID)).size).toBe(etas.length);
    expect(new Set(etas.map((e) => t(e.eventDateTime))).size).toBeGreaterThan(1);
    const latest = etas.at(-1)!;
    const arrival = transport.find(
      (e) =>
        e.eventClassifierCode === "ACT" &&
        e.transportEventTypeCode === "ARRI" &&
        e.transportCall.UNLocationCode === destination,
    )!;
    expect(t(latest.eventCreatedDateTime)).toBeLessThan(t(arrival.eventCreatedDateTime));
    expect(latest.transportCall.vessel!.vesselIMONumber).toBe(arrival.transportCall.vessel!.vesselIMONumber);
  });

  test("the missed connection: planned onward vessel differs from the one loaded, with a remark", () => {
    const hub = v.transshipment!.locode;
    const plannedOnward = final.find(
      (e): e is DcsaTransportEvent =>
        isTransport(e) &&
        e.eventClassifierCode === "PLN" &&
        e.transportEventTypeCode === "DEPA" &&
        e.transportCall.UNLocationCode === hub,
    )!;
    const loadAtHub = final.find(
      (e): e is DcsaEquipmentEvent =>
        isEquipment(e) && e.equipmentEventTypeCode === "LOAD" && e.transportCall?.UNLocationCode === hub,
    )!;
    expect(loadAtHub.transportCall!.vessel!.vesselIMONumber).not.toBe(
      plannedOnward.transportCall.vessel!.vesselIMONumber,
    );
    const remark = final.find(
      (e) => isTransport(e) && e.changeRemark?.startsWith(`Missed connection at ${hub}`),
    );
    expect(remark?.eventClassifierCode).toBe("EST");
    expect((remark as DcsaTransportEvent).transportCall.vessel!.vesselIMONumber).toBe(
      loadAtHub.transportCall!.vessel!.vesselIMONumber,
    );
    // After the roll, the planned onward sailing's own arrival no longer names this box.
    const onwardActual = final.filter(
      (e) =>
        isTransport(e) &&
        e.eventClassifierCode === "ACT" &&
        e.transportCall.vessel!.vesselIMONumber === plannedOnward.transportCall.vessel!.vesselIMONumber,
    );
    expect(onwardActual).toEqual([]);
  });

  test("the same reference always gives the same events, in the server and in-process", async () => {
    const now = t(v.legs[0]!.arrival);
    const a = await fetchAt(now, "MAEU", ref);
    const b = await fetchAt(now, "MAEU", ref);
    expect(a).toEqual(b);
    expect(a).toEqual(visibleEvents(voyageOf(d.reference), now, d.reference));
    expect(voyageOf(d.reference)).toEqual(v);
  });

  test("pagination: small pages give the same feed, headers as DCSA 2.2", async () => {
    expect(await fetchAt(done, "MAEU", ref, 2)).toEqual(final);
    const res = await fetch(
      `${sandbox.carrierUrl("MAEU")}/v2/events?equipmentReference=${d.reference}&limit=2`,
      {
        headers: { "API-Key": KEY },
      },
    );
    expect(res.headers.get("API-Version")).toBe("2.2.0");
    const next = res.headers.get("Next-Page")!;
    expect(next.startsWith(`${sandbox.url}/MAEU/v2/events?`)).toBe(true);
    expect(new URL(next).searchParams.get("cursor")).toBe(res.headers.get("Next-Page-Cursor"));
    expect(((await res.json()) as unknown[]).length).toBe(2);
    const second = await fetch(next, { headers: { "API-Key": KEY } });
    expect(second.headers.get("Prev-Page")).toBeTruthy();
  });
});

test("customs hold: HOLD (CUS) naming the box, then INSP, then RELS", async () => {
  const d = demo("MSCU", "customs_hold");
  const v = voyageOf(d.reference);
  const box = v.containers.find((c) => c.number === d.reference)!;
  const hold = box.customsHold!;
  const ref: TrackingReference = { kind: "container", value: d.reference };
  const during = await fetchAt(t(hold.from) + H, "MSCU", ref);
  const holdEvent = during.find(
    (e): e is DcsaShipmentEvent => isShipment(e) && e.shipmentEventTypeCode === "HOLD",
  )!;
  expect(holdEvent).toMatchObject({
    documentTypeCode: "CUS",
    reason: hold.reason,
    references: [{ referenceType: "EQ", referenceValue: d.reference }],
  });
  expect(during.some((e) => isShipment(e) && e.shipmentEventTypeCode === "RELS")).toBe(false);
  const after = await fetchAt(t(hold.to) + H, "MSCU", ref);
  const codes = after
    .filter((e) => e.eventClassifierCode === "ACT")
    .map((e) =>
      isShipment(e)
        ? e.shipmentEventTypeCode
        : isEquipment(e)
          ? e.equipmentEventTypeCode
          : e.transportEventTypeCode,
    );
  const [h, i, r] = ["HOLD", "INSP", "RELS"].map((c) => codes.lastIndexOf(c as never));
  expect(h).toBeLessThan(i!);
  expect(i).toBeLessThan(r!);
  // The hold is about one box: its B/L siblings do not see it.
  const sibling = v.containers.find((c) => c.number !== d.reference)!;
  const siblingEvents = await fetchAt(t(hold.to) + H, "MSCU", { kind: "container", value: sibling.number });
  expect(siblingEvents.some((e) => isShipment(e) && e.documentTypeCode === "CUS")).toBe(false);
});

test("a B/L and its booking resolve to several boxes; each box's own feed is a subset", async () => {
  const d = demo("HLCU", "bill_of_lading");
  const v = voyageOf(d.reference);
  const now = t(v.containers[0]!.milestones.emptyReturn) + 30 * 24 * H;
  const bl = await fetchAt(now, "HLCU", { kind: "bill_of_lading", value: d.reference });
  const boxes = [...new Set(bl.filter(isEquipment).map((e) => e.equipmentReference!))].sort();
  expect(boxes.length).toBeGreaterThanOrEqual(2);
  expect(boxes.length).toBeLessThanOrEqual(4);
  expect(boxes).toEqual(v.containers.map((c) => c.number).sort());
  for (const b of boxes) {
    expect(validateContainerNumber(b).ok).toBe(true);
    const own = await fetchAt(now, "HLCU", { kind: "container", value: b });
    const ids = new Set(bl.map((e) => e.eventID));
    expect(own.every((e) => ids.has(e.eventID))).toBe(true);
    expect(own.filter(isShipment).every((e) => e.documentID === d.reference)).toBe(true);
  }
  expect(bl.filter(isShipment).every((e) => e.documentID === d.reference)).toBe(true);
  expect(await fetchAt(now, "HLCU", { kind: "booking", value: d.reference })).toEqual(bl);
});

test("any well-formed number is trackable; malformed and foreign numbers are DCSA errors", async () => {
  await at(Date.parse("2027-06-01T00:00:00Z"));
  expect(
    (await connector("ONEY").fetchEvents({ kind: "container", value: "ONEU1234566" })).length,
  ).toBeGreaterThan(10);
  expect(
    (await connector("ONEY").fetchEvents({ kind: "bill_of_lading", value: "ONEY987654321" })).length,
  ).toBeGreaterThan(10);
  const failing: Array<[string, TrackingReference, number]> = [
    ["ONEY", { kind: "container", value: "ONEU1234561" }, 400],
    ["ONEY", { kind: "container", value: "MSCU1234566" }, 404],
    ["ONEY", { kind: "bill_of_lading", value: "ONEY12" }, 400],
    ["ONEY", { kind: "bill_of_lading", value: "MAEU123456789" }, 404],
    ["ZZZZ", { kind: "container", value: "ONEU1234566" }, 404],
  ];
  for (const [scac, ref, status] of failing) {
    const err = await connector(scac)
      .fetchEvents(ref)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CarrierError);
    expect([(err as CarrierError).kind, (err as CarrierError).status]).toEqual(["rejected", status]);
  }
  const res = await fetch(`${sandbox.carrierUrl("ONEY")}/v2/events?equipmentReference=ONEU1234561`, {
    headers: { "API-Key": KEY },
  });
  const body = (await res.json()) as { statusCode: number; errors: Array<{ message: string }> };
  expect(body.statusCode).toBe(400);
  expect(body.errors[0]!.message).toContain("ONEU1234566");
});

test("credentials: without the API key the sandbox answers 401; bearer works too", async () => {
  const bare = new DcsaConnector({ scac: "CMDU", baseUrl: sandbox.carrierUrl("CMDU"), now: () => clock });
  const err = (await bare
    .fetchEvents({ kind: "container", value: "CMAU1663002" })
    .catch((e: unknown) => e)) as CarrierError;
  expect([err.kind, err.status]).toEqual(["rejected", 401]);
  const bearer = new DcsaConnector({
    scac: "CMDU",
    baseUrl: sandbox.carrierUrl("CMDU"),
    bearerToken: KEY,
    now: () => clock,
  });
  expect(Array.isArray(await bearer.fetchEvents({ kind: "container", value: "CMAU1663002" }))).toBe(true);
});

test("the manual clock moves by advance_hours", async () => {
  await at(Date.parse("2026-11-21T00:00:00Z"));
  expect((await sandbox.setClock({ advance_hours: 36 })).now).toBe("2026-11-22T12:00:00.000Z");
  clock = Date.parse("2026-11-22T12:00:00.000Z");
});
