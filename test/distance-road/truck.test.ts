import { describe, expect, test } from "bun:test";
import { restStops, truckTimeFromCarSeconds, truckTimeFromDriving } from "../../engine/road/truck.ts";

describe("truck time rule: car x 1.2, 11 h rest after every 9 h of driving", () => {
  test.each([
    // [car hours, driving hours, rest hours, total hours]
    [0, 0, 0, 0],
    [1, 1.2, 0, 1.2],
    [7.5, 9, 0, 9], // exactly 9 h of driving: arrives without a rest
    [7.5 + 1 / 3600, 9 + 1.2 / 3600, 11, 20 + 1.2 / 3600], // one second of driving past 9 h
    [15, 18, 11, 29], // two full stints, one rest between
    [15 + 1 / 60, 18.02, 22, 40.02],
    [22.5, 27, 22, 49],
  ])("car %p h -> driving %p h, rest %p h, total %p h", (car, driving, rest, total) => {
    const t = truckTimeFromCarSeconds(car * 3600);
    expect(t.driving_hours).toBeCloseTo(driving, 9);
    expect(t.rest_hours).toBe(rest);
    expect(t.hours).toBeCloseTo(total, 9);
  });

  test.each([
    [9, 0],
    [9.0001, 1],
    [18, 1],
    [18.0001, 2],
    [-3, 0],
    [Number.NaN, 0],
  ])("driving %p h -> %p rests", (hours, rests) => {
    expect(restStops(hours)).toBe(rests);
  });

  test("truck-basis time is not multiplied again", () => {
    expect(truckTimeFromDriving(10)).toEqual({ driving_hours: 10, rest_hours: 11, hours: 21 });
  });
});
