/** An unknown code answers location_not_found naming the nearest known codes ("did you mean"). */
import { beforeAll, describe, expect, test } from "bun:test";
import { EngineError } from "../../engine/errors.ts";
import type { LocationIndex } from "../../engine/locations/index.ts";
import { editDistance, nearestCodes } from "../../engine/locations/suggest.ts";
import { locationsFixture } from "./fixture.ts";

let index: LocationIndex;
beforeAll(async () => {
  index = (await locationsFixture()).index;
});

const failure = (input: string): EngineError => {
  try {
    index.resolve(input);
  } catch (err) {
    if (err instanceof EngineError) return err;
    throw err;
  }
  throw new Error(`${input} resolved`);
};

describe("edit distance", () => {
  test.each([
    ["NLRTM", "NLRTM", 0],
    ["NLRTN", "NLRTM", 1],
    ["NLTRM", "NLRTM", 1], // a swapped pair counts once
    ["NLRM", "NLRTM", 1],
    ["DEHAM", "NLRTM", 4],
  ] as const)("%s to %s: %i", (a, b, want) => {
    expect(editDistance(a, b)).toBe(want);
  });
});

test("ranking: fewest edits, then the same country prefix, then a major place, at most three", () => {
  const codes = ["BERTN", "NLRTX", "NLRTM", "NLXXX", "NLRTA", "NLRTB", "NLRTN"];
  const opts = { maxEdits: 2, prefix: 2, major: (i: number) => i === 2 || i === 0 };
  const near = (code: string) => nearestCodes(code, codes, opts).map((i) => codes[i]);
  // NLRTN itself is known, so never suggested; BERTN is as near but of another country.
  expect(near("NLRTQ")).toEqual(["NLRTM", "NLRTA", "NLRTB"]);
  expect(near("BERTQ")).toEqual(["BERTN"]);
  expect(near("QQQQQ")).toEqual([]);
});

describe("unknown codes name the nearest known ones", () => {
  test.each([
    ["NLRTN", "unknown UN/LOCODE NLRTN; did you mean NLRTM (Rotterdam)", "NLRTM"],
    ["NL RTN", "unknown UN/LOCODE NLRTN; did you mean NLRTM (Rotterdam)", "NLRTM"],
    ["NLTRM", "unknown UN/LOCODE NLTRM; did you mean NLRTM (Rotterdam)", "NLRTM"],
    ["SGSIM", "unknown UN/LOCODE SGSIM; did you mean SGSIN (Singapore)", "SGSIN"],
    // A port is suggested by the code products show it by (CNSHA, not UN/LOCODE's current CNSHG).
    ["CNSHB", "unknown UN/LOCODE CNSHB; did you mean CNSHA (Shanghai)", "CNSHA"],
  ])("%s", (input, message, first) => {
    const err = failure(input);
    expect(err.code).toBe("location_not_found");
    expect(err.message).toStartWith(message);
    const suggestions = err.extra?.suggestions as Array<{ code: string; name: string }>;
    expect(suggestions[0]!.code).toBe(first);
    expect(suggestions.length).toBeLessThanOrEqual(3);
    for (const s of suggestions) expect(index.port(s.code)?.name).toBe(s.name);
  });

  test("an unknown IATA code names airports one letter away", () => {
    const err = failure("XQZ");
    expect(err.message).toStartWith("unknown IATA code XQZ; did you mean ");
    const suggestions = err.extra?.suggestions as Array<{ code: string }>;
    expect(suggestions.length).toBeGreaterThan(0);
    for (const s of suggestions) {
      expect(editDistance("XQZ", s.code)).toBe(1);
      expect(index.resolve(s.code).kind).toBe("airport");
    }
  });

  test("free text that names nothing gets no suggestions", () => {
    const err = failure("Qwxzvbnm Flurbington");
    expect(err.message).toBe('location "Qwxzvbnm Flurbington" could not be found');
    expect(err.extra).toBeUndefined();
  });
});
