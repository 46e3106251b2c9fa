/**
 * A refresh's pure steps as tables (ingest/tracking/apply.ts runs them in one transaction): the
 * carrier snapshot against the stored events, the container slots a B/L's boxes take, a record's
 * derived state, and the webhook events raised.
 */
import { describe, expect, test } from "bun:test";
import { allocateSlots, type BoxFate } from "../../ingest/tracking/box-slots.ts";
import type { DcsaEventLike } from "../../ingest/tracking/dcsa.ts";
import type { Demurrage, DemurragePhase } from "../../ingest/tracking/demurrage.ts";
import { type Documents, documentsOf, recordState } from "../../ingest/tracking/derived-state.ts";
import { eventsRaised } from "../../ingest/tracking/outbox-events.ts";
import { DEFAULT_CADENCE } from "../../ingest/tracking/schedule.ts";
import { diffSnapshot } from "../../ingest/tracking/snapshot-diff.ts";
import type { Derived, PlaceLookup } from "../../ingest/tracking/timeline.ts";
import type { Org } from "../../storage/orgs.ts";
import { PARKED_REASON, type TrackedRow } from "../../storage/trackings.ts";

const H = 3_600_000;
const T0 = Date.parse("2026-10-01T00:00:00Z");
const at = (h: number) => new Date(T0 + h * H).toISOString();
const NOW = at(700);
const BOX = "MSCU1234565";
const OTHER = "MSCU7654321";
const PLACES: PlaceLookup = { timezone: () => null, name: () => null };

type Code = "GTIN" | "LOAD" | "DEPA" | "DISC" | "ARRI" | "GTOT" | "HOLD";
/** One event: equipment events name `box`; DEPA and ARRI are the vessel's; HOLD is customs'. */
function ev(
  id: string,
  code: Code,
  loc: string,
  h: number,
  o: { box?: string; est?: boolean; empty?: boolean } = {},
) {
  const base = {
    eventID: id,
    eventClassifierCode: o.est ? "EST" : "ACT",
    eventDateTime: at(h),
    eventCreatedDateTime: at(o.est ? 0 : h),
  } as const;
  const call = { UNLocationCode: loc, vessel: { vesselIMONumber: "9321483", vesselName: "ALPHA" } };
  if (code === "DEPA" || code === "ARRI")
    return {
      ...base,
      eventType: "TRANSPORT",
      transportEventTypeCode: code,
      transportCall: call,
    } as DcsaEventLike;
  if (code === "HOLD")
    return {
      ...base,
      eventType: "SHIPMENT",
      shipmentEventTypeCode: code,
      documentTypeCode: "CUS",
    } as DcsaEventLike;
  return {
    ...base,
    eventType: "EQUIPMENT",
    equipmentEventTypeCode: code,
    equipmentReference: o.box ?? BOX,
    emptyIndicatorCode: o.empty ? "EMPTY" : "LADEN",
    eventLocation: { UNLocationCode: loc },
    ...(code === "LOAD" || code === "DISC" ? { transportCall: call } : {}),
  } as DcsaEventLike;
}

/** A stored record with the fields the steps read; `fields` overrides them. */
function row(fields: Partial<TrackedRow> = {}): TrackedRow {
  return {
    id: "r1",
    orgId: "o1",
    parentId: null,
    identifier: BOX,
    identifierType: "container_id",
    containerNumber: BOX,
    blNumber: null,
    bookingNumber: null,
    carrierCode: "MSCU",
    status: "unknown",
    stage: "unknown",
    eta: null,
    destinationUnlocode: null,
    routeAlert: null,
    firstPlans: null,
    isoTypeCode: null,
    containerSize: null,
    equipmentType: null,
    archivedAt: null,
    archivedReason: null,
    unresolvableSince: null,
    unresolvedReason: null,
    demurragePhase: "none",
    adding: false,
    ...fields,
  } as TrackedRow;
}

describe("diffSnapshot: the events a snapshot writes, and the events after it", () => {
  const a = { id: "a", v: 1 };
  const b = { id: "b", v: 1 };
  const a2 = { id: "a", v: 2 };
  const b2 = { id: "b", v: 2 };
  type E = typeof a;
  test.each<[string, E[], E[], Array<[string, "new" | "correction"]>, E[]]>([
    [
      "nothing stored: every event is new",
      [],
      [a, b],
      [
        ["a", "new"],
        ["b", "new"],
      ],
      [a, b],
    ],
    ["the same snapshot again writes nothing", [a, b], [b, a], [], [a, b]],
    ["a changed event is corrected in place", [a, b], [a2], [["a", "correction"]], [a2, b]],
    ["new events come after the stored ones", [b], [a, b], [["a", "new"]], [b, a]],
    [
      "an id twice in one snapshot: new, then corrected",
      [],
      [b, b2],
      [
        ["b", "new"],
        ["b", "correction"],
      ],
      [b2],
    ],
    ["an empty snapshot keeps what is stored", [a], [], [], [a]],
  ])("%s", (_, stored, snapshot, writes, after) => {
    const out = diffSnapshot(new Map(stored.map((e) => [e.id, e])), snapshot, (e) => e.id);
    expect(out.writes.map((w) => [w.event.id, w.was ? "correction" : "new"])).toEqual(writes);
    expect([...out.after.values()]).toEqual(after);
  });

  test("a correction names the event it replaces", () => {
    const out = diffSnapshot(new Map([["a", a]]), [a2], (e) => e.id);
    expect(out.writes).toEqual([{ event: a2, was: a }]);
  });
});

describe("allocateSlots: which boxes a B/L's refresh tracks, parks or refuses", () => {
  const org = (containerSlots: number | null) => ({ id: "o1", plan: "free", containerSlots }) as Org;
  const slots = (cap: number | null, active: string[]) => ({
    org: org(cap),
    active: new Set(active),
    free: cap === null ? null : Math.max(0, cap - active.length),
  });
  const kid = (box: string, parked = false) =>
    row({
      id: `k-${box}`,
      parentId: "root",
      identifier: box,
      containerNumber: box,
      ...(parked ? { archivedReason: PARKED_REASON } : {}),
    });
  // Boxes by their last digit (MSCU000000n); kids "1" (tracked) or "1p" (parked); "X" holds a slot elsewhere.
  const box = (n: string) => `MSCU000000${n}`;
  const words = (text: string) => text.split(" ").filter(Boolean);
  const kids = (text: string) => words(text).map((k) => kid(box(k[0]!), k.endsWith("p")));
  const held = (text: string) => words(text).map((b) => (b === "X" ? b : box(b)));
  const brief = (f: BoxFate) =>
    `${f.box.at(-1)}:${f.fate === "new" ? (f.tracks ? "new" : "new-parked") : f.fate}`;
  test.each<[string, string, string, number | null, string, boolean, string]>([
    ["uncapped: every new box is tracked", "1 2", "", null, "", true, "1:new 2:new"],
    [
      "later: free slots in the carrier's order, the rest parked",
      "1 2 3",
      "",
      3,
      "X",
      false,
      "1:new 2:new 3:new-parked",
    ],
    ["first answer: a manifest that does not fit is refused whole", "1 2 3", "", 3, "X", true, "refused"],
    ["first answer: a manifest that fits is tracked whole", "1 2", "", 3, "X", true, "1:new 2:new"],
    ["a box tracked elsewhere takes no second slot", "1", "", 1, "1", true, "1:new"],
    ["a parked box takes a slot freed since", "1", "1p", 2, "X", false, "1:unpark"],
    ["a parked box stays parked while none is free", "1", "1p", 1, "X", false, "1:parked"],
    ["a tracked box is derived again, taking nothing", "1 2", "1", 2, "X 1", false, "1:tracked 2:new-parked"],
  ])("%s", (_, named, children, cap, active, registering, expected) => {
    const out = allocateSlots(words(named).map(box), kids(children), slots(cap, held(active)), registering);
    if ("refusal" in out) expect(out.refusal.code).toBe("container_quota_exceeded");
    expect("refusal" in out ? "refused" : out.fates.map(brief).join(" ")).toBe(expected);
  });

  test("the slots read are not changed by the allocation", () => {
    const s = slots(3, ["X"]);
    allocateSlots([box("1"), box("2")], [], s, false);
    expect([...s.active]).toEqual(["X"]);
  });
});

describe("documentsOf: a B/L's or booking's kind and numbers from the carrier's events", () => {
  const doc = (id: string, type: "TRD" | "BKG", number: string) =>
    ({
      ...ev(id, "GTIN", "NLRTM", 1),
      eventType: "SHIPMENT",
      documentTypeCode: type,
      documentID: number,
    }) as DcsaEventLike;
  const bl = (fields: Partial<TrackedRow> = {}) =>
    row({ identifier: "MEDU123456789", identifierType: "bill_of_lading", containerNumber: null, ...fields });
  test.each<[string, TrackedRow, DcsaEventLike[], object, Documents]>([
    [
      "a B/L the carrier names as TRD stays one, with its booking",
      bl(),
      [doc("d1", "TRD", "MEDU123456789"), doc("d2", "BKG", "BK1")],
      {},
      { identifierType: "bill_of_lading", blNumber: "MEDU123456789", bookingNumber: "BK1" },
    ],
    [
      "known to the carrier only as a booking: a booking",
      bl(),
      [],
      { answeredAsBooking: true },
      { identifierType: "booking", blNumber: null, bookingNumber: "MEDU123456789" },
    ],
    [
      "an explicit booking stays one, with the B/L the carrier names",
      bl({ identifierType: "booking" }),
      [doc("d1", "TRD", "TRD9"), doc("d2", "BKG", "MEDU123456789")],
      {},
      { identifierType: "booking", blNumber: "TRD9", bookingNumber: "MEDU123456789" },
    ],
  ])("%s", (_, root, events, opts, expected) => {
    expect(documentsOf(root, events, opts)).toEqual(expected);
  });
});

describe("recordState: a record's new fields from its events", () => {
  const gateIn = ev("e1", "GTIN", "NLRTM", 0);
  const load = ev("e2", "LOAD", "NLRTM", 10);
  const depart = ev("e3", "DEPA", "NLRTM", 12);
  const arrive = ev("e4", "ARRI", "CNSHG", 650, { est: true });
  const discharge = ev("e5", "DISC", "CNSHG", 660);
  const gateOut = ev("e6", "GTOT", "CNSHG", 670);
  const back = ev("e7", "GTIN", "CNSHG", 690, { empty: true });
  const voyage = [gateIn, load, depart, arrive];
  const input = (r: TrackedRow, before: DcsaEventLike[], after: DcsaEventLike[], more: object = {}) => ({
    row: r,
    before,
    after,
    rootOfMany: false,
    parked: new Set<string>(),
    boxStates: [] as Derived[],
    documents: null,
    nowIso: NOW,
    cadence: DEFAULT_CADENCE,
    ...more,
  });

  test.each<[string, DcsaEventLike[], Partial<TrackedRow>]>([
    [
      "gated in: in transit, the next poll at the pre-departure cadence",
      [gateIn],
      {
        status: "in_transit",
        lastPolledAt: NOW,
        nextPollAt: new Date(Date.parse(NOW) + DEFAULT_CADENCE.pre_departure).toISOString(),
        pollFailures: 0,
        adding: false,
      },
    ],
    [
      "under way: origin, destination and ETA from the carrier's calls",
      voyage,
      {
        status: "in_transit",
        originUnlocode: "NLRTM",
        destinationUnlocode: "CNSHG",
        eta: at(650),
        etaIsEstimated: true,
      },
    ],
    [
      "discharged at the destination",
      [...voyage, discharge],
      { status: "discharged", dischargedAt: at(660) },
    ],
    [
      "the empty back after delivery closes the record out",
      [...voyage, discharge, gateOut, back],
      { status: "returned_empty", archivedAt: NOW, archivedReason: "completed: empty returned" },
    ],
    [
      "events after all: resolution is no longer given up",
      [gateIn],
      { unresolvableSince: null, unresolvedReason: null },
    ],
  ])("%s", (_, after, expected) => {
    const stale = row({ unresolvableSince: at(1), unresolvedReason: "not_found" });
    expect(recordState(input(stale, [], after)).update).toMatchObject(expected);
  });

  test.each<[string, DcsaEventLike[], DcsaEventLike[], boolean]>([
    ["a new event moves updated_at", [gateIn], [gateIn, load], true],
    ["the same events on a record already derived from them leave it", voyage, voyage, false],
  ])("%s", (_, before, after, moves) => {
    // The record as the refresh that stored `before` left it.
    const derived = { ...row(), ...recordState(input(row(), [], before)).update } as TrackedRow;
    expect(recordState(input(derived, before, after)).update.updatedAt === NOW).toBe(moves);
  });

  test("a B/L aggregates its boxes and takes the carrier's document numbers; its parked box's events stay out", () => {
    const held = recordState(input(row(), [], [gateIn, ev("h1", "HOLD", "NLRTM", 5)])).derived;
    const documents: Documents = {
      identifierType: "booking",
      blNumber: "TRD9",
      bookingNumber: "MEDU123456789",
    };
    const root = row({
      identifier: "MEDU123456789",
      identifierType: "bill_of_lading",
      containerNumber: null,
    });
    const parkedOnly = ev("p1", "LOAD", "NLRTM", 20, { box: OTHER });
    const state = recordState(
      input(root, [], [gateIn, parkedOnly], {
        rootOfMany: true,
        boxStates: [held],
        documents,
        parked: new Set([OTHER]),
      }),
    );
    expect(state.derived.status).toBe("customs_hold");
    expect(state.update).toMatchObject({
      identifierType: "booking",
      blNumber: "TRD9",
      bookingNumber: "MEDU123456789",
    });
    expect(state.current.map((e) => e.eventID)).toEqual(["e1"]);
  });

  test("a box of a B/L takes the document numbers, not the kind", () => {
    const documents: Documents = { identifierType: "booking", blNumber: "TRD9", bookingNumber: "BK1" };
    const update = recordState(input(row({ parentId: "root" }), [], [gateIn], { documents })).update;
    expect(update).toMatchObject({ blNumber: "TRD9", bookingNumber: "BK1" });
    expect("identifierType" in update).toBe(false);
  });
});

describe("eventsRaised: the webhook events a box's refresh raises", () => {
  const depart = ev("e3", "DEPA", "NLRTM", 12);
  const load = ev("e2", "LOAD", "NLRTM", 10);
  const dem = (phase: DemurragePhase) =>
    ({ phase, lastFreeDay: null, freeDaysLeft: 1, accruedUsd: null }) as Demurrage;
  const derived = (events: DcsaEventLike[]) =>
    recordState({
      row: row(),
      before: [],
      after: events,
      rootOfMany: false,
      parked: new Set(),
      boxStates: [],
      documents: null,
      nowIso: NOW,
      cadence: DEFAULT_CADENCE,
    }).derived;
  test.each<[string, DcsaEventLike[], DcsaEventLike[], DemurragePhase, DemurragePhase, boolean, string[]]>([
    ["the first fetch backfills: nothing raised", [], [load, depart], "none", "warning", true, []],
    [
      "an actual departure seen for the first time",
      [load],
      [load, depart],
      "none",
      "none",
      false,
      ["vessel_departed"],
    ],
    ["the same events again raise nothing", [load, depart], [load, depart], "none", "none", false, []],
    [
      "free time nearly up: demurrage_warning once",
      [load],
      [load],
      "free",
      "warning",
      false,
      ["demurrage_warning"],
    ],
    ["already warned: nothing again", [load], [load], "warning", "warning", false, []],
    [
      "accruing straight from free: demurrage_started",
      [load],
      [load],
      "free",
      "accruing",
      false,
      ["demurrage_started"],
    ],
  ])("%s", (_, previous, current, was, phase, backfill, types) => {
    const before = row({ demurragePhase: was, stage: derived(previous).stage });
    const raised = eventsRaised({
      row: before,
      next: before,
      derived: derived(current),
      previous,
      current,
      demurrage: dem(phase),
      backfill,
      places: PLACES,
    });
    expect(raised.map((r): string => r.type)).toEqual(types);
  });
});
