/**
 * Schedule reliability from stored sailings (pure): the share of calls whose actual arrival lies
 * within ON_TIME_MS of the planned arrival, over calls actually reached in a rolling window. Each
 * physical call counts once (the turn call is stored on two voyages). On a lane (origin ->
 * destination) only arrivals at the destination of sailings that called the origin before count.
 */
import type { SailingRow } from "../../storage/sailings.ts";
import { callKey, callsOf, HOUR_MS } from "./calls.ts";

/** "Within one day of the schedule", either side. */
export const ON_TIME_MS = 24 * HOUR_MS;

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

export function reliability(
  sailings: readonly SailingRow[],
  window: { fromMs: number; toMs: number },
  lane?: { origin: string; destination: string },
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
