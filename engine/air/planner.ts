/**
 * Air chains (spec, chain rule 4 and Limits): road to one of the two closest large cargo airports
 * within 600 km, flight = great circle x 1.05 at 800 km/h plus 45 minutes, road from one of the two
 * closest airports at the other end; 12 h handling at each airport. An end given as an airport
 * (IATA or ICAO code) is that airport, with no road leg. Up to 2 x 2 airport pairs are planned;
 * the fastest is the route, the others its alternatives. docs/air-route.md.
 */

import { densify, haversineM, latLngPairs } from "../../common/geo.ts";
import { round } from "../../common/round.ts";
import { CARGO_AIRPORTS_OUTPUT, decodeCargoAirports } from "../../formats/cargo-airports.ts";
import { readArtifact } from "../artifacts.ts";
import { type Chain, sideLabel } from "../chain.ts";
import { EngineError } from "../errors.ts";
import { AIR, AIR_CRUISE_KMH, AIR_EXTRA_HOURS } from "../modes/air.ts";
import type { RoadRoutePlanner } from "../road/planner.ts";
import { terminalChains } from "../terminal-chain.ts";

/** Spec, Limits: great circle times 1.05 between large cargo airports. */
export const AIR_DISTANCE_FACTOR = 1.05;
/** Spec: road access up to 600 km (great circle from the point to the airport). */
export const AIR_ACCESS_MAX_KM = 600;
export const AIRPORTS_PER_SIDE = 2;
/** Path points at most this far apart, so the drawn line follows the great circle. */
const PATH_STEP_M = 100_000;
/** Closer than this, the door is the airport: no road leg. */
const NO_ACCESS_LEG_KM = 0.5;

export interface AirPoint {
  lat: number;
  lng: number;
  name?: string | null;
  /** "airport": the end is that airport (resolved from an IATA or ICAO code). */
  kind?: string;
  iata?: string | null;
}

/** An airport as chains show it (the spec's resolved point kind airport). */
export interface AirportPoint {
  kind: "airport";
  name: string;
  locode: null;
  iata: string;
  icao: string | null;
  country_code: string;
  lat: number;
  lng: number;
}

export interface AirPlanRequest<P extends AirPoint> {
  from: P;
  to: P;
  path?: boolean;
  alternatives?: boolean;
  /** Airport handling; default true (false: transfers stay, at 0 h). */
  handling?: boolean;
}

export interface AirPlan<P> {
  route: Chain<P | AirportPoint>;
  alternatives: Chain<P | AirportPoint>[];
}

/** One side's airport: the end itself (no road leg) or a cargo airport reached by road. */
interface End<P> {
  airport: P | AirportPoint;
  code: string;
  km: number;
  byRoad: boolean;
}

/** Flight metres between two airports: the spec's great circle x 1.05. */
export const flightMetres = (a: { lat: number; lng: number }, b: { lat: number; lng: number }) =>
  haversineM(a.lat, a.lng, b.lat, b.lng) * AIR_DISTANCE_FACTOR;

/** Flight hours for a flown distance: cruise plus 45 minutes. */
export const flightHours = (metres: number) => metres / 1000 / AIR_CRUISE_KMH + AIR_EXTRA_HOURS;

export class AirPlanner {
  constructor(readonly airports: ReadonlyArray<AirportPoint>) {}

  /** Loads the large cargo airports built by data-build (cargo-airports.bin beside locations.idx). */
  static async load(buildDir: string): Promise<{ planner: AirPlanner; buildId: string }> {
    const { path, bytes } = await readArtifact(buildDir, CARGO_AIRPORTS_OUTPUT);
    return AirPlanner.fromBytes(bytes, path);
  }

  /** The planner over a cargo-airports artifact's bytes (the build's, or a test's tiny list). */
  static fromBytes(
    bytes: Uint8Array,
    path = CARGO_AIRPORTS_OUTPUT,
  ): { planner: AirPlanner; buildId: string } {
    const { buildId, airports } = decodeCargoAirports(bytes, path);
    const points = airports.map(
      (a): AirportPoint => ({
        kind: "airport",
        name: a.name,
        locode: null,
        iata: a.iata,
        icao: a.icao,
        country_code: a.country,
        lat: a.lat,
        lng: a.lng,
      }),
    );
    return { planner: new AirPlanner(points), buildId };
  }

  /** The two closest large cargo airports within 600 km of a point, closest first. */
  nearest(p: { lat: number; lng: number }): Array<{ airport: AirportPoint; km: number }> {
    return this.airports
      .map((airport) => ({ airport, km: haversineM(p.lat, p.lng, airport.lat, airport.lng) / 1000 }))
      .filter((c) => c.km <= AIR_ACCESS_MAX_KM)
      .sort((x, y) => x.km - y.km)
      .slice(0, AIRPORTS_PER_SIDE);
  }

  private ends<P extends AirPoint>(p: P, side: "from" | "to"): End<P>[] {
    // An airport with only an ICAO code has no iata: its position names it.
    if (p.kind === "airport")
      return [{ airport: p, code: p.iata ?? `${p.lat},${p.lng}`, km: 0, byRoad: false }];
    const near = this.nearest(p);
    if (near.length === 0)
      throw new EngineError(
        "no_route",
        `No air route: ${sideLabel(p, side)} has no large cargo airport within ${AIR_ACCESS_MAX_KM} km (air road access limit).`,
      );
    return near.map((c) => ({
      airport: c.airport,
      code: c.airport.iata,
      km: c.km,
      byRoad: c.km >= NO_ACCESS_LEG_KM,
    }));
  }

  /**
   * Plans the air chain; throws EngineError no_route when a side has no airport in reach, when
   * both ends would use the same airport (a road question), or when no airport is reachable by road.
   */
  async plan<P extends AirPoint>(req: AirPlanRequest<P>, road: RoadRoutePlanner): Promise<AirPlan<P>> {
    const a = this.ends(req.from, "from");
    const b = this.ends(req.to, "to");
    // Both ends' closest airport being one airport means a road question, not a flight to a
    // farther airport and a drive back.
    const pairs =
      a[0]!.code === b[0]!.code
        ? []
        : a.flatMap((x) => b.filter((y) => y.code !== x.code).map((y) => [x, y] as const));
    if (pairs.length === 0)
      throw new EngineError(
        "no_route",
        `No air route: both ends are served by the same airport (${a[0]!.code}); use mode ROAD.`,
      );
    const { chains, unreachable } = await terminalChains({
      from: req.from,
      to: req.to,
      mode: "AIR",
      label: "Air",
      handlingHours: req.handling === false ? 0 : AIR.handlingHours,
      road,
      path: req.path === true,
      pairings: pairs.map(([x, y]) => {
        const m = flightMetres(x.airport, y.airport);
        return {
          from: x.airport,
          to: y.airport,
          fromRoad: x.byRoad ? `a${x.code}` : null,
          toRoad: y.byRoad ? `b${y.code}` : null,
          main: {
            transport_mode: "AIR",
            from: x.airport,
            to: y.airport,
            distance_m: m,
            hours: flightHours(m),
            path: req.path ? greatCirclePath(x.airport, y.airport) : undefined,
            start: x.airport,
            end: y.airport,
            estimated: false,
            extra: { great_circle_km: round(m / AIR_DISTANCE_FACTOR / 1000, 1), speed_kmh: AIR_CRUISE_KMH },
          },
        };
      }),
    });
    if (chains.length === 0)
      throw new EngineError(
        "no_route",
        `No air route: no road reaches the airports in range (${unreachable.map((t) => t.iata).join(", ")}).`,
      );
    const [best, ...rest] = chains;
    return { route: best!, alternatives: req.alternatives === false ? [] : rest };
  }
}

function greatCirclePath(a: { lat: number; lng: number }, b: { lat: number; lng: number }) {
  return latLngPairs(densify([a.lat, a.lng, b.lat, b.lng], PATH_STEP_M));
}
