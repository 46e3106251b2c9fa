/**
 * Air chains over a tiny hand-made list of large cargo airports, through the real pipeline: the
 * list as large-cargo-airports.csv rows -> the build's encodeCargoAirports -> AirPlanner.fromBytes
 * (the loader's own path), with road access legs over a tiny road map (test/support/tiny-road.ts).
 * Expected figures come from the map: flight = great circle x 1.05 at 800 km/h + 0.75 h, road km =
 * the link lengths below at 75 km/h truck, 12 h per airport.
 *
 *        EDG (lat 30)           doors 599 and 601 km north of EDG
 *
 *   AAC --- O --- AAA --- AAB                                ZZZ --- D   (lat ~0; ZZZ 40 degrees east)
 *   (400 km)  (50 km) (120 km on)
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { EARTH_RADIUS_M, haversineM } from "../../common/geo.ts";
import type { RoadNode } from "../../data-build/road/network.ts";
import { AIR_ACCESS_MAX_KM, AirPlanner } from "../../engine/air/planner.ts";
import type { Chain } from "../../engine/chain.ts";
import { EngineError } from "../../engine/errors.ts";
import type { RoadRoutePlanner } from "../../engine/road/planner.ts";
import { encodeCargoAirports } from "../../formats/cargo-airports.ts";
import { checkChain } from "../support/chain.ts";
import { roadLinker, roadNode, TRUCK_KMH, tinyRoadPlanner } from "../support/tiny-road.ts";

type LatLng = [number, number];
/** Km per degree of latitude: along a meridian, haversine distance is exactly this. */
const KM_PER_DEG = ((EARTH_RADIUS_M / 1000) * Math.PI) / 180;
const north = ([lat, lng]: LatLng, km: number): LatLng => [lat + km / KM_PER_DEG, lng];
const gcM = (a: LatLng, b: LatLng) => haversineM(a[0], a[1], b[0], b[1]);

const AAA: LatLng = [0, 0];
const AAB = north(AAA, 120);
const O = north(AAA, -50);
const AAC = north(O, -400);
const ZZZ: LatLng = [0, 40];
const D = north(ZZZ, 30);
const EDG: LatLng = [30, 0];
const SMALL_FIELD = north(AAA, 10);

/** large-cargo-airports.csv rows as the build reads them. */
const AIRPORTS: Array<[string, string, LatLng]> = [
  ["AAA", "XAAA", AAA],
  ["AAB", "XAAB", AAB],
  ["AAC", "", AAC],
  ["ZZZ", "XZZZ", ZZZ],
  ["EDG", "XEDG", EDG],
];
const CSV = [
  "iata,icao,name,country,lat,lon,tz,ourairports_type,tier",
  ...AIRPORTS.map(
    ([iata, icao, [lat, lng]]) => `${iata},${icao},${iata} Airport,XA,${lat},${lng},UTC,large_airport,1`,
  ),
].join("\n");

const point = (name: string, [lat, lng]: LatLng) => ({ name, lat, lng });
/** An end resolved from an airport code (the locations index's airport point). */
const airportEnd = (iata: string | null, name: string, [lat, lng]: LatLng) => ({
  kind: "airport",
  iata,
  name,
  lat,
  lng,
});

/** Road km = great circle x 1.3 on every access link. */
const ROAD_FACTOR = 1.3;
const ROAD_LINKS: Array<[string, LatLng, string, LatLng]> = [
  ["O", O, "AAA", AAA],
  ["O", O, "AAB", AAB],
  ["O", O, "AAC", AAC],
  ["D", D, "ZZZ", ZZZ],
  ["N599", north(EDG, 599), "EDG", EDG],
  ["O2", north(AAA, 20), "AAA", AAA],
];
const roadM = (a: LatLng, b: LatLng) => gcM(a, b) * ROAD_FACTOR;
const roadHours = (m: number) => m / 1000 / TRUCK_KMH;
const flightM = (a: LatLng, b: LatLng) => gcM(a, b) * 1.05;
const flightHours = (m: number) => m / 1000 / 800 + 0.75;
const expectSeconds = (d: { seconds: number }, hours: number, slack = 1) =>
  expect(Math.abs(d.seconds - hours * 3600)).toBeLessThanOrEqual(slack);
const codes = (c: Chain<unknown>) => {
  const s = c.sections.find((x) => x.transport_mode === "AIR")!;
  return [(s.from as { iata: string | null }).iata, (s.to as { iata: string | null }).iata];
};

let air: AirPlanner;
let road: RoadRoutePlanner;
beforeAll(async () => {
  const built = AirPlanner.fromBytes(encodeCargoAirports(CSV, "tiny-air"), "tiny/cargo-airports.bin");
  expect(built.buildId).toBe("tiny-air");
  air = built.planner;
  const nodes: RoadNode[] = [];
  for (const [a, pa, b, pb] of ROAD_LINKS)
    for (const [name, [lat, lng]] of [
      [a, pa],
      [b, pb],
    ] as const)
      if (!nodes.some((n) => n.name === name)) nodes.push(roadNode(name, lat, lng));
  const link = roadLinker(nodes);
  const tiny = await tinyRoadPlanner(
    nodes,
    ROAD_LINKS.map(([a, pa, b, pb]) => link(a, b, "road", roadM(pa, pb))),
  );
  road = { plan: async (req) => tiny.planner.plan(req) };
});

describe("airport choice", () => {
  test.each([
    ["599 km north of EDG", north(EDG, 599), ["EDG"]],
    ["601 km north of EDG", north(EDG, 601), []],
    // AAA 50 km, AAB 170 km, AAC 400 km: all in reach, the two closest only.
    ["O", O, ["AAA", "AAB"]],
    ["D", D, ["ZZZ"]],
  ] as const)("in reach of %s: %p", (_, p, expected) => {
    const near = air.nearest({ lat: p[0], lng: p[1] });
    expect(near.map((c) => c.airport.iata)).toEqual([...expected]);
    for (const c of near) expect(c.km).toBeLessThanOrEqual(AIR_ACCESS_MAX_KM);
  });

  test("599 km: road to EDG, flight on; 601 km: no_route naming the origin and the limit", async () => {
    const { route } = await air.plan({ from: point("N599", north(EDG, 599)), to: point("D", D) }, road);
    checkChain(route);
    expect(codes(route)).toEqual(["EDG", "ZZZ"]);
    expect(Math.abs(route.sections[0]!.distance.meters - 599_000 * ROAD_FACTOR)).toBeLessThanOrEqual(1);
    const err = await air
      .plan({ from: point("N601", north(EDG, 601)), to: point("D", D) }, road)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EngineError);
    expect((err as EngineError).code).toBe("no_route");
    expect((err as Error).message).toBe(
      "No air route: origin N601 has no large cargo airport within 600 km (air road access limit).",
    );
  });
});

describe("air chains", () => {
  test.each([
    // The closest airport's pair is the route; the second closest's is the alternative.
    ["route", AAA],
    ["alternative", AAB],
  ] as const)(
    "O -> D, the %s: road, flight = great circle x 1.05 at 800 km/h + 45 min, road",
    async (which, from) => {
      const plan = await air.plan({ from: point("O", O), to: point("D", D) }, road);
      expect([plan.route, ...plan.alternatives].map(codes)).toEqual([
        ["AAA", "ZZZ"],
        ["AAB", "ZZZ"],
      ]);
      const c = which === "route" ? plan.route : plan.alternatives[0]!;
      checkChain(c);
      expect(c.label).toBe("Air");
      expect(c.transport_modes).toEqual(["ROAD", "AIR", "ROAD"]);
      const [pre, flight, post] = c.sections;
      const m = flightM(from, ZZZ);
      expect(flight!.distance.meters).toBe(Math.round(m));
      expect(flight!.great_circle_km).toBeCloseTo(gcM(from, ZZZ) / 1000, 1);
      expectSeconds(flight!.duration, flightHours(m));
      expect(Math.abs(pre!.distance.meters - roadM(O, from))).toBeLessThanOrEqual(1);
      expect(Math.abs(post!.distance.meters - roadM(D, ZZZ))).toBeLessThanOrEqual(1);
      expect(c.transfers.map((t) => [t.from_mode, t.to_mode, t.hours])).toEqual([
        ["ROAD", "AIR", 12],
        ["AIR", "ROAD", 12],
      ]);
      expectSeconds(
        c.summary.duration,
        roadHours(roadM(O, from)) + flightHours(m) + roadHours(roadM(D, ZZZ)) + 24,
        2,
      );
    },
  );

  test.each([
    ["an IATA code", airportEnd("AAA", "AAA Airport", AAA), AAA],
    // Not a large cargo airport, and with no IATA code: still the flight's own end, no road leg.
    ["an ICAO-only airfield", airportEnd(null, "Small Field", SMALL_FIELD), SMALL_FIELD],
  ] as const)("from %s: that airport, no road leg, handling still applies", async (_, from, at) => {
    const { route, alternatives } = await air.plan({ from, to: point("D", D) }, road);
    checkChain(route);
    expect(route.transport_modes).toEqual(["AIR", "ROAD"]);
    expect(route.sections[0]!.from).toEqual(from);
    expect(route.sections[0]!.distance.meters).toBe(Math.round(flightM(at, ZZZ)));
    expect(route.transfers.map((t) => [t.from_mode, t.to_mode, t.hours])).toEqual([
      [null, "AIR", 12],
      ["AIR", "ROAD", 12],
    ]);
    expect(alternatives).toEqual([]);
  });

  test("airport codes at both ends: only the flight", async () => {
    const { route } = await air.plan(
      { from: airportEnd("AAA", "AAA Airport", AAA), to: airportEnd("ZZZ", "ZZZ Airport", ZZZ) },
      road,
    );
    checkChain(route);
    expect(route.transport_modes).toEqual(["AIR"]);
    expect(route.summary.distance.meters).toBe(Math.round(flightM(AAA, ZZZ)));
    expectSeconds(route.summary.duration, flightHours(flightM(AAA, ZZZ)) + 24);
  });

  test("from/to swapped: the same air distance, and the same chain distance", async () => {
    const there = (await air.plan({ from: point("O", O), to: point("D", D) }, road)).route;
    const back = (await air.plan({ from: point("D", D), to: point("O", O) }, road)).route;
    expect(codes(back)).toEqual(["ZZZ", "AAA"]);
    expect(back.sections[1]!.distance).toEqual(there.sections[1]!.distance);
    expect(back.summary.distance).toEqual(there.summary.distance);
  });

  test("handling=false keeps the transfers, at 0 h", async () => {
    const on = (await air.plan({ from: point("O", O), to: point("D", D) }, road)).route;
    const off = (await air.plan({ from: point("O", O), to: point("D", D), handling: false }, road)).route;
    checkChain(off);
    expect(off.transfers.map((t) => t.hours)).toEqual([0, 0]);
    expect(off.summary.handling_hours).toBe(0);
    expect(off.summary.distance).toEqual(on.summary.distance);
    expect(off.summary.duration.seconds).toBe(on.summary.duration.seconds - 24 * 3600);
  });

  test("both ends closest to the same airport: no_route pointing to ROAD", async () => {
    const err = await air
      .plan({ from: point("O", O), to: point("O2", north(AAA, 20)) }, road)
      .catch((e: unknown) => e);
    expect((err as EngineError).code).toBe("no_route");
    expect((err as Error).message).toBe(
      "No air route: both ends are served by the same airport (AAA); use mode ROAD.",
    );
  });
});
