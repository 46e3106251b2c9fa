/**
 * Where each seasonal rule applies (rule-segments.ts, seasonal-corrections.ts) on a hand-made
 * river: the reach of its stretches between its segment's places, gaps bridged by other water
 * that gets no rule, every fault of the tables named; the corrections table's checks.
 */
import { describe, expect, test } from "bun:test";
import { haversineM } from "../../common/geo.ts";
import type { LineTag, Stretch } from "../../data-build/river/inputs.ts";
import type { RiverNet } from "../../data-build/river/noding.ts";
import { edgeRules, parseLines, parseSegments } from "../../data-build/river/rule-segments.ts";
import {
  citeCorrected,
  parseCorrections,
  ruleStretchIndexes,
} from "../../data-build/river/seasonal-corrections.ts";
import type { EdgeAttrs } from "../../data-build/river/stretches.ts";
import type { RiverRule } from "../../formats/river-rules.ts";

const TAG: LineTag = { name: "River", names: ["River"], kind: "river", source: "ne" };

/**
 * A river along lat 50 from lng 7.0 to 9.0, a node every 0.1 degree: edges 0-9 are stretch 0,
 * edge 10 (8.0 to 8.1) uncurated water, edges 11-19 stretch 1.
 */
function river(): { net: RiverNet; attrs: EdgeAttrs[] } {
  const lng = Array.from({ length: 21 }, (_, i) => 7 + i / 10);
  const net: RiverNet = {
    lat: lng.map(() => 50),
    lng,
    edges: lng.slice(1).map((x, i) => ({
      from: i,
      to: i + 1,
      inner: [],
      metres: haversineM(50, lng[i]!, 50, x),
      tag: TAG,
    })),
  };
  const attrs = net.edges.map((_, e) => ({
    stretch: e < 10 ? 0 : e === 10 ? -1 : 1,
    currentKmh: 0,
    locks: 0,
  }));
  return { net, attrs };
}

const rule = (id: string): RiverRule => ({
  id,
  kind: "closure",
  type: "ice_closure",
  waterway: "River",
  segment: "S",
  note: "closed",
  typical_window: "",
  sources: ["https://example.org/a"],
  window: { from: "01-01", to: "01-31" },
  time_factor: null,
  basis: "",
});
const edgesOf = (lists: number[][], r: number) => lists.flatMap((l, e) => (l.includes(r) ? [e] : []));

describe("a rule applies along its segment", () => {
  test("between its places on its stretches; the uncurated gap bridges and gets no rule", () => {
    const { net, attrs } = river();
    const lists = edgeRules(net, attrs, [rule("R1")], [[0, 1]], [parseLines("A 50 7.3; B 50.02 8.6")]);
    // Node 3 (7.3) to node 16 (8.6): edges 3-15 without the gap, edge 10.
    expect(edgesOf(lists, 0)).toEqual([3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 14, 15]);
  });

  test("only on its own stretches, and each rule on its own", () => {
    const { net, attrs } = river();
    const lists = edgeRules(
      net,
      attrs,
      [rule("R1"), rule("R2")],
      [[0], [1]],
      [parseLines("A 50 7.0; B 50 8.0"), parseLines("C 50 8.5; D 50 9.0")],
    );
    expect(edgesOf(lists, 0)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(edgesOf(lists, 1)).toEqual([15, 16, 17, 18, 19]);
  });

  test("a rule without stretches applies nowhere, even with places", () => {
    const { net, attrs } = river();
    const lists = edgeRules(net, attrs, [rule("R1")], [[]], [parseLines("A 50 7.0; B 50 9.0")]);
    expect(lists.every((l) => l.length === 0)).toBe(true);
  });

  test("every fault is named at once: a place far from the stretches, a rule with no places", () => {
    const { net, attrs } = river();
    expect(() =>
      edgeRules(net, attrs, [rule("R1"), rule("R2")], [[0], [1]], [parseLines("Far 51 7.5; B 50 8.0"), []]),
    ).toThrow(
      /R1: Far is more than 25 km from its stretches\n {2}R2: the rule has stretches but its segment no places/,
    );
  });

  test("places no water joins are refused", () => {
    const { net, attrs } = river();
    const cut: RiverNet = { ...net, edges: net.edges.filter((_, e) => e !== 10) };
    expect(() =>
      edgeRules(
        cut,
        attrs.filter((_, e) => e !== 10),
        [rule("R1")],
        [[0, 1]],
        [parseLines("A 50 7.3; B 50 8.6")],
      ),
    ).toThrow(/R1: no water joins A and B/);
  });
});

describe("the segments table", () => {
  test("lines of named places, | between branches", () => {
    expect(
      parseLines("Novi Sad 45.25 19.85; Belgrade 44.82 20.46 | Konz 49.70 6.58; Saarburg 49.61 -6.55"),
    ).toEqual([
      [
        { name: "Novi Sad", lat: 45.25, lng: 19.85 },
        { name: "Belgrade", lat: 44.82, lng: 20.46 },
      ],
      [
        { name: "Konz", lat: 49.7, lng: 6.58 },
        { name: "Saarburg", lat: 49.61, lng: -6.55 },
      ],
    ]);
    expect(parseLines("")).toEqual([]);
    expect(() => parseLines("Belgrade 44.82")).toThrow(/not "Name lat lng"/);
  });

  test("every rule has a row; a line has two places", () => {
    expect(() => parseSegments([rule("R1")], "id,lines,basis\nR2,A 1 1; B 2 2,b\n")).toThrow(
      /no row for rule R1/,
    );
    expect(() => parseSegments([rule("R1")], "id,lines,basis\nR1,A 1 1,b\n")).toThrow(/two places/);
    expect(parseSegments([rule("R1")], "id,lines,basis\nR1,,none\n")).toEqual([[]]);
  });
});

describe("the corrections table", () => {
  const head = "id,field,value,why,source\n";
  const rules = [rule("R1"), rule("R2")];

  test("stretches replace the source table's tags; a source is cited first", () => {
    const c = parseCorrections(
      rules,
      `${head}R1,stretches,S_B,why,src\nR2,source,https://example.org/b,why,src\n`,
    );
    const stretches = [
      { id: "S_A", ruleIds: ["R1", "R2"] },
      { id: "S_B", ruleIds: [] },
    ] as unknown as Stretch[];
    expect(ruleStretchIndexes(stretches, rules, c)).toEqual([[1], [0]]);
    expect(citeCorrected(rules, c).map((r) => r.sources)).toEqual([
      ["https://example.org/a"],
      ["https://example.org/b", "https://example.org/a"],
    ]);
    const none = parseCorrections(rules, `${head}R1,stretches,,why,src\n`);
    expect(ruleStretchIndexes(stretches, rules, none)).toEqual([[], [0]]);
  });

  test.each([
    ["an unknown rule", "R9,source,https://x.org,why,src", /unknown rule R9/],
    ["an unknown field", "R1,kind,closure,why,src", /unknown field kind/],
    ["a correction without a source", "R1,source,https://x.org,why,", /needs why and source/],
    [
      "two rows for one field",
      "R1,source,https://x.org,why,src\nR1,source,https://y.org,why,src",
      /two source rows/,
    ],
    ["a source that is no URL", "R1,source,somewhere,why,src", /is no URL/],
  ])("%s is refused", (_, rows, why) => {
    expect(() => parseCorrections(rules, `${head}${rows}\n`)).toThrow(why);
  });

  test("unknown stretch ids, in the table or in waterways.csv, are refused", () => {
    const c = parseCorrections(rules, `${head}R1,stretches,S_X,why,src\n`);
    expect(() => ruleStretchIndexes([{ id: "S_A", ruleIds: [] }] as unknown as Stretch[], rules, c)).toThrow(
      /unknown stretch S_X/,
    );
    expect(() =>
      ruleStretchIndexes(
        [{ id: "S_A", ruleIds: ["R7"] }] as unknown as Stretch[],
        rules,
        parseCorrections(rules, head),
      ),
    ).toThrow(/S_A: unknown seasonal rule R7/);
  });
});
