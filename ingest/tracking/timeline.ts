/**
 * The event model: carrier events (DCSA 2.2) in, one container's milestone timeline and derived
 * state out. Pure functions; the engine stores raw events by eventID and derives on every change,
 * so the same events always give the same answer whatever order they arrived in.
 */

import { own } from "../../common/own.ts";
import type { DcsaEventLike } from "./dcsa.ts";
import { type LocalFields, localFields } from "./local-time.ts";

/** The wall-clock fields (LocalFields) follow timestamp in the record. */
export interface Milestone extends LocalFields {
  type: string;
  classifier: "ACT" | "EST" | "PLN";
  is_actual: boolean;
  label: string;
  timestamp: string;
  location: string | null;
  /** Not in the spec's milestone table; used by vessels, route ports and the compat surface. */
  vessel_imo: string | null;
  vessel_name: string | null;
  voyage: string | null;
  facility: string | null;
  empty: boolean | null;
  event_id: string;
}

export type Status =
  | "unknown"
  | "in_transit"
  | "discharged"
  | "available"
  | "customs_hold"
  | "delivered"
  | "returned_empty";

/** Lifecycle stages in order; customs_hold is an overlay, not a stage, so the order can never reverse. */
export const STAGES = [
  "unknown",
  "in_transit",
  "discharged",
  "available",
  "delivered",
  "returned_empty",
] as const;
export type Stage = (typeof STAGES)[number];

export interface Derived {
  stage: Stage;
  status: Status;
  eta: string | null;
  etaIsEstimated: boolean | null;
  plannedDepartureAt: string | null;
  originUnlocode: string | null;
  destinationUnlocode: string | null;
  currentVesselImo: string | null;
  currentVesselName: string | null;
  customsHoldReason: string | null;
  customsHoldSince: string | null;
  routePorts: Array<{ unlocode: string; role: "origin" | "transshipment" | "destination" }>;
  missedConnection: boolean;
  delayBars: Array<number | null>;
  dischargedAt: string | null;
  /** Actual departure from the origin (vessel departure, else loading): ends the pre-departure cadence. */
  departedAt: string | null;
  /** Actual gate-out full after the discharge at the destination. */
  deliveredAt: string | null;
  isoEquipmentCode: string | null;
}

const iso = (t: string) => new Date(Date.parse(t)).toISOString();
const ms = (t: string) => Date.parse(t);

function codeOf(e: DcsaEventLike): string {
  return e.equipmentEventTypeCode ?? e.transportEventTypeCode ?? e.shipmentEventTypeCode ?? e.eventType;
}

function locationOf(e: DcsaEventLike): string | null {
  return (
    e.transportCall?.UNLocationCode ??
    e.eventLocation?.UNLocationCode ??
    e.transportCall?.location?.UNLocationCode ??
    null
  );
}

const isCustoms = (e: DcsaEventLike) => e.eventType === "SHIPMENT" && e.documentTypeCode === "CUS";

/** Events that concern one box: its own equipment events plus the voyage and document events it shares. */
export function eventsForContainer(
  events: Iterable<DcsaEventLike>,
  container: string | null,
): DcsaEventLike[] {
  if (container === null) return [...events];
  return [...events].filter((e) => {
    if (e.eventType === "EQUIPMENT") return e.equipmentReference === container;
    // A shipment event that names its boxes (a customs hold on one of them) is not about the others.
    const boxes = e.references?.filter((r) => r.referenceType === "EQ") ?? [];
    return boxes.length === 0 || boxes.some((r) => r.referenceValue === container);
  });
}

/**
 * Keeps what a timeline shows: one event per eventID (the latest created wins), actual duplicates
 * under new ids dropped, and estimates or plans replaced by newer ones or by the actual event.
 */
export function currentEvents(events: Iterable<DcsaEventLike>): DcsaEventLike[] {
  const byId = new Map<string, DcsaEventLike>();
  for (const e of events) {
    const seen = byId.get(e.eventID);
    if (!seen || ms(e.eventCreatedDateTime) >= ms(seen.eventCreatedDateTime)) byId.set(e.eventID, e);
  }
  const keyOf = (e: DcsaEventLike) =>
    [
      codeOf(e),
      locationOf(e),
      e.equipmentReference ?? "",
      e.emptyIndicatorCode ?? "",
      isCustoms(e) ? e.documentID : "",
    ].join("|");
  const actual = new Map<string, DcsaEventLike[]>();
  const latestForecast = new Map<string, DcsaEventLike>();
  // In eventID order: which re-send of an actual event is kept must not depend on the order the
  // events were read in (a refresh stores the timeline it derives; a reader derives it again).
  const ordered = [...byId.values()].sort((a, b) =>
    a.eventID < b.eventID ? -1 : a.eventID > b.eventID ? 1 : 0,
  );
  for (const e of ordered) {
    const key = keyOf(e);
    if (e.eventClassifierCode === "ACT") {
      const list = actual.get(key) ?? [];
      // The same happening re-sent under a new id (same time) is one event.
      if (!list.some((a) => ms(a.eventDateTime) === ms(e.eventDateTime))) list.push(e);
      actual.set(key, list);
    } else {
      const prev = latestForecast.get(key);
      const newer =
        !prev ||
        ms(e.eventCreatedDateTime) > ms(prev.eventCreatedDateTime) ||
        (ms(e.eventCreatedDateTime) === ms(prev.eventCreatedDateTime) && e.eventID > prev.eventID);
      if (newer) latestForecast.set(key, e);
    }
  }
  const out: DcsaEventLike[] = [...actual.values()].flat();
  for (const [key, e] of latestForecast) if (!actual.has(key)) out.push(e);
  return out.sort((a, b) => ms(a.eventDateTime) - ms(b.eventDateTime) || a.eventID.localeCompare(b.eventID));
}

const PORT_WORDS: Record<string, (e: DcsaEventLike, at: string, vessel: string) => string> = {
  ARRI: (_e, at) => `Vessel arrived at ${at}`,
  DEPA: (_e, at) => `Vessel departed from ${at}`,
  LOAD: (_e, at, v) => `Loaded on ${v} at ${at}`,
  DISC: (_e, at, v) => `Discharged from ${v} at ${at}`,
  GTIN: (e, at) =>
    e.emptyIndicatorCode === "EMPTY" ? `Empty container returned at ${at}` : `Gated in full at ${at}`,
  GTOT: (e, at) =>
    e.emptyIndicatorCode === "EMPTY" ? `Empty container released at ${at}` : `Gated out full at ${at}`,
  PICK: (_e, at) => `Picked up at ${at}`,
  DROP: (_e, at) => `Dropped off at ${at}`,
  STUF: (_e, at) => `Stuffed at ${at}`,
  STRP: (_e, at) => `Stripped at ${at}`,
  INSP: (_e, at) => `Inspected at ${at}`,
  RSEA: (_e, at) => `Resealed at ${at}`,
  RMVD: (_e, at) => `Removed from its planned move at ${at}`,
};

const DOCUMENT_WORDS: Record<string, string> = {
  CBR: "Booking request",
  BKG: "Booking",
  SHI: "Shipping instructions",
  SRM: "Shipment release",
  TRD: "Transport document",
  ARN: "Arrival notice",
  VGM: "Verified gross mass",
  CAS: "Cargo survey",
  CUS: "Customs",
  DGD: "Dangerous goods declaration",
  OOG: "Out-of-gauge declaration",
};

const SHIPMENT_WORDS: Record<string, string> = {
  RECE: "received",
  DRFT: "drafted",
  PENA: "pending approval",
  PENU: "pending update",
  REJE: "rejected",
  APPR: "approved",
  ISSU: "issued",
  SURR: "surrendered",
  SUBM: "submitted",
  VOID: "voided",
  CONF: "confirmed",
  REQS: "requested",
  CMPL: "completed",
  HOLD: "on hold",
  RELS: "released",
};

/** A hold's reason without a leading "Customs hold:" that carriers (ours included) often put in it. */
function holdReason(reason: string | null | undefined): string | null {
  const r = reason?.replace(/^\s*customs\s+hold\s*[:\-–]?\s*/i, "").trim();
  return r ? r : null;
}

function labelOf(e: DcsaEventLike, placeName: (locode: string) => string | null): string {
  const code = codeOf(e);
  const loc = locationOf(e);
  const at = (loc && placeName(loc)) ?? loc ?? e.eventLocation?.locationName ?? "an unnamed place";
  const vessel = e.transportCall?.vessel?.vesselName ?? "the vessel";
  let words: string;
  if (isCustoms(e) && code === "HOLD") {
    const reason = holdReason(e.reason);
    words = `Customs hold${reason ? `: ${reason}` : ""}`;
  } else if (isCustoms(e) && code === "RELS") words = "Released by customs";
  else if (e.eventType === "SHIPMENT") {
    const doc = own(DOCUMENT_WORDS, e.documentTypeCode ?? "") ?? "Shipment";
    words = `${doc} ${own(SHIPMENT_WORDS, code) ?? code.toLowerCase()}`;
  } else words = own(PORT_WORDS, code)?.(e, at, vessel) ?? `${code} at ${at}`;
  if (e.eventClassifierCode === "PLN") return `${words} (planned)`;
  if (e.eventClassifierCode === "EST") return `${words} (estimated)`;
  return words;
}

/** Port names and zones; a stored rendering names each answer it used (renderForStore). */
export interface PlaceLookup {
  /** IANA zone of a UN/LOCODE, null when unknown (the timeline then leaves local time null). */
  timezone(locode: string): string | null;
  name(locode: string): string | null;
}

export function toMilestone(e: DcsaEventLike, places: PlaceLookup): Milestone {
  const loc = locationOf(e);
  return {
    type: codeOf(e),
    classifier: e.eventClassifierCode,
    is_actual: e.eventClassifierCode === "ACT",
    label: labelOf(e, places.name),
    timestamp: iso(e.eventDateTime),
    ...localFields(ms(e.eventDateTime), loc ? places.timezone(loc) : null),
    location: loc,
    vessel_imo: e.transportCall?.vessel?.vesselIMONumber ?? null,
    vessel_name: e.transportCall?.vessel?.vesselName ?? null,
    voyage: e.transportCall?.carrierVoyageNumber ?? e.transportCall?.exportVoyageNumber ?? null,
    facility:
      e.eventLocation?.facilityCode ?? e.transportCall?.facilityCode ?? e.eventLocation?.locationName ?? null,
    empty: e.emptyIndicatorCode === undefined ? null : e.emptyIndicatorCode === "EMPTY",
    event_id: e.eventID,
  };
}

/** The spec's milestone fields, in its order: a tracked record's `events`. */
export function milestoneView(m: Milestone) {
  return {
    type: m.type,
    classifier: m.classifier,
    is_actual: m.is_actual,
    label: m.label,
    timestamp: m.timestamp,
    event_local_datetime: m.event_local_datetime,
    utc_offset_minutes: m.utc_offset_minutes,
    event_timezone: m.event_timezone,
    location: m.location,
  };
}

export type MilestoneView = Readonly<ReturnType<typeof milestoneView>>;

/** A timeline's milestones (current events, oldest first) as the spec's JSON array. */
export function milestonesJson(current: readonly DcsaEventLike[], places: PlaceLookup): string {
  return JSON.stringify(current.map((e) => milestoneView(toMilestone(e, places))));
}

/** A B/L's or booking's parked boxes as a rendering names them: sorted, comma-separated. */
export function parkedList(boxes: Iterable<string | null>): string {
  return [...boxes]
    .filter((b): b is string => b !== null)
    .sort()
    .join(",");
}

/** A place answer a rendering used: "n" a name, "z" a zone, of that code. */
type Answer = [kind: "n" | "z", locode: string, answer: string | null];

/**
 * A record's milestones (milestonesJson) as a refresh stores them, with what they were rendered
 * from besides its root's events (an event write drops the tree's renderings instead): `of` holds
 * every place answer the rendering used (each name and zone it looked up), then the rendering's
 * code (MILESTONES_RENDERING), the record's box (a box shows its own equipment events) and, for a
 * B/L or booking, its parked boxes (whose equipment events it leaves out). The answers, not the
 * data build's id: a new build that names and zones those ports alike leaves the rendering valid,
 * where naming the build made every stored rendering stale at once (each lookup derived its
 * milestones until the record's next poll, hours later).
 */
export function renderForStore(
  current: readonly DcsaEventLike[],
  places: PlaceLookup,
  containerNumber: string | null,
  parkedBoxes: string,
): { of: string; json: string } {
  // Each answer once, in the order first asked.
  const used = new Map<string, Answer>();
  const note = (kind: Answer[0], locode: string, answer: string | null) => {
    if (!used.has(kind + locode)) used.set(kind + locode, [kind, locode, answer]);
    return answer;
  };
  const json = milestonesJson(current, {
    name: (locode) => note("n", locode, places.name(locode)),
    timezone: (locode) => note("z", locode, places.timezone(locode)),
  });
  return { of: `${JSON.stringify([...used.values()])}\n${recordPart(containerNumber, parkedBoxes)}`, json };
}

/**
 * The milestones' rendering as stored renderings name it: bump it with any change to what
 * milestonesJson writes for the same events and answers (a label's words, a field), so that
 * renderings the code before stored are derived again rather than served until each record's next
 * poll.
 */
export const MILESTONES_RENDERING = 1;

const recordPart = (containerNumber: string | null, parkedBoxes: string) =>
  JSON.stringify([MILESTONES_RENDERING, containerNumber, parkedBoxes]);

/** Answer lists checked against a places lookup, by their text; a lookup's answers never change. */
const holding = new WeakMap<PlaceLookup, Map<string, boolean>>();
/** Answer lists remembered per lookup (one per set of ports a timeline names), dropped together beyond. */
const HOLDING_MAX = 4_096;

/**
 * Whether a rendering stored with `of` (renderForStore) is what the record renders as now, given
 * the same events: every answer it used is the lookup's answer now, and it was made by this
 * rendering code for this box and these parked boxes. False for anything else, renderings stored
 * before answers were named (they named the build) included.
 */
export function storedFits(
  of: string,
  places: PlaceLookup,
  containerNumber: string | null,
  parkedBoxes: string,
): boolean {
  const cut = of.indexOf("\n");
  if (cut < 0 || of.slice(cut + 1) !== recordPart(containerNumber, parkedBoxes)) return false;
  const answers = of.slice(0, cut);
  let memo = holding.get(places);
  if (!memo) {
    memo = new Map();
    holding.set(places, memo);
  }
  let holds = memo.get(answers);
  if (holds === undefined) {
    holds = answersHold(answers, places);
    if (memo.size >= HOLDING_MAX) memo.clear();
    memo.set(answers, holds);
  }
  return holds;
}

function answersHold(answers: string, places: PlaceLookup): boolean {
  let used: unknown;
  try {
    used = JSON.parse(answers);
  } catch {
    return false;
  }
  return (
    Array.isArray(used) &&
    used.every(
      (a) =>
        Array.isArray(a) &&
        typeof a[1] === "string" &&
        (a[0] === "n" ? places.name(a[1]) : a[0] === "z" ? places.timezone(a[1]) : undefined) === a[2],
    )
  );
}

const DAY = 86_400_000;
const days = (a: number, b: number) => Math.round(((a - b) / DAY) * 10) / 10;

export interface FirstPlan {
  at: string;
  vesselImo: string | null;
  /** When the carrier published it; the earliest published plan is the baseline, whatever order it arrived in. */
  createdAt: string;
}

const act = (e: DcsaEventLike) => e.eventClassifierCode === "ACT";

/** Where the box goes: origin, destination and every port it calls at by vessel, with its role. */
function routeOf(current: DcsaEventLike[]): Pick<Derived, "routePorts"> & {
  origin: string | null;
  destination: string | null;
} {
  const origin = locationOf(
    current.find((e) => codeOf(e) === "LOAD") ??
      current.find((e) => codeOf(e) === "DEPA") ??
      ({} as DcsaEventLike),
  );
  // The last port of call by time (a planned arrival beyond a transshipment discharge counts).
  const destination = locationOf(
    current.filter((e) => codeOf(e) === "DISC" || codeOf(e) === "ARRI").at(-1) ?? ({} as DcsaEventLike),
  );
  // Ports the box calls at by vessel, in time order (loads, discharges and the vessel's own calls).
  const vesselMoves = current.filter((e) => ["LOAD", "DISC", "DEPA", "ARRI"].includes(codeOf(e)));
  const vesselPorts = [...new Set(vesselMoves.map(locationOf).filter((l): l is string => !!l))];
  const routePorts = vesselPorts.map((unlocode) => ({
    unlocode,
    role:
      unlocode === origin
        ? ("origin" as const)
        : unlocode === destination
          ? ("destination" as const)
          : ("transshipment" as const),
  }));
  return { origin, destination, routePorts };
}

/** The box's stage and status by its actual events at the destination, customs holds and gate moves. */
function stageOf(current: DcsaEventLike[], destination: string | null) {
  const lastAct = (code: string, at?: string | null) =>
    current.filter((e) => codeOf(e) === code && act(e) && (at === undefined || locationOf(e) === at)).at(-1);
  const dischargedAtPod = destination ? lastAct("DISC", destination) : undefined;
  const gateOutFull = current
    .filter((e) => codeOf(e) === "GTOT" && act(e) && e.emptyIndicatorCode !== "EMPTY")
    .at(-1);
  const emptyBack = current
    .filter(
      (e) => (codeOf(e) === "GTIN" || codeOf(e) === "DROP") && act(e) && e.emptyIndicatorCode === "EMPTY",
    )
    .at(-1);
  const holds = current.filter(
    (e) => isCustoms(e) && act(e) && (codeOf(e) === "HOLD" || codeOf(e) === "RELS"),
  );
  const lastHold = holds.at(-1);
  const holdActive = lastHold !== undefined && codeOf(lastHold) === "HOLD";
  const releaseAfterDischarge =
    dischargedAtPod !== undefined &&
    current.some(
      (e) => codeOf(e) === "RELS" && act(e) && ms(e.eventDateTime) >= ms(dischargedAtPod.eventDateTime),
    );

  let stage: Stage = current.some(act) ? "in_transit" : "unknown";
  if (dischargedAtPod) stage = releaseAfterDischarge && !holdActive ? "available" : "discharged";
  if (gateOutFull && dischargedAtPod && ms(gateOutFull.eventDateTime) >= ms(dischargedAtPod.eventDateTime))
    stage = "delivered";
  if (
    emptyBack &&
    (stage === "delivered" || (gateOutFull && ms(emptyBack.eventDateTime) > ms(gateOutFull.eventDateTime)))
  ) {
    stage = "returned_empty";
  }
  const status: Status =
    holdActive && stage !== "delivered" && stage !== "returned_empty" ? "customs_hold" : stage;
  return { stage, status, dischargedAtPod, gateOutFull, holdActive, lastHold };
}

/** Missed connection: the box left a transshipment port on another vessel than first planned there. */
function missedConnectionOf(
  current: DcsaEventLike[],
  tsPorts: string[],
  firstPlan: (key: string) => FirstPlan | null,
): boolean {
  return tsPorts.some((port) => {
    // Carriers plan the onward move as a load or as the connecting vessel's departure.
    const planned = (firstPlan(`LOAD|${port}`) ?? firstPlan(`DEPA|${port}`))?.vesselImo;
    const latest = current.filter((e) => codeOf(e) === "LOAD" && locationOf(e) === port).at(-1);
    const vessel = latest?.transportCall?.vessel?.vesselIMONumber;
    return !!planned && !!vessel && planned !== vessel;
  });
}

/** Derives the record's state from a container's current events (see docs/tracking.md for the rules). */
export function derive(
  current: DcsaEventLike[],
  firstPlan: (key: string) => FirstPlan | null = () => null,
): Derived {
  const of = (code: string) => current.filter((e) => codeOf(e) === code);
  const loads = of("LOAD");
  const discs = of("DISC");
  const { origin, destination, routePorts } = routeOf(current);
  const { stage, status, dischargedAtPod, gateOutFull, holdActive, lastHold } = stageOf(current, destination);

  const arrival = destination
    ? current.filter((e) => codeOf(e) === "ARRI" && locationOf(e) === destination).at(-1)
    : undefined;
  const etaEvent =
    arrival ??
    (destination
      ? current.filter((e) => codeOf(e) === "DISC" && locationOf(e) === destination).at(-1)
      : undefined);
  const departure = origin
    ? current.filter((e) => codeOf(e) === "DEPA" && locationOf(e) === origin).at(0)
    : undefined;
  const departedEvent = (departure && act(departure) ? departure : undefined) ?? loads.find(act);

  // The carrying hull: loaded (actual) and not yet discharged (actual) from it.
  const lastLoad = loads.filter(act).at(-1);
  const lastDisc = discs.filter(act).at(-1);
  const aboard =
    lastLoad && (!lastDisc || ms(lastLoad.eventDateTime) > ms(lastDisc.eventDateTime)) ? lastLoad : undefined;
  const aboardVessel = aboard?.transportCall?.vessel;

  const tsPorts = routePorts.filter((p) => p.role === "transshipment").map((p) => p.unlocode);
  const missedConnection = missedConnectionOf(current, tsPorts, firstPlan);

  const bar = (key: string, e: DcsaEventLike | undefined): number | null => {
    const planned = firstPlan(key);
    return planned && e ? days(ms(e.eventDateTime), ms(planned.at)) : null;
  };
  const gateIn = origin
    ? current
        .filter((e) => codeOf(e) === "GTIN" && locationOf(e) === origin && e.emptyIndicatorCode !== "EMPTY")
        .at(-1)
    : undefined;
  const tsDeparture = tsPorts.length
    ? current.filter((e) => codeOf(e) === "DEPA" && locationOf(e) === tsPorts[0]).at(-1)
    : undefined;
  return {
    stage,
    status,
    eta: etaEvent ? iso(etaEvent.eventDateTime) : null,
    etaIsEstimated: etaEvent ? !act(etaEvent) : null,
    plannedDepartureAt: departure ? iso(departure.eventDateTime) : null,
    originUnlocode: origin,
    destinationUnlocode: destination,
    currentVesselImo: aboardVessel?.vesselIMONumber ?? null,
    currentVesselName: aboardVessel?.vesselName ?? null,
    customsHoldReason: holdActive ? holdReason(lastHold?.reason) : null,
    customsHoldSince: holdActive && lastHold ? iso(lastHold.eventDateTime) : null,
    routePorts,
    missedConnection,
    // origin_gate_in, origin_departure, transshipment_departure, destination_arrival, destination_gate_out
    delayBars: [
      bar(`GTIN|${origin}`, gateIn),
      bar(`DEPA|${origin}`, departure),
      bar(`DEPA|${tsPorts[0]}`, tsDeparture),
      bar(`ARRI|${destination}`, arrival),
      bar(`GTOT|${destination}`, gateOutFull),
    ],
    dischargedAt: dischargedAtPod ? iso(dischargedAtPod.eventDateTime) : null,
    departedAt: departedEvent ? iso(departedEvent.eventDateTime) : null,
    deliveredAt:
      (stage === "delivered" || stage === "returned_empty") && gateOutFull
        ? iso(gateOutFull.eventDateTime)
        : null,
    isoEquipmentCode: current.find((e) => e.ISOEquipmentCode)?.ISOEquipmentCode ?? null,
  };
}

/** "CODE|LOCODE" keys of the first plan seen for each move, used for delay bars and missed connections. */
export function planKey(e: DcsaEventLike): string {
  return `${codeOf(e)}|${locationOf(e)}`;
}

/** Keeps the earliest published plan or estimate of every move: later revisions are measured against it. */
export function recordFirstPlans(plans: Record<string, FirstPlan>, events: Iterable<DcsaEventLike>): boolean {
  let changed = false;
  for (const e of events) {
    if (e.eventClassifierCode === "ACT") continue;
    const key = planKey(e);
    const known = plans[key];
    if (known && ms(known.createdAt) <= ms(e.eventCreatedDateTime)) continue;
    plans[key] = {
      at: iso(e.eventDateTime),
      vesselImo: e.transportCall?.vessel?.vesselIMONumber ?? null,
      createdAt: iso(e.eventCreatedDateTime),
    };
    changed = true;
  }
  return changed;
}

export { codeOf, locationOf };

/** A B/L or booking: the least advanced box sets the stage, the latest ETA the ETA. */
export function aggregateBoxes(own: Derived, boxes: Derived[]): Derived {
  const slowest = boxes.reduce((a, b) => (STAGES.indexOf(b.stage) < STAGES.indexOf(a.stage) ? b : a));
  const latestEta =
    boxes
      .map((b) => b.eta)
      .filter((e): e is string => e !== null)
      .sort()
      .at(-1) ?? own.eta;
  return {
    ...own,
    stage: slowest.stage,
    status: boxes.some((b) => b.status === "customs_hold") ? "customs_hold" : slowest.status,
    eta: latestEta,
    etaIsEstimated: latestEta === null ? null : boxes.some((b) => b.etaIsEstimated),
    customsHoldReason: boxes.find((b) => b.customsHoldReason)?.customsHoldReason ?? null,
    customsHoldSince: boxes.find((b) => b.customsHoldSince)?.customsHoldSince ?? null,
  };
}
