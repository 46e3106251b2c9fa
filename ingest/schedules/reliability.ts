/**
 * Schedule reliability from stored sailings: the share of calls whose actual arrival lies within
 * ON_TIME_MS of the planned arrival, over calls actually reached in a rolling window. Each physical
 * call counts once (the turn call is stored on two voyages). On a lane (origin -> destination) only
 * arrivals at the destination of sailings that called the origin before count. One computation for
 * the product's GET /v1/reliability and the reliability_drop watch (reliability-watch.ts).
 */
import type { SailingRow, Sailings } from "../../storage/sailings.ts";
import { callKey, callsOf, HOUR_MS } from "./stored.ts";

const DAY_MS = 24 * HOUR_MS;
/** "Within one day of the schedule", either side. */
export const ON_TIME_MS = 24 * HOUR_MS;
/** The rolling window's default length, days (the product's default and the watch's window). */
export const RELIABILITY_WINDOW_DAYS = 28;
/**
 * Sailings are selected by planned span; an actual arrival runs up to a few days past it (the
 * sandbox: +72 h), so the read starts this much before the window and counts exactly.
 */
const READ_SLACK_MS = 7 * DAY_MS;

export interface Tally {
  calls: number;
  on_time: number;
  /** on_time / calls, rounded to 4 places; null when no call was measured. */
  reliability: number | null;
  /** Mean of actual - planned arrival, hours (negative: early); null when no call was measured. */
  mean_delay_hours: number | null;
}

export interface Reliability {
  overall: Tally;
  carriers: Array<{ carrier: string } & Tally>;
}

export interface Lane {
  origin: string;
  destination: string;
}

export function reliability(
  sailings: readonly SailingRow[],
  window: { fromMs: number; toMs: number },
  lane?: Lane,
): Reliability {
  const seen = new Set<string>();
  const per = new Map<string, number[]>();
  for (const s of sailings) {
    const calls = callsOf(s);
    let calledOrigin = lane === undefined;
    for (const c of calls) {
      const measured = calledOrigin && (lane === undefined || c.place.unlocode === lane.destination);
      if (lane && c.place.unlocode === lane.origin) calledOrigin = true;
      if (!measured || !c.arrival.actual || !c.arrival.planned) continue;
      const actual = Date.parse(c.arrival.actual);
      if (actual < window.fromMs || actual >= window.toMs) continue;
      const key = callKey(s, c);
      if (seen.has(key)) continue;
      seen.add(key);
      const delays = per.get(s.carrier) ?? [];
      delays.push(actual - Date.parse(c.arrival.planned));
      per.set(s.carrier, delays);
    }
  }
  const carriers = [...per.keys()].sort().map((carrier) => ({ carrier, ...tally(per.get(carrier)!) }));
  return { overall: tally([...per.values()].flat()), carriers };
}

function tally(delays: readonly number[]): Tally {
  const onTime = delays.filter((d) => Math.abs(d) <= ON_TIME_MS).length;
  const n = delays.length;
  return {
    calls: n,
    on_time: onTime,
    reliability: n ? Math.round((onTime / n) * 10_000) / 10_000 : null,
    mean_delay_hours: n ? Math.round((delays.reduce((a, b) => a + b, 0) / n / HOUR_MS) * 10) / 10 : null,
  };
}

/** The window of `days` ending at `nowMs`, and the stored active sailings that can reach into it. */
export async function windowSailings(
  sailings: Sailings,
  nowMs: number,
  days: number,
  carriers?: readonly string[],
): Promise<{ window: { fromMs: number; toMs: number }; rows: SailingRow[] }> {
  const window = { fromMs: nowMs - days * DAY_MS, toMs: nowMs };
  const rows = await sailings.overlapping({
    from: new Date(window.fromMs - READ_SLACK_MS).toISOString(),
    to: new Date(window.toMs).toISOString(),
    carriers,
  });
  return { window, rows };
}
