/**
 * Dated sailings: sailing n of a service starts (arrives at its first port) at
 * epoch + phase + n x frequency, on hull n mod hulls, and follows the proforma. A pure function of
 * (service, epoch, n): the same epoch always gives the same sailings.
 */
import type { Vessel } from "../fleet.ts";
import type { Port } from "../world.ts";
import { D, H, type Service } from "./network.ts";

export interface PlannedCall {
  /** Position in the rotation. */
  index: number;
  port: Port;
  arrival: number;
  departure: number;
  importVoyage: string;
  exportVoyage: string;
}

export interface Sailing {
  /** `${scac}-${service code}-${n}` (M for minus: before the epoch); seeds the sailing's noise. */
  id: string;
  service: Service;
  n: number;
  vessel: Vessel;
  start: number;
  /** Voyage numbers of the outbound and return halves. */
  voyages: [string, string];
  calls: PlannedCall[];
}

const mod = (a: number, m: number) => ((a % m) + m) % m;

export const sailingStart = (service: Service, epoch: number, n: number) =>
  epoch + service.phaseH * H + n * service.frequencyDays * D;

/** Sailings numbers whose start falls in [from, to]. */
export function sailingNumbers(service: Service, epoch: number, from: number, to: number): number[] {
  const step = service.frequencyDays * D;
  const first = Math.ceil((from - sailingStart(service, epoch, 0)) / step);
  const last = Math.floor((to - sailingStart(service, epoch, 0)) / step);
  const out: number[] = [];
  for (let n = first; n <= last; n++) out.push(n);
  return out;
}

/**
 * Voyage numbers as yy + week + direction ("2647W"), from the sailing's planned start: unique per
 * service, and they match DCSA's universal voyage reference pattern, so both use them.
 */
function voyageNumbers(service: Service, start: number): [string, string] {
  const d = new Date(start);
  const yy = String(d.getUTCFullYear() % 100).padStart(2, "0");
  const week = Math.floor((start - Date.UTC(d.getUTCFullYear(), 0, 1)) / (7 * D)) + 1;
  const base = `${yy}${String(week).padStart(2, "0")}`;
  return [`${base}${service.directions[0]}`, `${base}${service.directions[1]}`];
}

export function sailing(service: Service, epoch: number, n: number): Sailing {
  const start = sailingStart(service, epoch, n);
  const voyages = voyageNumbers(service, start);
  // The hull arrives at the first port on the return half of its previous sailing.
  const arriving = voyageNumbers(service, sailingStart(service, epoch, n - service.hulls.length))[1];
  const calls = service.calls.map((c, index): PlannedCall => {
    const half = index < service.turn ? 0 : 1;
    return {
      index,
      port: c.port,
      arrival: start + c.arrivalH * H,
      departure: start + c.departureH * H,
      importVoyage: index === 0 ? arriving : index === service.turn ? voyages[0] : voyages[half],
      exportVoyage: voyages[half],
    };
  });
  return {
    id: `${service.scac}-${service.code}-${n < 0 ? "M" : ""}${Math.abs(n)}`,
    service,
    n,
    vessel: service.hulls[mod(n, service.hulls.length)]!,
    start,
    voyages,
    calls,
  };
}
