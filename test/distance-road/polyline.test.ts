import { describe, expect, test } from "bun:test";
import { EngineError } from "../../engine/errors.ts";
import { decodePolyline, encodePolyline } from "../../engine/road/polyline.ts";

describe("encoded polylines", () => {
  test("the algorithm's published example (precision 5)", () => {
    expect(decodePolyline("_p~iF~ps|U_ulLnnqC_mqNvxq`@", 5)).toEqual([
      [38.5, -120.2],
      [40.7, -120.95],
      [43.252, -126.453],
    ]);
  });
  test("precision 6 round trip, large longitudes included", () => {
    const pts: Array<[number, number]> = [
      [53.550734, 9.993028],
      [-33.9249, 18.4241],
      [64.2008, -179.999999],
      [-89.5, 179.999999],
    ];
    const decoded = decodePolyline(encodePolyline(pts, 6), 6);
    decoded.forEach(([la, ln], i) => {
      expect(la).toBeCloseTo(pts[i]![0], 6);
      expect(ln).toBeCloseTo(pts[i]![1], 6);
    });
  });
  test("the same string read at precision 5 is ten times larger", () => {
    const s = encodePolyline([[5.5, 1.25]], 6);
    expect(decodePolyline(s, 5)[0]![0]).toBeCloseTo(55, 6);
  });
  test("empty is empty; truncated or foreign input is invalid_request", () => {
    expect(decodePolyline("", 6)).toEqual([]);
    for (const bad of ["_p~iF~ps|U_", "ab cd"]) {
      expect(() => decodePolyline(bad, 5)).toThrow(EngineError);
    }
  });
});
