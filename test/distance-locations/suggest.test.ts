/** An unknown code answers location_not_found naming the nearest known codes ("did you mean"). */
import { beforeAll, describe, expect, test } from "bun:test";
import fc from "fast-check";
import { EngineError } from "../../engine/errors.ts";
import type { LocationIndex } from "../../engine/locations/index.ts";
import { CodeNeighbours, editDistance, nearestCodes } from "../../engine/locations/suggest.ts";
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

describe("the neighbour index answers as the scan of every code", () => {
  // A small alphabet makes near codes common, so most inputs have suggestions to compare.
  const codeOf = (min: number, max: number) =>
    fc.string({ unit: fc.constantFrom("N", "L", "R", "T", "M", "2", "Q"), minLength: min, maxLength: max });
  const cases = fc.record({
    codes: fc.uniqueArray(codeOf(1, 6), { minLength: 1, maxLength: 300 }),
    input: codeOf(0, 8),
    maxEdits: fc.integer({ min: 0, max: 2 }),
    prefix: fc.integer({ min: 0, max: 3 }),
    majorSeed: fc.integer({ min: 1, max: 7 }),
  });

  test.each([1, 2])("index of %i edits, random codes and inputs", (reach) => {
    fc.assert(
      fc.property(cases, ({ codes, input, maxEdits, prefix, majorSeed }) => {
        const opts = {
          maxEdits: Math.min(maxEdits, reach),
          prefix,
          major: (i: number) => i % majorSeed === 0,
        };
        expect(new CodeNeighbours(codes, reach).nearest(input, opts)).toEqual(
          nearestCodes(input, codes, opts),
        );
      }),
      { numRuns: 400 },
    );
  });

  test("inputs one or two edits from a code, among codes differing in one or two places", () => {
    const codes = ["NLRTM", "NLTRM", "NLRTN", "BERTM", "LRTMN", "NLRM", "NLRTMM", "MTRLN"];
    const index = new CodeNeighbours(codes, 2);
    const opts = { maxEdits: 2, prefix: 2, major: () => false };
    for (const input of ["NLRTX", "NLTMR", "LNRTM", "NLR", "XNLRTM", "NRLMT", "RTM", "NLRTMMM"])
      expect(index.nearest(input, opts)).toEqual(nearestCodes(input, codes, opts));
    expect(index.nearest("NLRTX", opts).map((i) => codes[i])).toEqual(["NLRTM", "NLRTN", "NLRM"]);
  });
});

test("on the real UN/LOCODEs and IATA codes, codes one or two edits from a known one", () => {
  const letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ2345679".split("");
  for (const [field, maxEdits, prefix] of [
    ["locode", 2, 2],
    ["iata", 1, 0],
  ] as const) {
    const known = index.knownCodes(field);
    const opts = { maxEdits, prefix, major: (i: number) => i % 3 === 0 };
    const edit = fc.record({ at: fc.nat(), letter: fc.constantFrom(...letters), kind: fc.nat(2) });
    fc.assert(
      fc.property(
        fc.nat(known.codes.length - 1),
        fc.array(edit, { minLength: 1, maxLength: 2 }),
        (i, edits) => {
          // Each edit changes, drops or adds a letter: the input is within two edits of a real code.
          let code = known.codes[i]!;
          for (const e of edits) {
            const at = e.at % (code.length + 1);
            if (e.kind === 0) code = code.slice(0, at) + e.letter + code.slice(at + 1);
            else if (e.kind === 1 && code.length > 1) code = code.slice(0, at) + code.slice(at + 1);
            else code = code.slice(0, at) + e.letter + code.slice(at);
          }
          expect(known.neighbours.nearest(code, opts)).toEqual(nearestCodes(code, known.codes, opts));
        },
      ),
      { numRuns: 25 },
    );
  }
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
