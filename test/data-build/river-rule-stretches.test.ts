/**
 * The seasonal rules' stretches the river-graph stage writes beside the graph
 * (data-build/river/rule-stretches.ts): a tiny river written by the data build's writer, each
 * rule's edges joined end to end into lines; then the real build's file as the API loads it.
 *
 *   A (0,0) --r0-- B (0,0.2) --r0-- C (0,0.4) --r0-- D (0,0.6)     r0 ice: one line A..D, bend kept
 *                                   |
 *                                   r1 (C up to E (0.3,0.4)), r1 also on D-F: two separate runs
 *   F (0,0.8) -- D; rule r2 has no window (kind null); r3 is on no edge
 */
import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { haversineM } from "../../common/geo.ts";
import { defaultDirs } from "../../data-build/pipeline.ts";
import { ruleStretches } from "../../data-build/river/rule-stretches.ts";
import { loadRuleStretches } from "../../engine/river/rule-stretches.ts";
import { type RiverRule, RULE_KINDS, type RuleKind } from "../../formats/river-rules.ts";
import type { RuleStretch } from "../../formats/river-stretches.ts";
import { encodeRiver, type LatLng, type Reach } from "../distance-river/map.ts";

const [A, B, C, D, E, F] = [0, 1, 2, 3, 4, 5] as const;
const NODES: LatLng[] = [
  [0, 0],
  [0, 0.2],
  [0, 0.4],
  [0, 0.6],
  [0.3, 0.4],
  [0, 0.8],
];
const BEND: LatLng = [0.05, 0.3];
const reach = (from: number, to: number, rules: number[], via?: LatLng[]): Reach => ({
  from,
  to,
  via,
  speedKmh: 12.5,
  current: 0,
  cls: 5,
  waterway: 0,
  rules,
});
const REACHES: Reach[] = [
  reach(B, A, [0]), // drawn against the run's direction: the line still reads A..D
  reach(B, C, [0, 2], [BEND]),
  reach(C, D, [0]),
  reach(C, E, [1]),
  reach(D, F, [1]),
];
const rule = (id: string, kind: RuleKind | null): RiverRule => ({
  id,
  kind,
  type: kind ?? "periodic",
  waterway: `${id} water`,
  segment: `${id} segment`,
  note: "",
  typical_window: "",
  sources: [],
  window: kind ? { from: "01-01", to: "02-01" } : null,
  time_factor: kind === "closure" ? null : 1.5,
  basis: "",
});
const RULES = [rule("r0", "ice_risk"), rule("r1", "closure"), rule("r2", null), rule("r3", "low_water")];
const graph = encodeRiver(
  NODES,
  REACHES,
  [{ name: "River", class: "Vb" }],
  RULES.map(({ id }) => ({ id })),
);
const stretches = ruleStretches(graph, RULES);
const pt = (i: number): [number, number] => [NODES[i]![0], NODES[i]![1]];
const sortedLines = (s: RuleStretch) => s.lines.map((l) => JSON.stringify(l)).sort();

describe("ruleStretches on a tiny river", () => {
  test("a rule's consecutive edges are one line, its bend kept, whatever way they were drawn", () => {
    const ice = stretches.r0!;
    expect(ice.kind).toBe("ice_risk");
    expect(ice.waterway).toBe("r0 water");
    expect(ice.segment).toBe("r0 segment");
    expect(ice.lines).toHaveLength(1);
    const line = ice.lines[0]!;
    const forward = [pt(A), pt(B), [...BEND], pt(C), pt(D)];
    expect([JSON.stringify(line), JSON.stringify([...line].reverse())]).toContain(JSON.stringify(forward));
  });

  test("edges of one rule that do not touch are separate runs; km is the rule's edge length", () => {
    const closure = stretches.r1!;
    expect(closure.kind).toBe("closure");
    expect(sortedLines(closure)).toEqual(
      [
        [pt(C), pt(E)],
        [pt(D), pt(F)],
      ]
        .map((l) => JSON.stringify(l))
        .sort(),
    );
    const km = (haversineM(0, 0.4, 0.3, 0.4) + haversineM(0, 0.6, 0, 0.8)) / 1000;
    expect(closure.km).toBeCloseTo(km, 1);
  });

  test("rules without a window or without edges have no stretch", () => {
    expect(Object.keys(stretches).sort()).toEqual(["r0", "r1"]);
  });
});

const { outDir } = defaultDirs();
describe.skipIf(!existsSync(join(outDir, "river-stretches.json")))("the built file", () => {
  test("the API's loader reads the stage's stretches: every one a dated rule with lines", async () => {
    const built = await loadRuleStretches(outDir);
    const all = Object.values(built);
    expect(all.length).toBeGreaterThan(20);
    for (const s of all) {
      expect(RULE_KINDS).toContain(s.kind);
      expect(s.km).toBeGreaterThan(0);
      expect(s.lines.length).toBeGreaterThan(0);
      for (const line of s.lines) expect(line.length).toBeGreaterThanOrEqual(2);
    }
  });
});
