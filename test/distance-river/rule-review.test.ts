/**
 * The 55 seasonal rules as the build ships them (river.graph, river-rules.bin), each held to what
 * the rule itself says (../shared/data/inland/seasonal-rules.json: waterway, segment, type,
 * sources) and to our reading of its segment's places (data-build/river/seasonal-segments.csv):
 * - its edges carry its waterway's name and lie along its segment, and its segment's places lie on
 *   its edges;
 * - its kind is the source type's (a flood is no low_water), its note says closed exactly when it
 *   closes and slower when it slows, and the river planner's notes on a barge trip along it on a
 *   date in its window agree (a closure's effect no_route or detour, a slow-down's slower);
 * - the source its notes cite is not about another waterway.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { haversineM } from "../../common/geo.ts";
import { defaultDirs } from "../../data-build/pipeline.ts";
import { parseSegments, type SegmentPlace } from "../../data-build/river/rule-segments.ts";
import { decodeRuleEdges, type RuleEdges } from "../../data-build/river/rule-stretches.ts";
import { SEASONAL_RULES_SOURCE } from "../../data-build/river/seasonal-calendar.ts";
import { EngineError } from "../../engine/errors.ts";
import { RiverPlanner } from "../../engine/river/planner.ts";
import { type SeasonalNote, seasonalNote, seasonalState } from "../../engine/river/seasonal.ts";
import { RoadPlanner, type RoadRoutePlanner } from "../../engine/road/planner.ts";
import {
  decodeRiverRules,
  RIVER_RULES_OUTPUT,
  type RiverRule,
  type RuleKind,
} from "../../formats/river-rules.ts";

const { outDir, sourcesDir } = defaultDirs();
const built = ["river.graph", "river-ports.bin", RIVER_RULES_OUTPUT, "road.graph", "router.wasm"].every((f) =>
  existsSync(join(outDir, f)),
);

interface SourceRule {
  id: string;
  type: string;
  waterway: string;
  segment: string;
  trigger?: string;
}

/** How far a rule's edges may lie from the line through its segment's places, and the reverse. */
const ALONG_KM = 30;
/** Words that name no particular water, or name one only by chance (the Main, rio). */
const COMMON = new Set(
  "st the and of de canal river rio main lake lakes lower upper middle north south waterway system basins unified deep water northern shipping state great seaway locks lock reach route fairway mouth border season early all meta rule".split(
    " ",
  ),
);
const words = (text: string) =>
  new Set(
    text
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .toLowerCase()
      .split(/[^a-z]+/)
      .filter((w) => w.length >= 2 && !COMMON.has(w)),
  );
const CLOSED = /\bclosed\b/i;
const CLOSING_WORDS = /\b(closed|closure|closes|shut|halted|suspended|stops?|impassable|banned|cessation)\b/i;

/** The kinds a source type allows: a flood is high water, a draught limit from ice an ice risk. */
function kindsFor(s: SourceRule): Array<RuleKind | null> {
  if (s.type === "low_water") return ["low_water"];
  if (s.type === "high_water" || s.type === "flood_suspension") return ["high_water"];
  if (s.type === "ice_closure") return ["closure", "ice_risk"];
  if (s.type === "draft_restriction") return /\bice\b/.test(s.trigger ?? "") ? ["ice_risk"] : ["low_water"];
  if (s.type.startsWith("season_window")) return ["closure", null];
  if (s.type === "maintenance_closure") return ["closure", null];
  throw new Error(`${s.id}: unknown source type ${s.type}`);
}

/** km from p to the nearest point of a polyline (local flat projection: segments are short). */
function kmToLine(p: readonly [number, number], line: readonly SegmentPlace[]): number {
  let best = Number.POSITIVE_INFINITY;
  const kx = Math.cos((p[0] * Math.PI) / 180) * 111.32;
  const xy = (lat: number, lng: number) => [(lng - p[1]) * kx, (lat - p[0]) * 110.57] as const;
  for (let k = 1; k < line.length; k++) {
    const [ax, ay] = xy(line[k - 1]!.lat, line[k - 1]!.lng);
    const [bx, by] = xy(line[k]!.lat, line[k]!.lng);
    const len2 = (bx - ax) ** 2 + (by - ay) ** 2;
    const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, -(ax * (bx - ax) + ay * (by - ay)) / len2));
    best = Math.min(best, Math.hypot(ax + t * (bx - ax), ay + t * (by - ay)));
  }
  return best;
}

let rules: RiverRule[];
let source: Map<string, SourceRule>;
let edges: RuleEdges;
let segments: Map<string, SegmentPlace[][]>;

beforeAll(() => {
  if (!built) return;
  rules = decodeRiverRules(readFileSync(join(outDir, RIVER_RULES_OUTPUT))).rules;
  const list = JSON.parse(readFileSync(join(sourcesDir, SEASONAL_RULES_SOURCE), "utf8")) as SourceRule[];
  source = new Map(list.map((s) => [s.id, s]));
  edges = decodeRuleEdges(new Uint8Array(readFileSync(join(outDir, "river.graph"))));
  const lines = parseSegments(rules);
  segments = new Map(rules.map((r, i) => [r.id, lines[i]!]));
});

const ruleIds = (
  JSON.parse(readFileSync(join(defaultDirs().sourcesDir, SEASONAL_RULES_SOURCE), "utf8")) as SourceRule[]
).map((r) => r.id);

describe.skipIf(!built)("each rule lies on its named waterway, along its segment", () => {
  test("the build ships the 55 rules of the source, in its order", () => {
    expect(rules.map((r) => r.id)).toEqual(ruleIds);
    expect(rules.length).toBe(55);
  });

  test.each(ruleIds)("%s", (id) => {
    const own = edges.edgesOf.get(id) ?? [];
    const lines = segments.get(id)!;
    // A rule with no segment applies nowhere (RU12, the meta-rule); every other rule somewhere.
    expect(own.length > 0, `${id} has edges`).toBe(lines.length > 0);
    const s = source.get(id)!;
    const named = words(`${s.waterway} ${s.segment}`);
    for (const name of new Set(own.map((e) => edges.waterway(e))))
      expect(
        [...words(name)].some((w) => named.has(w)),
        `${id} on "${name}"`,
      ).toBe(true);
    const off = (p: readonly [number, number]) => Math.min(...lines.map((l) => kmToLine(p, l)));
    let worst = 0;
    for (const e of own) for (const p of edges.along(e, edges.from[e]!)) worst = Math.max(worst, off(p));
    expect(worst, `${id}: km of its edges from its segment`).toBeLessThanOrEqual(ALONG_KM);
    const points = own.flatMap((e) => [edges.node(edges.from[e]!), edges.node(edges.to[e]!)]);
    for (const place of lines.flat()) {
      const near = Math.min(...points.map(([lat, lng]) => haversineM(lat, lng, place.lat, place.lng) / 1000));
      expect(near, `${id}: ${place.name} to its edges, km`).toBeLessThanOrEqual(ALONG_KM);
    }
  });
});

describe.skipIf(!built)("kind, effect and wording agree", () => {
  test.each(ruleIds)("%s: its kind is its source type's; its note says closed or slower as it does", (id) => {
    const rule = rules.find((r) => r.id === id)!;
    expect(kindsFor(source.get(id)!)).toContain(rule.kind);
    if (rule.kind === null || rule.window === null) return;
    const date = `2026-${rule.window.from}`;
    const active = seasonalState(rules, date).active.find((a) => a.rule.id === id)!;
    if (rule.kind === "closure") {
      for (const effect of ["no_route", "detour"] as const) {
        const n = seasonalNote(active, 10, effect);
        expect(n.note).toMatch(CLOSED);
        expect(n.time_factor).toBeUndefined();
        expect(n.reopens_about).toBeDefined();
      }
      return;
    }
    const n = seasonalNote(active, 10, "slower");
    expect(n.note).toMatch(/\bslower\b/);
    expect(n.note).not.toMatch(CLOSING_WORDS);
    expect(n.time_factor!).toBeGreaterThan(1);
  });
});

describe.skipIf(!built)("the river planner's notes on a trip along each rule", () => {
  let river: RiverPlanner;
  let road: RoadRoutePlanner;
  beforeAll(async () => {
    river = await RiverPlanner.load(outDir);
    const planner = await RoadPlanner.load(outDir);
    road = { plan: async (req) => planner.plan(req) };
  });

  test("every note agrees with its kind: closures no_route or detour, slow-downs slower", async () => {
    const noted = new Set<string>();
    for (const rule of rules) {
      const lines = segments.get(rule.id)!;
      if (rule.window === null || lines.length === 0) continue;
      const [a, b] = [lines[0]![0]!, lines[0]!.at(-1)!];
      const plan = await river
        .plan({ from: a, to: b, date: `2026-${rule.window.from}`, alternatives: false }, road)
        .catch((e: unknown) => {
          if (e instanceof EngineError && e.code === "no_route") return null;
          throw e;
        });
      if (!plan) continue;
      const sections = plan.route.sections.flatMap((s) => (s.seasonal as SeasonalNote[] | undefined) ?? []);
      for (const n of [...plan.seasonal_notes, ...sections]) {
        noted.add(n.id);
        const closes = n.kind === "closure";
        expect(closes ? ["no_route", "detour"] : ["slower"], `${rule.id}: ${n.id}`).toContain(n.effect);
        expect(CLOSED.test(n.note), `${n.id}: ${n.note}`).toBe(closes);
        expect(n.time_factor === undefined, n.id).toBe(closes);
      }
    }
    // The trips reach most rules: the check is not empty.
    expect(noted.size).toBeGreaterThan(30);
  }, 120_000);
});

describe.skipIf(!built)("each rule's cited source is about its own waterway", () => {
  test.each(ruleIds)("%s", (id) => {
    const rule = rules.find((r) => r.id === id)!;
    const cited = rule.sources[0];
    if (!cited) return;
    const own = new Set(edges.edgesOf.get(id) ?? []);
    const mine = words(`${rule.waterway} ${rule.segment}`);
    // Waterways of the rules that share no edge with this one: another water.
    const elsewhere = rules
      .filter((r) => r.id !== id && !(edges.edgesOf.get(r.id) ?? []).some((e) => own.has(e)))
      .flatMap((r) => [...words(r.waterway)])
      .filter((w) => !mine.has(w));
    const named = [...words(cited)].filter((w) => elsewhere.includes(w));
    expect(named, `${id} cites ${cited}`).toEqual([]);
  });
});
