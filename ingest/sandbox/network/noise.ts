/**
 * Operational noise on a sailing, drawn from a generator seeded by the sailing's id, and the
 * schedule the carrier publishes at a given clock reading.
 *
 * The noise is the sailing's true story: a delay per call (hours, applied to arrival and departure)
 * that wanders up and down from call to call, a port omission, a blank sailing (the whole sailing
 * withdrawn), a cut-off change. What is published at time t is what the carrier knows then:
 * - a call's estimate converges to its true delay `leadH` hours before the hull gets there; calls
 *   further ahead carry the delay of the last converged call (or none: the proforma). Once the
 *   converged calls form a prefix, estimates never reorder calls, and a first call that converges
 *   to a late departure is a slip;
 * - times at or before t are actual;
 * - an omission or a blank sailing is announced at a drawn instant and from then the call (or the
 *   whole sailing) is absent: DCSA Commercial Schedules has no classifier for a cancelled call.
 */
import { Rng } from "../random.ts";
import { H, MAX_DELAY_H, MAX_EARLY_H } from "./network.ts";
import type { PlannedCall, Sailing } from "./sailings.ts";

export interface SailingNoise {
  delayH: number[];
  leadH: number[];
  omit: { index: number; at: number } | null;
  blank: { at: number } | null;
  /** The terminal advances one call's FCL cut-off by `hours`, announced at `at`. */
  cutoff: { index: number; hours: number; at: number } | null;
}

export const BLANK_SHARE = 0.05;
export const OMIT_SHARE = 0.08;
export const CUTOFF_CHANGE_SHARE = 0.15;

export function sailingNoise(s: Sailing): SailingNoise {
  const rng = new Rng(`noise:${s.id}`);
  const n = s.calls.length;
  const delayH: number[] = [];
  let d = rng.chance(0.2) ? rng.int(6, 36) : rng.int(-MAX_EARLY_H, 4);
  for (let i = 0; i < n; i++) {
    if (i > 0) {
      // Catch up at most half the sea time of the leg (steaming faster), or lose time to weather.
      const legH = (s.calls[i]!.arrival - s.calls[i - 1]!.departure) / H;
      const step = rng.chance(0.1) ? rng.int(12, 40) : rng.int(-14, 12);
      d = Math.max(d + step, d - Math.floor(legH / 2));
    }
    d = Math.min(MAX_DELAY_H, Math.max(-MAX_EARLY_H, d));
    delayH.push(d);
  }
  const leadH = s.calls.map(() => rng.int(24, 168));
  const omitIndex = n > 2 && rng.chance(OMIT_SHARE) ? rng.int(1, n - 2) : -1;
  const omit =
    omitIndex > 0
      ? {
          index: omitIndex,
          at: s.calls[omitIndex]!.arrival + delayH[omitIndex]! * H - rng.int(48, 240) * H,
        }
      : null;
  const blank = rng.chance(BLANK_SHARE) ? { at: s.start - rng.int(14, 42) * 24 * H } : null;
  const cutoffIndex = rng.chance(CUTOFF_CHANGE_SHARE) ? rng.int(0, n - 1) : -1;
  const cutoff =
    cutoffIndex >= 0
      ? {
          index: cutoffIndex,
          hours: rng.pick([12, 24]),
          at: s.calls[cutoffIndex]!.departure - rng.int(96, 240) * H,
        }
      : null;
  return { delayH, leadH, omit, blank, cutoff };
}

export type Classifier = "EST" | "ACT";

export interface PublishedTime {
  planned: number;
  time: number;
  classifier: Classifier;
}

export interface CutOff {
  code: "DCO" | "VCO" | "FCO";
  at: number;
}

export interface PublishedCall {
  sailing: Sailing;
  call: PlannedCall;
  arrival: PublishedTime;
  departure: PublishedTime;
  cutOffs: CutOff[];
}

export interface PublishedSailing {
  sailing: Sailing;
  /** Calls in rotation order, omitted calls left out. */
  calls: PublishedCall[];
}

/** Hours before the (published) departure: documents, VGM, full boxes at the gate. */
const CUTOFF_LEAD_H: Array<[CutOff["code"], number]> = [
  ["DCO", 72],
  ["VCO", 36],
  ["FCO", 24],
];

/**
 * The instants a call's published times can move: call j's estimate converges at its true arrival
 * less its lead, and calls converge as a prefix (running maximum). Between two of these instants
 * `publish` gives the same times, so a tracked box re-publishes its estimates exactly there.
 */
export function convergenceTimes(s: Sailing, noise: SailingNoise = sailingNoise(s)): number[] {
  let latest = Number.NEGATIVE_INFINITY;
  return s.calls.map((c, i) => {
    latest = Math.max(latest, c.arrival + (noise.delayH[i]! - noise.leadH[i]!) * H);
    return latest;
  });
}

/** The sailing as the carrier publishes it at `now`, or null once it is blanked. */
export function publish(
  s: Sailing,
  now: number,
  noise: SailingNoise = sailingNoise(s),
): PublishedSailing | null {
  if (noise.blank && noise.blank.at <= now) return null;
  const actual = (i: number) => s.calls[i]!.arrival + noise.delayH[i]! * H;
  let converged = 0;
  while (converged < s.calls.length && actual(converged) - noise.leadH[converged]! * H <= now) converged++;
  const calls: PublishedCall[] = [];
  s.calls.forEach((call, i) => {
    if (noise.omit?.index === i && noise.omit.at <= now) return;
    const delay = i < converged ? noise.delayH[i]! : converged > 0 ? noise.delayH[converged - 1]! : 0;
    const time = (planned: number): PublishedTime => {
      const t = planned + delay * H;
      return { planned, time: t, classifier: i < converged && t <= now ? "ACT" : "EST" };
    };
    const departure = time(call.departure);
    const cutOffs = CUTOFF_LEAD_H.map(([code, lead]) => {
      const advanced = code === "FCO" && noise.cutoff?.index === i && noise.cutoff.at <= now;
      return { code, at: departure.time - (lead + (advanced ? noise.cutoff!.hours : 0)) * H };
    });
    calls.push({ sailing: s, call, arrival: time(call.arrival), departure, cutOffs });
  });
  return { sailing: s, calls };
}
