/**
 * Seasonal river rules by date: the real source rules joined with seasonal-calendar.csv, then
 * evaluated at the edges of their windows (inclusive ends, windows over New Year, reopening dates).
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { sourcesDirFrom } from "../../common/sources-dir.ts";
import { parseSeasonalRules, SEASONAL_RULES_SOURCE } from "../../data-build/river/seasonal-calendar.ts";
import { EngineError } from "../../engine/errors.ts";
import { parseRiverDate, seasonalNote, seasonalState } from "../../engine/river/seasonal.ts";
import { decodeRiverRules, encodeRiverRules } from "../../formats/river-rules.ts";

const sourcesDir = sourcesDirFrom();
const sourceJson = readFileSync(join(sourcesDir, SEASONAL_RULES_SOURCE), "utf8");
const rules = parseSeasonalRules(sourceJson);
const byId = (id: string) => rules.findIndex((r) => r.id === id);

test("all 55 source rules are read, in source order, each with a reading", () => {
  const ids = (JSON.parse(sourceJson) as Array<{ id: string }>).map((r) => r.id);
  expect(rules.length).toBe(55);
  expect(rules.map((r) => r.id)).toEqual(ids);
  for (const r of rules) {
    expect(r.basis.length, r.id).toBeGreaterThan(0);
    if (r.kind === "closure") expect(r.time_factor, r.id).toBeNull();
    else if (r.kind !== null) expect(r.time_factor!, r.id).toBeGreaterThanOrEqual(1);
  }
});

test("the artifact round-trips the rules", () => {
  const back = decodeRiverRules(encodeRiverRules(rules, "b1"));
  expect(back.buildId).toBe("b1");
  expect(back.rules).toEqual(rules);
});

describe("calendar errors", () => {
  const src = JSON.stringify([
    { id: "X1", type: "low_water", waterway: "W", segment: "S", typical_window: "", effect: "" },
  ]);
  const head = "id,kind,from,to,time_factor,basis\n";
  test.each([
    ["a rule without a row", `${head}`, /no row for rule X1/],
    [
      "a row for an unknown rule",
      `${head}X1,low_water,01-01,02-01,1.2,b\nX2,closure,01-01,02-01,,b\n`,
      /unknown rules/,
    ],
    ["a bad window", `${head}X1,low_water,1-1,02-01,1.2,b\n`, /not MM-DD/],
    ["a slow-down without a factor", `${head}X1,low_water,01-01,02-01,,b\n`, /time_factor/],
    ["a factor below 1", `${head}X1,ice_risk,01-01,02-01,0.5,b\n`, /time_factor/],
    ["a closure with a factor", `${head}X1,closure,01-01,02-01,2,b\n`, /time_factor/],
    ["an unknown kind", `${head}X1,flood,01-01,02-01,1.2,b\n`, /unknown kind/],
    [
      "a slow-down whose note says closed",
      "id,kind,from,to,time_factor,note,basis\nX1,ice_risk,01-01,02-01,1.5,slower: closed in cold winters,b\n",
      /note says/,
    ],
    [
      "a closure whose note does not say closed",
      "id,kind,from,to,time_factor,note,basis\nX1,closure,01-01,02-01,,shut for the winter,b\n",
      /note says/,
    ],
  ])("%s is refused", (_name, csv, why) => {
    expect(() => parseSeasonalRules(src, csv)).toThrow(why);
  });
});

describe("rules in force on a date", () => {
  // [date, rule, expected factor (1 = not in force), reopens_about]
  const table: Array<[string, string, number, string | null]> = [
    ["2026-07-31", "EU01", 1, null], // Aug-Nov low water: the day before
    ["2026-08-01", "EU01", 1.3, null], // first day
    ["2026-11-30", "EU01", 1.3, null], // last day, inclusive
    ["2026-12-01", "EU01", 1, null],
    ["2026-03-31", "RU01", 0, "2026-04-01"], // Volga closed Dec-Mar: last closed day
    ["2026-04-01", "RU01", 1, null], // reopened
    ["2026-12-15", "RU01", 0, "2027-04-01"], // window over New Year: reopens next year
    ["2027-01-10", "RU01", 0, "2027-04-01"],
    ["2026-12-31", "NA01", 0, "2027-03-23"], // Seaway: closed from 31 Dec
    ["2026-12-30", "NA01", 1, null],
    ["2028-02-29", "EU07", 1.5, null], // leap day inside a Jan-Feb ice window
    ["2026-06-15", "EU14", 1, null], // periodic rule: never applied by date
  ];
  test.each(table)("%s %s -> factor %d", (date, id, factor, reopens) => {
    const s = seasonalState(rules, date);
    expect(s.factors.length).toBe(55);
    expect(s.factors[byId(id)]).toBe(factor);
    const a = s.active.find((x) => x.rule.id === id);
    if (factor === 1) expect(a).toBeUndefined();
    else expect(a?.reopens_about ?? null).toBe(reopens);
  });

  test("seasonal=false applies no rule on any date", () => {
    for (const date of ["2026-01-15", "2026-08-15"]) {
      const s = seasonalState(rules, date, false);
      expect([...s.factors].every((f) => f === 1)).toBe(true);
      expect(s.active).toEqual([]);
    }
  });

  test("active rules and factors agree", () => {
    for (let m = 1; m <= 12; m++) {
      const s = seasonalState(rules, `2026-${String(m).padStart(2, "0")}-15`);
      s.factors.forEach((f, i) => {
        expect(f !== 1).toBe(s.active.some((a) => a.index === i));
      });
    }
  });
});

test("notes carry the spec's fields: reopens_about for closures, time_factor for slow-downs", () => {
  const winter = seasonalState(rules, "2026-01-20");
  const closure = winter.active.find((a) => a.rule.id === "RU01")!;
  const ice = winter.active.find((a) => a.rule.id === "EU07")!;
  const c = seasonalNote(closure, 412.34, "no_route");
  expect(c).toMatchObject({
    id: "RU01",
    kind: "closure",
    km: 412.3,
    reopens_about: "2026-04-01",
    effect: "no_route",
  });
  expect(c.time_factor).toBeUndefined();
  expect(c.source).toStartWith("estimate");
  const i = seasonalNote(ice, 10, "slower");
  expect(i).toMatchObject({ kind: "ice_risk", time_factor: 1.5, effect: "slower" });
  expect(i.reopens_about).toBeUndefined();
});

describe("date parameter", () => {
  test.each(["2026-02-30", "2026-13-01", "26-01-01", "2026-1-1", "today", "2026-01-01T00:00"])(
    "%s is invalid_request",
    (d) => {
      try {
        parseRiverDate(d);
        throw new Error("accepted");
      } catch (e) {
        expect(e).toBeInstanceOf(EngineError);
        expect((e as EngineError).code).toBe("invalid_request");
      }
    },
  );
  test("a real date passes, leap day included", () => {
    expect(parseRiverDate("2028-02-29")).toBe("2028-02-29");
  });
});
