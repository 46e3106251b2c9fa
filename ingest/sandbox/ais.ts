/**
 * The sandbox's AIS feed: every hull of every played carrier's fleet at its schedule position
 * (network/hulls.ts: alongside during a call, along the real sea route between calls, at anchor
 * through a blanked sailing, laid up if no service uses it), whatever was asked: a pure function of
 * (epoch, clock), so a restarted sandbox broadcasts the same fixes at the same clock reading.
 * Broadcast as AIVDM sentences over TCP (type 1 positions on every tick, type 5 static data every
 * STATIC_EVERY ticks and to each new listener). Tag-block times come from the sandbox clock, so a
 * manual clock moves the ships too.
 */

import type { PathPoint } from "../../common/geo.ts";
import { encodePosition, encodeStatic, type VesselReport } from "../ais/encode.ts";
import type { Vessel } from "./fleet.ts";
import { fleetStates, type HullState } from "./network/hulls.ts";
import { H, type Network, serviceNetwork } from "./network/network.ts";
import { SANDBOX_SCACS, type SandboxWorld } from "./world.ts";

const STATIC_EVERY = 10;

/** One connected listener of the feed. */
export interface TcpClient {
  write(text: string): unknown;
}

/** The runtime's TCP server (Bun.listen, Deno.listen), handed in by the sandbox process's entry. */
export type ListenTcp = (o: {
  hostname: string;
  port: number;
  open(client: TcpClient): void;
  close(client: TcpClient): void;
}) => { port: number; stop(): void };
/** AIS navigational status: under way using engine, at anchor, moored. */
const UNDER_WAY = 0;
const AT_ANCHOR = 1;
const MOORED = 5;

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
function distanceNm(a: PathPoint, b: PathPoint): number {
  const h =
    Math.sin(rad(b[0] - a[0]) / 2) ** 2 +
    Math.cos(rad(a[0])) * Math.cos(rad(b[0])) * Math.sin(rad(b[1] - a[1]) / 2) ** 2;
  return 2 * 3440.065 * Math.asin(Math.min(1, Math.sqrt(h)));
}
function bearing(a: PathPoint, b: PathPoint): number {
  const y = Math.sin(rad(b[1] - a[1])) * Math.cos(rad(b[0]));
  const x =
    Math.cos(rad(a[0])) * Math.sin(rad(b[0])) -
    Math.sin(rad(a[0])) * Math.cos(rad(b[0])) * Math.cos(rad(b[1] - a[1]));
  return ((Math.atan2(y, x) * 180) / Math.PI + 360) % 360;
}

/** The point a fraction of the way along a polyline (by distance), with the course there. */
function along(path: PathPoint[], fraction: number): { lat: number; lng: number; cog: number } {
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
  private readonly network: Network;

  constructor(
    private readonly world: SandboxWorld,
    private readonly epoch: number,
  ) {
    this.network = serviceNetwork(world);
  }

  /** Every hull of the fleet at `now`, each once. */
  fixes(now: number): VesselFix[] {
    return fleetStates(this.network, SANDBOX_SCACS, this.epoch, now).map((s) => this.fixOf(s, now));
  }

  private fixOf(state: HullState, now: number): VesselFix {
    const base = { vessel: state.vessel, mmsi: mmsiOf(state.vessel.imo), sog: 0, cog: 0 };
    if (state.kind !== "at_sea") {
      const status = state.kind === "at_anchor" ? AT_ANCHOR : MOORED;
      return { ...base, lat: state.port.lat, lng: state.port.lng, status, destination: state.port.locode };
    }
    const { from, to, departed, arrives } = state;
    const path = this.world.pathOf(from, to) ?? [
      [from.lat, from.lng],
      [to.lat, to.lng],
    ];
    const at = along(path, (now - departed) / (arrives - departed));
    const nm = this.world.route(from, to)?.nm ?? distanceNm([from.lat, from.lng], [to.lat, to.lng]);
    const sog = Math.round((nm / ((arrives - departed) / H)) * 10) / 10;
    return {
      ...base,
      lat: at.lat,
      lng: at.lng,
      sog,
      cog: Math.round(at.cog * 10) / 10,
      status: UNDER_WAY,
      destination: to.locode,
    };
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
  listen(listenTcp: ListenTcp, port: number, hostname: string, intervalMs: number, now: () => number) {
    const clients = new Set<TcpClient>();
    let tick = 0;
    const publish = (withStatic: boolean) => {
      const text = this.sentences(now(), withStatic)
        .map((l) => `${l}\r\n`)
        .join("");
      if (text) for (const c of clients) c.write(text);
    };
    const server = listenTcp({
      hostname,
      port,
      open: (client) => {
        clients.add(client);
        const text = this.sentences(now(), true)
          .map((l) => `${l}\r\n`)
          .join("");
        if (text) client.write(text);
      },
      close: (client) => {
        clients.delete(client);
      },
    });
    const timer = setInterval(() => publish(++tick % STATIC_EVERY === 0), intervalMs);
    return {
      port: server.port,
      /** Publish now (a manual clock moved). */
      publish: () => publish(true),
      stop: () => {
        clearInterval(timer);
        server.stop();
      },
    };
  }
}
