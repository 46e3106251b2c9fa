/**
 * The sandbox airline's shipment simulator: a pure function of (AWB, epoch, world) giving every
 * status update the airline will ever publish about the waybill, each with the time it is published
 * (creationDate). The server shows those published by its clock.
 *
 * Conventions (docs/air-cargo.md): every itinerary touches the airline's hub; each lane is a daily
 * flight with a fixed number and departure time (UTC), so a rebooking is the same flight a day later.
 * A booking publishes BKD per flight plus PLANNED DEP/ARR; a departure an hour or more off its plan is
 * announced by ESTIMATED DEP/ARR before it happens; an arrival 30 minutes or more off by ESTIMATED ARR
 * after departure; ACTUAL events appear minutes after they happen. Pieces travel in parts: the whole
 * shipment, or a split booking's two parts, or what an offload (DIS_OFLD) left behind; a part's events
 * carry its piece count and partialEventIndicator when it is not the whole shipment.
 */
import { haversineM } from "../../common/geo.ts";
import type { AirlineWorld, Airport, SandboxAirline } from "./airline-world.ts";
import { Rng } from "./random.ts";
import { DEFAULT_EPOCH } from "./simulate.ts";

const MIN = 60_000;
const H = 60 * MIN;
const D = 24 * H;
/** Planned connection at least this long; cargo ready later than 90 min before departure misses it. */
const MIN_CONNECTION = 3 * H;
const LATEST_READY = 90 * MIN;
/** A leg from the hub longer than this may go through a gateway (HKG -> ANC -> ORD). */
const GATEWAY_KM = 8500;

const round5 = (ms: number) => Math.round(ms / (5 * MIN)) * 5 * MIN;
const km = (a: Airport, b: Airport) => haversineM(a.lat, a.lng, b.lat, b.lng) / 1000;

export interface AirSimulateOptions {
  world: AirlineWorld;
  /** Anchor of booking dates, ms (default the ocean sandbox's DEFAULT_EPOCH, 00:00 UTC). */
  epoch?: number;
}

/** One departure of a daily flight, with its plan and what actually happened. */
export interface AirFlight {
  /** Flight number, e.g. "LH8412". */
  flight: string;
  from: Airport;
  to: Airport;
  /** Days after the epoch: the flight's date. */
  day: number;
  plannedDeparture: number;
  plannedArrival: number;
  departure: number;
  arrival: number;
}

export interface AirEvent {
  /** Stable within the waybill: the event's URI is derived from it. */
  key: string;
  /** StatusCode: BKD, RCS, MAN, DEP, ARR, RCF, NFD, AWD, DLV, DIS_OFLD. */
  code: string;
  timeType: "ACTUAL" | "PLANNED" | "ESTIMATED";
  /** When it happens (or is planned or estimated to), ms. */
  at: number;
  /** When the airline publishes it (cargo:creationDate), ms. */
  created: number;
  airport: Airport;
  flight: AirFlight | null;
  pieces: number;
  partial: boolean;
}

/** Pieces that moved together from the origin or from where they were split off. */
export interface AirPart {
  pieces: number;
  /** Flights the part actually flew, in order. */
  flights: AirFlight[];
  /** Missed a connection and was rebooked on a later flight. */
  rebooked: boolean;
}

export interface SimulatedAwb {
  awb: string;
  airline: SandboxAirline;
  bookedAt: number;
  origin: Airport;
  destination: Airport;
  /** Airports in flying order, origin to destination. */
  stops: Airport[];
  pieces: number;
  weightKg: number;
  /** Booked as two parts on different days from the origin. */
  split: boolean;
  offload: { airport: Airport; flight: string; pieces: number; at: number } | null;
  parts: AirPart[];
  /** Every event the airline will publish, by creation time then key. */
  events: AirEvent[];
}

interface Lane {
  flight: string;
  from: Airport;
  to: Airport;
  /** Minutes after 00:00 UTC the flight leaves every day. */
  departureMs: number;
  blockMs: number;
}

/**
 * A lane's schedule is the airline's, not the waybill's: every AWB on it sees the same flight. The
 * number comes from the airports' places in the table, so no two lanes share one.
 */
function laneOf(world: AirlineWorld, airline: SandboxAirline, from: Airport, to: Airport): Lane {
  const r = new Rng(`lane|${airline.iata}|${from.iata}|${to.iata}`);
  const n = world.airports.length;
  return {
    flight: `${airline.iata}${1000 + world.airports.indexOf(from) * n + world.airports.indexOf(to)}`,
    from,
    to,
    departureMs: r.int(0, 95) * 15 * MIN,
    blockMs: round5((km(from, to) / 820 + 0.6) * H),
  };
}

/** The lane's departure on a day: its delay and arrival drawn from the flight and day alone. */
function flightOn(lane: Lane, day: number, epoch: number): AirFlight {
  const r = new Rng(`flight|${lane.flight}|${day}`);
  const plannedDeparture = epoch + day * D + lane.departureMs;
  const plannedArrival = plannedDeparture + lane.blockMs;
  const delay = r.chance(0.2) ? round5(r.range(1.5, 9) * H) : round5(r.range(-0.1, 0.6) * H);
  const departure = plannedDeparture + delay;
  const arrival =
    departure + Math.max(round5(lane.blockMs * 0.9), lane.blockMs + round5(r.range(-0.4, 0.5) * H));
  return {
    flight: lane.flight,
    from: lane.from,
    to: lane.to,
    day,
    plannedDeparture,
    plannedArrival,
    departure,
    arrival,
  };
}

/** The first departure of the lane at or after `notBefore`. */
function nextFlight(lane: Lane, notBefore: number, epoch: number): AirFlight {
  return flightOn(lane, Math.ceil((notBefore - epoch - lane.departureMs) / D), epoch);
}

/** Flights for legs `from..` on the plan: each the first that leaves a connection after the last. */
function plan(lanes: Lane[], from: number, notBefore: number, epoch: number): AirFlight[] {
  const out: AirFlight[] = [];
  let t = notBefore;
  for (let i = from; i < lanes.length; i++) {
    const f = nextFlight(lanes[i]!, t, epoch);
    out.push(f);
    t = f.plannedArrival + MIN_CONNECTION;
  }
  return out;
}

function pickStops(rng: Rng, airline: SandboxAirline, world: AirlineWorld): Airport[] {
  const hub = airline.hub;
  const weight = (a: Airport) => (a.tier === 1 ? 3 : 1);
  const abroad = world.airports.filter((a) => a.country !== hub.country);
  const shape = rng.next();
  for (let attempt = 0; attempt < 50; attempt++) {
    let stops: Airport[];
    if (shape < 0.2) stops = [hub, rng.weighted(abroad, weight)];
    else if (shape < 0.35) stops = [rng.weighted(abroad, weight), hub];
    else {
      const origin = rng.weighted(abroad, weight);
      const destination = rng.weighted(abroad, weight);
      if (origin.country === destination.country) continue;
      // Through the hub, but not around the world for it.
      if (km(origin, hub) + km(hub, destination) > 2 * km(origin, destination)) continue;
      stops = [origin, hub, destination];
    }
    const last = stops[stops.length - 1]!;
    if (stops.some((s, i) => i > 0 && km(stops[i - 1]!, s) < 400)) continue;
    if (last !== hub && km(hub, last) > GATEWAY_KM && rng.chance(0.6)) {
      const direct = km(hub, last);
      const gateways = world.airports
        .filter((g) => g.tier === 1 && !stops.includes(g) && g.country !== hub.country)
        // In the far half, where a long-haul freighter stops or transfers (ANC for the Pacific).
        .filter((g) => km(g, last) > 500 && km(g, last) < 0.45 * direct)
        .map((g) => ({ g, ratio: (km(hub, g) + km(g, last)) / direct }))
        .filter((c) => c.ratio < 1.15)
        .sort((a, b) => a.ratio - b.ratio)
        .slice(0, 3);
      if (gateways.length) stops.splice(stops.length - 1, 0, rng.pick(gateways).g);
    }
    return stops;
  }
  throw new Error(`no itinerary drawn for ${airline.iata}`);
}

interface Part {
  name: string;
  pieces: number;
  /** The planned flight of every leg (entries before `leg` are history). */
  flights: AirFlight[];
  leg: number;
  /** At the current airport and ready for carriage. */
  ready: number;
  /** When the current plan was published. */
  bookedAt: number;
  flown: AirFlight[];
  rebooked: boolean;
}

/** The run of one waybill that its parts' flights share. */
interface AwbRun {
  lanes: Lane[];
  epoch: number;
  emit: Emit;
  book: (p: Part, r: Rng, at: number) => void;
  /** Parts still to fly: offloaded pieces join as parts of their own. */
  queue: Part[];
  offloadLeg: number | null;
  offloadAll: boolean;
  offload: SimulatedAwb["offload"];
}

type Emit = (e: Omit<AirEvent, "partial">) => void;
const lag = (r: Rng) => r.int(2, 20) * MIN;

/** BKD for each flight from `leg` on, and their PLANNED departure and arrival. */
function bookFlights(emit: Emit, legs: number, p: Part, r: Rng, at: number): void {
  for (let i = p.leg; i < legs; i++) {
    const f = p.flights[i]!;
    const created = at + lag(r);
    const key = `${p.name}|${i}|${f.day}`;
    emit({
      key: `${key}|BKD`,
      code: "BKD",
      timeType: "ACTUAL",
      at,
      created,
      airport: f.from,
      flight: f,
      pieces: p.pieces,
    });
    const dep = { created, flight: f, pieces: p.pieces, timeType: "PLANNED" as const };
    emit({ ...dep, key: `${key}|DEP|PLN`, code: "DEP", at: f.plannedDeparture, airport: f.from });
    emit({ ...dep, key: `${key}|ARR|PLN`, code: "ARR", at: f.plannedArrival, airport: f.to });
  }
}

/** One flown leg's estimates (when the flight moves) and actuals, then ready at the next airport. */
function flyLeg(emit: Emit, key: string, f: AirFlight, p: Part, r: Rng): number {
  const delay = f.departure - f.plannedDeparture;
  if (Math.abs(delay) >= H) {
    const known = round5(Math.max(p.bookedAt + 5 * MIN, f.plannedDeparture - r.range(1, 4) * H));
    const est = { timeType: "ESTIMATED" as const, created: known, flight: f, pieces: p.pieces };
    emit({ ...est, key: `${key}|DEP|EST`, code: "DEP", at: f.departure, airport: f.from });
    emit({ ...est, key: `${key}|ARR|EST`, code: "ARR", at: f.plannedArrival + delay, airport: f.to });
  }
  if (Math.abs(f.arrival - (f.plannedArrival + delay)) >= 30 * MIN) {
    const est = {
      timeType: "ESTIMATED" as const,
      created: f.departure + 30 * MIN,
      flight: f,
      pieces: p.pieces,
    };
    emit({ ...est, key: `${key}|ARR|EST2`, code: "ARR", at: f.arrival, airport: f.to });
  }
  const act = { timeType: "ACTUAL" as const, flight: f, pieces: p.pieces };
  emit({
    ...act,
    key: `${key}|DEP`,
    code: "DEP",
    at: f.departure,
    created: f.departure + lag(r),
    airport: f.from,
  });
  emit({
    ...act,
    key: `${key}|ARR`,
    code: "ARR",
    at: f.arrival,
    created: f.arrival + lag(r),
    airport: f.to,
  });
  const ready = round5(f.arrival + r.range(1, 3) * H);
  emit({ ...act, key: `${key}|RCF`, code: "RCF", at: ready, created: ready + lag(r), airport: f.to });
  p.flown.push(f);
  return ready;
}

/**
 * Flies part `p` over its remaining legs: manifested, rebooked when it misses a connection,
 * offloaded once on the waybill's offload leg. Returns when it is ready at the destination, or
 * null when every piece was offloaded (they fly on as another part).
 */
function flyPart(run: AwbRun, p: Part, r: Rng): number | null {
  const { lanes, epoch, emit, book, offloadLeg, offloadAll } = run;
  let ready = p.ready;
  for (let leg = p.leg; leg < lanes.length; leg++) {
    let f = p.flights[leg]!;
    if (ready + LATEST_READY > f.departure) {
      // Missed the connection: rebooked from here on, onto the next flights that can be made.
      p.flights = [...p.flights.slice(0, leg), ...plan(lanes, leg, ready + MIN_CONNECTION, epoch)];
      p.leg = leg;
      p.bookedAt = ready;
      p.rebooked = true;
      book(p, r, ready);
      f = p.flights[leg]!;
    }
    const key = `${p.name}|${leg}|${f.day}`;
    const manAt = round5(Math.max(ready + 30 * MIN, f.departure - r.range(1.5, 3) * H));
    emit({
      key: `${key}|MAN`,
      code: "MAN",
      timeType: "ACTUAL",
      at: manAt,
      created: manAt + lag(r),
      airport: f.from,
      flight: f,
      pieces: p.pieces,
    });
    if (offloadLeg === leg && run.offload === null) {
      // Offloaded after manifesting (weight, space, priority cargo): the rest flies on, the
      // offloaded pieces take the same flight the next day.
      const n = offloadAll || p.pieces === 1 ? p.pieces : r.int(1, p.pieces - 1);
      const at = round5(Math.max(manAt + 15 * MIN, f.departure - r.range(0.5, 1.25) * H));
      emit({
        key: `${key}|DIS_OFLD`,
        code: "DIS_OFLD",
        timeType: "ACTUAL",
        at,
        created: at + lag(r),
        airport: f.from,
        flight: f,
        pieces: n,
      });
      run.offload = { airport: f.from, flight: f.flight, pieces: n, at };
      const moved: Part = {
        name: `${p.name}o`,
        pieces: n,
        flights: [...p.flights.slice(0, leg), ...plan(lanes, leg, f.plannedDeparture + MIN, epoch)],
        leg,
        ready: at,
        bookedAt: at,
        flown: [...p.flown],
        rebooked: false,
      };
      book(moved, r, at);
      run.queue.push(moved);
      p.pieces -= n;
      if (p.pieces === 0) {
        return null;
      }
    }
    ready = flyLeg(emit, key, f, p, r);
  }
  return ready;
}

/** Every event of one waybill, or null when the sandbox does not play the prefix's airline. */
export function simulateAwb(awb: string, opts: AirSimulateOptions): SimulatedAwb | null {
  const { world } = opts;
  const epoch = opts.epoch ?? DEFAULT_EPOCH;
  const airline = world.airlines.get(awb.slice(0, 3));
  if (!airline) return null;
  const rng = new Rng(`awb|${awb}`);
  const bookedAt = round5(epoch + rng.range(-10, 5) * D);
  const pieces = rng.int(1, rng.chance(0.6) ? 6 : 40);
  const weightKg = Math.round(pieces * rng.range(6, 140) * 2) / 2;
  const stops = pickStops(rng, airline, world);
  const lanes = stops.slice(1).map((to, i) => laneOf(world, airline, stops[i]!, to));
  const firstFlight = bookedAt + round5(rng.range(10, 40) * H);
  const split = pieces >= 2 && rng.chance(0.15);
  const splitPieces = split ? rng.int(1, pieces - 1) : pieces;
  const offloadLeg = rng.chance(0.2) ? rng.int(0, lanes.length - 1) : null;
  const offloadAll = rng.chance(0.4);

  const events: AirEvent[] = [];
  const emit = (e: Omit<AirEvent, "partial">) => events.push({ ...e, partial: e.pieces < pieces });

  const book = (p: Part, r: Rng, at: number) => bookFlights(emit, lanes.length, p, r, at);

  const planA = plan(lanes, 0, firstFlight, epoch);
  const rcsAt = round5(Math.max(bookedAt + H, planA[0]!.plannedDeparture - rng.range(4, 10) * H));
  const start = (name: string, n: number, flights: AirFlight[]): Part => ({
    name,
    pieces: n,
    flights,
    leg: 0,
    ready: rcsAt,
    bookedAt,
    flown: [],
    rebooked: false,
  });
  const queue: Part[] = [start("a", splitPieces, planA)];
  if (split) {
    // The second part takes the same flight a day later.
    queue.push(start("b", pieces - splitPieces, plan(lanes, 0, planA[0]!.plannedDeparture + MIN, epoch)));
  }
  for (const p of queue) book(p, new Rng(`book|${awb}|${p.name}`), bookedAt);
  emit({
    key: "RCS",
    code: "RCS",
    timeType: "ACTUAL",
    at: rcsAt,
    created: rcsAt + lag(rng),
    airport: stops[0]!,
    flight: null,
    pieces,
  });

  const run: AwbRun = { lanes, epoch, emit, book, queue, offloadLeg, offloadAll, offload: null };
  const parts: AirPart[] = [];
  const delivered: number[] = [];
  for (let q = 0; q < queue.length; q++) {
    const p = queue[q]!;
    const r = new Rng(`part|${awb}|${p.name}`);
    const ready = flyPart(run, p, r);
    if (ready === null) continue;
    const destination = stops[stops.length - 1]!;
    const nfd = round5(ready + r.range(0.5, 3) * H);
    const dlv = round5(nfd + r.range(6, 60) * H);
    const final = { timeType: "ACTUAL" as const, airport: destination, flight: null, pieces: p.pieces };
    emit({ ...final, key: `${p.name}|NFD`, code: "NFD", at: nfd, created: nfd + lag(r) });
    emit({ ...final, key: `${p.name}|DLV`, code: "DLV", at: dlv, created: dlv + lag(r) });
    delivered.push(nfd);
    parts.push({ pieces: p.pieces, flights: p.flown, rebooked: p.rebooked });
  }
  const { offload } = run;
  // The documents travel once, with the first part to arrive.
  const awd = round5(Math.min(...delivered) + rng.range(1, 4) * H);
  emit({
    key: "AWD",
    code: "AWD",
    timeType: "ACTUAL",
    at: awd,
    created: awd + lag(rng),
    airport: stops[stops.length - 1]!,
    flight: null,
    pieces,
  });

  events.sort((a, b) => a.created - b.created || a.key.localeCompare(b.key));
  return {
    awb,
    airline,
    bookedAt,
    origin: stops[0]!,
    destination: stops[stops.length - 1]!,
    stops,
    pieces,
    weightKg,
    split,
    offload,
    parts,
    events,
  };
}

/** The events published by `now`. */
export function visibleAirEvents(s: SimulatedAwb, now: number): AirEvent[] {
  return s.events.filter((e) => e.created <= now);
}
