/**
 * The strait test's rules on a hand-made world at 0.01 degrees: a strait between two landmasses is
 * refused, a bay whose shores land joins nearby is not, a narrow channel is a bridged river unless
 * a listed crossing is near.
 */
import { expect, test } from "bun:test";
import { polygonsTopology } from "../../data-build/road/mask.ts";
import { type CrossingLine, StraitTest } from "../../data-build/road/straits.ts";

const box = (w: number, s: number, e: number, n: number) => ({
  geometry: {
    type: "Polygon" as const,
    coordinates: [
      [
        [w, s],
        [e, s],
        [e, n],
        [w, n],
        [w, s],
      ] as Array<[number, number]>,
    ],
  },
});

// West land ends at 10.00 E; east land starts at 10.05 E (a 5.5 km strait) south of 50.5 N, and at
// 10.015 E (a 1 km channel) north of it. A third block with a bay: land 20-21 E, 49-50 N, minus
// nothing, plus a cove cut from its south coast (20.40-20.60 E up to 49.10 N).
const world = polygonsTopology([
  box(9, 49, 10, 51),
  box(10.05, 49, 11, 50.5),
  box(10.015, 50.5, 11, 51),
  box(20, 49.1, 21, 50),
  box(20, 49, 20.4, 49.1),
  box(20.6, 49, 21, 49.1),
]);
const straits = (listed: CrossingLine[] = []) => StraitTest.fromTopologies(world, null, listed, 0.01);

test("a 5.5 km strait between two landmasses is refused", () => {
  expect(straits().strait(49.7, 9.9, 49.7, 10.15)).not.toBeNull();
});

test("a cove whose shores land joins nearby is not a strait", () => {
  expect(straits().strait(49.05, 20.3, 49.05, 20.7)).toBeNull();
});

test("a 1 km channel is a bridged river, unless a listed crossing lies within 15 km", () => {
  expect(straits().strait(50.8, 9.95, 50.8, 10.06)).toBeNull();
  expect(straits([[50.75, 9.99, 50.75, 10.03]]).strait(50.8, 9.95, 50.8, 10.06)).not.toBeNull();
});

test("land all the way is never a strait", () => {
  expect(straits().strait(49.5, 9.2, 50.5, 9.8)).toBeNull();
});
