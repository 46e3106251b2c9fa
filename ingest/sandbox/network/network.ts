/**
 * The sandbox service network: each service of ./services.ts with its legs timed by the real sea
 * router at the service speed, its proforma (call offsets within one round trip) and its hulls.
 * A service with frequency F and round trip R needs ceil((R + buffer) / F) hulls; the proforma
 * round trip is stretched to exactly hulls x F, the slack going into the last leg, so hull k sails
 * every hulls-th departure and the buffer absorbs the worst delay noise.ts may draw.
 */
import { fleet, type Vessel } from "../fleet.ts";
import { Rng } from "../random.ts";
import type { Port, SandboxScac, SandboxWorld } from "../world.ts";
import { SERVICE_SPECS, type ServiceSpec } from "./services.ts";

export const H = 3_600_000;
export const D = 24 * H;
/** Worst delay (hours) and worst early running noise.ts draws; the round trip keeps room for both. */
export const MAX_DELAY_H = 72;
export const MAX_EARLY_H = 6;
const BUFFER_H = MAX_DELAY_H + MAX_EARLY_H + 12;
/** Hours alongside: longer at the transshipment hubs, where more boxes move. */
const STAY_H = 20;
const HUB_STAY_H = 28;

export interface ProformaCall {
  port: Port;
  /** Hours after the sailing's start (its arrival at the first port). */
  arrivalH: number;
  departureH: number;
}

export interface Service extends ServiceSpec {
  calls: ProformaCall[];
  /** Sea miles of each leg; the last leg returns to the first port. */
  legNm: number[];
  /** Sailing time of the rotation without slack, hours. */
  roundTripH: number;
  /** Hulls x frequency: the proforma round trip, hours. */
  cycleH: number;
  hulls: Vessel[];
  /** Hours after the epoch of sailing 0's start: services do not all start at midnight. */
  phaseH: number;
}

export interface Network {
  services: Service[];
  byScac(scac: string): Service[];
  service(scac: string, code: string): Service | undefined;
  /** Ports some service calls, by code. */
  ports: Map<string, Port>;
}

/** Hulls a rotation of roundTripH hours needs at a frequency. */
export const hullsNeeded = (roundTripH: number, frequencyDays: number) =>
  Math.ceil((roundTripH + BUFFER_H) / (frequencyDays * 24));

const built = new WeakMap<SandboxWorld, Network>();

/** The network of a world, built on first use (about a hundred sea routes: well under a second). */
export function serviceNetwork(world: SandboxWorld, specs: readonly ServiceSpec[] = SERVICE_SPECS): Network {
  const cached = specs === SERVICE_SPECS ? built.get(world) : undefined;
  if (cached) return cached;
  const portByCode = new Map(world.ports.map((p) => [p.locode, p]));
  const hubs = new Map<string, number>();
  for (const s of specs) for (const c of s.rotation) hubs.set(c, (hubs.get(c) ?? 0) + 1);
  const used = new Map<SandboxScac, number>();
  const services: Service[] = [];
  for (const spec of specs) {
    const ports = spec.rotation.map((code) => {
      const p = portByCode.get(code);
      if (!p) throw new Error(`service ${spec.scac} ${spec.code}: ${code} is not a main port`);
      return p;
    });
    const legNm = ports.map((from, i) => {
      const to = ports[(i + 1) % ports.length]!;
      const leg = world.route(from, to);
      if (!leg)
        throw new Error(`service ${spec.scac} ${spec.code}: no sea route ${from.locode}-${to.locode}`);
      return leg.nm;
    });
    const calls: ProformaCall[] = [];
    let t = 0;
    ports.forEach((port, i) => {
      const stay = (hubs.get(port.locode) ?? 0) > 1 ? HUB_STAY_H : STAY_H;
      calls.push({ port, arrivalH: t, departureH: t + stay });
      t += stay + Math.ceil(legNm[i]! / spec.knots);
    });
    const count = hullsNeeded(t, spec.frequencyDays);
    const first = used.get(spec.scac) ?? 0;
    const hulls = fleet(spec.scac).slice(first, first + count);
    if (hulls.length < count)
      throw new Error(
        `${spec.scac}: its services need more hulls than its fleet of ${fleet(spec.scac).length}`,
      );
    used.set(spec.scac, first + count);
    services.push({
      ...spec,
      calls,
      legNm,
      roundTripH: t,
      cycleH: count * spec.frequencyDays * 24,
      hulls,
      phaseH: new Rng(`phase:${spec.scac}:${spec.code}`).int(0, spec.frequencyDays * 24 - 1),
    });
  }
  const ports = new Map<string, Port>();
  for (const s of services) for (const c of s.calls) ports.set(c.port.locode, c.port);
  const network: Network = {
    services,
    byScac: (scac) => services.filter((s) => s.scac === scac),
    service: (scac, code) => services.find((s) => s.scac === scac && s.code === code),
    ports,
  };
  if (specs === SERVICE_SPECS) built.set(world, network);
  return network;
}
