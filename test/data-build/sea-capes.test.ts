/**
 * The cape lines of the sea graph (data-build/sea/capes.ts): which polylines cross a cape's line,
 * as a table; and on the real sea graph, every route between the Atlantic and the Indian Ocean that
 * takes neither Suez nor Panama names the Cape of Good Hope among its passages, and closing it
 * sends the route another way.
 */
import { describe, expect, test } from "bun:test";
import { capeCrossed } from "../../data-build/sea/capes.ts";
import { DEFAULT_MASK, maskOf } from "../../engine/sea/policy.ts";
import { seaRouter } from "../distance-sea/fixture.ts";

describe("capeCrossed", () => {
  const cases: Array<[string, number[], number]> = [
    ["south of Cape Agulhas, west to east", [-36, 18, -36, 22], 0],
    ["south of Cape Agulhas, east to west, in several pieces", [-40, 25, -40, 21, -40.5, 19, -41, 15], 0],
    ["across Africa's latitudes (no water there on 20 E: a lane cutting a corner)", [-33, 19, -33.5, 21], 0],
    ["north of the line's end, in the Mediterranean", [34, 18, 34, 22], -1],
    ["south of the ice", [-75, 18, -75, 22], -1],
    ["along the meridian itself", [-40, 20, -50, 20], -1],
    // A point on the meridian is east of it: touching the line and turning back reaches it.
    ["to a point on the meridian and back", [-40, 19, -40, 20, -41, 19], 0],
    ["from a point on the meridian east and back", [-40, 20, -40, 21, -41, 20], -1],
    ["to a point on the meridian and on east", [-40, 19, -40, 20, -41, 21], 0],
    ["the antimeridian, not 20 E", [-50, 179.5, -50, -179.5], -1],
    ["Drake Passage, Pacific to Atlantic", [-57, -70, -57, -64], 1],
    ["leaving the Strait of Magellan to the north-east", [-52.4, -68.4, -51, -66], -1],
    ["a lane that stays west of both lines", [-50, -100, -40, -80], -1],
  ];
  test.each(cases)("%s", (_, coords, want) => {
    expect(capeCrossed(coords)).toBe(want);
  });
});

describe("on the sea graph", () => {
  const ids = (r: { gates: readonly number[] }, names: readonly { id: string }[]) =>
    r.gates.map((g) => names[g - 1]!.id);

  test("Atlantic to Indian Ocean without Suez and Panama rounds the Cape, and says so; avoiding it, another way", async () => {
    const router = await seaRouter();
    const gates = router.graph.names.gates;
    const pairs = [
      [
        { lat: 51.9, lng: 4.1 },
        { lat: 1.26, lng: 103.8 },
      ], // Rotterdam - Singapore
      [
        { lat: 40.6, lng: -74.0 },
        { lat: 19.0, lng: 72.8 },
      ], // New York - Mumbai
      [
        { lat: 6.4, lng: 3.4 },
        { lat: -33.9, lng: 151.2 },
      ], // Lagos - Sydney
    ] as const;
    for (const [from, to] of pairs) {
      const round = router.routeRaw(from, to, DEFAULT_MASK | maskOf(["suez", "panama"]), false);
      expect(ids(round, gates)).toContain("good_hope");
      const other = router.routeRaw(from, to, DEFAULT_MASK | maskOf(["good_hope"]), false);
      expect(ids(other, gates)).not.toContain("good_hope");
      expect(other.metres).not.toBe(round.metres);
    }
  });
});
