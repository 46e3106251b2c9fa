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

import type { PathPoint } from "../../common/geo.ts";
import type { DcsaEvent } from "../carriers/dcsa.ts";
import { looksLikeContainer } from "../iso6346.ts";
import { boxMoves, type ShipmentRun } from "./box-moves.ts";
import { type Call, Emitter, iso } from "./dcsa-events.ts";
import type { Vessel } from "./fleet.ts";
import { type BookedCall, bookedCall, bookRouting, connected, nextSailing } from "./network/booking.ts";
import { type Network, serviceNetwork } from "./network/network.ts";
import { convergenceTimes, publish } from "./network/noise.ts";
import { MIN_CONNECTION_H, type RouteLeg } from "./network/routes.ts";
import { Rng } from "./random.ts";
import {
  isSandboxScac,
  lesseeOf,
  lookupReference,
  type ResolvedReference,
  type ShipmentKey,
  shipmentContainers,
} from "./references.ts";
import { D, H, hour, MIN } from "./sim-time.ts";
import type { Port, SandboxWorld } from "./world.ts";

/** Default anchor of booking dates; bookings fall from 90 days before it to 30 days after. */
export const DEFAULT_EPOCH = Date.parse("2026-11-21T00:00:00Z");
/** Least time between the first leg's true arrival at the hub and the onward sailing's true departure. */
const TRANSFER_H = 12;
/** Bookings sail from this many days after the booking, within DEPARTURE_WINDOW_D days. */
const LEAD_D: [number, number] = [7, 14];
const DEPARTURE_WINDOW_D = 28;
/** No booking rides more than this times the sea miles between its ports (no round-the-world direct legs). */
const MAX_DETOUR = 1.6;
export interface SimulateOptions {
  world: SandboxWorld;
  /** Anchor of booking dates, ms since 1970 (default DEFAULT_EPOCH). */
  epoch?: number;
}

/** One call of a network sailing, as a leg names it. */
export interface CallRef {
  /** The sailing's id (`MAEU-AE1-12`), its service code and number. */
  sailing: string;
  service: string;
  n: number;
  /** Position in the service's rotation. */
  index: number;
  importVoyage: string;
  exportVoyage: string;
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
  path?: PathPoint[];
  /** ISO instants. */
  plannedDeparture: string;
  plannedArrival: string;
  departure: string;
  arrival: string;
  /** Boxes carried on this leg. */
  containers: string[];
  /** A sailing a box was rolled onto after missing its planned connection. */
  unplanned: boolean;
  /** The network calls the leg loads and discharges at (the hull may turn into its next sailing between). */
  departureCall: CallRef;
  arrivalCall: CallRef;
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

const country = (p: Port) => p.locode.slice(0, 2);

/** Sea miles of the calls a routing's hulls make. */
function seaMiles(world: SandboxWorld, legs: RouteLeg[]): number {
  return legs
    .flatMap((l) => l.calls.slice(1).map((c, i) => world.route(l.calls[i]!.call.port, c.call.port)?.nm ?? 0))
    .reduce((a, b) => a + b, 0);
}

export interface Booking {
  origin: Port;
  destination: Port;
  hub: Port | null;
  legs: RouteLeg[];
}

/**
 * Origin and destination among the ports the carrier's services call (busier ports more often,
 * never one country), booked on the first routing the network publishes at the booking that
 * departs in the window and uses no blanked sailing nor omitted call.
 */
function book(
  rng: Rng,
  world: SandboxWorld,
  network: Network,
  scac: string,
  epoch: number,
  bookedAt: number,
): Booking {
  const ports = [...new Set(network.byScac(scac).flatMap((s) => s.rotation))].map(
    (c) => network.ports.get(c)!,
  );
  const weight = (p: Port) => Math.sqrt(p.teu);
  const from = hour(bookedAt + rng.range(...LEAD_D) * D);
  for (let attempt = 0; attempt < 50; attempt++) {
    const origin = rng.weighted(ports, weight);
    const destination = rng.weighted(ports, weight);
    if (country(origin) === country(destination)) continue;
    if (!connected(network, scac, origin.locode, destination.locode)) continue;
    const direct = world.route(origin, destination)?.nm;
    if (!direct) continue;
    const route = bookRouting(
      network,
      scac,
      {
        origin: origin.locode,
        destination: destination.locode,
        from,
        to: from + DEPARTURE_WINDOW_D * D,
        epoch,
        bookedAt,
      },
      (r) => seaMiles(world, r.legs) <= direct * MAX_DETOUR,
    );
    if (!route) continue;
    const hub = route.legs.length > 1 ? route.legs[1]!.calls[0]!.call.port : null;
    return { origin, destination, hub, legs: route.legs };
  }
  throw new Error(`${scac}: no routing found for a booking at ${iso(bookedAt)}`);
}

/** A leg of the booking: the hull, voyage and times of the network sailing it rides. */
function legOn(
  world: SandboxWorld,
  scac: string,
  route: RouteLeg,
  containers: string[],
  unplanned: boolean,
): { leg: VoyageLeg; calls: [BookedCall, BookedCall] } {
  const first = route.calls[0]!;
  const last = route.calls.at(-1)!;
  const dep = bookedCall(first)!;
  const arr = bookedCall(last)!;
  // Sea miles and geometry along the calls the hull really makes.
  const stops = route.calls.filter((c) => bookedCall(c)).map((c) => c.call.port);
  const hops = stops.slice(1).map((to, i) => world.route(stops[i]!, to));
  const path = hops.every((h) => h?.path) ? hops.flatMap((h) => h!.path!) : undefined;
  const ref = (c: typeof first): CallRef => ({
    sailing: c.sailing.id,
    service: c.sailing.service.code,
    n: c.sailing.n,
    index: c.call.index,
    importVoyage: c.call.importVoyage,
    exportVoyage: c.call.exportVoyage,
  });
  return {
    leg: {
      vessel: first.sailing.vessel,
      operator: scac,
      voyage: first.call.exportVoyage,
      service: route.service.code,
      from: first.call.port,
      to: last.call.port,
      nm: Math.round(hops.reduce((sum, h) => sum + (h?.nm ?? 0), 0)),
      ...(path ? { path } : {}),
      plannedDeparture: iso(dep.plannedDeparture),
      plannedArrival: iso(arr.plannedArrival),
      departure: iso(dep.departure),
      arrival: iso(arr.arrival),
      containers,
      unplanned,
      departureCall: ref(first),
      arrivalCall: ref(last),
    },
    calls: [dep, arr],
  };
}

/**
 * The legs a shipment's boxes sail: the first leg, then at the hub the onward sailing. A missed
 * connection (the first leg too late for the onward sailing) strands every box; otherwise, as with
 * any carrier, the cut-off is missed or the vessel full for some boxes now and then. Either way
 * they move to the next sailing of the onward service (a leg of its own, unplanned).
 */
function sailedLegs(
  world: SandboxWorld,
  key: ShipmentKey,
  route: Booking,
  numbers: string[],
  rng: Rng,
  epoch: number,
) {
  const legs: VoyageLeg[] = [];
  const booked = new Map<VoyageLeg, [BookedCall, BookedCall]>();
  const add = (r: RouteLeg, containers: string[], unplanned: boolean) => {
    const { leg, calls } = legOn(world, key.scac, r, containers, unplanned);
    legs.push(leg);
    booked.set(leg, calls);
    return leg;
  };
  const firstLeg = add(route.legs[0]!, numbers, false);
  const arr1 = Date.parse(firstLeg.arrival);

  const rolled = new Set<string>();
  let onwardDep: number | null = null;
  const rollByChance = rng.chance(0.4);
  if (route.legs.length > 1) {
    const onward = route.legs[1]!;
    onwardDep = bookedCall(onward.calls[0]!)!.departure;
    if (arr1 + TRANSFER_H * H > onwardDep) for (const n of numbers) rolled.add(n);
    else if (rollByChance) {
      for (const n of numbers) if (rng.chance(0.5)) rolled.add(n);
      if (rolled.size === 0) rolled.add(rng.pick(numbers));
    }
    const next = rolled.size
      ? nextSailing(onward, epoch, Math.max(onwardDep + H, arr1 + MIN_CONNECTION_H * H))
      : null;
    if (rolled.size && !next) throw new Error(`${onward.service.code}: no sailing to roll onto`);
    add(
      onward,
      numbers.filter((n) => !rolled.has(n)),
      false,
    );
    if (next) add(next, [...rolled], true);
  }

  return { legs, booked, rolled, onwardDep };
}

/** The vessel calls of a shipment's legs, a departure and an arrival each, in sequence. */
function vesselCalls(
  legs: VoyageLeg[],
  booked: Map<VoyageLeg, [BookedCall, BookedCall]>,
  seqOf: (leg: VoyageLeg, code: "DEPA" | "ARRI") => number,
): Call[] {
  return legs.flatMap((leg) =>
    (["DEPA", "ARRI"] as const).map((code) => {
      const [dep, arr] = booked.get(leg)!;
      const at = code === "DEPA" ? dep : arr;
      return {
        key: `${at.sailing.id}|${at.index}|${code}`,
        leg,
        sailing: at.sailing,
        index: at.index,
        port: code === "DEPA" ? leg.from : leg.to,
        code,
        sequence: seqOf(leg, code),
        planned: leg.unplanned ? null : code === "DEPA" ? at.plannedDeparture : at.plannedArrival,
        actual: code === "DEPA" ? at.departure : at.arrival,
      };
    }),
  );
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
  const network = serviceNetwork(world);
  const rng = new Rng(`shipment|${key.scac}|${key.index}`);
  const carrier = world.carriers.get(key.scac)!;
  const numbers = shipmentContainers(world, key);

  const bookedAt = hour(epoch + rng.range(-90, 30) * D);
  const confirmedAt = bookedAt + hour(rng.range(2, 20) * H);
  const route = book(rng, world, network, key.scac, epoch, bookedAt);

  const { legs, booked, rolled, onwardDep } = sailedLegs(world, key, route, numbers, rng, epoch);
  const firstLeg = legs[0]!;
  const plannedDep1 = Date.parse(firstLeg.plannedDeparture);
  const dep1 = Date.parse(firstLeg.departure);
  const arr1 = Date.parse(firstLeg.arrival);

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
  const calls = vesselCalls(legs, booked, seqOf);

  // Per box: terminal moves, customs, delivery, empty return.
  const holdBox = rng.chance(0.3) ? rng.pick(numbers) : null;
  const lag = (r: Rng) => Math.round(r.range(5, 90)) * MIN;
  const containers: SimulatedContainer[] = [];
  let finalArrival = 0;
  // The hull may sail up to MAX_EARLY_H before its proforma: the gate closes before either.
  const sails = Math.min(plannedDep1, dep1);
  const run: ShipmentRun = {
    key,
    rng,
    emit,
    route,
    legs,
    seqOf,
    rolled,
    onwardDep,
    confirmedAt,
    dep1,
    arr1,
    sails,
    lag,
    rollKnownAt: Number.POSITIVE_INFINITY,
  };
  for (const number of numbers) {
    const { box, arrival } = boxMoves(run, number, holdBox);
    finalArrival = Math.max(finalArrival, arrival);
    containers.push(box);
  }
  const { rollKnownAt } = run;
  emit.shipment("arn-issu", hour(Math.max(dep1 + D, finalArrival - rng.range(24, 60) * H)), "ISSU", "ARN");

  // The roll becomes known at the hub: from then the planned onward sailing stops listing the
  // rolled boxes and the sailing they were rolled onto is published.
  for (const call of calls) {
    const listed = call.leg === legs[1] ? [...call.leg.containers, ...rolled] : call.leg.containers;
    const boxesAt = (at: number) => (at < rollKnownAt ? listed : call.leg.containers);
    // A planned sailing every box was rolled off says nothing more about this shipment.
    const until = call.leg.containers.length ? Number.POSITIVE_INFINITY : rollKnownAt;
    publishCall(emit, call, call.leg.unplanned ? rollKnownAt : confirmedAt, boxesAt, until);
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
 * PLN (the proforma, at confirmation), then EST as the network publishes the call (noise.ts
 * `publish` at the event's creation time): at `knownFrom` and at each instant the sailing's
 * estimates can move, when this call's does; ACT once it happens. Every box on the sailing sees
 * the same estimates at the same instants. `aboard` lists the boxes an event names at its
 * publication time; nothing is published from `until` on (a sailing left with no box of ours).
 */
function publishCall(
  emit: Emitter,
  call: Call,
  knownFrom: number,
  aboard: (at: number) => string[],
  until = Number.POSITIVE_INFINITY,
) {
  const leg = call.leg;
  const remark = leg.unplanned
    ? {
        changeRemark: `Missed connection at ${leg.from.locode}: rolled to ${leg.vessel.name} voyage ${leg.voyage}`,
      }
    : {};
  if (call.planned !== null && knownFrom < until) {
    emit.transport(`${call.key}|PLN`, knownFrom, call, "PLN", call.planned, aboard(knownFrom));
  }
  const instants = [knownFrom, ...convergenceTimes(call.sailing).filter((t) => t > knownFrom)].sort(
    (a, b) => a - b,
  );
  let last: number | null = null;
  for (const at of instants) {
    if (at >= call.actual || at >= until) break;
    const published = publish(call.sailing, at)?.calls.find((c) => c.call.index === call.index);
    if (!published) continue;
    const estimate = (call.code === "DEPA" ? published.departure : published.arrival).time;
    if (estimate === last) continue;
    const weather = call.code === "ARRI" && last !== null && estimate - last > 12 * H;
    emit.transport(`${call.key}|EST|${at}`, at, call, "EST", estimate, aboard(at), {
      ...remark,
      ...(weather ? { delayReasonCode: "WEA", changeRemark: "Adverse weather on passage" } : {}),
    });
    last = estimate;
  }
  // The carrier's systems report a call a few minutes after it happens, the same for every box.
  const created = call.actual + Math.round(new Rng(`act|${call.key}`).range(5, 60)) * MIN;
  if (created < until) emit.transport(`${call.key}|ACT`, created, call, "ACT", call.actual, aboard(created));
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
