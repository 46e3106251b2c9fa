/**
 * An air waybill refresh's pure steps as tables (ingest/air-tracking/refresh.ts runs them in one
 * transaction): the airline's snapshot against the stored events, then the waybill's new fields and
 * the awb_* events it raises.
 */
import { describe, expect, test } from "bun:test";
import { AIR_CADENCE } from "../../ingest/air-tracking/schedule.ts";
import { mergeEvents, waybillState } from "../../ingest/air-tracking/waybill-state.ts";
import type { AwbEvent, AwbSnapshot } from "../../ingest/airlines/connector.ts";
import type { AirWaybillRow, StoredAirEvent } from "../../storage/air-waybills.ts";

const T0 = Date.parse("2026-11-02T00:00:00Z");
const at = (h: number) => new Date(T0 + h * 3_600_000).toISOString();
const NOW = T0 + 48 * 3_600_000;

/** "CODE AIRPORT HOUR": an actual event of the whole consignment, its id `code@hour`. */
function ev(line: string, planned = false): AwbEvent {
  const [code, airport, hour] = line.split(" ");
  return {
    id: `${code}@${hour}`,
    code: code!,
    timeType: planned ? "PLANNED" : "ACTUAL",
    at: at(Number(hour)),
    airport: airport!,
    flight: code === "DEP" || code === "ARR" ? "LH8160" : null,
    toAirport: code === "DEP" ? "ORD" : null,
    pieces: null,
    partial: false,
  };
}
const stored = (events: AwbEvent[]): StoredAirEvent[] =>
  events.map((e, seq) => ({ eventId: e.id, seq, payload: e }));

describe("mergeEvents: the airline's snapshot against the stored events", () => {
  const rcs = ev("RCS FRA 1");
  const dep = ev("DEP FRA 5");
  const depLater = { ...dep, at: at(6) };
  test.each<[string, AwbEvent[], AwbEvent[], string[], string[], Array<[string, number]>]>([
    [
      "nothing stored: new events numbered in the snapshot's order",
      [],
      [rcs, dep],
      ["RCS@1:0", "DEP@5:1"],
      [],
      [
        ["RCS@1", 0],
        ["DEP@5", 1],
      ],
    ],
    [
      "the same snapshot again writes nothing",
      [rcs, dep],
      [dep, rcs],
      [],
      [],
      [
        ["RCS@1", 0],
        ["DEP@5", 1],
      ],
    ],
    [
      "a new event is numbered after the last stored one",
      [rcs],
      [rcs, dep],
      ["DEP@5:1"],
      [],
      [
        ["RCS@1", 0],
        ["DEP@5", 1],
      ],
    ],
    [
      "a changed event is replaced, keeping its number",
      [rcs, dep],
      [depLater],
      [],
      ["DEP@5"],
      [
        ["RCS@1", 0],
        ["DEP@5", 1],
      ],
    ],
    [
      "an id twice in one snapshot: stored once, then replaced",
      [],
      [dep, depLater],
      ["DEP@5:0"],
      ["DEP@5"],
      [["DEP@5", 0]],
    ],
  ])("%s", (_, before, snapshot, inserts, replaces, seen) => {
    const merged = mergeEvents(stored(before), snapshot);
    expect(merged.inserts.map((s) => `${s.eventId}:${s.seq}`)).toEqual(inserts);
    expect(merged.replaces.map((e) => e.id)).toEqual(replaces);
    expect(merged.seen.map((s) => [s.event.id, s.seq])).toEqual(seen);
  });

  test("the events seen after carry the airline's latest word", () => {
    expect(mergeEvents(stored([dep]), [depLater]).seen[0]!.event.at).toBe(at(6));
  });
});

describe("waybillState: the waybill's new fields and the events it raises", () => {
  const row = (fields: Partial<AirWaybillRow> = {}) =>
    ({
      id: "w1",
      orgId: "o1",
      awb: "02012345675",
      airlineIata: "LH",
      origin: null,
      destination: "ORD",
      pieces: 2,
      weightKg: null,
      status: "unknown",
      exceptions: [],
      eta: null,
      etaIsEstimated: null,
      plannedArrivalAt: null,
      departedAt: null,
      arrivedAt: null,
      deliveredAt: null,
      lastError: "unavailable",
      connectorStatus: null,
      archivedAt: null,
      notified: [],
      addedAt: at(0),
      ...fields,
    }) as AirWaybillRow;
  const snapshot = (events: AwbEvent[], facts: Partial<AwbSnapshot> = {}): AwbSnapshot => ({
    awb: "02012345675",
    origin: "FRA",
    destination: null,
    pieces: null,
    weightKg: 12.5,
    events,
    ...facts,
  });
  const state = (
    r: AirWaybillRow,
    before: AwbEvent[],
    events: AwbEvent[],
    facts: Partial<AwbSnapshot> = {},
  ) =>
    waybillState(
      r,
      snapshot(events, facts),
      mergeEvents(stored(before), events),
      { nowMs: NOW, cadence: AIR_CADENCE },
      {
        name: () => null,
        timezone: () => null,
      },
    );
  const iso = (ms: number) => new Date(ms).toISOString();

  test.each<[string, AirWaybillRow, AwbEvent[], Partial<AirWaybillRow>, string[]]>([
    [
      "accepted after the add: received, polled hourly, awb_accepted raised",
      row(),
      [ev("RCS FRA 1")],
      {
        status: "received",
        origin: "FRA",
        destination: "ORD",
        pieces: 2,
        weightKg: 12.5,
        lastError: null,
        nextPollAt: iso(NOW + AIR_CADENCE.received!),
        notified: ["awb_accepted"],
      },
      ["awb_accepted"],
    ],
    [
      "a milestone before the add is notified, not raised",
      row({ addedAt: at(3) }),
      [ev("RCS FRA 1")],
      { status: "received", notified: ["awb_accepted"] },
      [],
    ],
    [
      "in transit straight away: both milestones in lifecycle order",
      row(),
      [ev("RCS FRA 1"), ev("DEP FRA 5")],
      { status: "in_transit", departedAt: at(5), notified: ["awb_accepted", "awb_in_transit"] },
      ["awb_accepted", "awb_in_transit"],
    ],
    [
      "delivered: no more polls",
      row({ notified: ["awb_accepted", "awb_in_transit", "awb_arrived", "awb_available"] }),
      [ev("RCS FRA 1"), ev("DEP FRA 5"), ev("ARR ORD 14"), ev("NFD ORD 15"), ev("DLV ORD 20")],
      { status: "delivered", deliveredAt: at(20), nextPollAt: null },
      ["awb_delivered"],
    ],
  ])("%s", (_, r, events, expected, raised) => {
    const out = state(r, [], events);
    expect(out.update).toMatchObject({ ...expected, adding: false, pollFailures: 0, lastPolledAt: iso(NOW) });
    expect(out.raised.map((e): string => e.type)).toEqual(raised);
  });

  test.each<[string, AwbEvent[], AwbEvent[], boolean]>([
    ["a new event moves updated_at", [ev("RCS FRA 1")], [ev("RCS FRA 1"), ev("DEP FRA 5")], true],
    [
      "the same events on a waybill already derived from them leave it",
      [ev("RCS FRA 1")],
      [ev("RCS FRA 1")],
      false,
    ],
    [
      "a new event that changes no field still moves it: the timeline moved",
      [ev("RCS FRA 1")],
      [ev("RCS FRA 1"), ev("BKD FRA 0")],
      true,
    ],
  ])("%s", (_, before, after, moves) => {
    // The waybill as the refresh that stored `before` left it.
    const derived = { ...row(), ...state(row(), [], before).update } as AirWaybillRow;
    expect(state(derived, before, after).update.updatedAt === iso(NOW)).toBe(moves);
  });
});
