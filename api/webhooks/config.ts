/**
 * Webhook settings from the environment (README.md, Configuration; docs/webhooks.md explains the
 * choices). Read once at start through loadConfig.
 */

export interface WebhookConfig {
  /** PORTOLAN_WEBHOOK_KEYS raw: "id:base64key,..." (first encrypts, all decrypt); null = dev key. */
  keys: string | null;
  /** NODE_ENV=production: a missing PORTOLAN_WEBHOOK_KEYS is fatal instead of a loud warning. */
  production: boolean;
  /** Allow targets on private, loopback and link-local addresses (local receivers, tests). */
  allowPrivate: boolean;
  /** Extra trusted CA certificates (PEM) for receivers with private certificates. */
  caFile: string | null;
  /** Static host -> addresses answers checked before DNS (like curl --resolve). */
  resolve: Record<string, string[]>;
  /** Delay before each attempt, in ms: [0] before the first, [i] after the i-th failure. */
  scheduleMs: number[];
  /** ±fraction applied to each non-zero delay. */
  jitter: number;
  timeoutMs: number;
  /** How often the dispatcher sweeps the outbox and the queue. */
  sweepMs: number;
  /** Endpoint disabled once its failure streak has this many failed attempts ... */
  disableAfterFailures: number;
  /** ... and is at least this old. */
  disableAfterMs: number;
  /** Deliveries in flight per dispatcher process. */
  concurrency: number;
  /**
   * Deliveries in flight per endpoint per dispatcher: a receiver that hangs holds at most this many
   * of the `concurrency` slots, so the others keep flowing.
   */
  endpointConcurrency: number;
  /**
   * Deliveries in flight per organisation per dispatcher: however many of its endpoints hang, an
   * organisation holds at most this many slots, so other organisations' deliveries keep flowing.
   */
  orgConcurrency: number;
  /** Endpoints an organisation may register per product. */
  maxEndpoints: number;
}

type Env = Record<string, string | undefined>;

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** "0,5s,5m,30m,2h" -> ms; a bare number is milliseconds. */
export function parseSchedule(raw: string): number[] {
  const steps = raw.split(",").map((part) => {
    const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$/.exec(part);
    if (!m) throw new Error(`PORTOLAN_WEBHOOK_SCHEDULE: "${part}" is not a duration like 500ms, 5s, 5m, 2h`);
    return Math.round(Number(m[1]) * UNITS[m[2] ?? "ms"]!);
  });
  if (steps.length === 0) throw new Error("PORTOLAN_WEBHOOK_SCHEDULE needs at least one step");
  return steps;
}

/** "api.example.com=203.0.113.7|2001:db8::7,hooks.test=127.0.0.1" */
function parseResolve(raw: string | undefined): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const entry of (raw ?? "").split(",")) {
    if (!entry.trim()) continue;
    const [host, addrs] = entry.split("=");
    if (!host || !addrs) throw new Error(`PORTOLAN_WEBHOOK_RESOLVE: "${entry}" is not host=address|address`);
    out[host.trim().toLowerCase()] = addrs.split("|").map((a) => a.trim());
  }
  return out;
}

function num(env: Env, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min) throw new Error(`${name} must be a number >= ${min}, got "${raw}"`);
  return n;
}

/** Svix's ladder (Stripe and Standard Webhooks are alike): 8 attempts over about 27.5 hours. */
export const DEFAULT_SCHEDULE = "0,5s,5m,30m,2h,5h,10h,10h";

export function webhookConfig(env: Env): WebhookConfig {
  return {
    keys: env.PORTOLAN_WEBHOOK_KEYS || null,
    production: env.NODE_ENV === "production",
    allowPrivate: env.PORTOLAN_WEBHOOK_ALLOW_PRIVATE === "1",
    caFile: env.PORTOLAN_WEBHOOK_CA_FILE || null,
    resolve: parseResolve(env.PORTOLAN_WEBHOOK_RESOLVE),
    scheduleMs: parseSchedule(env.PORTOLAN_WEBHOOK_SCHEDULE || DEFAULT_SCHEDULE),
    jitter: num(env, "PORTOLAN_WEBHOOK_JITTER", 0.2),
    timeoutMs: num(env, "PORTOLAN_WEBHOOK_TIMEOUT_MS", 15_000, 1),
    sweepMs: num(env, "PORTOLAN_WEBHOOK_SWEEP_MS", 30_000, 1),
    disableAfterFailures: num(env, "PORTOLAN_WEBHOOK_DISABLE_AFTER_FAILURES", 10, 1),
    disableAfterMs: num(env, "PORTOLAN_WEBHOOK_DISABLE_AFTER_HOURS", 120) * 3_600_000,
    concurrency: num(env, "PORTOLAN_WEBHOOK_CONCURRENCY", 64, 1),
    endpointConcurrency: num(env, "PORTOLAN_WEBHOOK_ENDPOINT_CONCURRENCY", 4, 1),
    orgConcurrency: num(env, "PORTOLAN_WEBHOOK_ORG_CONCURRENCY", 16, 1),
    maxEndpoints: num(env, "PORTOLAN_WEBHOOK_MAX_ENDPOINTS", 50, 1),
  };
}
