import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { timeOrderedId } from "../../common/ids.ts";

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("time-ordered ids", () => {
  test("are UUID v7 carrying their millisecond", () => {
    const id = timeOrderedId(Date.parse("2030-01-02T03:04:05.678Z"));
    expect(id).toMatch(UUID_V7);
    expect(Number.parseInt(id.replace("-", "").slice(0, 12), 16)).toBe(
      Date.parse("2030-01-02T03:04:05.678Z"),
    );
  });

  test("sort in the order they were made, also many in one millisecond and when the clock steps back", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -5, max: 3 }), { minLength: 1, maxLength: 6000 }), (steps) => {
        let t = Date.parse("2031-01-01T00:00:00Z");
        const ids = steps.map((s) => {
          t += s;
          return timeOrderedId(t);
        });
        expect(new Set(ids).size).toBe(ids.length);
        expect([...ids].sort()).toEqual(ids);
        for (const id of ids) expect(id).toMatch(UUID_V7);
      }),
      { numRuns: 30 },
    );
  });
});
