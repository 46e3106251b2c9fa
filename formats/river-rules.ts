/**
 * Seasonal river rules as the river planner applies them by date (the source rules joined with our
 * reading of their windows: seasonal-calendar.ts) and their artifact `river-rules.bin`.
 * Rule order is the source file's order: river.graph's edge rule indexes and the router's per-rule
 * factors use the same order. docs/river.md, "Seasonal rules".
 */

import { decodeArtifact, encodeArtifact } from "./container.ts";
import { jsonSection, readJson } from "./row-table.ts";

export const RIVER_RULES_KIND = "river-rules";
export const RIVER_RULES_VERSION = 1;
export const RIVER_RULES_OUTPUT = "river-rules.bin";

/**
 * The spec's seasonal_notes kinds, and high_water beyond them: the spec has no kind for floods
 * (the Rhine at Cologne, the Lower Mississippi, the Three Gorges locks), and low_water would say the
 * opposite. A high_water rule is a slow-down like ice_risk and low_water (time_factor, effect slower).
 */
export const RULE_KINDS = ["closure", "ice_risk", "low_water", "high_water"] as const;
export type RuleKind = (typeof RULE_KINDS)[number];

export interface RiverRule {
  id: string;
  /** null: the rule has no yearly window (periodic or a meta-rule) and is never applied by date. */
  kind: RuleKind | null;
  /** The source's own type (low_water, ice_closure, season_window, high_water, ...). */
  type: string;
  waterway: string;
  segment: string;
  /** What the rule does on its stretch: our wording (seasonal-calendar.csv), else the source's effect and note. */
  note: string;
  typical_window: string;
  /** The first is the one notes cite (seasonal-corrections.csv may put another first). */
  sources: string[];
  /** Yearly window "MM-DD" to "MM-DD" inclusive (wraps over New Year when from > to); null = none. */
  window: { from: string; to: string } | null;
  /** Time multiplier on the rule's stretches for the slow-downs; null for closures. */
  time_factor: number | null;
  /** Why the window and factor were read so (seasonal-calendar.csv `basis`). */
  basis: string;
}

export function encodeRiverRules(rules: RiverRule[], buildId: string): Uint8Array {
  return encodeArtifact(RIVER_RULES_KIND, RIVER_RULES_VERSION, buildId, [jsonSection("rules", rules)]);
}

export function decodeRiverRules(bytes: Uint8Array, path?: string): { buildId: string; rules: RiverRule[] } {
  const art = decodeArtifact(bytes, { kind: RIVER_RULES_KIND, formatVersion: RIVER_RULES_VERSION, path });
  return {
    buildId: art.buildId,
    rules: readJson<RiverRule[]>(art, "rules", path),
  };
}
