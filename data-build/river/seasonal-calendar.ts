/**
 * Our reading of the 55 source rules (../shared/data/inland/seasonal-rules.json: free-text windows):
 * seasonal-calendar.csv gives each its kind, a yearly MM-DD window, a time factor and the note's
 * wording (docs/river.md, "Seasonal rules"): a closure's says closed, a slow-down's slower. Without
 * a note the rule keeps the source's effect and note. The table is imported as text so the build's
 * code version covers it: editing it reruns the river stage.
 */
import { csvRecords } from "../../formats/csv.ts";
import { type RiverRule, RULE_KINDS, type RuleKind } from "../../formats/river-rules.ts";
import calendarCsv from "./seasonal-calendar.csv" with { type: "text" };

export const SEASONAL_RULES_SOURCE = "inland/seasonal-rules.json";
export const SEASONAL_CALENDAR_CSV: string = calendarCsv;

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

const saysWhatItDoes = (note: string, kind: RuleKind) =>
  kind === "closure" ? /\bclosed\b/.test(note) : /\bslower\b/.test(note) && !/\bclosed\b/.test(note);

/** Joins the source rules with the calendar; throws when a rule lacks a reading or a row is malformed. */
export function parseSeasonalRules(sourceJson: string, calendar = SEASONAL_CALENDAR_CSV): RiverRule[] {
  const source = JSON.parse(sourceJson) as SourceRule[];
  if (!Array.isArray(source)) throw new Error("seasonal-rules.json: expected an array of rules");
  const rows = new Map(csvRecords(calendar).map((r) => [r.id ?? "", r]));
  const rules = source.map((s): RiverRule => {
    const row = rows.get(s.id);
    if (!row) throw new Error(`seasonal-calendar.csv: no row for rule ${s.id}`);
    rows.delete(s.id);
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
    if (row.note && kind !== null && !saysWhatItDoes(row.note, kind))
      throw new Error(`rule ${s.id}: a closure's note says closed, a slow-down's slower and not closed`);
    return {
      id: s.id,
      kind,
      type: s.type,
      waterway: s.waterway,
      segment: s.segment,
      note: row.note || [s.effect, s.note].filter(Boolean).join("; "),
      typical_window: s.typical_window,
      sources: s.sources ?? [],
      window,
      time_factor: factor,
      basis: row.basis ?? "",
    };
  });
  if (rows.size > 0) throw new Error(`seasonal-calendar.csv: rows for unknown rules ${[...rows.keys()]}`);
  return rules;
}
