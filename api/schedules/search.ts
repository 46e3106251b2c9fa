/**
 * Point-to-point search over stored sailings (pure: sailings in, routes out), docs/schedules.md
 * "The schedules product". A route is a chain of vessel legs of one carrier; a vessel leg rides one
 * hull from a call to a later one, across the hull's turn into its next voyage when the box stays
 * aboard (one leg, several sailings, no connection time). Between legs the box changes hull at a
 * hub: the onward sailing leaves at least MIN_CONNECTION_MS and at most MAX_CONNECTION_WAIT_MS after
 * the arrival (best-known times); per arriving leg and onward service only the earliest departure
 * leading to a route counts. No route calls a port twice, and a transfer has to buy time.
 */
import type { ScheduleCall } from "../../ingest/schedules/cs-types.ts";
import { best, callKey, callsOf, departsOn, HOUR_MS } from "../../ingest/schedules/stored.ts";
import type { SailingRow } from "../../storage/sailings.ts";
import { callView, sailingHeader } from "./calls.ts";

/** Time to discharge, move and load a box between two vessels at the hub. */
export const MIN_CONNECTION_MS = 24 * HOUR_MS;
/** The longest a box waits at the hub for its onward sailing (as the sandbox's CS routings). */
export const MAX_CONNECTION_WAIT_MS = 21 * 24 * HOUR_MS;
/** The most transshipments a search accepts (max_transshipments); the default is 1. */
export const MAX_TRANSSHIPMENTS = 2;
/**
 * The longest transit offered, origin departure to destination arrival (best-known). It bounds the
 * sailings a search reads and its work; the sandbox's longest ride, a whole round trip, is shorter.
 */
export const MAX_TRANSIT_MS = 120 * 24 * HOUR_MS;
/**
 * Stored sailings are read by planned span; published times run up to a few days off it (the
 * sandbox: -6 h to +72 h), so reads reach this far beyond what a search needs.
 */
export const SLACK_MS = 7 * 24 * HOUR_MS;
/**
 * The most voyages of one hull a vessel leg spans: from the origin through the turn and through
 * the first port into the next round covers a whole rotation; past that the hull comes back.
 */
export const MAX_VOYAGES_PER_LEG = 3;

export type RouteSort = "departure" | "transit_time";

export interface SearchQuery {
  origin: string;
  destination: string;
  /** Departures from the origin (best-known time) in [fromMs, toMs). */
  fromMs: number;
  toMs: number;
  maxTransshipments: 0 | 1 | 2;
  sort: RouteSort;
}

/** A call a sailing departs on. */
interface Stop {
  sailing: SailingRow;
  index: number;
  departs: number;
}

/** Calls [from, to] of one sailing, ridden by a vessel leg. */
interface Part {
  sailing: SailingRow;
  from: number;
  to: number;
}

interface Leg {
  parts: Part[];
  from: ScheduleCall;
  to: ScheduleCall;
  departs: number;
  arrives: number;
}

export interface FoundRoute {
  legs: Leg[];
  departs: number;
  arrives: number;
}

const serviceOf = (s: SailingRow) => `${s.carrier}/${s.serviceCode}`;

/** The stored sailings indexed once per request: departures by port, and each hull's next voyage. */
export class SailingIndex {
  /** Departures per port, earliest first (the connection window is a binary search). */
  private readonly byPort = new Map<string, Stop[]>();
  /** Sailing id -> where its hull departs on its next voyage, from the call this one ends at. */
  private readonly next = new Map<string, Stop>();
  /** The ports each service calls ("carrier/service"): whether an onward ride can reach a port. */
  private readonly servicePorts = new Map<string, Set<string>>();

  /** The latest planned departure a search wanted read beyond `horizon` (0: none). */
  wanted = 0;

  /** `horizon`: the sailings read are every one departing (planned) up to it. */
  constructor(
    sailings: readonly SailingRow[],
    private readonly horizon = Number.POSITIVE_INFINITY,
  ) {
    const byCall = new Map<string, Stop>();
    for (const sailing of sailings) {
      const service = serviceOf(sailing);
      const calls = this.servicePorts.get(service) ?? new Set<string>();
      this.servicePorts.set(service, calls);
      callsOf(sailing).forEach((call, index) => {
        const port = call.place.unlocode;
        if (!port) return;
        calls.add(port);
        if (!departsOn(sailing, call)) return;
        const stop = { sailing, index, departs: best(call.departure)! };
        const list = this.byPort.get(port) ?? [];
        list.push(stop);
        this.byPort.set(port, list);
        byCall.set(callKey(sailing, call), stop);
      });
    }
    for (const list of this.byPort.values()) list.sort((a, b) => a.departs - b.departs);
    for (const sailing of sailings) {
      const last = callsOf(sailing).at(-1);
      if (!last || departsOn(sailing, last) || !sailing.vesselImo) continue;
      const onward = byCall.get(callKey(sailing, last));
      if (onward && onward.sailing.id !== sailing.id) this.next.set(sailing.id, onward);
    }
  }

  /** Departures from `port` with a best-known time in [from, to], earliest first. */
  departures(port: string, from: number, to: number): Stop[] {
    this.need(to);
    const list = this.byPort.get(port) ?? [];
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (list[mid]!.departs < from) lo = mid + 1;
      else hi = mid;
    }
    const out: Stop[] = [];
    for (let i = lo; i < list.length && list[i]!.departs <= to; i++) out.push(list[i]!);
    return out;
  }

  /** Notes a time the search looks at: sailings departing up to it (and the slack) must be read. */
  private need(at: number) {
    if (at + SLACK_MS > this.horizon) this.wanted = Math.max(this.wanted, at + SLACK_MS);
  }

  /** Whether the service of `sailing` calls `port` (on any stored sailing). */
  serviceCalls(sailing: SailingRow, port: string): boolean {
    return this.servicePorts.get(serviceOf(sailing))?.has(port) ?? false;
  }

  /**
   * The vessel legs from `start`: one per later call with an arrival, in the order the hull calls
   * them, through the hull's next voyages (at most MAX_VOYAGES_PER_LEG). Stops before a port in
   * `visited` or met on the ride (the route would call it twice), after `until` (past it a leg
   * only comes back) and before an arrival later than `by` (the transit cap).
   */
  *ride(start: Stop, visited: ReadonlySet<string>, until: string, by: number): Generator<Leg> {
    const first = callsOf(start.sailing)[start.index]!;
    const parts: Part[] = [];
    const called = new Set(visited);
    let at: Stop | undefined = start;
    for (let voyage = 0; at && voyage < MAX_VOYAGES_PER_LEG; voyage++) {
      const calls = callsOf(at.sailing);
      const part = { sailing: at.sailing, from: at.index, to: at.index };
      parts.push(part);
      for (let j = at.index + 1; j < calls.length; j++) {
        const to = calls[j]!;
        const port = to.place.unlocode;
        if (!port || called.has(port)) return;
        called.add(port);
        const arrives = best(to.arrival);
        if (arrives === undefined) continue;
        if (arrives > by) return;
        part.to = j;
        yield { parts: parts.map((p) => ({ ...p })), from: first, to, departs: start.departs, arrives };
        if (port === until) return;
      }
      const next = this.next.get(at.sailing.id);
      // The hull's next voyage may not be read yet: it departs from the call this one ends at.
      const end = best(calls.at(-1)!.arrival);
      if (!next && end !== undefined && end <= by) this.need(end);
      at = next;
    }
  }
}

export function searchRoutes(sailings: readonly SailingRow[], q: SearchQuery): FoundRoute[] {
  return searchIndexed(new SailingIndex(sailings), q);
}

/**
 * Reads as little as the search needs: first the sailings departing in the window; then only the
 * carriers departing the origin in it (a route keeps its carrier), with transshipments up to the
 * transit cap past the window; and while the search looked past what was read (a hull's next
 * voyage, a connection), on to what it wanted (never past the cap), searching again. A direct ride
 * within one voyage needs one read. `read(from, to, carriers)`: sailings whose planned span meets
 * [from, to], of those carriers (undefined: the query's).
 */
export async function searchReading(
  read: (from: number, to: number, carriers?: string[]) => Promise<SailingRow[]>,
  q: SearchQuery,
): Promise<{ routes: FoundRoute[]; reads: number }> {
  const cap = q.toMs + MAX_TRANSIT_MS + SLACK_MS;
  let horizon = q.toMs + SLACK_MS;
  const rows = await read(q.fromMs - SLACK_MS, horizon);
  const starts = new SailingIndex(rows, horizon).departures(q.origin, q.fromMs, q.toMs - 1);
  if (!starts.length) return { routes: [], reads: 1 };
  const carriers = [...new Set(starts.map((s) => s.sailing.carrier))].sort();
  let target = q.maxTransshipments ? cap : horizon;
  for (let reads = 1; ; ) {
    if (target > horizon) {
      // Rows departing by the old horizon were read already (their spans met the earlier reads).
      for (const r of await read(horizon, target, carriers))
        if (Date.parse(r.departsAt) > horizon) rows.push(r);
      horizon = target;
      reads++;
    }
    const index = new SailingIndex(rows, horizon);
    const routes = searchIndexed(index, q);
    if (index.wanted <= horizon || horizon >= cap) return { routes, reads };
    target = Math.min(cap, index.wanted);
  }
}

/**
 * Depth-first over vessel legs, one pass per transshipment count k (0 to the query's limit), so
 * the routes with k transshipments are the same whatever the limit. Work per origin departure is
 * bounded by (R x S)^k hull rides: R the calls of one ride (at most a rotation), S the carrier's
 * services at a hub (per arriving leg and onward service only the earliest departure that leads
 * to a route), k the transshipments; the last transfer only boards services calling the
 * destination, and nothing arriving past the transit cap is ridden.
 */
export function searchIndexed(index: SailingIndex, q: SearchQuery): FoundRoute[] {
  const routes: FoundRoute[] = [];
  for (let k = 0; k <= q.maxTransshipments; k++) {
    /** Routes of k transshipments riding from `stop` after `legs`; `visited`: ports called so far. */
    const extend = (legs: Leg[], visited: ReadonlySet<string>, stop: Stop): number => {
      const before = routes.length;
      const carrier = stop.sailing.carrier;
      const transfersLeft = k - legs.length;
      if (transfersLeft === 0 && !index.serviceCalls(stop.sailing, q.destination)) return 0;
      const by = (legs[0]?.departs ?? stop.departs) + MAX_TRANSIT_MS;
      for (const leg of index.ride(stop, visited, q.destination, by)) {
        const port = leg.to.place.unlocode!;
        if (port === q.destination) {
          if (transfersLeft === 0) {
            const chain = [...legs, leg];
            routes.push({ legs: chain, departs: chain[0]!.departs, arrives: leg.arrives });
          }
          continue;
        }
        if (transfersLeft < 1) continue;
        const called = new Set(visited);
        for (const p of leg.parts) {
          for (const c of callsOf(p.sailing).slice(p.from, p.to + 1)) called.add(c.place.unlocode!);
        }
        const hull = leg.parts.at(-1)!.sailing.vesselImo;
        const served = new Set<string>();
        for (const next of index.departures(
          port,
          leg.arrives + MIN_CONNECTION_MS,
          leg.arrives + MAX_CONNECTION_WAIT_MS,
        )) {
          const s = next.sailing;
          if (s.carrier !== carrier || served.has(s.serviceCode)) continue;
          // The same hull again is staying aboard, which the ride already covers.
          if (hull ? s.vesselImo === hull : leg.parts.some((p) => p.sailing.id === s.id)) continue;
          if (transfersLeft === 1 && !index.serviceCalls(s, q.destination)) continue;
          if (extend([...legs, leg], called, next) > 0) served.add(s.serviceCode);
        }
      }
      return routes.length - before;
    };
    for (const start of index.departures(q.origin, q.fromMs, q.toMs - 1)) {
      extend([], new Set([q.origin]), start);
    }
  }
  return sortRoutes(dominated(dedupe(routes)), q.sort);
}

/** Hubs joining the same sailings the same way are one routing: keep the earliest arrival. */
function dedupe(routes: FoundRoute[]): FoundRoute[] {
  const kept = new Map<string, FoundRoute>();
  for (const r of routes) {
    const key = `${r.legs.map((l) => l.parts.map((p) => p.sailing.id).join("+")).join("|")}@${r.departs}`;
    const held = kept.get(key);
    if (!held || r.arrives < held.arrives) kept.set(key, r);
  }
  return [...kept.values()];
}

/**
 * A transfer has to buy time: a route is dropped when one with fewer transshipments leaves the
 * origin no earlier and arrives no later (e.g. waiting at the turn for a later hull of the service).
 */
function dominated(routes: FoundRoute[]): FoundRoute[] {
  return routes.filter(
    (r) =>
      !routes.some((f) => f.legs.length < r.legs.length && f.departs >= r.departs && f.arrives <= r.arrives),
  );
}

function sortRoutes(routes: FoundRoute[], sort: RouteSort): FoundRoute[] {
  const transit = (r: FoundRoute) => r.arrives - r.departs;
  return routes.sort(
    (a, b) =>
      (sort === "departure" ? a.departs - b.departs : transit(a) - transit(b)) ||
      (sort === "departure" ? transit(a) - transit(b) : a.departs - b.departs) ||
      a.legs.length - b.legs.length ||
      routeId(a).localeCompare(routeId(b)),
  );
}

const sailingIds = (l: Leg) => l.parts.map((p) => p.sailing.id);
const routeId = (r: FoundRoute) => r.legs.flatMap(sailingIds).join("+");

export function routeView(r: FoundRoute) {
  return {
    routing: routeId(r),
    departure_at: new Date(r.departs).toISOString(),
    arrival_at: new Date(r.arrives).toISOString(),
    transit_hours: Math.round((r.arrives - r.departs) / HOUR_MS),
    transit_days: Math.round(((r.arrives - r.departs) / (24 * HOUR_MS)) * 10) / 10,
    transshipments: r.legs.length - 1,
    connections: r.legs.slice(1).map((l, i) => ({
      unlocode: l.from.place.unlocode,
      port_name: l.from.place.name,
      connection_hours: Math.round((l.departs - r.legs[i]!.arrives) / HOUR_MS),
    })),
    cut_offs: r.legs[0]!.from.cutOffs.map((k) => ({ code: k.code, at: k.at })),
    legs: r.legs.map((l) => ({
      ...sailingHeader(l.parts[0]!.sailing),
      sailing_ids: sailingIds(l),
      voyages: l.parts.map((p) => p.sailing.voyage),
      from: callView(l.from),
      to: callView(l.to),
      stays_aboard_at: l.parts.slice(1).map((p) => {
        const c = callsOf(p.sailing)[p.from]!;
        return { unlocode: c.place.unlocode, port_name: c.place.name };
      }),
    })),
  };
}
