/**
 * Where each hull of the fleet is by its schedule: a pure function of (network, epoch, clock).
 *
 * Hull k of a service sails the service's sailings n = k, k + hulls, ... (sailings.ts). Sailing n
 * holds the hull from its true arrival at the first port until its next sailing's: alongside
 * during each call it really makes (noise.ts true times; omitted calls skipped), at sea between
 * two calls. A blanked sailing leaves the hull at anchor off the first port until its next
 * sailing. Hulls of a carrier's fleet that no service uses are laid up, moored at one of the
 * carrier's ports (the ports its services call, in turn).
 */
import { fleet, type Vessel } from "../fleet.ts";
import type { Port, SandboxScac } from "../world.ts";
import { trueCalls } from "./booking.ts";
import { H, type Network, type Service } from "./network.ts";
import { type Sailing, sailing, sailingStart } from "./sailings.ts";

export type HullState =
  | {
      kind: "alongside";
      vessel: Vessel;
      port: Port;
      sailing: Sailing;
      index: number;
      from: number;
      to: number;
    }
  | {
      kind: "at_sea";
      vessel: Vessel;
      from: Port;
      to: Port;
      sailing: Sailing;
      departed: number;
      arrives: number;
    }
  | { kind: "at_anchor"; vessel: Vessel; port: Port; sailing: Sailing; from: number; to: number }
  | { kind: "laid_up"; vessel: Vessel; port: Port };

/** When the hull of sailing n really reaches its first port (the planned start when blanked). */
function firstArrival(s: Sailing): number {
  const calls = trueCalls(s);
  return calls ? calls[0]!.arrival.time : s.start;
}

/** The sailing of hull k (0-based within the service) that holds the hull at `now`. */
export function hullSailing(service: Service, epoch: number, k: number, now: number): Sailing {
  const hulls = service.hulls.length;
  const cycle = service.cycleH * H;
  let n = k + hulls * Math.floor((now - sailingStart(service, epoch, k)) / cycle);
  // True times move a sailing's first arrival by at most a few days: a step or two settles it.
  while (now < firstArrival(sailing(service, epoch, n))) n -= hulls;
  while (now >= firstArrival(sailing(service, epoch, n + hulls))) n += hulls;
  return sailing(service, epoch, n);
}

/** Where hull k of a service is at `now`. */
export function serviceHullState(service: Service, epoch: number, k: number, now: number): HullState {
  const s = hullSailing(service, epoch, k, now);
  const next = sailing(service, epoch, s.n + service.hulls.length);
  const end = firstArrival(next);
  const vessel = s.vessel;
  const calls = trueCalls(s);
  if (!calls)
    return { kind: "at_anchor", vessel, port: s.calls[0]!.port, sailing: s, from: s.start, to: end };
  for (let i = 0; i < calls.length; i++) {
    const c = calls[i]!;
    if (now < c.departure.time)
      return {
        kind: "alongside",
        vessel,
        port: c.call.port,
        sailing: s,
        index: c.call.index,
        from: c.arrival.time,
        to: c.departure.time,
      };
    const arrives = i + 1 < calls.length ? calls[i + 1]!.arrival.time : end;
    if (now < arrives)
      return {
        kind: "at_sea",
        vessel,
        from: c.call.port,
        to: i + 1 < calls.length ? calls[i + 1]!.call.port : next.calls[0]!.port,
        sailing: s,
        departed: c.departure.time,
        arrives,
      };
  }
  // Unreachable: `end` bounds the sailing, and the last leg runs up to it.
  throw new Error(`${s.id}: no position at ${new Date(now).toISOString()}`);
}

/** Hulls of a carrier's fleet that no service uses, each with the port it is laid up at. */
export function laidUpHulls(network: Network, scac: SandboxScac): Array<{ vessel: Vessel; port: Port }> {
  const services = network.byScac(scac);
  const used = new Set(services.flatMap((s) => s.hulls.map((v) => v.imo)));
  const ports = [...new Set(services.flatMap((s) => s.rotation))].map((c) => network.ports.get(c)!);
  return fleet(scac)
    .filter((v) => !used.has(v.imo))
    .map((vessel, i) => ({ vessel, port: ports[i % ports.length]! }));
}

/** Every hull of every carrier's fleet at `now`: services in order, then the laid-up ones. */
export function fleetStates(network: Network, scacs: readonly SandboxScac[], epoch: number, now: number) {
  const out: HullState[] = [];
  for (const scac of scacs) {
    for (const s of network.byScac(scac))
      s.hulls.forEach((_, k) => {
        out.push(serviceHullState(s, epoch, k, now));
      });
    for (const h of laidUpHulls(network, scac)) out.push({ kind: "laid_up", ...h });
  }
  return out;
}
