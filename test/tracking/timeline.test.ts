/** The event model as tables over a tiny voyage, plus fast-check properties over snapshot sequences. */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { prng, shuffle } from "../../common/random.ts";
import type { DcsaEventLike } from "../../ingest/tracking/dcsa.ts";
import { localTime } from "../../ingest/tracking/local-time.ts";
import {
  currentEvents,
  derive,
  eventsForContainer,
  type FirstPlan,
  MILESTONES_RENDERING,
  milestonesJson,
  type PlaceLookup,
  recordFirstPlans,
  renderForStore,
  STAGES,
  storedFits,
  toMilestone,
} from "../../ingest/tracking/timeline.ts";

const BOX = "MSCU1234565";
const H = 3_600_000;
const T0 = Date.parse("2026-10-01T00:00:00Z");
const at = (h: number) => new Date(T0 + h * H).toISOString();
let seq = 0;
const id = () => `00000000-0000-4000-8000-${String(++seq).padStart(12, "0")}`;

type Spec = {
  code: string;
  kind: "E" | "T" | "S";
  loc: string;
  h: number;
  empty?: boolean;
  vessel?: string;
  doc?: string;
  reason?: string;
};
function ev(s: Spec, classifier: "ACT" | "EST" | "PLN", createdH: number): DcsaEventLike {
  const base = {
    eventID: id(),
    eventClassifierCode: classifier,
    eventDateTime: at(s.h),
    eventCreatedDateTime: at(createdH),
  };
  const tc = {
    UNLocationCode: s.loc,
    vessel: s.vessel ? { vesselIMONumber: s.vessel, vesselName: `V${s.vessel}` } : undefined,
  };
  if (s.kind === "T")
    return { ...base, eventType: "TRANSPORT", transportEventTypeCode: s.code, transportCall: tc };
  if (s.kind === "S")
    return {
      ...base,
      eventType: "SHIPMENT",
      shipmentEventTypeCode: s.code,
      documentTypeCode: s.doc,
      documentID: "BL1",
      reason: s.reason,
    };
  return {
    ...base,
    eventType: "EQUIPMENT",
    equipmentEventTypeCode: s.code,
    equipmentReference: BOX,
    emptyIndicatorCode: s.empty ? "EMPTY" : "LADEN",
    eventLocation: { UNLocationCode: s.loc },
    transportCall: s.vessel ? tc : undefined,
  };
}

/** Rotterdam -> Singapore (transshipment) -> Shanghai, with a customs hold at destination. */
const VOYAGE: Spec[] = [
  { code: "GTIN", kind: "E", loc: "NLRTM", h: 0 },
  { code: "LOAD", kind: "E", loc: "NLRTM", h: 10, vessel: "9321483" },
  { code: "DEPA", kind: "T", loc: "NLRTM", h: 12, vessel: "9321483" },
  { code: "DISC", kind: "E", loc: "SGSIN", h: 500, vessel: "9321483" },
  { code: "LOAD", kind: "E", loc: "SGSIN", h: 530, vessel: "9700001" },
  { code: "DEPA", kind: "T", loc: "SGSIN", h: 532, vessel: "9700001" },
  { code: "ARRI", kind: "T", loc: "CNSHG", h: 650, vessel: "9700001" },
  { code: "DISC", kind: "E", loc: "CNSHG", h: 660, vessel: "9700001" },
  { code: "HOLD", kind: "S", loc: "CNSHG", h: 670, doc: "CUS", reason: "Documents missing" },
  { code: "RELS", kind: "S", loc: "CNSHG", h: 700, doc: "CUS" },
  { code: "GTOT", kind: "E", loc: "CNSHG", h: 720 },
  { code: "GTIN", kind: "E", loc: "CNSHG", h: 800, empty: true },
];

/** Each step is published as a plan at booking, re-estimated 24 h before, and reported as actual. */
function feed(): DcsaEventLike[] {
  return VOYAGE.flatMap((s) => {
    const plannedOnly = s.kind === "S";
    const out = plannedOnly
      ? []
      : [ev(s, "PLN", -48), ev({ ...s, h: s.h + 6 }, "EST", Math.max(-47, s.h - 24))];
    return [...out, ev(s, "ACT", s.h)];
  });
}

const places = {
  timezone: (l: string) =>
    ({ NLRTM: "Europe/Amsterdam", SGSIN: "Asia/Singapore", CNSHG: "Asia/Shanghai" })[l] ?? null,
  name: (l: string) => ({ NLRTM: "Rotterdam", SGSIN: "Singapore", CNSHG: "Shanghai" })[l] ?? null,
};

function stateAt(events: DcsaEventLike[], hour: number) {
  const visible = events.filter((e) => Date.parse(e.eventCreatedDateTime) <= T0 + hour * H);
  const plans: Record<string, FirstPlan> = {};
  recordFirstPlans(plans, visible);
  return derive(currentEvents(visible), (k) => plans[k] ?? null);
}

describe("derived state along the voyage", () => {
  const events = feed();
  test.each([
    [-100, "unknown", null],
    [-10, "unknown", true],
    [11, "in_transit", true],
    [505, "in_transit", true],
    [661, "discharged", false],
    [680, "customs_hold", false],
    [705, "available", false],
    [725, "delivered", false],
    [805, "returned_empty", false],
  ] as const)("at hour %d: %s (eta estimated %p)", (hour, status, estimated) => {
    const d = stateAt(events, hour);
    expect(d.status).toBe(status);
    expect(d.etaIsEstimated).toBe(estimated);
  });

  test("route, vessel aboard, hold details, ETA and delay bars", () => {
    const transit = stateAt(events, 100);
    expect(transit.originUnlocode).toBe("NLRTM");
    expect(transit.destinationUnlocode).toBe("CNSHG");
    expect(transit.routePorts.map((p) => p.role)).toEqual(["origin", "transshipment", "destination"]);
    expect(transit.currentVesselImo).toBe("9321483");
    expect(transit.eta).toBe(at(650)); // only the plan is published yet
    const nearing = stateAt(events, 640);
    expect(nearing.eta).toBe(at(656)); // the estimate published 24 h before: 6 h late
    expect(nearing.currentVesselImo).toBe("9700001");
    const hold = stateAt(events, 680);
    expect(hold.customsHoldReason).toBe("Documents missing");
    expect(hold.currentVesselImo).toBeNull();
    const done = stateAt(events, 900);
    expect(done.eta).toBe(at(650));
    expect(done.delayBars).toEqual([0, 0, 0, 0, 0]);
    expect(done.missedConnection).toBe(false);
  });

  test("milestones carry the port's zone and wall clock, and tag non-actual labels", () => {
    const timeline = currentEvents(
      feed().filter((e) => Date.parse(e.eventCreatedDateTime) <= T0 + 11 * H),
    ).map((e) => toMilestone(e, places));
    const load = timeline.find((m) => m.type === "LOAD" && m.is_actual)!;
    expect(load).toMatchObject({
      location: "NLRTM",
      event_timezone: "Europe/Amsterdam",
      event_local_datetime: "2026-10-01T12:00:00",
      utc_offset_minutes: 120,
      label: "Loaded on V9321483 at Rotterdam",
    });
    const arrival = timeline.find((m) => m.type === "ARRI")!;
    expect(arrival.label).toMatch(/\((planned|estimated)\)$/);
    expect(arrival.is_actual).toBe(false);
  });

  test("unknown zones leave local time null rather than assuming UTC", () => {
    const m = toMilestone(ev({ code: "GTIN", kind: "E", loc: "XXYYY", h: 0 }, "ACT", 0), places);
    expect([m.event_local_datetime, m.utc_offset_minutes, m.event_timezone]).toEqual([null, null, null]);
  });

  test("a missed connection: the box leaves the hub on another vessel than planned", () => {
    const events = feed().map((e) =>
      e.eventClassifierCode === "ACT" &&
      e.equipmentEventTypeCode === "LOAD" &&
      e.eventLocation?.UNLocationCode === "SGSIN"
        ? {
            ...e,
            transportCall: {
              UNLocationCode: "SGSIN",
              vessel: { vesselIMONumber: "9800002", vesselName: "Next" },
            },
          }
        : e,
    );
    expect(stateAt(events, 600).missedConnection).toBe(true);
  });
});

test("localTime handles DST and half-hour zones", () => {
  expect(localTime(Date.parse("2026-01-15T12:00:00Z"), "Europe/Amsterdam")).toEqual({
    local: "2026-01-15T13:00:00",
    offsetMinutes: 60,
  });
  expect(localTime(Date.parse("2026-07-15T12:00:00Z"), "Asia/Kolkata")).toEqual({
    local: "2026-07-15T17:30:00",
    offsetMinutes: 330,
  });
  expect(localTime(0, "Not/AZone")).toBeNull();
});

test("property: any order, duplication and snapshot split gives one timeline and a lifecycle that never goes back", () => {
  const events = feed();
  fc.assert(
    fc.property(
      fc.array(fc.integer({ min: -60, max: 900 }), { minLength: 1, maxLength: 8 }),
      fc.array(fc.nat({ max: events.length - 1 }), { maxLength: 20 }),
      fc.integer(),
      (polls, dupes, seed) => {
        const times = [...polls].sort((a, b) => a - b);
        const seen = new Map<string, DcsaEventLike>();
        const stored: DcsaEventLike[] = [];
        let lastStage = 0;
        for (const hour of times) {
          // A snapshot: what is published by then, shuffled, some events sent twice (same id or a new id).
          const snapshot = events.filter((e) => Date.parse(e.eventCreatedDateTime) <= T0 + hour * H);
          for (const d of dupes)
            if (events[d] && snapshot.includes(events[d]))
              snapshot.push(d % 2 ? events[d] : { ...events[d], eventID: `${events[d].eventID}-dup` });
          for (const e of shuffle(snapshot, prng(seed + hour))) {
            if (!seen.has(e.eventID)) stored.push(e);
            seen.set(e.eventID, e);
          }
          const current = currentEvents(stored);
          const plans: Record<string, FirstPlan> = {};
          recordFirstPlans(plans, stored);
          const d = derive(current, (k) => plans[k] ?? null);
          const stage = STAGES.indexOf(d.stage);
          expect(stage).toBeGreaterThanOrEqual(lastStage);
          lastStage = stage;
          // No duplicates: one milestone per (type, place, instant, classifier).
          const keys = current
            .map((e) => toMilestone(e, places))
            .map((m) => `${m.type}|${m.location}|${m.classifier}|${m.empty}`);
          const actualKeys = current
            .filter((e) => e.eventClassifierCode === "ACT")
            .map((e) => `${e.eventID.replace("-dup", "")}`);
          expect(new Set(actualKeys).size).toBe(actualKeys.length);
          expect(new Set(keys).size).toBe(keys.length);
          // Order independence: the same events in another order derive the same state.
          const again = derive(currentEvents([...stored].reverse()), (k) => plans[k] ?? null);
          expect(again).toEqual(d);
        }
      },
    ),
    { numRuns: 300 },
  );
});

test("a customs hold naming one box of a B/L holds that box only, not its siblings", () => {
  const events = feed().map((e) =>
    e.eventType === "SHIPMENT" ? { ...e, references: [{ referenceType: "EQ", referenceValue: BOX }] } : e,
  );
  const sibling = "MSCU7654321";
  const visible = (box: string) =>
    currentEvents(
      eventsForContainer(events, box).filter((e) => Date.parse(e.eventCreatedDateTime) <= T0 + 680 * H),
    );
  expect(derive(visible(BOX)).status).toBe("customs_hold");
  const other = derive(visible(sibling));
  expect(other.status).not.toBe("customs_hold");
  expect(other.customsHoldReason).toBeNull();
  // Shipment events that name no box still reach every box.
  const unnamed = currentEvents(eventsForContainer(feed(), sibling));
  expect(unnamed.some((e) => e.shipmentEventTypeCode === "HOLD")).toBe(true);
});

describe("a stored rendering fits while the place answers it used hold", () => {
  const current = currentEvents(eventsForContainer(feed(), BOX));
  const stored = renderForStore(current, places, BOX, "");
  /** The stored text's line after the answers: the rendering's code, the box, the parked boxes. */
  const recordLine = stored.of.slice(stored.of.indexOf("\n"));
  const codes = ["NLRTM", "SGSIN", "CNSHG", "USLAX"] as const;
  /** `places`, with the named codes' names or zones answered otherwise (USLAX: a port the voyage never names). */
  const otherwise = (names: readonly string[], zones: readonly string[]): PlaceLookup => ({
    name: (l) => (names.includes(l) ? `${l} renamed` : places.name(l)),
    timezone: (l) => (zones.includes(l) ? "Pacific/Chatham" : places.timezone(l)),
  });

  test("table", () => {
    expect(stored.json).toBe(milestonesJson(current, places));
    const rows: [string, string, PlaceLookup, string | null, string, boolean][] = [
      ["the same lookup", stored.of, places, BOX, "", true],
      ["another lookup answering alike (a new data build)", stored.of, otherwise([], []), BOX, "", true],
      [
        "a port the voyage never names renamed and rezoned",
        stored.of,
        otherwise(["USLAX"], ["USLAX"]),
        BOX,
        "",
        true,
      ],
      ["a port it names renamed", stored.of, otherwise(["SGSIN"], []), BOX, "", false],
      ["a port it names rezoned", stored.of, otherwise([], ["CNSHG"]), BOX, "", false],
      ["another box", stored.of, places, "TGHU7654320", "", false],
      ["other parked boxes", stored.of, places, BOX, "TGHU7654320", false],
      [
        "stored before answers were named (the build's id)",
        JSON.stringify(["a build", BOX, ""]),
        places,
        BOX,
        "",
        false,
      ],
      [
        "made by the rendering code before",
        stored.of.replace(`[${MILESTONES_RENDERING},`, `[${MILESTONES_RENDERING - 1},`),
        places,
        BOX,
        "",
        false,
      ],
      ["answers that are not a list", `{"n":1}${recordLine}`, places, BOX, "", false],
      ["answers that do not parse", `[[${recordLine}`, places, BOX, "", false],
    ];
    for (const [name, of, lookup, box, parked, fits] of rows)
      expect([name, storedFits(of, lookup, box, parked)]).toEqual([name, fits]);
  });

  test("property: it fits only where rendering again with the lookup gives the stored text, and always where no used answer moved", () => {
    fc.assert(
      fc.property(fc.subarray([...codes]), fc.subarray([...codes]), (names, zones) => {
        const lookup = otherwise(names, zones);
        const fits = storedFits(stored.of, lookup, BOX, "");
        if (fits) expect(milestonesJson(current, lookup)).toBe(stored.json);
        const usedMoved = [...names, ...zones].some((c) => c !== "USLAX");
        expect(fits).toBe(!usedMoved);
      }),
    );
  });
});
