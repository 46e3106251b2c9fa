/**
 * Point-to-point search over stored sailings (pure: sailings in, routes out). Direct: one sailing
 * calling the origin, then the destination. One transshipment: a sailing from the origin to a hub,
 * then, at least MIN_CONNECTION_MS after its arrival there (best-known times) and within
 * MAX_CONNECTION_WAIT_MS, another sailing of the same carrier from the hub to the destination;
 * per first sailing and onward service only the earliest connection counts.
 */
import type { ScheduleCall } from "../../ingest/schedules/cs-types.ts";
import type { SailingRow } from "../../storage/sailings.ts";
import { best, callsOf, callView, departsOn, HOUR_MS, sailingHeader } from "./calls.ts";

/** Time to discharge, move and load a box between two vessels at the hub. */
export const MIN_CONNECTION_MS = 24 * HOUR_MS;
/** The longest a box waits at the hub for its onward sailing (as the sandbox's CS routings). */
export const MAX_CONNECTION_WAIT_MS = 21 * 24 * HOUR_MS;

export type RouteSort = "departure" | "transit_time";

export interface SearchQuery {
  origin: string;
  destination: string;
  /** Departures from the origin (best-known time) in [fromMs, toMs). */
  fromMs: number;
  toMs: number;
  maxTransshipments: 0 | 1;
  sort: RouteSort;
}

interface Stop {
  sailing: SailingRow;
  index: number;
  call: ScheduleCall;
}

interface Leg {
  sailing: SailingRow;
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

/** Legs from the call at `index` to each later call with an arrival (only at `dest` when given). */
function legsFrom(s: SailingRow, index: number, dest?: string): Leg[] {
  const calls = callsOf(s);
  const from = calls[index]!;
  const departs = best(from.departure)!;
  const out: Leg[] = [];
  for (let j = index + 1; j < calls.length; j++) {
    const to = calls[j]!;
    const arrives = best(to.arrival);
    if (arrives === undefined || (dest !== undefined && to.place.unlocode !== dest)) continue;
    if (to.place.unlocode === from.place.unlocode) continue;
    out.push({ sailing: s, from, to, departs, arrives });
  }
  return out;
}

export function searchRoutes(sailings: readonly SailingRow[], q: SearchQuery): FoundRoute[] {
  // Where each sailing departs from each port: the index the transshipment leg looks up.
  const departures = new Map<string, Stop[]>();
  for (const sailing of sailings) {
    callsOf(sailing).forEach((call, index) => {
      if (!call.place.unlocode || !departsOn(sailing, call)) return;
      const list = departures.get(call.place.unlocode) ?? [];
      list.push({ sailing, index, call });
      departures.set(call.place.unlocode, list);
    });
  }
  const routes: FoundRoute[] = [];
  for (const start of departures.get(q.origin) ?? []) {
    const departs = best(start.call.departure)!;
    if (departs < q.fromMs || departs >= q.toMs) continue;
    // Direct: the first arrival at the destination after the origin on this sailing.
    const direct = legsFrom(start.sailing, start.index, q.destination)[0];
    if (direct) routes.push({ legs: [direct], departs, arrives: direct.arrives });
    if (q.maxTransshipments === 0) continue;
    for (const first of legsFrom(start.sailing, start.index)) {
      const hub = first.to.place.unlocode;
      // Past the destination a transfer only comes back to it: the direct routing already counts.
      if (hub === q.destination) break;
      if (!hub || hub === q.origin) continue;
      const onward = new Map<string, FoundRoute>();
      for (const next of departures.get(hub) ?? []) {
        const s2 = next.sailing;
        if (s2.id === start.sailing.id || s2.carrier !== start.sailing.carrier) continue;
        const leaves = best(next.call.departure)!;
        if (leaves < first.arrives + MIN_CONNECTION_MS || leaves > first.arrives + MAX_CONNECTION_WAIT_MS)
          continue;
        const second = legsFrom(s2, next.index, q.destination)[0];
        if (!second) continue;
        const held = onward.get(s2.serviceCode);
        if (!held || second.departs < held.legs[1]!.departs) {
          onward.set(s2.serviceCode, { legs: [first, second], departs, arrives: second.arrives });
        }
      }
      routes.push(...onward.values());
    }
  }
  return sortRoutes(dedupe(routes), q.sort);
}

/** Two hubs joining the same pair of sailings are one routing: keep the earliest arrival. */
function dedupe(routes: FoundRoute[]): FoundRoute[] {
  const kept = new Map<string, FoundRoute>();
  for (const r of routes) {
    const key = `${r.legs.map((l) => l.sailing.id).join("+")}@${r.departs}`;
    const held = kept.get(key);
    if (!held || r.arrives < held.arrives) kept.set(key, r);
  }
  return [...kept.values()];
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

const routeId = (r: FoundRoute) => r.legs.map((l) => l.sailing.id).join("+");

export function routeView(r: FoundRoute) {
  const hub = r.legs.length > 1 ? r.legs[0]!.to : null;
  return {
    routing: routeId(r),
    departure_at: new Date(r.departs).toISOString(),
    arrival_at: new Date(r.arrives).toISOString(),
    transit_hours: Math.round((r.arrives - r.departs) / HOUR_MS),
    transit_days: Math.round(((r.arrives - r.departs) / (24 * HOUR_MS)) * 10) / 10,
    transshipments: r.legs.length - 1,
    transshipment: hub && {
      unlocode: hub.place.unlocode,
      port_name: hub.place.name,
      connection_hours: Math.round((r.legs[1]!.departs - r.legs[0]!.arrives) / HOUR_MS),
    },
    cut_offs: r.legs[0]!.from.cutOffs.map((k) => ({ code: k.code, at: k.at })),
    legs: r.legs.map((l) => ({
      ...sailingHeader(l.sailing),
      from: callView(l.from),
      to: callView(l.to),
    })),
  };
}
