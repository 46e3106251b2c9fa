/**
 * Configuration from the environment, read once at start. Every knob is documented in README.md
 * (Configuration); defaults give the embedded single-process set-up.
 */
import { PRODUCTS, type ProductId } from "./shared/products.ts";

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
}

type Env = Record<string, string | undefined>;

function int(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return n;
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
  };
}
