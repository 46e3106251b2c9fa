/**
 * Settings of the time- and measure-driven schedules events, from the environment (README,
 * Configuration): the cut-off sweep's interval and re-notice threshold, and the reliability_drop
 * threshold, hysteresis margin and minimum of measured calls.
 */
import { DEFAULT_RENOTICE_HOURS } from "./cutoffs.ts";
import { DEFAULT_RELIABILITY, type ReliabilitySettings } from "./reliability-watch.ts";

export interface ScheduleWatchConfig {
  /** How often the poller sweeps for approaching cut-offs (PORTOLAN_CUTOFF_SWEEP_MS). */
  cutoffSweepMs: number;
  /** A cut-off moved earlier by more than this after its notice is notified again. */
  renoticeHours: number;
  reliability: ReliabilitySettings;
}

type Env = Record<string, string | undefined>;

function num(env: Env, name: string, fallback: number, min: number, max: number, integer: boolean): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min || n > max || (integer && !Number.isInteger(n))) {
    const kind = integer ? "an integer" : "a number";
    throw new Error(`${name} must be ${kind} from ${min} to ${max}, got "${raw}"`);
  }
  return n;
}

export function scheduleWatchConfig(env: Env): ScheduleWatchConfig {
  const threshold = num(env, "PORTOLAN_RELIABILITY_THRESHOLD", DEFAULT_RELIABILITY.threshold, 0, 1, false);
  return {
    cutoffSweepMs: num(env, "PORTOLAN_CUTOFF_SWEEP_MS", 300_000, 1_000, 86_400_000, true),
    renoticeHours: num(env, "PORTOLAN_CUTOFF_RENOTICE_HOURS", DEFAULT_RENOTICE_HOURS, 0, 336, false),
    reliability: {
      threshold,
      margin: num(env, "PORTOLAN_RELIABILITY_MARGIN", DEFAULT_RELIABILITY.margin, 0, 1, false),
      minCalls: num(env, "PORTOLAN_RELIABILITY_MIN_CALLS", DEFAULT_RELIABILITY.minCalls, 1, 100_000, true),
      windowDays: DEFAULT_RELIABILITY.windowDays,
    },
  };
}
