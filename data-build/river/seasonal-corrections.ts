/**
 * Our corrections to the shared seasonal data, each with why and a source
 * (seasonal-corrections.csv; docs/river.md, "Seasonal rules"): `stretches` replaces the
 * waterways.csv rows a rule applies to (their season_rule_ids tag rules onto stretches outside the
 * rule's own segment: EU07, Croatia-Serbia, on the Hungarian Danube), `source` puts the source
 * notes cite first (NA06, the Upper Mississippi, cited an article on the Missouri). Imported as text
 * so the build's code version covers it.
 */
import { csvRecords } from "../../formats/csv.ts";
import type { RiverRule } from "../../formats/river-rules.ts";
import type { Stretch } from "./inputs.ts";
import correctionsCsv from "./seasonal-corrections.csv" with { type: "text" };

export const SEASONAL_CORRECTIONS_CSV: string = correctionsCsv;

export interface SeasonalCorrections {
  /** Rule id -> the waterways.csv ids it applies to (none: the source table's tags stand). */
  stretches: Map<string, string[]>;
  /** Rule id -> the source its notes cite. */
  sources: Map<string, string>;
}

/** The table, checked against the rules: a known rule, a known field, a source for every row. */
export function parseCorrections(
  rules: readonly RiverRule[],
  csv = SEASONAL_CORRECTIONS_CSV,
): SeasonalCorrections {
  const ids = new Set(rules.map((r) => r.id));
  const out: SeasonalCorrections = { stretches: new Map(), sources: new Map() };
  for (const r of csvRecords(csv)) {
    const id = r.id ?? "";
    const value = (r.value ?? "").trim();
    if (!ids.has(id)) throw new Error(`seasonal-corrections.csv: unknown rule ${id}`);
    if (!r.why || !r.source)
      throw new Error(`seasonal-corrections.csv ${id}: a correction needs why and source`);
    const into = r.field === "stretches" ? out.stretches : r.field === "source" ? out.sources : null;
    if (!into) throw new Error(`seasonal-corrections.csv ${id}: unknown field ${r.field}`);
    if (into.has(id)) throw new Error(`seasonal-corrections.csv ${id}: two ${r.field} rows`);
    if (r.field === "source") {
      if (!/^https?:\/\//.test(value))
        throw new Error(`seasonal-corrections.csv ${id}: source ${value} is no URL`);
      out.sources.set(id, value);
    } else out.stretches.set(id, value === "" ? [] : value.split("|"));
  }
  return out;
}

/** The rules with their corrected source first. */
export const citeCorrected = (rules: readonly RiverRule[], c: SeasonalCorrections): RiverRule[] =>
  rules.map((r) => {
    const first = c.sources.get(r.id);
    return first ? { ...r, sources: [first, ...r.sources.filter((s) => s !== first)] } : r;
  });

/**
 * Per rule (rule order), the indexes of the stretches it applies to: the corrected list, else the
 * stretches whose season_rule_ids name it. Unknown ids either way are refused.
 */
export function ruleStretchIndexes(
  stretches: readonly Stretch[],
  rules: readonly RiverRule[],
  c: SeasonalCorrections,
): number[][] {
  const index = new Map(stretches.map((s, i) => [s.id, i]));
  const ruleIds = new Set(rules.map((r) => r.id));
  for (const s of stretches)
    for (const id of s.ruleIds)
      if (!ruleIds.has(id)) throw new Error(`waterways.csv ${s.id}: unknown seasonal rule ${id}`);
  return rules.map((rule) => {
    const corrected = c.stretches.get(rule.id);
    if (!corrected) return stretches.flatMap((s, i) => (s.ruleIds.includes(rule.id) ? [i] : []));
    return corrected.map((id) => {
      const i = index.get(id);
      if (i === undefined) throw new Error(`seasonal-corrections.csv ${rule.id}: unknown stretch ${id}`);
      return i;
    });
  });
}
