/**
 * Configuration from the environment, read once at start. Every knob is documented in README.md
 * (Configuration); defaults give the embedded single-process set-up.
 */
import type { DcsaConnectorConfig } from "../ingest/carriers/connector.ts";
import { PRODUCTS, type ProductId } from "./shared/products.ts";
import { type WebhookConfig, webhookConfig } from "./webhooks/config.ts";

export interface Config {
  host: string;
  ports: Record<ProductId, number>;
  /** Public base URL per product, used in docs and OpenAPI servers. */
  publicUrls: Record<ProductId, string>;
  dbPath: string;
  redisUrl: string | null;
  /** Use X-Forwarded-For for the client IP (only behind a trusted proxy). */
  trustProxy: boolean;
  maxBodyBytes: number;
  rateWindowMs: number;
  sourcesDir: string;
  buildDir: string;
  /** DCSA 2.2 carrier connectors (PORTOLAN_CARRIERS, a JSON array); the sandbox fills this when unset. */
  carriers: DcsaConnectorConfig[];
  /** Run the sandbox carrier beside the API (PORTOLAN_SANDBOX=0 turns it off). */
  sandbox: boolean;
  sandboxPort: number;
  /** How often the in-process poller looks for records due a carrier call. */
  pollIntervalMs: number;
  /** Webhook delivery: keys, retry ladder, timeouts, address policy (PORTOLAN_WEBHOOK_*). */
  webhooks: WebhookConfig;
}

type Env = Record<string, string | undefined>;

function int(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return n;
}

function parseCarriers(raw: string | undefined): DcsaConnectorConfig[] {
  if (!raw) return [];
  let list: unknown;
  try {
    list = JSON.parse(raw);
  } catch {
    throw new Error(
      "PORTOLAN_CARRIERS must be a JSON array of {scac, baseUrl, apiKey?, bearerToken?, headers?}",
    );
  }
  if (
    !Array.isArray(list) ||
    list.some((c) => typeof c?.scac !== "string" || typeof c?.baseUrl !== "string")
  ) {
    throw new Error("PORTOLAN_CARRIERS entries need a scac and a baseUrl");
  }
  return list as DcsaConnectorConfig[];
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
    dbPath: env.PORTOLAN_DB ?? "data/portolan.sqlite",
    redisUrl: env.REDIS_URL || null,
    trustProxy: env.PORTOLAN_TRUST_PROXY === "1",
    maxBodyBytes: int(env, "PORTOLAN_MAX_BODY_BYTES", 1024 * 1024),
    rateWindowMs: int(env, "PORTOLAN_RATE_WINDOW_MS", 20_000),
    sourcesDir: env.PORTOLAN_SOURCES ?? "../shared/data",
    buildDir: env.PORTOLAN_BUILD_DIR ?? "data/build",
    carriers: parseCarriers(env.PORTOLAN_CARRIERS),
    sandbox: env.PORTOLAN_SANDBOX !== "0",
    sandboxPort: int(env, "PORTOLAN_SANDBOX_PORT", 8090),
    pollIntervalMs: int(env, "PORTOLAN_POLL_INTERVAL_MS", 15_000),
    webhooks: webhookConfig(env),
  };
}
