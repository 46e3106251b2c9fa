/**
 * The sailing_slipped rule (ingest/schedules/events.ts) over one sailing: when a refresh's first
 * departure raises, and which reference it keeps for the next refresh.
 */
import { expect, test } from "bun:test";
import { type FirstDeparture, type SailingSubject, slipped } from "../../ingest/schedules/events.ts";

const H = 3_600_000;
const PLANNED = "2026-03-01T12:00:00.000Z";
const at = (hours: number) => new Date(Date.parse(PLANNED) + hours * H).toISOString();
const sailing: SailingSubject = {
  id: "MAEU/AE1/2609W",
  carrier: "MAEU",
  serviceCode: "AE1",
  serviceName: "Asia-Europe 1",
  voyage: "2609W",
  vesselImo: "9778791",
  vesselName: "Sandbox Hull",
};
const first = (expectedH: number, over: Partial<FirstDeparture> = {}): FirstDeparture => ({
  call: "CNSHA-1",
  unlocode: "CNSHA",
  planned: PLANNED,
  expected: at(expectedH),
  departed: false,
  ...over,
});

// [case, reference (hours after planned; null = none), was, is, raises, reference kept]
test.each([
  ["no move", 0, first(0), first(0), false, 0],
  ["exactly the threshold later", 0, first(0), first(12), false, 0],
  ["past the threshold", 0, first(0), first(12.5), true, 12.5],
  ["measured from the reference, not the last estimate", 0, first(8), first(13), true, 13],
  ["creeping but still within it", 6, first(10), first(17), false, 6],
  ["earlier: nothing, the reference stays", 20, first(20), first(2), false, 20],
  ["the sailing has left", 0, first(0), first(30, { departed: true }), false, 0],
  ["no reference yet (stored before it existed): starts one", null, first(0), first(30), false, 30],
  [
    "the first call changed (its port omitted): starts again",
    0,
    first(0),
    first(40, { call: "SGSIN-1" }),
    false,
    40,
  ],
] as const)("%s", (_, reference, was, is, raises, kept) => {
  const r = slipped(
    sailing,
    was,
    is,
    reference === null ? null : at(reference),
    12 * H,
    "2026-02-20T00:00:00.000Z",
  );
  expect(r.raised !== null).toBe(raises);
  expect(r.baseline).toBe(at(kept));
  if (r.raised) {
    expect<object>(r.raised).toEqual({
      type: "sailing_slipped",
      data: {
        sailing_id: sailing.id,
        carrier_code: "MAEU",
        service_code: "AE1",
        service_name: "Asia-Europe 1",
        voyage: "2609W",
        vessel_imo: "9778791",
        vessel_name: "Sandbox Hull",
        port_unlocode: "CNSHA",
        planned_departure: PLANNED,
        previous_departure: at(reference ?? 0),
        new_departure: is.expected,
        slip_hours: kept - (reference ?? 0),
        delay_hours: kept,
        threshold_hours: 12,
        detected_at: "2026-02-20T00:00:00.000Z",
      },
    });
  }
});
