/**
 * Emissions on route chains (docs/emissions.md): each leg is factor x km x tonnes in whole grams,
 * the summary the sum of its legs (transfers add nothing). Chains come from the real renderChain
 * and, for AIR, from the real air planner over a tiny airport list with tiny road access legs (the
 * air planner tests' pipeline):
 *
 *   O --50 km-- AAA ====== flight ====== ZZZ --30 km-- D     (AAA at 0,0; ZZZ 40 degrees east)
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { haversineM } from "../../common/geo.ts";
import { AirPlanner } from "../../engine/air/planner.ts";
import {
  type Chain,
  planWithCargoTonnes,
  renderChain,
  type SectionInput,
  type TransportMode,
  withCargoTonnes,
} from "../../engine/chain.ts";
import { checkCargoTonnes, EMISSIONS_METHOD, MAX_CARGO_TONNES } from "../../engine/emissions.ts";
import { EngineError } from "../../engine/errors.ts";
import type { RoadRoutePlanner } from "../../engine/road/planner.ts";
import { encodeCargoAirports } from "../../formats/cargo-airports.ts";
import { checkChain } from "../support/chain.ts";
import { roadLinker, roadNode, tinyRoadPlanner } from "../support/tiny-road.ts";

/** A leg between two named places with no coordinates (only AIR reads them). */
const leg = (mode: TransportMode, km: number, from = "A", to = "B"): SectionInput<string> => ({
  transport_mode: mode,
  from,
  to,
  distance_m: km * 1000,
  hours: 1,
  estimated: false,
});

describe("one leg: factor (g CO2e per tonne-km) x km x tonnes", () => {
  // Factors (docs/emissions.md): SEA 7.6 / 6.48, RIVER 29.3 / 22.5, RAIL 28 / 21.48, ROAD 116 / 89,
  // AIR 630 / 498 WTW / TTW. AIR without airports' coordinates uses its km.
  test.each([
    ["ROAD", 100, 1, 11.6, 8.9],
    ["ROAD", 0.5, 20, 1.16, 0.89],
    ["RAIL", 250, 1, 7, 5.37],
    ["SEA", 10_000, 1, 76, 64.8],
    ["SEA", 10_000, 10, 760, 648],
    ["AIR", 1000, 1, 630, 498],
    ["AIR", 1000, 0.25, 157.5, 124.5],
    ["RIVER", 300, 1, 8.79, 6.75],
    ["RIVER", 42.5, 20, 24.905, 19.125],
  ] as const)("%s %p km x %p t -> %p kg WTW, %p kg TTW", (mode, km, tonnes, wtw, ttw) => {
    const c = renderChain("One", [leg(mode, km)], [], { cargoTonnes: tonnes });
    checkChain(c);
    expect(c.sections[0]!.emissions).toEqual({
      co2e_kg: wtw,
      co2e_ttw_kg: ttw,
      cargo_tonnes: tonnes,
      method: EMISSIONS_METHOD,
    });
    expect(c.summary.emissions).toEqual(c.sections[0]!.emissions);
  });

  test("no cargo mass given: stated for 1 t", () => {
    const c = renderChain("Road", [leg("ROAD", 100)]);
    expect(c.summary.emissions.cargo_tonnes).toBe(1);
    expect(c.summary.emissions.co2e_kg).toBe(11.6);
  });
});

describe("chain: summary = sum of the sections, transfers emit nothing", () => {
  const sections = [leg("ROAD", 37.3, "A", "B"), leg("RAIL", 812.9, "B", "C"), leg("ROAD", 12.2, "C", "D")];
  const transfers = (hours: number) => [
    { at: "B", from_mode: "ROAD" as const, to_mode: "RAIL" as const, hours },
    { at: "C", from_mode: "RAIL" as const, to_mode: "ROAD" as const, hours },
  ];

  // 116 x 37.3 = 4326.8 g, 28 x 812.9 = 22761.2 g, 116 x 12.2 = 1415.2 g: whole grams, then summed.
  test.each([12, 0])("road, rail, road with %p h handling per transfer: 28.503 kg", (hours) => {
    const c = renderChain("Rail", sections, transfers(hours));
    checkChain(c);
    expect(c.sections.map((s) => s.emissions.co2e_kg)).toEqual([4.327, 22.761, 1.415]);
    expect(c.summary.emissions.co2e_kg).toBe(28.503);
  });

  // WTW 116 x 20 = 2320 g, 29.3 x 400 = 11720 g, 116 x 5 = 580 g; TTW 1780 + 9000 + 445 g.
  test("road, barge, road: 14.62 kg WTW, 11.225 kg TTW", () => {
    const c = renderChain("River", [
      leg("ROAD", 20, "A", "B"),
      leg("RIVER", 400, "B", "C"),
      leg("ROAD", 5, "C", "D"),
    ]);
    checkChain(c);
    expect(c.sections.map((s) => s.emissions.co2e_kg)).toEqual([2.32, 11.72, 0.58]);
    expect(c.summary.emissions.co2e_kg).toBe(14.62);
    expect(c.summary.emissions.co2e_ttw_kg).toBe(11.225);
  });
});

describe("air chain from the real planner: the flight at great circle + 95 km", () => {
  type LatLng = [number, number];
  const AAA: LatLng = [0, 0];
  const ZZZ: LatLng = [0, 40];
  const KM_PER_DEG = 111.19508;
  const O: LatLng = [-50 / KM_PER_DEG, 0];
  const D: LatLng = [30 / KM_PER_DEG, 40];
  const gcKm = (a: LatLng, b: LatLng) => haversineM(a[0], a[1], b[0], b[1]) / 1000;
  const CSV = [
    "iata,icao,name,country,lat,lon,tz,ourairports_type,tier",
    `AAA,XAAA,AAA Airport,XA,${AAA[0]},${AAA[1]},UTC,large_airport,1`,
    `ZZZ,XZZZ,ZZZ Airport,XA,${ZZZ[0]},${ZZZ[1]},UTC,large_airport,1`,
  ].join("\n");
  let air: AirPlanner;
  let road: RoadRoutePlanner;
  let route: Chain<unknown>;

  beforeAll(async () => {
    air = AirPlanner.fromBytes(encodeCargoAirports(CSV, "tiny-air"), "tiny/cargo-airports.bin").planner;
    const nodes = [
      roadNode("O", ...O),
      roadNode("AAA", ...AAA),
      roadNode("ZZZ", ...ZZZ),
      roadNode("D", ...D),
    ];
    const link = roadLinker(nodes);
    // Road km = great circle x 1.3.
    const tiny = await tinyRoadPlanner(nodes, [
      link("O", "AAA", "road", gcKm(O, AAA) * 1300),
      link("D", "ZZZ", "road", gcKm(D, ZZZ) * 1300),
    ]);
    road = { plan: async (req) => tiny.planner.plan(req) };
    route = (
      await air.plan(
        { from: { name: "O", lat: O[0], lng: O[1] }, to: { name: "D", lat: D[0], lng: D[1] } },
        road,
      )
    ).route;
  });

  test("road 116 g x road km; flight 630 g x (great circle + 95 km), not its 1.05 x great circle", () => {
    checkChain(route);
    expect(route.transport_modes).toEqual(["ROAD", "AIR", "ROAD"]);
    const [pre, flight, post] = route.sections;
    const flightKm = gcKm(AAA, ZZZ) + 95;
    expect(flight!.distance.meters).toBe(Math.round(gcKm(AAA, ZZZ) * 1050));
    expect(flight!.emissions.co2e_kg).toBe(Math.round(630 * flightKm) / 1000);
    expect(flight!.emissions.co2e_ttw_kg).toBe(Math.round(498 * flightKm) / 1000);
    for (const s of [pre!, post!])
      expect(s.emissions.co2e_kg).toBe(Math.round(0.116 * s.distance.meters) / 1000);
    expect(route.transfers.map((t) => t.hours)).toEqual([12, 12]);
  });

  test.each([0.001, 0.5, 7.5, 20, MAX_CARGO_TONNES])(
    "restated for %p t: each leg is factor x km x tonnes, nothing else changes",
    (t) => {
      const c = withCargoTonnes(route, t);
      checkChain(c);
      const flightKm = gcKm(AAA, ZZZ) + 95;
      const [pre, flight, post] = c.sections;
      expect(flight!.emissions.co2e_kg!).toBeCloseTo((630 * flightKm * t) / 1000, 3);
      for (const s of [pre!, post!])
        expect(s.emissions.co2e_kg!).toBeCloseTo((0.116 * s.distance.meters * t) / 1000, 3);
      expect(c.summary.emissions.cargo_tonnes).toBe(t);
      const strip = (x: Chain<unknown>) => ({
        ...x,
        summary: { ...x.summary, emissions: null },
        sections: x.sections.map((s) => ({ ...s, emissions: null })),
      });
      expect(strip(c)).toEqual(strip(route));
    },
  );

  test("restating for 1 t gives the chain back; a plan's route and alternatives are restated", async () => {
    expect(withCargoTonnes(route, 1)).toEqual(route);
    const plan = await air.plan(
      { from: { name: "O", lat: O[0], lng: O[1] }, to: { name: "D", lat: D[0], lng: D[1] } },
      road,
    );
    const heavy = planWithCargoTonnes(plan, 20);
    expect(heavy.route).toEqual(withCargoTonnes(plan.route, 20));
    expect(heavy.alternatives).toEqual(plan.alternatives.map((c) => withCargoTonnes(c, 20)));
  });

  test("renderChain with cargoTonnes equals rendering for 1 t and restating", () => {
    const sections = [leg("ROAD", 37.3, "A", "B"), leg("SEA", 9876.5, "B", "C")];
    expect(renderChain("Sea", sections, [], { cargoTonnes: 12.5 })).toEqual(
      withCargoTonnes(renderChain("Sea", sections), 12.5),
    );
  });
});

describe("checkCargoTonnes: more than 0, at most 100000, default 1", () => {
  test.each([
    [undefined, 1],
    [1, 1],
    ["1", 1],
    [" 2.5 ", 2.5],
    ["0.001", 0.001],
    [100_000, 100_000],
    ["1e5", 100_000],
  ] as const)("%p -> %p t", (value, tonnes) => {
    expect(checkCargoTonnes(value)).toBe(tonnes);
  });

  test.each([
    0,
    "0",
    -1,
    "-0.5",
    100_000.01,
    "100001",
    "",
    "  ",
    "abc",
    "NaN",
    "Infinity",
    null,
    true,
    { tonnes: 5 },
  ])("%p -> invalid_request", (value) => {
    let err: unknown;
    try {
      checkCargoTonnes(value);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(EngineError);
    expect((err as EngineError).code).toBe("invalid_request");
    expect((err as Error).message).toStartWith(
      "cargo_tonnes must be a number greater than 0 and at most 100000",
    );
  });
});
