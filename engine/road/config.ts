/**
 * Road engine settings from the environment (docs/road.md). The API's loadConfig calls roadConfig
 * once; scripts may call it with their own env object.
 */

export type RoadEngineKind = "osrm" | "valhalla";

export interface RoadConfig {
  /** null: no external engine configured (road legs come from the built-in estimate). */
  engine: RoadEngineKind | null;
  /** Base URL of the engine, e.g. http://osrm:5000 or http://valhalla:8002. */
  baseUrl: string | null;
  /** OSRM profile in the URL (driving) or Valhalla costing (truck). */
  profile: string;
  /** Per-request time limit, headers and body included. */
  timeoutMs: number;
  /** First back-off after a failure; doubles per consecutive failure up to backoffMaxMs. */
  backoffMs: number;
  backoffMaxMs: number;
  /** Road km per great-circle km for estimated legs: 1.3, the GLOBAL row of road/circuity.csv. */
  circuity: number;
  /** Truck speed for estimated legs: 60.8 km/h, the GLOBAL row of road/truck_speeds.csv. */
  truckSpeedKmh: number;
}

export const ROAD_DEFAULTS = {
  timeoutMs: 4_000,
  backoffMs: 5_000,
  backoffMaxMs: 5 * 60_000,
  circuity: 1.3,
  truckSpeedKmh: 60.8,
  osrmProfile: "driving",
  valhallaCosting: "truck",
} as const;

type Env = Record<string, string | undefined>;

function positive(env: Env, name: string, fallback: number, integer: boolean): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === "") return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0 || (integer && !Number.isInteger(n)))
    throw new Error(`${name} must be a positive ${integer ? "integer" : "number"}, got "${raw}"`);
  return n;
}

/**
 * PORTOLAN_ROAD_ENGINE=osrm|valhalla with PORTOLAN_ROAD_URL; PORTOLAN_ROAD_PROFILE,
 * PORTOLAN_ROAD_TIMEOUT_MS, PORTOLAN_ROAD_BACKOFF_MS, PORTOLAN_ROAD_BACKOFF_MAX_MS,
 * PORTOLAN_ROAD_CIRCUITY, PORTOLAN_ROAD_TRUCK_KMH. A bad value stops the start with its name.
 */
export function roadConfig(env: Env): RoadConfig {
  const raw = (env.PORTOLAN_ROAD_ENGINE ?? "").trim().toLowerCase();
  let engine: RoadEngineKind | null;
  if (raw === "" || raw === "none") engine = null;
  else if (raw === "osrm" || raw === "valhalla") engine = raw;
  else
    throw new Error(`PORTOLAN_ROAD_ENGINE must be osrm, valhalla or none, got "${env.PORTOLAN_ROAD_ENGINE}"`);
  const url = (env.PORTOLAN_ROAD_URL ?? "").trim();
  if (engine && !/^https?:\/\/[^/]/.test(url))
    throw new Error(`PORTOLAN_ROAD_ENGINE=${engine} needs PORTOLAN_ROAD_URL (http or https base URL)`);
  const backoffMs = positive(env, "PORTOLAN_ROAD_BACKOFF_MS", ROAD_DEFAULTS.backoffMs, true);
  const backoffMaxMs = positive(env, "PORTOLAN_ROAD_BACKOFF_MAX_MS", ROAD_DEFAULTS.backoffMaxMs, true);
  if (backoffMaxMs < backoffMs)
    throw new Error("PORTOLAN_ROAD_BACKOFF_MAX_MS must be >= PORTOLAN_ROAD_BACKOFF_MS");
  const circuity = positive(env, "PORTOLAN_ROAD_CIRCUITY", ROAD_DEFAULTS.circuity, false);
  if (circuity < 1)
    throw new Error(`PORTOLAN_ROAD_CIRCUITY must be at least 1, got "${env.PORTOLAN_ROAD_CIRCUITY}"`);
  return {
    engine,
    baseUrl: engine ? url.replace(/\/+$/, "") : null,
    profile:
      env.PORTOLAN_ROAD_PROFILE?.trim() ||
      (engine === "valhalla" ? ROAD_DEFAULTS.valhallaCosting : ROAD_DEFAULTS.osrmProfile),
    timeoutMs: positive(env, "PORTOLAN_ROAD_TIMEOUT_MS", ROAD_DEFAULTS.timeoutMs, true),
    backoffMs,
    backoffMaxMs,
    circuity,
    truckSpeedKmh: positive(env, "PORTOLAN_ROAD_TRUCK_KMH", ROAD_DEFAULTS.truckSpeedKmh, false),
  };
}
