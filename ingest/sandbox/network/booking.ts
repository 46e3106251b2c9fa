/**
 * Bookings on a carrier's network: the routing a tracked shipment is booked on (./routes.ts as
 * published at the booking), the sailing a rolled or stranded box moves to, and each booked call's
 * proforma and true times. A booking never uses a sailing that is (or will be) blanked, nor a call
 * that will be omitted: the carrier re-books such cargo before it sails, and the sandbox keeps that
 * out of its voyages rather than play it half-way.
 */
import { D, type Network } from "./network.ts";
import { type PublishedCall, publish, sailingNoise } from "./noise.ts";
import { type PointToPointRoute, pointToPoint, type RouteLeg, serviceLegs } from "./routes.ts";
import type { Sailing } from "./sailings.ts";

/** The clock reading at which every call has converged to its true times. */
const FINAL = Number.POSITIVE_INFINITY;
/** A booking takes the first departure whose transit is at most this times the fastest offered. */
const MAX_TRANSIT_RATIO = 1.5;
/** Furthest a rolled box's next sailing is looked for: omissions can take out a few in a row. */
const NEXT_SAILING_SEARCH_D = 91;

/** One call of a booked sailing: proforma times and what really happens. */
export interface BookedCall {
  sailing: Sailing;
  index: number;
  plannedArrival: number;
  plannedDeparture: number;
  arrival: number;
  departure: number;
}

/** The calls of a sailing as they really happen (omitted calls left out), or null when it is blanked. */
export function trueCalls(s: Sailing): PublishedCall[] | null {
  return publish(s, FINAL)?.calls ?? null;
}

/** A call's proforma and true times; null when the call is omitted or its sailing blanked. */
export function bookedCall(c: PublishedCall): BookedCall | null {
  const real = trueCalls(c.sailing)?.find((t) => t.call.index === c.call.index);
  return real
    ? {
        sailing: c.sailing,
        index: c.call.index,
        plannedArrival: real.arrival.planned,
        plannedDeparture: real.departure.planned,
        arrival: real.arrival.time,
        departure: real.departure.time,
      }
    : null;
}

/** No sailing of the leg is blanked and its loading and discharge calls are really made. */
export function usableLeg(leg: RouteLeg): boolean {
  const ends = [leg.calls[0]!, leg.calls.at(-1)!];
  return (
    leg.calls.every((c) => !sailingNoise(c.sailing).blank) &&
    ends.every((c) => sailingNoise(c.sailing).omit?.index !== c.call.index)
  );
}

/**
 * The first routing, as published at `bookedAt`, departing in [from, to] whose legs are all usable
 * and whose transit is close to the fastest one's.
 */
export function bookRouting(
  network: Network,
  scac: string,
  q: { origin: string; destination: string; from: number; to: number; epoch: number; bookedAt: number },
  accept: (r: PointToPointRoute) => boolean = () => true,
): PointToPointRoute | null {
  const routes = pointToPoint(network, scac, {
    origin: q.origin,
    destination: q.destination,
    departFrom: q.from,
    departTo: q.to,
    maxTransshipments: 1,
    epoch: q.epoch,
    now: q.bookedAt,
  });
  const usable = routes.filter((r) => r.legs.every(usableLeg) && accept(r));
  if (!usable.length) return null;
  // A shipper takes the next departure, but not one that goes round the world: a direct routing
  // may ride the hull across its turn (Singapore to Shanghai by way of Europe), a booking does not.
  const fastest = Math.min(...usable.map((r) => r.arrival - r.departure));
  return usable.find((r) => r.arrival - r.departure <= fastest * MAX_TRANSIT_RATIO + 2 * D)!;
}

/**
 * The next usable sailing of `leg`'s service from its loading port to its discharge port whose
 * true departure is at or after `after`: where rolled or stranded boxes go.
 */
export function nextSailing(leg: RouteLeg, epoch: number, after: number): RouteLeg | null {
  const from = leg.calls[0]!.call.port.locode;
  const to = leg.calls.at(-1)!.call.port.locode;
  const n = leg.calls[0]!.sailing.n;
  return (
    serviceLegs(leg.service, epoch, FINAL, from, to, after, after + NEXT_SAILING_SEARCH_D * D)
      // No more calls than the booked leg: an omitted discharge port must not send the box round
      // the rotation to the hull's next call there.
      .filter((l) => l.calls[0]!.sailing.n > n && l.calls.length <= leg.calls.length && usableLeg(l))
      .sort((a, b) => a.calls[0]!.departure.time - b.calls[0]!.departure.time)[0] ?? null
  );
}

/** Ports where some pair of the carrier's services connect: for drawing origins and destinations. */
export function connected(network: Network, scac: string, origin: string, destination: string): boolean {
  const services = network.byScac(scac);
  const from = services.filter((s) => s.rotation.includes(origin));
  const to = services.filter((s) => s.rotation.includes(destination));
  return from.some((a) => to.some((b) => a === b || a.rotation.some((p) => b.rotation.includes(p))));
}
