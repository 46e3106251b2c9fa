/**
 * Seasonal river rules on a date: which rules are in their yearly window, the per-rule factors the
 * router takes (0 = closed, else a time multiplier >= 1) and the spec's seasonal_notes entries.
 * Windows are typical calendar estimates, never live ice or gauge data (docs/river.md).
 */
import { isCalendarDate } from "../../common/calendar-date.ts";
import type { RiverRule, RuleKind } from "../../formats/river-rules.ts";
import { EngineError } from "../errors.ts";

/** One rule in force on the date. */
export interface ActiveRule {
  index: number;
  rule: RiverRule;
  kind: RuleKind;
  /** 0 for a closure, else the time factor. */
  factor: number;
  /** Closures: the first day after the window, YYYY-MM-DD. */
  reopens_about: string | null;
}

export interface SeasonalState {
  date: string;
  /** One factor per rule, in rule order: 1 = not in force, 0 = closed, else a multiplier. */
  factors: Float64Array;
  active: ActiveRule[];
}

export type SeasonalEffect = "no_route" | "detour" | "slower";

/** The spec's seasonal_notes entry. */
export interface SeasonalNote {
  id: string;
  kind: RuleKind;
  note: string;
  typical_window: string;
  source: string;
  km: number;
  time_factor?: number;
  reopens_about?: string;
  effect: SeasonalEffect;
}

/** A real calendar date in YYYY-MM-DD, else invalid_request naming the parameter. */
export function parseRiverDate(text: string, param = "date"): string {
  if (!isCalendarDate(text))
    throw new EngineError("invalid_request", `${param} must be a calendar date YYYY-MM-DD, got "${text}"`);
  return text;
}

export const todayUtc = (now = new Date()): string => now.toISOString().slice(0, 10);

const inWindow = (mmdd: string, from: string, to: string) =>
  from <= to ? mmdd >= from && mmdd <= to : mmdd >= from || mmdd <= to;

/** The day after `to` (MM-DD) in the window's closing year, as YYYY-MM-DD. */
function dayAfter(year: number, to: string): string {
  const [m, d] = to.split("-").map(Number) as [number, number];
  return new Date(Date.UTC(year, m - 1, d + 1)).toISOString().slice(0, 10);
}

/** The rules in force on `date` (YYYY-MM-DD); `seasonal: false` applies none. */
export function seasonalState(rules: readonly RiverRule[], date: string, seasonal = true): SeasonalState {
  const factors = new Float64Array(rules.length).fill(1);
  const active: ActiveRule[] = [];
  if (!seasonal) return { date, factors, active };
  const year = Number(date.slice(0, 4));
  // Windows are written for any year: a leap day counts as 28 February.
  const mmdd = date.slice(5) === "02-29" ? "02-28" : date.slice(5);
  rules.forEach((rule, index) => {
    if (rule.kind === null || rule.window === null) return;
    const { from, to } = rule.window;
    if (!inWindow(mmdd, from, to)) return;
    const closure = rule.kind === "closure";
    const factor = closure ? 0 : (rule.time_factor ?? 1);
    factors[index] = factor;
    // A window over New Year closes next year when the date lies in its first part.
    const closingYear = from > to && mmdd >= from ? year + 1 : year;
    active.push({
      index,
      rule,
      kind: rule.kind,
      factor,
      reopens_about: closure ? dayAfter(closingYear, to) : null,
    });
  });
  return { date, factors, active };
}

/** A seasonal_notes entry for an active rule; `km` is the length it touches on the leg or network. */
export function seasonalNote(a: ActiveRule, km: number, effect: SeasonalEffect): SeasonalNote {
  const r = a.rule;
  return {
    id: r.id,
    kind: a.kind,
    note: `${r.waterway}, ${r.segment}: ${r.note}`,
    typical_window: r.typical_window,
    source: `estimate (typical calendar window, not live data)${r.sources[0] ? `; ${r.sources[0]}` : ""}`,
    km: Math.round(km * 10) / 10,
    ...(a.kind === "closure" ? { reopens_about: a.reopens_about ?? undefined } : { time_factor: a.factor }),
    effect,
  };
}
