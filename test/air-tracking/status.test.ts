/**
 * The air-waybill event model as tables: a waybill's ONE Record events (in the order published) in,
 * status, exception flags and ETA out; then which awb_* events a change raises. A tiny itinerary,
 * HKG -> ANC -> ORD, 10 pieces, one line per event.
 */
import { describe, expect, test } from "bun:test";
import { awbEvents } from "../../ingest/air-tracking/notify.ts";
import { currentEvents, deriveAwb, type SeenEvent } from "../../ingest/air-tracking/status.ts";
import { toMilestone } from "../../ingest/air-tracking/timeline.ts";
import type { AwbEvent } from "../../ingest/airlines/connector.ts";

const T0 = Date.parse("2026-11-02T00:00:00Z");
const at = (h: number) => new Date(T0 + h * 3_600_000).toISOString();
const TIME = { A: "ACTUAL", P: "PLANNED", E: "ESTIMATED" } as const;

/**
 * "CODE TIME AIRPORT[>TO] HOUR [FLIGHT] [pN]": DEP A HKG>ANC 5 CX84 p6 is an actual departure from
 * HKG to ANC at hour 5 on CX84 carrying 6 pieces (a partial event).
 */
function ev(line: string, n: number): AwbEvent {
  const [code, time, where, hour, ...rest] = line.split(" ");
  const [airport, to] = where!.split(">");
  const flight = rest.find((r) => !/^p\d+$/.test(r)) ?? null;
  const pieces = rest.find((r) => /^p\d+$/.test(r));
  return {
    id: `e${n}`,
    code: code!,
    timeType: TIME[time as keyof typeof TIME],
    at: at(Number(hour)),
    airport: airport!,
    flight,
    toAirport: to ?? null,
    pieces: pieces ? Number(pieces.slice(1)) : null,
    partial: pieces !== undefined,
  };
}
const seen = (lines: string[]): SeenEvent[] => lines.map((l, i) => ({ event: ev(l, i), seq: i }));
const facts = { origin: "HKG", destination: "ORD", pieces: 10 };

/** As airlines publish a booking: BKD per flight when booked, and each flight's planned times. */
const BOOKED = [
  "BKD A HKG>ANC 0 CX84",
  "DEP P HKG>ANC 5 CX84",
  "ARR P ANC 13 CX84",
  "BKD A ANC>ORD 0 CX84",
  "DEP P ANC>ORD 16 CX84",
  "ARR P ORD 20 CX84",
];
const FLOWN = [
  ...BOOKED,
  "RCS A HKG 1",
  "DEP A HKG>ANC 5 CX84",
  "ARR A ANC 13 CX84",
  "DEP A ANC>ORD 16 CX84",
];

describe("status, flags and ETA", () => {
  test.each([
    ["no events", [], "unknown", [], null, null],
    ["booked, planned arrival", BOOKED, "booked", [], at(20), true],
    ["accepted", [...BOOKED, "RCS A HKG 1"], "received", [], at(20), true],
    ["departed", [...BOOKED, "RCS A HKG 1", "DEP A HKG>ANC 5 CX84"], "in_transit", [], at(20), true],
    ["arrived at the transit airport only", FLOWN.slice(0, -1), "in_transit", [], at(20), true],
    ["arrived at the destination", [...FLOWN, "ARR A ORD 20.5 CX84"], "arrived", [], at(20.5), false],
    ["an hour late is delayed", [...FLOWN, "ARR A ORD 21 CX84"], "arrived", ["delayed"], at(21), false],
    ["an estimate replaces the plan", [...FLOWN, "ARR E ORD 20 CX84"], "in_transit", [], at(20), true],
    ["two hours late is delayed", [...FLOWN, "ARR E ORD 22 CX84"], "in_transit", ["delayed"], at(22), true],
    [
      "the latest estimate wins",
      [...FLOWN, "ARR E ORD 23 CX84", "ARR E ORD 20.5 CX84"],
      "in_transit",
      [],
      at(20.5),
      true,
    ],
    ["notified", [...FLOWN, "ARR A ORD 20 CX84", "NFD A ORD 22"], "available", [], at(20), false],
    [
      "delivered",
      [...FLOWN, "ARR A ORD 20 CX84", "NFD A ORD 22", "DLV A ORD 30"],
      "delivered",
      [],
      at(20),
      false,
    ],
    [
      "delivered without a notice",
      [...FLOWN, "ARR A ORD 20 CX84", "DLV A ORD 30"],
      "delivered",
      [],
      at(20),
      false,
    ],
    [
      "part arrived: still in transit, split",
      [...FLOWN, "ARR A ORD 20 CX84 p6", "ARR P ORD 44 CX86"],
      "in_transit",
      ["split", "delayed"],
      at(44),
      true,
    ],
    [
      "all parts arrived",
      [...FLOWN, "ARR A ORD 20 CX84 p6", "ARR A ORD 44 CX86 p4"],
      "arrived",
      ["delayed"],
      at(44),
      false,
    ],
    [
      "offloaded before departure",
      [...BOOKED, "RCS A HKG 1", "DIS_OFLD A HKG 4"],
      "received",
      ["offloaded"],
      at(20),
      true,
    ],
    [
      "offloaded, then flown",
      [...BOOKED, "RCS A HKG 1", "DIS_OFLD A HKG 4", "DEP A HKG>ANC 29 CX86"],
      "in_transit",
      [],
      at(20),
      true,
    ],
    [
      "documents at the destination are not availability",
      [...FLOWN, "ARR A ORD 20 CX84", "AWD A ORD 21"],
      "arrived",
      [],
      at(20),
      false,
    ],
    ["cargo missing", [...FLOWN, "DIS_MSCA A ANC 14"], "in_transit", ["missing_cargo"], at(20), true],
    [
      "missing cargo found",
      [...FLOWN, "DIS_MSCA A ANC 14", "DIS_FDCA A ANC 15"],
      "in_transit",
      [],
      at(20),
      true,
    ],
    [
      "overcarried, not yet back",
      [...FLOWN, "DIS_OVCD A YYZ 21"],
      "in_transit",
      ["overcarried"],
      at(20),
      true,
    ],
  ] as const)("%s", (_name, lines, status, exceptions, eta, estimated) => {
    const d = deriveAwb(seen([...lines]), facts);
    expect({ status: d.status, exceptions: d.exceptions, eta: d.eta, estimated: d.etaIsEstimated }).toEqual({
      status,
      exceptions: [...exceptions],
      eta,
      estimated,
    });
  });

  test("offloaded, rebooked on the next day's flight: the stale plan stands until the cargo flies", () => {
    const rebooked = [
      ...BOOKED,
      "RCS A HKG 1",
      "DIS_OFLD A HKG 4",
      "BKD A HKG>ANC 4 CX84",
      "DEP P HKG>ANC 29 CX84",
      "ARR P ORD 44 CX84",
    ];
    const d = deriveAwb(seen(rebooked), facts);
    // The baseline stays the first plan: the rebooked arrival is a day late.
    expect(d).toMatchObject({
      status: "received",
      eta: at(44),
      etaIsEstimated: true,
      plannedArrivalAt: at(20),
    });
    expect(d.exceptions).toEqual(["offloaded", "delayed"]);
    const plannedDeps = (lines: string[]) =>
      currentEvents(seen(lines))
        .filter((e) => e.code === "DEP" && e.airport === "HKG" && e.timeType !== "ACTUAL")
        .map((e) => e.at);
    expect(plannedDeps(rebooked)).toEqual([at(5), at(29)]);
    const flown = [...rebooked, "DEP A HKG>ANC 29.5 CX84"];
    expect(plannedDeps(flown)).toEqual([]);
    expect(deriveAwb(seen(flown), facts).exceptions).toEqual(["delayed"]);
  });

  test("a partial offload stands until the offloaded pieces fly too", () => {
    const lines = [...BOOKED, "RCS A HKG 1", "DIS_OFLD A HKG 4 p4", "DEP A HKG>ANC 5 CX84 p6"];
    expect(deriveAwb(seen(lines), facts).exceptions).toEqual(["offloaded"]);
    const later = [...lines, "DEP A HKG>ANC 29 CX84 p4"];
    expect(deriveAwb(seen(later), facts).exceptions).toEqual([]);
  });

  test("a split consignment's second part keeps its own plan on the same flight a day later", () => {
    const lines = [...FLOWN, "ARR P ORD 44 CX84 p4", "ARR A ORD 20.2 CX84 p6"];
    const arrivals = currentEvents(seen(lines)).filter((e) => e.code === "ARR" && e.airport === "ORD");
    expect(arrivals.map((e) => [e.at, e.timeType])).toEqual([
      [at(20.2), "ACTUAL"],
      [at(44), "PLANNED"],
    ]);
    expect(deriveAwb(seen(lines), facts)).toMatchObject({ status: "in_transit", eta: at(44) });
  });

  test("route ends come from the flights when the waybill does not name them", () => {
    const d = deriveAwb(seen(BOOKED), { origin: null, destination: null, pieces: null });
    expect([d.origin, d.destination]).toEqual(["HKG", "ORD"]);
  });

  test("without a piece count, partial arrivals never complete the arrival", () => {
    const lines = [...FLOWN, "ARR A ORD 20 CX84 p6", "ARR A ORD 44 CX86 p4"];
    expect(deriveAwb(seen(lines), { ...facts, pieces: null }).status).toBe("in_transit");
  });
});

const ZONES: Record<string, [string, string]> = {
  HKG: ["Asia/Hong_Kong", "Hong Kong"],
  ORD: ["America/Chicago", "Chicago O'Hare"],
};
const airports = {
  timezone: (c: string) => ZONES[c]?.[0] ?? null,
  name: (c: string) => ZONES[c]?.[1] ?? null,
};

describe("milestones", () => {
  test("local wall clock and zone of the airport; none where the zone is unknown", () => {
    const [dep, arr] = currentEvents(seen(["DEP A HKG>ANC 5 CX84", "ARR A ANC 13 CX84"]));
    expect(toMilestone(dep!, airports)).toMatchObject({
      type: "DEP",
      is_actual: true,
      label: "Departed Hong Kong on CX84 to ANC",
      timestamp: at(5),
      event_local_datetime: "2026-11-02T13:00:00",
      utc_offset_minutes: 480,
      event_timezone: "Asia/Hong_Kong",
    });
    expect(toMilestone(arr!, airports)).toMatchObject({
      event_local_datetime: null,
      utc_offset_minutes: null,
      event_timezone: null,
    });
  });

  test("Chicago in November is UTC-6; the label says what is forecast and partial", () => {
    const [arr] = currentEvents(seen(["ARR E ORD 20 CX84 p6"]));
    expect(toMilestone(arr!, airports)).toMatchObject({
      label: "Arrived at Chicago O'Hare on CX84 (6 pieces) (estimated)",
      event_local_datetime: "2026-11-02T14:00:00",
      utc_offset_minutes: -360,
    });
  });
});

describe("awb_* events", () => {
  const subject = { id: "w1", awb: "160-12345675", airlineIata: "CX", pieces: 10, weightKg: 250 };
  /** Tracking started long before: everything reached is raised. */
  const LONG_AGO = at(-100);
  const events = (lines: readonly string[], notified: readonly string[] = [], since = LONG_AGO) =>
    awbEvents(subject, deriveAwb(seen([...lines]), facts), notified, since, airports);
  const types = (lines: readonly string[], notified: readonly string[] = []) =>
    events(lines, notified).raised.map((r) => r.type);

  test.each([
    ["booked raises nothing", BOOKED, [], []],
    ["acceptance", [...BOOKED, "RCS A HKG 1"], [], ["awb_accepted"]],
    [
      "departure after acceptance",
      [...BOOKED, "RCS A HKG 1", "DEP A HKG>ANC 5 CX84"],
      ["awb_accepted"],
      ["awb_in_transit"],
    ],
    [
      "a poll that misses steps raises each, in order",
      [...FLOWN, "ARR A ORD 20 CX84", "NFD A ORD 22", "DLV A ORD 30"],
      [],
      ["awb_accepted", "awb_in_transit", "awb_arrived", "awb_available", "awb_delivered"],
    ],
    ["nothing twice", [...FLOWN, "ARR A ORD 20 CX84"], ["awb_accepted", "awb_in_transit", "awb_arrived"], []],
    [
      "a partial arrival is not an arrival",
      [...FLOWN, "ARR A ORD 20 CX84 p6"],
      ["awb_accepted", "awb_in_transit"],
      [],
    ],
    [
      "arrivals and receipts of the same pieces are not counted twice",
      [...FLOWN, "ARR A ORD 20 CX84 p6", "RCF A ORD 21 CX84 p6"],
      ["awb_accepted", "awb_in_transit"],
      [],
    ],
  ] as const)("%s", (_name, lines, notified, raised) => {
    expect(types(lines, notified)).toEqual([...raised]);
  });

  test("milestones reached before tracking started are passed over, not raised", () => {
    const lines = [...FLOWN, "ARR A ORD 20 CX84"];
    // Added at hour 10: accepted (hour 1) and in transit (hour 5) had happened, the arrival had not.
    const { raised, passed } = events(lines, [], at(10));
    expect(passed).toEqual(["awb_accepted", "awb_in_transit"]);
    expect(raised.map((r) => r.type)).toEqual(["awb_arrived"]);
    // A milestone implied by a later one takes that one's time: acceptance implied by a departure at 5.
    const implied = events([...BOOKED, "DEP A HKG>ANC 5 CX84"], [], at(3));
    expect(implied.raised.map((r) => r.type)).toEqual(["awb_accepted", "awb_in_transit"]);
    expect(implied.raised[0]!.data.event_type).toBeUndefined();
  });

  test("the event carries its moment in UTC and at the airport; awb_departed is never raised", () => {
    const lines = [...BOOKED, "RCS A HKG 1", "DEP A HKG>ANC 5 CX84"];
    const { raised } = events(lines);
    expect(raised.map((r) => r.type)).not.toContain("awb_departed");
    const [accepted, transit] = raised;
    expect(accepted!.data).toMatchObject({
      awb: "160-12345675",
      status: "in_transit",
      event_type: "RCS",
      event_date_time: at(1),
      event_local_datetime: "2026-11-02T09:00:00",
      utc_offset_minutes: 480,
      event_timezone: "Asia/Hong_Kong",
    });
    expect(transit!.data).toMatchObject({ event_type: "DEP", flight: "CX84", location: "HKG" });
  });

  test("the local fields are absent, not null, where the airport's zone is unknown", () => {
    const lines = [...FLOWN, "ARR A ORD 20 CX84", "NFD A ORD 22"];
    const d = deriveAwb(seen(lines), facts);
    const none = { timezone: () => null, name: () => null };
    const notified = ["awb_accepted", "awb_in_transit", "awb_arrived"];
    const [available] = awbEvents(subject, d, notified, LONG_AGO, none).raised;
    expect(available!.type).toBe("awb_available");
    expect(Object.keys(available!.data)).not.toContain("event_timezone");
    expect(Object.keys(available!.data)).not.toContain("event_local_datetime");
  });
});
