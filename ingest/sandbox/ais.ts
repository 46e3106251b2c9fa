/**
 * The sandbox's AIS feed: the hulls of the voyages its carriers have been asked about, sailing
 * their legs along the real sea routes, broadcast as AIVDM sentences over TCP (type 1 positions on
 * every tick, type 5 static data every STATIC_EVERY ticks and to each new listener). Tag-block
 * times come from the sandbox clock, so a manual clock moves the ships too.
 */
import { encodePosition, encodeStatic, type VesselReport } from "../ais/encode.ts";
import type { Vessel } from "./fleet.ts";
import type { SimulatedVoyage, VoyageLeg } from "./simulate.ts";
import type { SandboxWorld } from "./world.ts";

const WATCHED_MAX = 2_000;
/** Hours a hull is shown moored at the berth before departure and after arrival. */
const BERTH_HOURS = 12;
const STATIC_EVERY = 10;
const H = 3_600_000;

export interface VesselFix {
  vessel: Vessel;
  mmsi: number;
  lat: number;
  lng: number;
  sog: number;
  cog: number;
  status: number;
  destination: string;
}

/** A stable MMSI for a sandbox hull: Liberia's MID 636 and the IMO's last six digits. */
export const mmsiOf = (imo: string) => Number(`636${imo.slice(-6)}`);

const rad = (d: number) => (d * Math.PI) / 180;
function distanceNm(a: [number, number], b: [number, number]): number {
  const h =
    Math.sin(rad(b[0] - a[0]) / 2) ** 2 +
    Math.cos(rad(a[0])) * Math.cos(rad(b[0])) * Math.sin(rad(b[1] - a[1]) / 2) ** 2;
  return 2 * 3440.065 * Math.asin(Math.min(1, Math.sqrt(h)));
}
function bearing(a: [number, number], b: [number, number]): number {
  const y = Math.sin(rad(b[1] - a[1])) * Math.cos(rad(b[0]));
  const x =
    Math.cos(rad(a[0])) * Math.sin(rad(b[0])) -
    Math.sin(rad(a[0])) * Math.cos(rad(b[0])) * Math.cos(rad(b[1] - a[1]));
  return ((Math.atan2(y, x) * 180) / Math.PI + 360) % 360;
}

/** The point a fraction of the way along a polyline (by distance), with the course there. */
function along(path: Array<[number, number]>, fraction: number): { lat: number; lng: number; cog: number } {
  const lengths = path.slice(1).map((p, i) => distanceNm(path[i]!, p));
  let remaining = lengths.reduce((a, b) => a + b, 0) * Math.min(1, Math.max(0, fraction));
  for (let i = 0; i < lengths.length; i++) {
    const a = path[i]!;
    const b = path[i + 1]!;
    if (remaining <= lengths[i]! || i === lengths.length - 1) {
      const t = lengths[i]! === 0 ? 0 : remaining / lengths[i]!;
      // Interpolate longitude the short way across the antimeridian.
      const dLng = ((b[1] - a[1] + 540) % 360) - 180;
      const lng = ((a[1] + dLng * t + 540) % 360) - 180;
      return { lat: a[0] + (b[0] - a[0]) * t, lng, cog: bearing(a, b) };
    }
    remaining -= lengths[i]!;
  }
  const last = path.at(-1)!;
  return { lat: last[0], lng: last[1], cog: 0 };
}

export class SandboxAis {
  private readonly watched = new Map<string, SimulatedVoyage>();

  constructor(private readonly world: SandboxWorld) {}

  /** Called for every voyage the carrier API serves: its hulls join the feed. */
  watch(voyage: SimulatedVoyage): void {
    const key = `${voyage.carrier.scac}|${voyage.shipment.index}`;
    this.watched.delete(key);
    this.watched.set(key, voyage);
    if (this.watched.size > WATCHED_MAX) this.watched.delete(this.watched.keys().next().value!);
  }

  /** Where each watched hull is at `now`; a hull on several voyages at once keeps its first leg. */
  fixes(now: number): VesselFix[] {
    const out = new Map<string, VesselFix>();
    for (const voyage of this.watched.values()) {
      for (const leg of voyage.legs) {
        if (out.has(leg.vessel.imo)) continue;
        const fix = this.fixOn(leg, now);
        if (fix) out.set(leg.vessel.imo, fix);
      }
    }
    return [...out.values()];
  }

  private fixOn(leg: VoyageLeg, now: number): VesselFix | null {
    const dep = Date.parse(leg.departure);
    const arr = Date.parse(leg.arrival);
    const base = { vessel: leg.vessel, mmsi: mmsiOf(leg.vessel.imo), destination: leg.to.locode };
    if (now >= dep - BERTH_HOURS * H && now < dep)
      return { ...base, lat: leg.from.lat, lng: leg.from.lng, sog: 0, cog: 0, status: 5 };
    if (now >= arr && now < arr + BERTH_HOURS * H)
      return { ...base, lat: leg.to.lat, lng: leg.to.lng, sog: 0, cog: 0, status: 5 };
    if (now < dep || now >= arr) return null;
    const path = this.world.pathOf(leg.from, leg.to) ?? [
      [leg.from.lat, leg.from.lng],
      [leg.to.lat, leg.to.lng],
    ];
    const at = along(path, (now - dep) / (arr - dep));
    const sog = Math.round((leg.nm / ((arr - dep) / H)) * 10) / 10;
    return { ...base, lat: at.lat, lng: at.lng, sog, cog: Math.round(at.cog * 10) / 10, status: 0 };
  }

  /** Hulls whose static data went out: a newcomer's goes out at once, so listeners can link its IMO. */
  private readonly announced = new Set<string>();

  sentences(now: number, withStatic: boolean): string[] {
    const lines: string[] = [];
    this.fixes(now).forEach((f, i) => {
      const report: VesselReport = {
        mmsi: f.mmsi,
        imo: Number(f.vessel.imo),
        name: f.vessel.name,
        callsign: f.vessel.callSign,
        shiptype: 70,
        destination: f.destination,
        lat: f.lat,
        lng: f.lng,
        sog: f.sog,
        cog: f.cog,
        heading: Math.round(f.cog) % 360,
        status: f.status,
        timestamp: now,
      };
      if (withStatic || !this.announced.has(f.vessel.imo)) {
        lines.push(...encodeStatic(report, { seqId: i % 10, source: "sandbox", time: now }));
        this.announced.add(f.vessel.imo);
      }
      lines.push(encodePosition(report, { source: "sandbox", time: now }));
    });
    return lines;
  }

  /** A TCP broadcaster: every listener gets every sentence, one per line. */
  listen(port: number, hostname: string, intervalMs: number, now: () => number) {
    const clients = new Set<{ write(data: string): number }>();
    let tick = 0;
    const publish = (withStatic: boolean) => {
      const text = this.sentences(now(), withStatic)
        .map((l) => `${l}\r\n`)
        .join("");
      if (text) for (const c of clients) c.write(text);
    };
    const server = Bun.listen({
      hostname,
      port,
      socket: {
        open: (socket) => {
          clients.add(socket);
          const text = this.sentences(now(), true)
            .map((l) => `${l}\r\n`)
            .join("");
          if (text) socket.write(text);
        },
        close: (socket) => {
          clients.delete(socket);
        },
        data: () => {},
      },
    });
    const timer = setInterval(() => publish(++tick % STATIC_EVERY === 0), intervalMs);
    return {
      port: server.port,
      /** Publish now (a manual clock moved). */
      publish: () => publish(true),
      stop: () => {
        clearInterval(timer);
        server.stop(true);
      },
    };
  }
}
