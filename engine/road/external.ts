/**
 * External road engines for road legs: OSRM (route service v1) or Valhalla (/route, truck costing).
 * When the engine fails (network, timeout, 5xx, malformed answer) the leg is estimated from the
 * great circle x circuity and marked `estimated: true` (the spec's rule), and the engine is backed off
 * exponentially before it is asked again. An engine that answers "no road joins these points" gives
 * EngineError no_route; nothing here throws anything else but invalid_request for bad inputs.
 * Web-standard APIs only (fetch, AbortController), so it runs under Bun and Deno. docs/road.md.
 */
import { haversineM, type PathPoint } from "../../common/geo.ts";
import { EngineError } from "../errors.ts";
import { ROAD_DEFAULTS, type RoadConfig, type RoadEngineKind } from "./config.ts";
import { decodePolyline } from "./polyline.ts";
import { TRUCK_TIME_FACTOR, type TruckTime, truckTimeFromCarSeconds, truckTimeFromDriving } from "./truck.ts";

export interface LatLng {
  lat: number;
  lng: number;
}

export interface RoadLeg {
  distance_m: number;
  /** Driving seconds on `duration_basis`; the planner turns it into truck time (truckTime below). */
  duration_s: number;
  /** "car": OSRM's car profile or the estimate (x 1.2 for a truck); "truck": Valhalla truck costing. */
  duration_basis: "car" | "truck";
  /** [lat, lng] pairs, only when asked for. */
  path?: PathPoint[];
  estimated: boolean;
  source: RoadEngineKind | "estimate";
  /** Why an estimate stands in for the engine (estimated legs only). */
  reason?: string;
}

export interface EstimateOptions {
  /** Road km per great-circle km; default 1.3 (GLOBAL row of road/circuity.csv). */
  circuity?: number;
  /** Truck speed; default 60.8 km/h (GLOBAL row of road/truck_speeds.csv). */
  truckSpeedKmh?: number;
  path?: boolean;
  reason?: string;
}

/** Truck time of a leg under the spec's rule, whichever basis its duration is on. */
export function truckTime(leg: Pick<RoadLeg, "duration_s" | "duration_basis">): TruckTime {
  return leg.duration_basis === "truck"
    ? truckTimeFromDriving(leg.duration_s / 3600)
    : truckTimeFromCarSeconds(leg.duration_s);
}

function checkPoint(p: LatLng, label: string): void {
  const ok =
    p !== null &&
    typeof p === "object" &&
    Number.isFinite(p.lat) &&
    Number.isFinite(p.lng) &&
    Math.abs(p.lat) <= 90 &&
    Math.abs(p.lng) <= 180;
  if (!ok)
    throw new EngineError("invalid_request", `${label} must be a point with lat -90..90 and lng -180..180`);
}

/**
 * The fallback leg: great circle x circuity. Its duration is car-equivalent (truck time / 1.2) so the
 * planner's one truck rule turns it back into driving at truckSpeedKmh.
 */
export function estimateRoadLeg(from: LatLng, to: LatLng, opts: EstimateOptions = {}): RoadLeg {
  checkPoint(from, "from");
  checkPoint(to, "to");
  const circuity = opts.circuity ?? ROAD_DEFAULTS.circuity;
  const speed = opts.truckSpeedKmh ?? ROAD_DEFAULTS.truckSpeedKmh;
  if (!Number.isFinite(circuity) || circuity < 1)
    throw new EngineError("invalid_request", "circuity must be a number of at least 1");
  if (!Number.isFinite(speed) || speed <= 0)
    throw new EngineError("invalid_request", "truck speed must be a positive number");
  const distance = haversineM(from.lat, from.lng, to.lat, to.lng) * circuity;
  const truckSeconds = (distance / 1000 / speed) * 3600;
  const leg: RoadLeg = {
    distance_m: distance,
    duration_s: truckSeconds / TRUCK_TIME_FACTOR,
    duration_basis: "car",
    estimated: true,
    source: "estimate",
  };
  if (opts.path)
    leg.path = [
      [from.lat, from.lng],
      [to.lat, to.lng],
    ];
  if (opts.reason) leg.reason = opts.reason;
  return leg;
}

/** The engine is down or answered nonsense: estimate and back off. */
class EngineDown extends Error {}
/** The engine is up but declined this request (a point off its map, a size limit): estimate, no back-off. */
class EngineRefused extends Error {}

type Answer = Pick<RoadLeg, "distance_m" | "duration_s" | "duration_basis" | "path">;

export interface RoadEngineOptions {
  fetch?: typeof fetch;
  /** Clock for the back-off (tests move it instead of sleeping). */
  now?: () => number;
  /** OSRM geometry encoding to request; all three are decoded. Default polyline6. */
  osrmGeometries?: "polyline" | "polyline6" | "geojson";
}

export interface RoadEngineState {
  /** Consecutive failures; 0 when the last call succeeded. */
  failures: number;
  /** Epoch ms before which the engine is not asked; 0 when not backed off. */
  retryAt: number;
  lastError: string | null;
}

/** Reads numbers out of untrusted JSON without trusting its shape. */
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null;
const finite = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v) && v >= 0;

/** OSRM codes meaning "no road between these points" (docs/http.md, "Responses"). */
const OSRM_NO_ROUTE = new Set(["NoRoute"]);
/** OSRM codes meaning this request cannot be served but the engine is fine. */
const OSRM_REFUSED = new Set(["NoSegment", "TooBig", "InvalidValue", "InvalidInput"]);
/** Valhalla error codes: 442 no path, 170 unconnected regions. */
const VALHALLA_NO_ROUTE = new Set([170, 442]);

export class ExternalRoadEngine {
  readonly kind: RoadEngineKind;
  private readonly baseUrl: string;
  private readonly fetchImpl: typeof fetch;
  private readonly now: () => number;
  private readonly geometries: "polyline" | "polyline6" | "geojson";
  private failures = 0;
  private retryAt = 0;
  private lastError: string | null = null;

  constructor(
    readonly config: RoadConfig,
    opts: RoadEngineOptions = {},
  ) {
    if (!config.engine || !config.baseUrl)
      throw new Error("ExternalRoadEngine needs an engine and a base URL");
    this.kind = config.engine;
    this.baseUrl = config.baseUrl.replace(/\/+$/, "");
    this.fetchImpl = opts.fetch ?? fetch;
    this.now = opts.now ?? Date.now;
    this.geometries = opts.osrmGeometries ?? "polyline6";
  }

  state(): RoadEngineState {
    return { failures: this.failures, retryAt: this.retryAt, lastError: this.lastError };
  }

  /** Delay after the n-th consecutive failure: backoffMs x 2^(n-1), capped at backoffMaxMs. */
  backoffDelay(failures: number): number {
    if (failures <= 0) return 0;
    return Math.min(this.config.backoffMaxMs, this.config.backoffMs * 2 ** Math.min(failures - 1, 30));
  }

  /** A road leg; never rejects except EngineError invalid_request (bad points) or no_route. */
  async route(from: LatLng, to: LatLng, opts: { path?: boolean } = {}): Promise<RoadLeg> {
    checkPoint(from, "from");
    checkPoint(to, "to");
    const path = opts.path === true;
    const estimate = (reason: string) =>
      estimateRoadLeg(from, to, {
        circuity: this.config.circuity,
        truckSpeedKmh: this.config.truckSpeedKmh,
        path,
        reason,
      });
    if (this.now() < this.retryAt) {
      return estimate(`${this.kind} backed off after ${this.failures} failure(s): ${this.lastError}`);
    }
    try {
      const answer =
        this.kind === "osrm" ? await this.osrm(from, to, path) : await this.valhalla(from, to, path);
      this.failures = 0;
      this.retryAt = 0;
      this.lastError = null;
      return { ...answer, estimated: false, source: this.kind };
    } catch (err) {
      if (err instanceof EngineError) throw err;
      const message = err instanceof Error ? err.message : String(err);
      if (err instanceof EngineRefused) return estimate(`${this.kind} declined: ${message}`);
      this.failures++;
      this.lastError = message;
      this.retryAt = this.now() + this.backoffDelay(this.failures);
      return estimate(`${this.kind} unavailable: ${message}`);
    }
  }

  /** One HTTP exchange under the timeout (headers and body); the body parsed as JSON. */
  private async exchange(url: string, init: RequestInit): Promise<{ status: number; body: unknown }> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.config.timeoutMs);
    try {
      const res = await this.fetchImpl(url, { ...init, signal: controller.signal });
      const text = await res.text();
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        // A proxy's HTML error page on a 5xx is a down engine, not a malformed answer.
        throw new EngineDown(`HTTP ${res.status} with a body that is not JSON`);
      }
      return { status: res.status, body };
    } catch (err) {
      if (err instanceof EngineDown) throw err;
      if (controller.signal.aborted) throw new EngineDown(`no answer within ${this.config.timeoutMs} ms`);
      throw new EngineDown(err instanceof Error ? err.message : String(err));
    } finally {
      clearTimeout(timer);
    }
  }

  private async osrm(from: LatLng, to: LatLng, path: boolean): Promise<Answer> {
    const coords = `${from.lng},${from.lat};${to.lng},${to.lat}`;
    const query = path
      ? `overview=full&geometries=${this.geometries}&steps=false&alternatives=false`
      : "overview=false&steps=false&alternatives=false";
    const url = `${this.baseUrl}/route/v1/${encodeURIComponent(this.config.profile)}/${coords}?${query}`;
    const { status, body } = await this.exchange(url, { headers: { accept: "application/json" } });
    if (status >= 500) throw new EngineDown(`HTTP ${status}`);
    if (!isObj(body) || typeof body.code !== "string")
      throw new EngineDown(`HTTP ${status}: not an OSRM answer`);
    const message = typeof body.message === "string" ? `: ${body.message}` : "";
    if (OSRM_NO_ROUTE.has(body.code))
      throw new EngineError("no_route", `no road route joins the points${message}`);
    if (OSRM_REFUSED.has(body.code)) throw new EngineRefused(`${body.code}${message}`);
    if (body.code !== "Ok") throw new EngineDown(`${body.code}${message}`);
    const route = Array.isArray(body.routes) ? body.routes[0] : undefined;
    if (!isObj(route) || !finite(route.distance) || !finite(route.duration))
      throw new EngineDown("OSRM answer without a route distance and duration");
    const answer: Answer = { distance_m: route.distance, duration_s: route.duration, duration_basis: "car" };
    if (path) answer.path = this.osrmGeometry(route.geometry);
    return answer;
  }

  private osrmGeometry(geometry: unknown): PathPoint[] {
    try {
      if (typeof geometry === "string")
        return decodePolyline(geometry, this.geometries === "polyline" ? 5 : 6);
    } catch {
      throw new EngineDown("OSRM geometry is not a valid encoded polyline");
    }
    if (isObj(geometry) && geometry.type === "LineString" && Array.isArray(geometry.coordinates)) {
      const out: PathPoint[] = [];
      for (const c of geometry.coordinates) {
        if (!Array.isArray(c) || !Number.isFinite(c[0]) || !Number.isFinite(c[1]))
          throw new EngineDown("OSRM GeoJSON geometry has a bad coordinate");
        out.push([c[1] as number, c[0] as number]);
      }
      return out;
    }
    throw new EngineDown("OSRM route without geometry");
  }

  private async valhalla(from: LatLng, to: LatLng, path: boolean): Promise<Answer> {
    const request = {
      locations: [
        { lat: from.lat, lon: from.lng, type: "break" },
        { lat: to.lat, lon: to.lng, type: "break" },
      ],
      costing: this.config.profile,
      units: "kilometers",
      directions_type: "none",
    };
    const { status, body } = await this.exchange(`${this.baseUrl}/route`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify(request),
    });
    if (isObj(body) && typeof body.error_code === "number") {
      const message = `${body.error_code} ${typeof body.error === "string" ? body.error : ""}`.trim();
      if (status >= 500) throw new EngineDown(`HTTP ${status}: ${message}`);
      if (VALHALLA_NO_ROUTE.has(body.error_code))
        throw new EngineError("no_route", `no road route joins the points: ${message}`);
      throw new EngineRefused(message);
    }
    if (status >= 400) throw new EngineDown(`HTTP ${status}`);
    const trip = isObj(body) ? body.trip : undefined;
    const summary = isObj(trip) ? trip.summary : undefined;
    if (!isObj(trip) || !isObj(summary) || !finite(summary.length) || !finite(summary.time))
      throw new EngineDown("Valhalla answer without trip.summary length and time");
    // summary.length is in the request's units; the trip says which ones it used.
    const metres = trip.units === "miles" ? 1609.344 : 1000;
    const answer: Answer = {
      distance_m: summary.length * metres,
      duration_s: summary.time,
      duration_basis: this.config.profile === "truck" ? "truck" : "car",
    };
    if (path) {
      const legs = Array.isArray(trip.legs) ? trip.legs : [];
      const points: PathPoint[] = [];
      for (const leg of legs) {
        if (!isObj(leg) || typeof leg.shape !== "string")
          throw new EngineDown("Valhalla leg without a shape");
        let shape: PathPoint[];
        try {
          shape = decodePolyline(leg.shape, 6);
        } catch {
          throw new EngineDown("Valhalla shape is not a valid polyline6");
        }
        // Consecutive legs share their joint point.
        points.push(...(points.length > 0 ? shape.slice(1) : shape));
      }
      if (points.length < 2) throw new EngineDown("Valhalla trip without a shape");
      answer.path = points;
    }
    return answer;
  }
}

/** The configured engine, or null when PORTOLAN_ROAD_ENGINE is unset (estimate-only planning). */
export function roadEngine(config: RoadConfig, opts: RoadEngineOptions = {}): ExternalRoadEngine | null {
  return config.engine ? new ExternalRoadEngine(config, opts) : null;
}
