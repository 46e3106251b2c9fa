/**
 * The Sea + River drop rules (spec, chain rule 2) as a table: each rule just past and just short of
 * its threshold, with every other rule kept clear, plus the cases where a rule cannot fire (no River
 * chain, no direct chain); and our barge rule beside them.
 */
import { describe, expect, test } from "bun:test";
import {
  type BargeReason,
  type BargeSide,
  doorAtSeaPort,
  roadServesBetter,
} from "../../engine/multimodal/barge-rule.ts";
import {
  type DropContext,
  type DropReason,
  dropReasons,
  type SeaRiverFigures,
} from "../../engine/multimodal/drop-rules.ts";

/** A chain every rule keeps: 1,000 km in 100 h, 100 km of access, against a River chain of 1,000 km in 200 h. */
const CHAIN: SeaRiverFigures = { km: 1000, hours: 100, accessKm: 100 };
const CTX: DropContext = {
  river: { km: 1000, hours: 200 },
  greatCircleKm: 800,
  directExists: true,
  shortestWithoutAirKm: 900,
};

describe("each rule triggered and not triggered", () => {
  test.each([
    ["1.3 x the River km: 1,301 km", { km: 1301 }, {}, ["over_1.3x_river_km"]],
    ["1.3 x the River km: 1,300 km", { km: 1300 }, { shortestWithoutAirKm: 1300 }, []],
    ["at least 3 % faster than River: 194.1 h of 200", { hours: 194.1 }, {}, ["not_3pct_faster_than_river"]],
    ["at least 3 % faster than River: 194 h of 200", { hours: 194 }, {}, []],
    ["as slow as River", { hours: 200 }, {}, ["not_3pct_faster_than_river"]],
    ["2.5 x the great circle: 1,000 km over 399 km", {}, { greatCircleKm: 399 }, ["over_2.5x_great_circle"]],
    ["2.5 x the great circle: 1,000 km over 400 km", {}, { greatCircleKm: 400 }, []],
    ["2.5 x the great circle with no direct chain", {}, { greatCircleKm: 100, directExists: false }, []],
    [
      "1.6 x the shortest without air: over 624 km",
      {},
      { shortestWithoutAirKm: 624 },
      ["over_1.6x_shortest_without_air"],
    ],
    ["1.6 x the shortest without air: over 625 km", {}, { shortestWithoutAirKm: 625 }, []],
    [
      "more than half road and rail: 501 km of 1,000",
      { accessKm: 501 },
      {},
      ["over_half_road_and_rail_access"],
    ],
    ["more than half road and rail: 500 km of 1,000", { accessKm: 500 }, {}, []],
  ] as Array<[string, Partial<SeaRiverFigures>, Partial<DropContext>, DropReason[]]>)(
    "%s -> %p",
    (_, chain, ctx, reasons) => {
      expect(dropReasons({ ...CHAIN, ...chain }, { ...CTX, ...ctx })).toEqual(reasons);
    },
  );
});

test("with no River chain neither River rule can fire", () => {
  expect(
    dropReasons(
      { ...CHAIN, km: 5000, hours: 1000 },
      { ...CTX, river: null, greatCircleKm: 2000, shortestWithoutAirKm: 5000 },
    ),
  ).toEqual([]);
});

test("every rule that fires is listed, in the spec's order", () => {
  expect(
    dropReasons(
      { km: 3000, hours: 300, accessKm: 2000 },
      {
        river: { km: 1000, hours: 200 },
        greatCircleKm: 1000,
        directExists: true,
        shortestWithoutAirKm: 1000,
      },
    ),
  ).toEqual([
    "over_1.3x_river_km",
    "not_3pct_faster_than_river",
    "over_2.5x_great_circle",
    "over_1.6x_shortest_without_air",
    "over_half_road_and_rail_access",
  ]);
});

describe("the barge rule: a barge must save more road than a local transfer (barge-rule.ts)", () => {
  /** A door 100 km by road from the sea, 10 km from its river port: the barge saves 90 km. */
  const SIDE: BargeSide = { seaPortRoadKm: 100, gatewayRoadKm: 120, portRoadKm: 10 };
  test.each([
    ["saves 90 km of road to the nearest main port", {}, null],
    [
      "door 30 km from a main port: the ship calls there",
      { seaPortRoadKm: 30 },
      "road_to_sea_port_serves_better",
    ],
    ["door 31 km from a main port, at its river port", { seaPortRoadKm: 31, portRoadKm: 0 }, null],
    [
      "door 40 km from the gateway, 10 km from the river port",
      { gatewayRoadKm: 40 },
      "road_to_gateway_serves_better",
    ],
    ["door 41 km from the gateway, 10 km from the river port", { gatewayRoadKm: 41 }, null],
    [
      "the truck to the river port is most of the way: saves 29 km",
      { portRoadKm: 71 },
      "road_to_sea_port_serves_better",
    ],
    [
      "the caller fixed the gateway: the main port is no alternative",
      { seaPortRoadKm: null, gatewayRoadKm: 41 },
      null,
    ],
    [
      "fixed gateway 5 km from the door",
      { seaPortRoadKm: null, gatewayRoadKm: 5, portRoadKm: 2 },
      "road_to_gateway_serves_better",
    ],
  ] as Array<[string, Partial<BargeSide>, BargeReason | null]>)("%s", (_, side, reason) => {
    expect(roadServesBetter({ ...SIDE, ...side })).toBe(reason);
  });

  test("a door at a main port has no barge on its side: none could save more than a local transfer", () => {
    expect(doorAtSeaPort(30)).toBe(true);
    expect(doorAtSeaPort(31)).toBe(false);
    expect(doorAtSeaPort(null)).toBe(false);
    // The shortcut agrees with the rule for the best barge there could be (the door at its river port).
    for (const km of [0, 29.9, 30, 30.1, 500])
      expect(doorAtSeaPort(km)).toBe(
        roadServesBetter({ seaPortRoadKm: km, gatewayRoadKm: Infinity, portRoadKm: 0 }) !== null,
      );
  });
});
