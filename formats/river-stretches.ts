/**
 * The river-graph stage's `river-stretches.json` (docs/maps.md): where each seasonal river rule
 * applies, as lines (data-build/river/rule-stretches.ts draws them from river.graph), served by the
 * route map page (engine/river/rule-stretches.ts).
 */
import type { RuleKind } from "./river-rules.ts";

/** The river-graph stage's output beside river.graph: `{ build_id, stretches }`. */
export const RIVER_STRETCHES_OUTPUT = "river-stretches.json";

export interface RuleStretch {
  kind: RuleKind;
  waterway: string;
  segment: string;
  /** Length of the rule's edges. */
  km: number;
  /** Runs of joined edges, each [[lat, lng], ...]; a stretch with branches or gaps has several. */
  lines: Array<Array<[number, number]>>;
}

/** The stage's file: the stretches stamped with the build that made them. */
export function encodeRuleStretches(stretches: Record<string, RuleStretch>, buildId: string): string {
  return `${JSON.stringify({ build_id: buildId, stretches })}\n`;
}
