/**
 * The sandbox carrier's voyage simulator: a pure function of (shipment, epoch, world) giving every
 * DCSA event the carrier will ever publish for the shipment, each stamped with its
 * eventCreatedDateTime. The server shows those created at or before its clock.
 *
 * Conventions (docs/sandbox-carrier.md): PLN transport events are the schedule as confirmed at
 * booking; EST transport events are re-published (new eventID, later eventCreatedDateTime) each
 * time the estimate moves by an hour or more; ACT events appear shortly after they happen. A customs
 * hold is a SHIPMENT HOLD event with documentTypeCode CUS, its reason in `reason` and the box in
 * `references` (EQ), then an INSP equipment event, then a SHIPMENT RELS (CUS) naming the box.
 */
import { haversineM, METRES_PER_NM } from "../../common/geo.ts";
import type {
  DcsaDocumentReference,
  DcsaEquipmentEvent,
  DcsaEvent,
  DcsaLocation,
  DcsaShipmentEvent,
  DcsaTransportCall,
  DcsaTransportEvent,
  DocumentTypeCode,
  EquipmentEventCode,
  ShipmentEventCode,
} from "../carriers/dcsa.ts";
import { looksLikeContainer } from "../iso6346.ts";
import { fleet, type Vessel } from "./fleet.ts";
import { Rng, uuidFrom } from "./random.ts";
import {
  isSandboxScac,
  lesseeOf,
  lookupReference,
  type ResolvedReference,
  type ShipmentKey,
  shipmentContainers,
} from "./references.ts";
import type { Port, SandboxWorld } from "./world.ts";

const MIN = 60_000;
const H = 60 * MIN;
const D = 24 * H;

/** Default anchor of booking dates; bookings fall from 90 days before it to 30 days after. */
export const DEFAULT_EPOCH = Date.parse("2026-11-21T00:00:00Z");
/** Hubs a transshipment may use, when they are among the main ports. */
const HUBS = [
  "SGSIN",
  "MYPKG",
  "MYTPP",
  "LKCMB",
  "AEJEA",
  "OMSLL",
  "ESALG",
  "MAPTM",
  "MTMAR",
  "ITGIT",
  "GRPIR",
  "EGPSD",
  "PAONX",
  "JMKIN",
  "KRPUS",
  "HKHKG",
  "TWKHH",
  "BEANR",
  "NLRTM",
  "DEHAM",
];
const ISO_TYPES: Array<[string, number]> = [
  ["45G1", 0.5],
  ["42G1", 0.2],
  ["22G1", 0.25],
  ["45R1", 0.05],
];
const HOLD_REASONS = [
  "Customs hold: documentary check of the commercial invoice",
  "Customs hold: X-ray examination ordered",
  "Customs hold: physical inspection ordered",
];

export interface SimulateOptions {
  world: SandboxWorld;
  /** Anchor of booking dates, ms since 1970 (default DEFAULT_EPOCH). */
  epoch?: number;
}

export interface VoyageLeg {
  vessel: Vessel;
  /** SCAC of the vessel operator. */
  operator: string;
  voyage: string;
  service: string;
  from: Port;
  to: Port;
  nm: number;
  path?: Array<[number, number]>;
  /** ISO instants. */
  plannedDeparture: string;
  plannedArrival: string;
  departure: string;
  arrival: string;
  /** Boxes carried on this leg. */
  containers: string[];
  /** A sailing a box was rolled onto after missing its planned connection. */
  unplanned: boolean;
}

export interface SimulatedContainer {
  number: string;
  isoEquipmentCode: string;
  /** Missed its connection at the hub and left on the next sailing. */
  rolled: boolean;
  customsHold: { reason: string; from: string; to: string } | null;
  /** ISO instants of the box's actual milestones. */
  milestones: {
    emptyPickup: string;
    gateIn: string;
    loaded: string;
    discharged: string;
    gateOut: string;
    stripped: string;
    emptyReturn: string;
  };
}

export interface SimulatedVoyage {
  carrier: { scac: string; name: string };
  shipment: ShipmentKey;
  /** B/L number; bookings use the same number. */
  billOfLading: string;
  booking: string;
  bookedAt: string;
  origin: Port;
  destination: Port;
  transshipment: Port | null;
  containers: SimulatedContainer[];
  legs: VoyageLeg[];
  /** Every event the carrier will publish, by eventCreatedDateTime then eventID. */
  events: DcsaEvent[];
}

/**
 * Weather noise may not make a passage shorter than the hull can sail it (22 knots, at least an
 * hour): without this a 20 nm hop such as Algeciras to Tanger Med "arrived" before it departed.
 */
function afterPassage(departure: number, nm: number, arrival: number): number {
  return Math.max(arrival, hour(departure + Math.max(1, Math.ceil(nm / 22)) * H));
}

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");

const offsetFormatters = new Map<string, Intl.DateTimeFormat>();
/** The port's wall clock with its offset, as carriers send eventDateTime ("2026-11-03T14:00:00+08:00"). */
export function localIso(ms: number, timeZone: string): string {
  let f = offsetFormatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "longOffset" });
    offsetFormatters.set(timeZone, f);
  }
  const name = f.formatToParts(ms).find((p) => p.type === "timeZoneName")?.value ?? "GMT";
  const m = /GMT([+-])(\d{2}):(\d{2})/.exec(name);
  const offsetMin = m ? (m[1] === "-" ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : 0;
  const wall = new Date(Math.floor(ms / 1000) * 1000 + offsetMin * MIN).toISOString().slice(0, 19);
  return `${wall}${m ? `${m[1]}${m[2]}:${m[3]}` : "Z"}`;
}

function greatCircleNm(a: Port, b: Port): number {
  return haversineM(a.lat, a.lng, b.lat, b.lng) / METRES_PER_NM;
}

const country = (p: Port) => p.locode.slice(0, 2);
const hour = (ms: number) => Math.round(ms / H) * H;

interface Route {
  origin: Port;
  destination: Port;
  hub: Port | null;
  legs: Array<{ from: Port; to: Port; nm: number; path?: Array<[number, number]> }>;
}

function pickRoute(rng: Rng, world: SandboxWorld): Route {
  const weight = (p: Port) => Math.sqrt(p.teu);
  for (let attempt = 0; attempt < 20; attempt++) {
    const origin = rng.weighted(world.ports, weight);
    const destination = rng.weighted(world.ports, weight);
    if (country(origin) === country(destination)) continue;
    const direct = world.route(origin, destination);
    if (!direct || direct.nm < 300) continue;
    const legs = [{ from: origin, to: destination, ...direct }];
    if (direct.nm > 2500 && rng.chance(0.5)) {
      const gc = greatCircleNm(origin, destination);
      const candidates = world.ports
        .filter(
          (h) =>
            HUBS.includes(h.locode) && country(h) !== country(origin) && country(h) !== country(destination),
        )
        .map((h) => ({ h, ratio: (greatCircleNm(origin, h) + greatCircleNm(h, destination)) / gc }))
        .filter((c) => c.ratio < 1.2)
        .sort((a, b) => a.ratio - b.ratio)
        .slice(0, 3);
      if (candidates.length) {
        const hub = rng.pick(candidates).h;
        const a = world.route(origin, hub);
        const b = world.route(hub, destination);
        if (a && b && a.nm + b.nm < direct.nm * 1.3) {
          return {
            origin,
            destination,
            hub,
            legs: [
              { from: origin, to: hub, ...a },
              { from: hub, to: destination, ...b },
            ],
          };
        }
      }
    }
    return { origin, destination, hub: null, legs };
  }
  throw new Error("no sea route found between drawn ports");
}

/** One vessel call and the boxes aboard. */
interface Call {
  key: string;
  leg: VoyageLeg;
  port: Port;
  code: "DEPA" | "ARRI";
  sequence: number;
  planned: number | null;
  actual: number;
}

class Emitter {
  readonly events: Array<{ created: number; event: DcsaEvent }> = [];
  /** When the transport document (B/L) is issued; set before any event that references documents. */
  trdIssuedAt = Number.POSITIVE_INFINITY;
  constructor(
    private readonly documentNumber: string,
    private readonly scac: string,
  ) {}

  /**
   * Until the B/L is issued the number is only a booking, and a real carrier cannot name a
   * transport document that does not exist yet: events created before the issue list BKG alone.
   */
  documentReferences(created: number): DcsaDocumentReference[] {
    const bkg = { documentReferenceType: "BKG" as const, documentReferenceValue: this.documentNumber };
    return created < this.trdIssuedAt
      ? [bkg]
      : [bkg, { documentReferenceType: "TRD", documentReferenceValue: this.documentNumber }];
  }

  private id(key: string) {
    return uuidFrom(`${this.scac}|${this.documentNumber}|${key}`);
  }

  shipment(
    key: string,
    at: number,
    code: ShipmentEventCode,
    documentTypeCode: DocumentTypeCode,
    extra: Partial<DcsaShipmentEvent> = {},
  ) {
    // The schema wants a shipment event's eventDateTime equal to its eventCreatedDateTime.
    this.events.push({
      created: at,
      event: {
        eventID: this.id(key),
        eventType: "SHIPMENT",
        eventClassifierCode: "ACT",
        eventCreatedDateTime: iso(at),
        eventDateTime: iso(at),
        shipmentEventTypeCode: code,
        documentID: this.documentNumber,
        documentTypeCode,
        ...extra,
      },
    });
  }

  transport(
    key: string,
    created: number,
    call: Call,
    classifier: "PLN" | "EST" | "ACT",
    at: number,
    boxes: string[],
    extra: Partial<DcsaTransportEvent> = {},
  ) {
    this.events.push({
      created,
      event: {
        eventID: this.id(key),
        eventType: "TRANSPORT",
        eventClassifierCode: classifier,
        eventCreatedDateTime: iso(created),
        eventDateTime: localIso(at, call.port.timezone),
        transportEventTypeCode: call.code,
        transportCall: transportCall(call.leg, call.port, call.sequence),
        documentReferences: this.documentReferences(created),
        references: boxes.map((b) => ({ referenceType: "EQ" as const, referenceValue: b })),
        ...extra,
      },
    });
  }

  equipment(
    key: string,
    at: number,
    box: SimulatedContainer,
    code: EquipmentEventCode,
    empty: boolean,
    place: { port: Port; location: DcsaLocation; call?: DcsaTransportCall },
    lag: number,
  ) {
    const created = at + lag;
    const event: DcsaEquipmentEvent = {
      eventID: this.id(key),
      eventType: "EQUIPMENT",
      eventClassifierCode: "ACT",
      eventCreatedDateTime: iso(created),
      eventDateTime: localIso(at, place.port.timezone),
      equipmentEventTypeCode: code,
      equipmentReference: box.number,
      ISOEquipmentCode: box.isoEquipmentCode,
      emptyIndicatorCode: empty ? "EMPTY" : "LADEN",
      eventLocation: place.location,
      documentReferences: this.documentReferences(created),
    };
    if (place.call) event.transportCall = place.call;
    this.events.push({ created, event });
  }
}

function transportCall(leg: VoyageLeg, port: Port, sequence: number): DcsaTransportCall {
  return {
    transportCallID: uuidFrom(`call|${leg.vessel.imo}|${leg.voyage}|${port.locode}`),
    carrierServiceCode: leg.service,
    carrierVoyageNumber: leg.voyage,
    exportVoyageNumber: leg.voyage,
    transportCallSequenceNumber: sequence,
    UNLocationCode: port.locode,
    facilityTypeCode: "POTE",
    modeOfTransport: "VESSEL",
    location: location(port, "container terminal"),
    vessel: {
      vesselIMONumber: leg.vessel.imo,
      vesselName: leg.vessel.name,
      vesselFlag: leg.vessel.flag,
      vesselCallSignNumber: leg.vessel.callSign,
      vesselOperatorCarrierCode: leg.operator,
      vesselOperatorCarrierCodeListProvider: "NMFTA",
    },
  };
}

function location(port: Port, what: string): DcsaLocation {
  return {
    locationName: `${port.name} ${what}`.slice(0, 100),
    UNLocationCode: port.locode,
    latitude: port.lat.toFixed(4),
    longitude: port.lng.toFixed(4),
  };
}

/**
 * Every event of one shipment. `documentNumber` is the B/L (= booking) number printed on the
 * events: the canonical one, or the alias a caller queried. It is printed as TRD only on events
 * created once the B/L is issued (after departure); before that it is a booking alone.
 */
export function simulateShipment(
  key: ShipmentKey,
  documentNumber: string,
  opts: SimulateOptions,
): SimulatedVoyage {
  const { world } = opts;
  const epoch = opts.epoch ?? DEFAULT_EPOCH;
  const rng = new Rng(`shipment|${key.scac}|${key.index}`);
  const carrier = world.carriers.get(key.scac)!;
  const numbers = shipmentContainers(world, key);
  const ships = fleet(key.scac);

  const bookedAt = hour(epoch + rng.range(-90, 30) * D);
  const confirmedAt = bookedAt + hour(rng.range(2, 20) * H);
  const route = pickRoute(rng, world);
  const letter = () => String.fromCharCode(65 + rng.int(0, 25));
  const service = `${letter()}${letter()}${rng.int(1, 9)}`;
  // Direction letter from the shorter way round (Busan to Los Angeles is eastbound).
  const voyageOf = (from: Port, to: Port) =>
    `${rng.int(100, 599)}${((to.lng - from.lng + 540) % 360) - 180 >= 0 ? "E" : "W"}`;

  // Schedule and what actually happens, per leg.
  const vesselIdx = rng.int(0, ships.length - 1);
  const plannedDep1 = hour(bookedAt + rng.range(7, 16) * D);
  const firstLeg = route.legs[0]!;
  const speed1 = rng.range(15.5, 19);
  const plannedArr1 = afterPassage(plannedDep1, firstLeg.nm, hour(plannedDep1 + (firstLeg.nm / speed1) * H));
  const depDelay1 = rng.chance(0.3) ? rng.range(6, 72) * H : rng.range(0, 4) * H;
  const seaDelay1 = rng.chance(0.25) ? rng.range(12, 96) * H : rng.range(-8, 10) * H;
  const dep1 = hour(plannedDep1 + depDelay1);
  const arr1 = afterPassage(dep1, firstLeg.nm, hour(plannedArr1 + depDelay1 + seaDelay1));

  const legs: VoyageLeg[] = [];
  const mkLeg = (
    vessel: Vessel,
    r: Route["legs"][number],
    times: [number, number, number, number],
    containers: string[],
    unplanned: boolean,
  ): VoyageLeg => ({
    vessel,
    operator: key.scac,
    voyage: voyageOf(r.from, r.to),
    service,
    from: r.from,
    to: r.to,
    nm: Math.round(r.nm),
    ...(r.path ? { path: r.path } : {}),
    plannedDeparture: iso(times[0]),
    plannedArrival: iso(times[1]),
    departure: iso(times[2]),
    arrival: iso(times[3]),
    containers,
    unplanned,
  });

  const rolled = new Set<string>();
  legs.push(mkLeg(ships[vesselIdx]!, firstLeg, [plannedDep1, plannedArr1, dep1, arr1], numbers, false));
  let onwardDep: number | null = null;
  let rollDep = 0;
  let rollArr = 0;
  if (route.hub) {
    const second = route.legs[1]!;
    const speed2 = rng.range(15.5, 19);
    const plannedDep2 = hour(plannedArr1 + rng.range(1.5, 4) * D);
    const plannedArr2 = afterPassage(plannedDep2, second.nm, hour(plannedDep2 + (second.nm / speed2) * H));
    const dep2 = hour(Math.max(plannedDep2 + rng.range(0, 12) * H, arr1 + 18 * H));
    const arr2 = afterPassage(
      dep2,
      second.nm,
      hour(plannedArr2 + (dep2 - plannedDep2) + rng.range(-6, 18) * H),
    );
    onwardDep = dep2;
    if (rng.chance(0.4)) {
      // Cut-off missed or the vessel full: some boxes (at least one) wait for next week's sailing.
      for (const n of numbers) if (rng.chance(0.5)) rolled.add(n);
      if (rolled.size === 0) rolled.add(rng.pick(numbers));
      rollDep = hour(plannedDep2 + 7 * D + rng.range(0, 12) * H);
      rollArr = afterPassage(
        rollDep,
        second.nm,
        hour(rollDep + (second.nm / speed2) * H + rng.range(-6, 12) * H),
      );
    }
    const ship2 = ships[(vesselIdx + 1 + rng.int(0, ships.length - 2)) % ships.length]!;
    const kept = numbers.filter((n) => !rolled.has(n));
    legs.push(mkLeg(ship2, second, [plannedDep2, plannedArr2, dep2, arr2], kept, false));
    if (rolled.size) {
      const ship3 = ships.find((s) => s !== ship2 && s !== legs[0]!.vessel)!;
      legs.push(mkLeg(ship3, second, [rollDep, rollArr, rollDep, rollArr], [...rolled], true));
    }
  }

  const emit = new Emitter(documentNumber, key.scac);
  // Booking and documents.
  emit.shipment("bkg-rece", bookedAt, "RECE", "BKG");
  emit.shipment("bkg-conf", confirmedAt, "CONF", "BKG");
  emit.shipment(
    "shi-rece",
    Math.max(confirmedAt + H, hour(plannedDep1 - rng.range(2, 4) * D)),
    "RECE",
    "SHI",
  );
  emit.trdIssuedAt = hour(dep1 + rng.range(12, 48) * H);
  emit.shipment("trd-issu", emit.trdIssuedAt, "ISSU", "TRD");

  // Vessel calls. Route leg 0 is calls 1-2, route leg 1 (planned or rolled-onto sailing) calls 3-4.
  const seqOf = (leg: VoyageLeg, code: "DEPA" | "ARRI") =>
    (leg === legs[0] ? 0 : 2) + (code === "DEPA" ? 1 : 2);
  const calls: Call[] = legs.flatMap((leg) =>
    (["DEPA", "ARRI"] as const).map((code) => {
      const port = code === "DEPA" ? leg.from : leg.to;
      const planned = code === "DEPA" ? leg.plannedDeparture : leg.plannedArrival;
      return {
        key: `${leg.vessel.imo}|${leg.voyage}|${port.locode}|${code}`,
        leg,
        port,
        code,
        sequence: seqOf(leg, code),
        planned: leg.unplanned ? null : Date.parse(planned),
        actual: Date.parse(code === "DEPA" ? leg.departure : leg.arrival),
      };
    }),
  );

  // Per box: terminal moves, customs, delivery, empty return.
  const holdBox = rng.chance(0.3) ? rng.pick(numbers) : null;
  const lag = (r: Rng) => Math.round(r.range(5, 90)) * MIN;
  const containers: SimulatedContainer[] = [];
  let rollKnownAt = Number.POSITIVE_INFINITY;
  let finalArrival = 0;
  for (const number of numbers) {
    const r = new Rng(`box|${key.scac}|${key.index}|${number}`);
    const box: SimulatedContainer = {
      number,
      isoEquipmentCode: r.weighted(ISO_TYPES, (t) => t[1])[0],
      rolled: rolled.has(number),
      customsHold: null,
      milestones: {} as SimulatedContainer["milestones"],
    };
    const origin = route.origin;
    const destination = route.destination;
    const pick = hour(Math.max(confirmedAt + 6 * H, plannedDep1 - r.range(4, 9) * D));
    const gateIn = hour(Math.max(pick + 10 * H, plannedDep1 - r.range(0.8, 3) * D));
    const load = hour(dep1 - r.range(4, 16) * H);
    const depot = { port: origin, location: location(origin, "empty depot") };
    const terminal = (p: Port) => ({ port: p, location: location(p, "container terminal") });
    const firstCall = transportCall(legs[0]!, origin, seqOf(legs[0]!, "DEPA"));
    emit.equipment(`${number}|PICK`, pick, box, "PICK", true, depot, lag(r));
    emit.equipment(`${number}|GTIN`, gateIn, box, "GTIN", false, terminal(origin), lag(r));
    emit.equipment(
      `${number}|LOAD|1`,
      load,
      box,
      "LOAD",
      false,
      { ...terminal(origin), call: firstCall },
      lag(r),
    );

    let last = legs[0]!;
    if (route.hub && onwardDep !== null) {
      const hub = route.hub;
      const discHub = hour(arr1 + r.range(3, 8) * H);
      const leg = box.rolled ? legs[2]! : legs[1]!;
      const dep = Date.parse(leg.departure);
      const loadHub = hour(Math.max(discHub + 4 * H, dep - r.range(3, 10) * H));
      emit.equipment(
        `${number}|DISC|hub`,
        discHub,
        box,
        "DISC",
        false,
        { ...terminal(hub), call: transportCall(legs[0]!, hub, seqOf(legs[0]!, "ARRI")) },
        lag(r),
      );
      emit.equipment(
        `${number}|LOAD|hub`,
        loadHub,
        box,
        "LOAD",
        false,
        { ...terminal(hub), call: transportCall(leg, hub, seqOf(leg, "DEPA")) },
        lag(r),
      );
      if (box.rolled)
        rollKnownAt = Math.min(rollKnownAt, hour(Math.min(onwardDep - 6 * H, discHub + 12 * H)));
      last = leg;
    }
    const arrival = Date.parse(last.arrival);
    finalArrival = Math.max(finalArrival, arrival);
    const disc = hour(arrival + r.range(5, 30) * H);
    emit.equipment(
      `${number}|DISC|dest`,
      disc,
      box,
      "DISC",
      false,
      { ...terminal(destination), call: transportCall(last, destination, seqOf(last, "ARRI")) },
      lag(r),
    );
    let free = disc;
    if (number === holdBox) {
      const reason = rng.pick(HOLD_REASONS);
      const hold = hour(disc + r.range(2, 14) * H);
      const insp = hour(hold + r.range(20, 72) * H);
      const release = hour(insp + r.range(4, 30) * H);
      const eq = [{ referenceType: "EQ" as const, referenceValue: number }];
      emit.shipment(`${number}|HOLD`, hold, "HOLD", "CUS", { reason, references: eq });
      emit.equipment(`${number}|INSP`, insp, box, "INSP", false, terminal(destination), lag(r));
      emit.shipment(`${number}|RELS`, release, "RELS", "CUS", { reason: "Customs released", references: eq });
      box.customsHold = { reason, from: iso(hold), to: iso(release) };
      free = release;
    }
    const gateOut = hour(free + r.range(1, 5) * D);
    const stripped = hour(gateOut + r.range(0.5, 3) * D);
    const emptyReturn = hour(stripped + r.range(1, 4) * D);
    emit.equipment(`${number}|GTOT`, gateOut, box, "GTOT", false, terminal(destination), lag(r));
    emit.equipment(
      `${number}|STRP`,
      stripped,
      box,
      "STRP",
      false,
      { port: destination, location: location(destination, "consignee warehouse") },
      lag(r),
    );
    emit.equipment(
      `${number}|GTIN|empty`,
      emptyReturn,
      box,
      "GTIN",
      true,
      { port: destination, location: location(destination, "empty depot") },
      lag(r),
    );
    box.milestones = {
      emptyPickup: iso(pick),
      gateIn: iso(gateIn),
      loaded: iso(load),
      discharged: iso(disc),
      gateOut: iso(gateOut),
      stripped: iso(stripped),
      emptyReturn: iso(emptyReturn),
    };
    containers.push(box);
  }
  emit.shipment("arn-issu", hour(Math.max(dep1 + D, finalArrival - rng.range(24, 60) * H)), "ISSU", "ARN");

  // The roll becomes known at the hub: from then the planned onward sailing stops listing the
  // rolled boxes and the sailing they were rolled onto is published.
  for (const call of calls) {
    const listed = call.leg === legs[1] ? [...call.leg.containers, ...rolled] : call.leg.containers;
    const boxesAt = (at: number) => (at < rollKnownAt ? listed : call.leg.containers);
    publishCall(emit, rng, call, call.leg.unplanned ? rollKnownAt : confirmedAt, boxesAt);
  }

  const events = emit.events
    .sort((a, b) => a.created - b.created || a.event.eventID.localeCompare(b.event.eventID))
    .map((e) => e.event);
  return {
    carrier: { scac: key.scac, name: carrier.name },
    shipment: key,
    billOfLading: documentNumber,
    booking: documentNumber,
    bookedAt: iso(bookedAt),
    origin: route.origin,
    destination: route.destination,
    transshipment: route.hub,
    containers,
    legs,
    events,
  };
}

/**
 * PLN (schedule at confirmation), EST revisions when the estimate moves, ACT once it happens.
 * `aboard` lists the boxes an event names at its publication time.
 */
function publishCall(
  emit: Emitter,
  rng: Rng,
  call: Call,
  knownFrom: number,
  aboard: (at: number) => string[],
) {
  const leg = call.leg;
  const dep = Date.parse(leg.departure);
  const plannedDep = Date.parse(leg.plannedDeparture);
  const arr = Date.parse(leg.arrival);
  const remark = leg.unplanned
    ? {
        changeRemark: `Missed connection at ${leg.from.locode}: rolled to ${leg.vessel.name} voyage ${leg.voyage}`,
      }
    : {};
  if (call.planned !== null) {
    emit.transport(`${call.key}|PLN`, knownFrom, call, "PLN", call.planned, aboard(knownFrom));
  }
  // Estimate revisions: first publication, then news from the departure and mid-passage.
  const revisions: Array<[number, number]> = [
    [knownFrom, call.planned ?? (call.code === "DEPA" ? dep : arr)],
  ];
  if (call.code === "DEPA") {
    revisions.push([Math.max(knownFrom + H, dep - 2 * D), dep]);
  } else {
    revisions.push([dep + H, (call.planned ?? arr) + (leg.unplanned ? 0 : dep - plannedDep)]);
    revisions.push([hour(dep + (arr - dep) / 2), arr]);
  }
  let last: number | null = null;
  revisions.forEach(([at, estimate], i) => {
    if (at >= call.actual || at < knownFrom) return;
    if (last !== null && Math.abs(estimate - last) < H) return;
    const weather = call.code === "ARRI" && last !== null && estimate - last > 12 * H;
    emit.transport(`${call.key}|EST|${i}`, at, call, "EST", estimate, aboard(at), {
      ...remark,
      ...(weather ? { delayReasonCode: "WEA", changeRemark: "Adverse weather on passage" } : {}),
    });
    last = estimate;
  });
  const created = call.actual + Math.round(rng.range(5, 60)) * MIN;
  emit.transport(`${call.key}|ACT`, created, call, "ACT", call.actual, aboard(created));
}

/** Which carrier and shipment a free-form reference names, or null when the sandbox does not play it. */
export function resolveSandboxReference(world: SandboxWorld, reference: string): ResolvedReference | null {
  const value = reference.trim().toUpperCase();
  const kind = looksLikeContainer(value) ? "container" : "bill_of_lading";
  for (const [scac, c] of world.carriers) {
    const prefix = value.slice(0, 4);
    const owns =
      kind === "container"
        ? c.containerPrefixes.includes(prefix) ||
          (world.leased.has(prefix) && lesseeOf(prefix, Number(value.slice(4, 10))) === scac)
        : c.blPrefixes.some((p) => value.startsWith(p));
    if (!owns || !isSandboxScac(scac)) continue;
    const r = lookupReference(world, scac, kind, value);
    return r.ok ? r.ref : null;
  }
  return null;
}

/** In-process entry: the whole voyage behind a container, B/L or booking number, or null. */
export function simulateVoyage(reference: string, opts: SimulateOptions): SimulatedVoyage | null {
  const ref = resolveSandboxReference(opts.world, reference);
  return ref && simulateShipment(ref.shipment, ref.documentNumber, opts);
}

/** The events a query sees at `now`: published by then, and about the box when one is named. */
export function visibleEvents(
  voyage: SimulatedVoyage,
  now: number,
  container: string | null = null,
): DcsaEvent[] {
  return voyage.events.filter(
    (e) => Date.parse(e.eventCreatedDateTime) <= now && (container === null || concerns(e, container)),
  );
}

function concerns(e: DcsaEvent, box: string): boolean {
  if (e.eventType === "EQUIPMENT") return e.equipmentReference === box;
  const eq = (e.references ?? []).filter((r) => r.referenceType === "EQ");
  return e.eventType === "SHIPMENT"
    ? eq.length === 0 || eq.some((r) => r.referenceValue === box)
    : eq.some((r) => r.referenceValue === box);
}

export type BoxPhase =
  | "booked"
  | "in_transit"
  | "customs_hold"
  | "discharged"
  | "delivered"
  | "returned_empty";

/** Where a box stands at `now` (for docs, demos and tests; the tracking engine derives its own status). */
export function boxPhaseAt(box: SimulatedContainer, now: number): BoxPhase {
  const m = box.milestones;
  const t = (s: string) => Date.parse(s);
  if (now < t(m.loaded)) return "booked";
  if (now < t(m.discharged)) return "in_transit";
  if (box.customsHold && now >= t(box.customsHold.from) && now < t(box.customsHold.to)) return "customs_hold";
  if (now < t(m.gateOut)) return "discharged";
  if (now < t(m.emptyReturn)) return "delivered";
  return "returned_empty";
}
