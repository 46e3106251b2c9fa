/**
 * Settings of the vendor-compatible surface (README.md, Configuration; docs/compat.md explains the
 * choices). Read once at start through loadConfig.
 */

export interface CompatConfig {
  /** How long a never-seen reference's request is held for the carrier's first answer. */
  ceilingMs: number;
  /** Per-organisation answer cache; the carrier is asked at most once per window and reference. */
  cacheMs: number;
  /** Compat calls per organisation and calendar month (UTC); null = uncapped (the default). */
  monthlyCalls: number | null;
}

type Env = Record<string, string | undefined>;

function positive(env: Env, name: string, fallback: number | null): number | null {
  const raw = env[name];
  if (raw === undefined || raw === "" || raw === "none") return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive integer, got "${raw}"`);
  return n;
}

export function compatConfig(env: Env): CompatConfig {
  return {
    ceilingMs: positive(env, "PORTOLAN_COMPAT_CEILING_MS", 25_000)!,
    cacheMs: positive(env, "PORTOLAN_COMPAT_CACHE_MS", 90_000)!,
    monthlyCalls: positive(env, "PORTOLAN_COMPAT_MONTHLY_CALLS", null),
  };
}
