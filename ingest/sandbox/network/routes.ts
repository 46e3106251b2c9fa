/**
 * Point-to-point routings on one carrier's network, as published at a clock reading: direct legs
 * (the same hull from origin to destination, also across the turn into its next sailing) and legs
 * joined at a hub where two of the carrier's services call (a transshipment).
 */
import { D, H, MAX_DELAY_H, MAX_EARLY_H, type Network, type Service } from "./network.ts";
import { type PublishedCall, publish } from "./noise.ts";
import { sailing, sailingNumbers } from "./sailings.ts";

/** Least time between arriving at a hub and leaving it on the onward service. */
export const MIN_CONNECTION_H = 24;
/** Furthest an onward sailing is looked for after the arrival at the hub. */
const CONNECTION_SEARCH_D = 21;
/** The most transshipments the sandbox offers (and its default). */
export const MAX_TRANSSHIPMENTS = 1;

export interface RouteLeg {
  service: Service;
  /** Departure call, intermediate calls, arrival call: one hull throughout. */
  calls: PublishedCall[];
}

export interface PointToPointRoute {
  legs: RouteLeg[];
  departure: number;
  arrival: number;
}

export interface RouteQuery {
  origin: string;
  destination: string;
  /** Departures from the origin within [departFrom, departTo] (ms). */
  departFrom: number;
  departTo: number;
  maxTransshipments: number;
  epoch: number;
  now: number;
}

/** The published calls of the sailings of a service that may touch [from, to]. */
export function publishedSailings(service: Service, epoch: number, now: number, from: number, to: number) {
  const numbers = sailingNumbers(
    service,
    epoch,
    from - service.cycleH * H - MAX_DELAY_H * H,
    to + MAX_EARLY_H * H,
  );
  return numbers.flatMap((n) => publish(sailing(service, epoch, n), now) ?? []);
}

/** Legs of one service from `origin` (departing in the window) to `destination`. */
export function serviceLegs(
  service: Service,
  epoch: number,
  now: number,
  origin: string,
  destination: string,
  departFrom: number,
  departTo: number,
): RouteLeg[] {
  const legs: RouteLeg[] = [];
  for (const p of publishedSailings(service, epoch, now, departFrom, departTo)) {
    const a = p.calls.findIndex((c) => c.call.port.locode === origin);
    if (a < 0) continue;
    const dep = p.calls[a]!.departure.time;
    if (dep < departFrom || dep > departTo) continue;
    // Past the last call the hull carries on as its next sailing (n + hulls), unless that is blanked.
    const next = publish(sailing(service, epoch, p.sailing.n + service.hulls.length), now);
    const run = [...p.calls, ...(next?.calls ?? [])];
    const b = run.findIndex((c, i) => i > a && c.call.port.locode === destination);
    if (b < 0 || b - a > service.calls.length) continue;
    legs.push({ service, calls: run.slice(a, b + 1) });
  }
  return legs;
}

const route = (legs: RouteLeg[]): PointToPointRoute => ({
  legs,
  departure: legs[0]!.calls[0]!.departure.time,
  arrival: legs[legs.length - 1]!.calls.at(-1)!.arrival.time,
});

/** Routings sorted by departure, then transit time. */
export function pointToPoint(network: Network, scac: string, q: RouteQuery): PointToPointRoute[] {
  const services = network.byScac(scac);
  const out: PointToPointRoute[] = [];
  for (const s of services) {
    for (const leg of serviceLegs(s, q.epoch, q.now, q.origin, q.destination, q.departFrom, q.departTo))
      out.push(route([leg]));
  }
  if (q.maxTransshipments >= 1) {
    for (const a of services) {
      if (!a.rotation.includes(q.origin)) continue;
      for (const hub of a.rotation) {
        if (hub === q.origin || hub === q.destination) continue;
        const onward = services.filter(
          (b) => b !== a && b.rotation.includes(hub) && b.rotation.includes(q.destination),
        );
        if (!onward.length) continue;
        for (const first of serviceLegs(a, q.epoch, q.now, q.origin, hub, q.departFrom, q.departTo)) {
          // A first leg that passes the destination is a direct routing already.
          if (first.calls.some((c) => c.call.port.locode === q.destination)) continue;
          const ready = first.calls.at(-1)!.arrival.time + MIN_CONNECTION_H * H;
          for (const b of onward) {
            const second = serviceLegs(
              b,
              q.epoch,
              q.now,
              hub,
              q.destination,
              ready,
              ready + CONNECTION_SEARCH_D * D,
            )
              .filter((l) => !l.calls.some((c) => c.call.port.locode === q.origin))
              .sort((x, y) => x.calls[0]!.departure.time - y.calls[0]!.departure.time)[0];
            if (second) out.push(route([first, second]));
          }
        }
      }
    }
  }
  return out.sort((x, y) => x.departure - y.departure || x.arrival - x.departure - (y.arrival - y.departure));
}
