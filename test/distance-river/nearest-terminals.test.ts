/**
 * nearestTerminals (engine/terminal-chain.ts), the river ports and railheads a door may use, over
 * hand-made sites: reach across the antimeridian and over a pole (where its latitude-band index
 * must not cut), the geocoded penalty, one site per graph node, and ties kept in the sites' order.
 * Expected sites come from the geometry (1 degree of latitude = 111.2 km), not from the function.
 */
import { describe, expect, test } from "bun:test";
import { nearestTerminals, type TerminalSite } from "../../engine/terminal-chain.ts";

type Site = TerminalSite<{ lat: number; lng: number; name: string }>;
const site = (name: string, lat: number, lng: number, node: number, geocoded = false): Site => ({
  terminal: { name, lat, lng },
  node,
  geocoded,
});

const SITES: Site[] = [
  site("east of the antimeridian", 0, 179.9, 1), // 0.15 deg from the door at (0, -179.95): 17 km
  site("west of the antimeridian", 0, -179, 2), // 0.95 deg: 106 km
  site("over the pole", 89.5, 0, 3), // from (89.5, 180): 1 deg across the pole, 111 km
  site("beside the pole door", 89.5, 179, 4), // 0.5 deg x cos(89.5 deg) ~ 1 km
  site("twin, listed first", 10, 10, 6),
  site("twin, listed second", 10, 10, 5),
  site("geocoded at 22 km", 10.2, 20, 7, true), // ranks as 52 km
  site("surveyed at 44 km", 10.4, 20, 8),
  site("same node, nearer", 30.5, 40, 9), // 56 km
  site("same node, farther", 30.9, 40, 9), // 100 km
  site("inside 150 km", 51.34, 0, 10), // 1.34 deg: 149 km
  site("beyond 150 km", 48.64, 0, 11), // 1.36 deg: 151 km
];

describe("nearestTerminals", () => {
  test.each([
    [
      "across the antimeridian",
      { lat: 0, lng: -179.95 },
      ["east of the antimeridian", "west of the antimeridian"],
    ],
    ["over the pole", { lat: 89.5, lng: 180 }, ["beside the pole door", "over the pole"]],
    ["identical sites keep their order", { lat: 10, lng: 10 }, ["twin, listed first", "twin, listed second"]],
    ["a geocoded site ranks 30 km farther", { lat: 10, lng: 20 }, ["surveyed at 44 km", "geocoded at 22 km"]],
    ["one site per graph node, the nearer", { lat: 30, lng: 40 }, ["same node, nearer"]],
    ["the reach is 150 km", { lat: 50, lng: 0 }, ["inside 150 km"]],
    ["nothing in reach", { lat: -40, lng: -60 }, []],
  ] as const)("%s", (_, door, want) => {
    expect(nearestTerminals(SITES, door, 150, 3).map((s) => s.terminal.name)).toEqual([...want]);
  });

  test("at most `count`, best first", () => {
    const got = nearestTerminals(SITES, { lat: 0, lng: -179.95 }, 150, 1);
    expect(got.map((s) => s.terminal.name)).toEqual(["east of the antimeridian"]);
    expect(got[0]!.km).toBeCloseTo(0.15 * 111.195, 0);
  });
});
