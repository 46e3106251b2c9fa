/**
 * Configuration from the environment, read once at start. Every knob is documented in README.md
 * (Configuration); defaults give the embedded single-process set-up.
 */

import { join } from "node:path";
import { buildDirFrom } from "../common/build-dir.ts";
import { logFileFrom, logFormatFrom, logLevelFrom } from "../common/log.ts";
import { sourcesDirFrom } from "../common/sources-dir.ts";
import { type RouteConfig, routeConfig } from "../engine/config.ts";
import { type GeocoderConfig, geocoderConfig } from "../engine/locations/config.ts";
import { type RoadConfig, roadConfig } from "../engine/road/config.ts";
import type { OneRecordAirlineConfig } from "../ingest/airlines/one-record.ts";
import type { CarrierConfig } from "../ingest/carriers/registry.ts";
import type { HttpLessorConfig } from "../ingest/lessors/connector.ts";
import { DEFAULT_EXPIRING_DAYS } from "../ingest/rates/sweep.ts";
import { DEFAULT_SLIP_HOURS } from "../ingest/schedules/events.ts";
import { type ScheduleWatchConfig, scheduleWatchConfig } from "../ingest/schedules/watch-config.ts";
import { type CompatConfig, compatConfig } from "./compat/config.ts";
import { PRODUCTS, type ProductId } from "./shared/products.ts";
import { type WebhookConfig, webhookConfig } from "./webhooks/config.ts";

export interface Config {
  host: string;
  ports: Record<ProductId, number>;
  /** Public base URL per product, used in docs and OpenAPI servers. */
  publicUrls: Record<ProductId, string>;
  /** PORTOLAN_DB: a SQLite file path (or ":memory:"), or a postgres:// URL (storage/open.ts). */
  database: string;
  redisUrl: string | null;
  /** Use X-Forwarded-For for the client IP (only behind a trusted proxy). */
  trustProxy: boolean;
  maxBodyBytes: number;
  rateWindowMs: number;
  sourcesDir: string;
  /** The air-freight rate card (PORTOLAN_AIR_RATE_CARD; default the indicative card in sourcesDir). */
  airRateCard: string;
  buildDir: string;
  /**
   * Carrier connectors (PORTOLAN_CARRIERS, a JSON array; kind "dcsa", DCSA 2.2, when not given);
   * the sandbox fills this when unset.
   */
  carriers: CarrierConfig[];
  /** Lessor unit APIs (PORTOLAN_LESSORS, a JSON array of {name, baseUrl, apiKey?}); the sandbox adds its lessor. */
  lessors: HttpLessorConfig[];
  /** ONE Record airlines (PORTOLAN_AIRLINES, a JSON array of {iata, baseUrl, token?}); the sandbox fills this when unset. */
  airlines: OneRecordAirlineConfig[];
  /** AIS feeds (PORTOLAN_AIS, comma-separated tcp://, udp:// or file:// URLs); the sandbox adds its own. */
  aisFeeds: string[];
  /** Run the sandbox carrier beside the API (PORTOLAN_SANDBOX=0 turns it off). */
  sandbox: boolean;
  sandboxPort: number;
  sandboxAisPort: number;
  /** The sandbox airline's port (ONE Record servers under /{IATA}). */
  sandboxAirPort: number;
  /** How often the in-process poller looks for records due a carrier call. */
  pollIntervalMs: number;
  /** How often the poller refreshes the schedules of carriers with a schedulesBaseUrl. */
  schedulesIntervalMs: number;
  /** sailing_slipped: how many hours later a first departure must move (PORTOLAN_SCHEDULES_SLIP_HOURS). */
  schedulesSlipHours: number;
  /** cutoff_approaching sweep and reliability_drop settings (PORTOLAN_CUTOFF_*, PORTOLAN_RELIABILITY_*). */
  scheduleWatch: ScheduleWatchConfig;
  /** rate_expiring: days before a rate sheet's valid_to (PORTOLAN_RATES_EXPIRING_DAYS, default 7). */
  ratesExpiringDays: number;
  /** What this process runs (PORTOLAN_ROLES, a comma list; every role by default). */
  roles: ReadonlySet<Role>;
  /** Webhook delivery: keys, retry ladder, timeouts, address policy (PORTOLAN_WEBHOOK_*). */
  webhooks: WebhookConfig;
  /** Vendor-compatible surface: live-resolution ceiling, answer cache, monthly call cap (PORTOLAN_COMPAT_*). */
  compat: CompatConfig;
  routes: RouteConfig;
  /** Sea-route answers kept on the serving thread (PORTOLAN_ROUTE_CACHE_ENTRIES; 0 turns it off). */
  routeCacheEntries: number;
  /** Bytes of load-plan unit pictures kept once drawn (PORTOLAN_PICTURE_CACHE_BYTES; 0 keeps none). */
  pictureCacheBytes: number;
  road: RoadConfig;
  geocoder: GeocoderConfig;
  /**
   * PORTOLAN_LOG_LEVEL, PORTOLAN_LOG_FORMAT (json or pretty) and PORTOLAN_LOG_FILE (null: stdout),
   * read by common/log.ts; checked here.
   */
  log: { level: string; format: "json" | "pretty"; file: string | null };
  /** /metrics and the health probes on a port of their own (PORTOLAN_ADMIN_PORT, "off" for none). */
  admin: { host: string; port: number | null };
  /** PORTOLAN_METRICS_TOKEN: /metrics also on every product port, for this bearer token only. */
  metricsToken: string | null;
  /** How long a stop waits for requests in flight to be answered (PORTOLAN_DRAIN_MS). */
  drainMs: number;
}

type Env = Record<string, string | undefined>;

function int(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return n;
}

/** A JSON array of objects from the environment, each with the required string fields (optional ones strings when given). */
function parseList<T>(
  raw: string | undefined,
  name: string,
  required: string[],
  optional: string[] = [],
): T[] {
  if (!raw) return [];
  let list: unknown;
  try {
    list = JSON.parse(raw);
  } catch {
    throw new Error(`${name} must be a JSON array of objects with ${required.join(", ")}`);
  }
  const ok = (item: unknown) =>
    typeof item === "object" &&
    item !== null &&
    required.every((k) => typeof (item as Record<string, unknown>)[k] === "string");
  if (!Array.isArray(list) || !list.every(ok))
    throw new Error(`${name} entries need ${required.join(" and ")}`);
  const bad = optional.find((k) => list.some((item) => !["string", "undefined"].includes(typeof item[k])));
  if (bad) throw new Error(`${name}: ${bad} must be a string when given`);
  return list as T[];
}

export function loadConfig(env: Env = process.env): Config {
  const host = env.PORTOLAN_HOST ?? "127.0.0.1";
  const ports = {} as Record<ProductId, number>;
  const publicUrls = {} as Record<ProductId, string>;
  for (const p of PRODUCTS) {
    const envName = p.id.toUpperCase();
    ports[p.id] = int(env, `PORTOLAN_${envName}_PORT`, p.defaultPort);
    publicUrls[p.id] = env[`PORTOLAN_${envName}_URL`] ?? `http://${host}:${ports[p.id]}`;
  }
  return {
    host,
    ports,
    publicUrls,
    database: env.PORTOLAN_DB ?? "data/portolan.sqlite",
    redisUrl: env.REDIS_URL || null,
    trustProxy: env.PORTOLAN_TRUST_PROXY === "1",
    maxBodyBytes: int(env, "PORTOLAN_MAX_BODY_BYTES", 1024 * 1024),
    rateWindowMs: int(env, "PORTOLAN_RATE_WINDOW_MS", 20_000),
    sourcesDir: sourcesDirFrom(env),
    airRateCard: env.PORTOLAN_AIR_RATE_CARD || join(sourcesDirFrom(env), "air/indicative-rate-card.json"),
    buildDir: buildDirFrom(env),
    carriers: parseList<CarrierConfig>(
      env.PORTOLAN_CARRIERS,
      "PORTOLAN_CARRIERS",
      ["scac", "baseUrl"],
      ["schedulesBaseUrl", "kind"],
    ),
    lessors: parseList<HttpLessorConfig>(env.PORTOLAN_LESSORS, "PORTOLAN_LESSORS", ["name", "baseUrl"]),
    airlines: parseList<OneRecordAirlineConfig>(env.PORTOLAN_AIRLINES, "PORTOLAN_AIRLINES", [
      "iata",
      "baseUrl",
    ]),
    aisFeeds: (env.PORTOLAN_AIS ?? "")
      .split(",")
      .map((u) => u.trim())
      .filter(Boolean),
    sandbox: env.PORTOLAN_SANDBOX !== "0",
    sandboxPort: int(env, "PORTOLAN_SANDBOX_PORT", 8090),
    sandboxAisPort: int(env, "PORTOLAN_SANDBOX_AIS_PORT", 8091),
    sandboxAirPort: int(env, "PORTOLAN_SANDBOX_AIR_PORT", 8092),
    pollIntervalMs: int(env, "PORTOLAN_POLL_INTERVAL_MS", 15_000),
    schedulesIntervalMs: int(env, "PORTOLAN_SCHEDULES_INTERVAL_MS", 600_000),
    schedulesSlipHours: int(env, "PORTOLAN_SCHEDULES_SLIP_HOURS", DEFAULT_SLIP_HOURS),
    ratesExpiringDays: int(env, "PORTOLAN_RATES_EXPIRING_DAYS", DEFAULT_EXPIRING_DAYS),
    scheduleWatch: scheduleWatchConfig(env),
    roles: rolesFrom(env.PORTOLAN_ROLES),
    webhooks: webhookConfig(env),
    compat: compatConfig(env),
    routes: routeConfig(env),
    routeCacheEntries: int(env, "PORTOLAN_ROUTE_CACHE_ENTRIES", 10_000),
    pictureCacheBytes: int(env, "PORTOLAN_PICTURE_CACHE_BYTES", 64 * 1024 * 1024),
    road: roadConfig(env),
    geocoder: geocoderConfig(env),
    log: { level: logLevelFrom(env), format: logFormatFrom(env), file: logFileFrom(env) },
    admin: {
      host: env.PORTOLAN_ADMIN_HOST || "127.0.0.1",
      port: env.PORTOLAN_ADMIN_PORT === "off" ? null : int(env, "PORTOLAN_ADMIN_PORT", 9090),
    },
    metricsToken: env.PORTOLAN_METRICS_TOKEN || null,
    drainMs: int(env, "PORTOLAN_DRAIN_MS", 10_000),
  };
}

/** The database setting as it may be printed: a PostgreSQL URL without its password. */
export function redactedDatabase(target: string): string {
  if (!/^postgres(ql)?:\/\//i.test(target)) return target;
  const u = new URL(target);
  if (u.password) u.password = "***";
  return u.toString();
}

/**
 * The roles a process can run: the HTTP products, the carrier poller, the webhook dispatcher and the
 * AIS feeds. One process runs them all by default; at scale each runs apart, several of each, on
 * one database (and Redis for what they share): docs/scale-out.md.
 */
export const ROLES = ["api", "poller", "dispatcher", "ais"] as const;
export type Role = (typeof ROLES)[number];

function rolesFrom(value: string | undefined): ReadonlySet<Role> {
  if (value === undefined || value.trim() === "") return new Set(ROLES);
  const roles = value.split(",").map((r) => r.trim().toLowerCase());
  const unknown = roles.filter((r) => !(ROLES as readonly string[]).includes(r));
  if (unknown.length > 0 || roles.length === 0) {
    throw new Error(`PORTOLAN_ROLES: unknown role ${unknown.join(", ")} (use ${ROLES.join(", ")})`);
  }
  return new Set(roles as Role[]);
}
