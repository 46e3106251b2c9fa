/**
 * Seasonal river rules: the 55 source rules (../shared/data/inland/seasonal-rules.json: free-text
 * windows) joined with our reading of each window (seasonal-calendar.csv: the spec's kind, a yearly
 * MM-DD window, a time factor) into the artifact `river-rules.bin` the river planner applies by date.
 * Rule order is the source file's order: river.graph's edge rule indexes and the router's per-rule
 * factors use the same order. docs/river.md, "Seasonal rules".
 */

import { decodeArtifact, encodeArtifact } from "../format/container.ts";
import { csvRecords } from "../locations/csv.ts";

export const RIVER_RULES_KIND = "river-rules";
export const RIVER_RULES_VERSION = 1;
export const RIVER_RULES_OUTPUT = "river-rules.bin";
export const SEASONAL_RULES_SOURCE = "inland/seasonal-rules.json";
export const SEASONAL_CALENDAR = new URL("./seasonal-calendar.csv", import.meta.url).pathname;

/** The spec's seasonal_notes kinds. */
export const RULE_KINDS = ["closure", "ice_risk", "low_water"] as const;
export type RuleKind = (typeof RULE_KINDS)[number];

export interface RiverRule {
  id: string;
  /** null: the rule has no yearly window (periodic or a meta-rule) and is never applied by date. */
  kind: RuleKind | null;
  /** The source's own type (low_water, ice_closure, season_window, high_water, ...). */
  type: string;
  waterway: string;
  segment: string;
  /** The source's effect and note. */
  note: string;
  typical_window: string;
  sources: string[];
  /** Yearly window "MM-DD" to "MM-DD" inclusive (wraps over New Year when from > to); null = none. */
  window: { from: string; to: string } | null;
  /** Time multiplier on the rule's stretches for ice_risk and low_water; null for closures. */
  time_factor: number | null;
  /** Why the window and factor were read so (seasonal-calendar.csv `basis`). */
  basis: string;
}

interface SourceRule {
  id: string;
  type: string;
  waterway: string;
  segment: string;
  typical_window: string;
  effect: string;
  note?: string;
  sources?: string[];
}

const MMDD = /^(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

/** Joins the source rules with the calendar; throws when a rule lacks a reading or a row is malformed. */
export function parseSeasonalRules(sourceJson: string, calendarCsv: string): RiverRule[] {
  const source = JSON.parse(sourceJson) as SourceRule[];
  if (!Array.isArray(source)) throw new Error("seasonal-rules.json: expected an array of rules");
  const calendar = new Map(csvRecords(calendarCsv).map((r) => [r.id ?? "", r]));
  const rules = source.map((s): RiverRule => {
    const row = calendar.get(s.id);
    if (!row) throw new Error(`seasonal-calendar.csv: no row for rule ${s.id}`);
    calendar.delete(s.id);
    const kind = row.kind === "none" ? null : (row.kind as RuleKind);
    if (kind !== null && !RULE_KINDS.includes(kind))
      throw new Error(`rule ${s.id}: unknown kind ${row.kind}`);
    let window: RiverRule["window"] = null;
    if (kind !== null) {
      const from = row.from ?? "";
      const to = row.to ?? "";
      if (!MMDD.test(from) || !MMDD.test(to))
        throw new Error(`rule ${s.id}: window ${from}..${to} is not MM-DD`);
      window = { from, to };
    }
    const factor = row.time_factor ? Number(row.time_factor) : null;
    if (kind === "closure" ? factor !== null : kind !== null && !(factor !== null && factor >= 1)) {
      throw new Error(`rule ${s.id}: a slow-down needs a time_factor >= 1 and a closure none`);
    }
    return {
      id: s.id,
      kind,
      type: s.type,
      waterway: s.waterway,
      segment: s.segment,
      note: [s.effect, s.note].filter(Boolean).join("; "),
      typical_window: s.typical_window,
      sources: s.sources ?? [],
      window,
      time_factor: factor,
      basis: row.basis ?? "",
    };
  });
  if (calendar.size > 0)
    throw new Error(`seasonal-calendar.csv: rows for unknown rules ${[...calendar.keys()]}`);
  return rules;
}

export function encodeRiverRules(rules: RiverRule[], buildId: string): Uint8Array {
  return encodeArtifact(RIVER_RULES_KIND, RIVER_RULES_VERSION, buildId, [
    { name: "rules", bytes: new TextEncoder().encode(JSON.stringify(rules)) },
  ]);
}

export function decodeRiverRules(bytes: Uint8Array, path?: string): { buildId: string; rules: RiverRule[] } {
  const art = decodeArtifact(bytes, { kind: RIVER_RULES_KIND, formatVersion: RIVER_RULES_VERSION, path });
  return {
    buildId: art.buildId,
    rules: JSON.parse(new TextDecoder().decode(art.sections.get("rules"))) as RiverRule[],
  };
}
