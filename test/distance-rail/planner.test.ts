/**
 * Rail chains over a tiny hand-made rail map, through the real pipeline: Natural Earth-shaped line
 * features and UN/LOCODE rows -> the rail build's own functions (railLines, buildRailGraph,
 * collectRailPlaces, snapRailheads) -> encodeGraph / encodeRailheads -> the real router.wasm ->
 * RailPlanner, with road access legs over a tiny road map (test/support/tiny-road.ts). Expected
 * figures come from the map's own geometry: rail km = the track's great-circle polyline, road km =
 * the link lengths given below, hours = road at 75 km/h truck + rail at 30 km/h + 12 h per terminal.
 *
 *   lat 9.6-10.8  pairs   A5            O = door, D = door
 *                         |
 *                   A3-A4-A2/A1 ========================== B2/B1
 *   lat 20        gap     G1 --- PG(20 km off) --- PH --- G2 --- PK
 *   lat 30        limit   R ---- S         (doors 149 and 151 km north of R)
 *   lat 40-41     ferry   F1 - F2 ~~ferry~~ F3 - F4
 *   lat 50        island  I1 - I2          (no link to anything)
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { EARTH_RADIUS_M, haversineM, polylineM } from "../../common/geo.ts";
import { encodeGraph } from "../../data-build/graph/encode.ts";
import {
  buildRailGraph,
  dropRepeatedDuplicates,
  FERRY_KMH,
  type RailFeature,
  railGraphSpec,
  railLines,
} from "../../data-build/rail/network.ts";
import { collectRailPlaces, snapRailheads } from "../../data-build/rail/railheads.ts";
import type { RoadNode } from "../../data-build/road/network.ts";
import type { Chain } from "../../engine/chain.ts";
import { EngineError } from "../../engine/errors.ts";
import { RAIL_SPEED_KMH } from "../../engine/modes/rail.ts";
import { RAIL_ACCESS_MAX_KM, RailPlanner } from "../../engine/rail/planner.ts";
import type { RoadRoutePlanner } from "../../engine/road/planner.ts";
import { encodeRailheads } from "../../formats/railheads.ts";
import { checkChain } from "../support/chain.ts";
import { roadLinker, roadNode, TRUCK_KMH, tinyRoadPlanner } from "../support/tiny-road.ts";

type LatLng = [number, number];
/** Km per degree of latitude: along a meridian, haversine distance is exactly this. */
const KM_PER_DEG = ((EARTH_RADIUS_M / 1000) * Math.PI) / 180;
const north = ([lat, lng]: LatLng, km: number): LatLng => [lat + km / KM_PER_DEG, lng];
const gcM = (a: LatLng, b: LatLng) => haversineM(a[0], a[1], b[0], b[1]);
const trackM = (...pts: LatLng[]) => polylineM(pts.flat());

// Pairs: two railheads near door O, two near door D, joined by one fast line (A2 ... B2).
const A1: LatLng = [9.9, 0];
const A2: LatLng = [9.6, 0];
const A3: LatLng = [9.6, -1];
const A4: LatLng = [9.6, -0.3];
const A5: LatLng = [10.8, 0];
const B1: LatLng = [9.9, 5];
const B2: LatLng = [9.6, 5];
const FAST: LatLng[] = [A2, [9.6, 1], [9.6, 2], [9.6, 3], [9.6, 4], B2];
// Gap: one long edge G1-G2 (junction to junction) with PG's place 20 km north of its first intermediate point.
const G1: LatLng = [20, 0];
const G2: LatLng = [20, 4];
const PK: LatLng = [20, 6];
/** Where PG and PH meet the track: intermediate points of the edge G1-G2. */
const TG: LatLng = [20, 1];
const TH: LatLng = [20, 3];
const GAP_EDGE: LatLng[] = [G1, TG, [20, 2], TH, G2];
const PG_PLACE = north(TG, 20);
// Limit: railhead R at a line end.
const R: LatLng = [30, 0];
const S: LatLng = [30, 2];
// Ferry: a railroad ferry joins the island line F3-F4 to the mainland line F1-F2.
const F1: LatLng = [40, 0];
const F2: LatLng = [40, 1];
const F3: LatLng = [41, 2];
const F4: LatLng = [41, 3];
const FERRY: LatLng[] = [F2, [40.5, 1.5], F3];
const I1: LatLng = [50, 0];
const I2: LatLng = [50, 1];

const feature = (coords: LatLng[], featurecla = "Railroad"): RailFeature => ({
  properties: { featurecla, part: "ne_global_not_north_america", continent: "Test" },
  geometry: { type: "LineString", coordinates: coords.map(([lat, lng]) => [lng, lat]) },
});
const FEATURES = [
  feature(FAST),
  feature([A1, A2]),
  feature([A1, A5]),
  feature([A2, A4, A3]),
  feature([B1, B2]),
  feature(GAP_EDGE),
  feature([G2, [20, 5], PK]),
  feature([R, [30, 1], S]),
  feature([F1, F2]),
  feature(FERRY, "Railroad ferry"),
  feature([F3, F4]),
  feature([I1, I2]),
];

/** UN/LOCODE rows: function position 2 = rail terminal. */
const PLACES: Array<[string, LatLng, string?]> = [
  ["A1", A1],
  ["A2", A2],
  ["A3", A3],
  ["A4", A4],
  ["A5", A5],
  ["B1", B1],
  ["B2", B2],
  ["PG", PG_PLACE],
  ["PH", TH],
  ["PK", PK],
  ["PR", R],
  ["PS", S],
  ["PF1", F1],
  ["PF4", F4],
  ["PI1", I1],
  ["PI2", I2],
  // A port on the fast line, not a rail terminal: never a railhead.
  ["XP", [9.6, 2], "1-------"],
];
const UNLOCODE_CSV = [
  "country,location,name,nameWoDiacritics,subdivision,status,function,iata,lat,lon,geocoded",
  ...PLACES.map(
    ([name, [lat, lng], fn = "-2------"]) => `XA,${name},${name},${name},,RL,${fn},,${lat},${lng},`,
  ),
].join("\n");

/** Doors (query points). */
const door = (name: string, [lat, lng]: LatLng) => ({ name, lat, lng });
const O = door("O", [9.8, 0]);
const D = door("D", [9.78, 5]);
const X = door("X", PG_PLACE);
const Y = door("Y", north(TH, -10));
const N149 = door("N149", north(R, 149));
const N151 = door("N151", north(R, 151));

/** Road km = great circle x 1.3 on every access link; the expected road figures follow from it. */
const ROAD_FACTOR = 1.3;
const ROAD_LINKS: Array<[{ name: string; lat: number; lng: number }, LatLng]> = [
  [O, A1],
  [O, A2],
  [O, A5],
  [D, B1],
  [D, B2],
  [X, TG],
  [Y, TH],
  [N149, R],
];
const roadM = (from: { lat: number; lng: number }, to: LatLng) => gcM([from.lat, from.lng], to) * ROAD_FACTOR;
/** Truck hours of a short road leg: car at 90 km/h x 1.2 = 75 km/h, no rest below 9 h. */
const roadHours = (m: number) => m / 1000 / TRUCK_KMH;
const railHours = (m: number) => m / 1000 / RAIL_SPEED_KMH;
/** Durations are whole seconds: compare them with exact hours to the second. */
const expectSeconds = (d: { seconds: number }, hours: number, slack = 1) =>
  expect(Math.abs(d.seconds - hours * 3600)).toBeLessThanOrEqual(slack);

let rail: RailPlanner;
let road: RoadRoutePlanner;
let railheadCount = 0;
beforeAll(async () => {
  const graph = buildRailGraph(dropRepeatedDuplicates(railLines(FEATURES)).kept);
  const graphBytes = encodeGraph(railGraphSpec(graph), "tiny-rail");
  const heads = snapRailheads(collectRailPlaces([UNLOCODE_CSV]), graph);
  railheadCount = heads.length;
  expect(heads.find((h) => h.locode === "XAPG")!.snapKm).toBeCloseTo(20, 3);
  const nodes: RoadNode[] = [];
  const named = (name: string, p: LatLng) => {
    if (!nodes.some((n) => n.name === name)) nodes.push(roadNode(name, p[0], p[1]));
    return name;
  };
  const ends = ROAD_LINKS.map(
    ([d, t]) => [named(d.name, [d.lat, d.lng]), named(`T${t.join(",")}`, t)] as const,
  );
  const link = roadLinker(nodes);
  // No ferry among the access roads: the road planner loads a graph without crossings.
  const tiny = await tinyRoadPlanner(
    nodes,
    ends.map(([a, b], i) => link(a, b, "road", roadM(ROAD_LINKS[i]![0], ROAD_LINKS[i]![1]))),
  );
  road = { plan: async (req) => tiny.planner.plan(req) };
  rail = RailPlanner.fromBytes(
    tiny.planner.wasm,
    graphBytes,
    encodeRailheads(heads, { railheads: heads.length }, "tiny-rail"),
    { graph: "tiny/rail.graph", railheads: "tiny/railheads.bin" },
  );
});

const locodes = (c: Chain<unknown>) => {
  const s = c.sections.find((x) => x.transport_mode === "RAIL")!;
  return [(s.from as { locode: string }).locode, (s.to as { locode: string }).locode];
};

describe("railhead choice and pairing", () => {
  test("a side offers at most three railheads, one per track node, nearest first", () => {
    // In reach of O: A1 11 km, A2 22 km, A4 40 km (routes from A2's node: dropped), A5 111 km, A3 113 km.
    expect(rail.candidates(O).map((c) => [c.terminal.locode, Math.round(c.km)])).toEqual([
      ["XAA1", 11],
      ["XAA2", 22],
      ["XAA5", 111],
    ]);
    expect(railheadCount).toBe(PLACES.length - 1);
  });

  // Rail km from the map: every pairing leaves by the fast line.
  const fast = trackM(...FAST);
  const connA = trackM(A1, A2);
  const connB = trackM(B1, B2);
  test.each([
    // route first, then the alternatives fastest first; A5's pairings (3 more) fall outside the three shown.
    ["XAA2", "XAB2", A2, B2, fast],
    ["XAA1", "XAB2", A1, B2, connA + fast],
    ["XAA2", "XAB1", A2, B1, fast + connB],
    ["XAA1", "XAB1", A1, B1, connA + fast + connB],
  ] as const)("O -> D pairing %s -> %s", async (from, to, ta, tb, railM) => {
    const plan = await rail.plan({ from: O, to: D }, road);
    const all = [plan.route, ...plan.alternatives];
    expect(all.map(locodes)).toEqual([
      ["XAA2", "XAB2"],
      ["XAA1", "XAB2"],
      ["XAA2", "XAB1"],
      ["XAA1", "XAB1"],
    ]);
    const c = all.find((x) => locodes(x).join() === `${from},${to}`)!;
    checkChain(c);
    expect(c.transport_modes).toEqual(["ROAD", "RAIL", "ROAD"]);
    const [pre, mid, post] = c.sections;
    expect(Math.abs(mid!.distance.meters - railM)).toBeLessThanOrEqual(1);
    expectSeconds(mid!.duration, railHours(railM));
    expect(Math.abs(pre!.distance.meters - roadM(O, ta))).toBeLessThanOrEqual(1);
    expect(Math.abs(post!.distance.meters - roadM(D, tb))).toBeLessThanOrEqual(1);
    expectSeconds(
      c.summary.duration,
      roadHours(roadM(O, ta)) + railHours(railM) + roadHours(roadM(D, tb)) + 24,
      2,
    );
  });

  test("the fastest pairing wins even though both its railheads are the farther ones", async () => {
    const { route, alternatives } = await rail.plan({ from: O, to: D }, road);
    for (const alt of alternatives)
      expect(alt.summary.duration.hours).toBeGreaterThan(route.summary.duration.hours);
    expect(rail.candidates(O)[0]!.terminal.locode).toBe("XAA1");
    expect(rail.candidates(D)[0]!.terminal.locode).toBe("XAB1");
    expect((await rail.plan({ from: O, to: D, alternatives: false }, road)).alternatives).toEqual([]);
  });
});

describe("the railhead gap: a chain runs through the railhead's own track point", () => {
  // PG's place is 20 km off the track; it meets the track at (20, 1), an intermediate point of the
  // edge G1-G2, 1 degree from G1 and 3 from G2.
  test.each([
    ["X -> Y: both railheads on one edge, straight along it", X, Y, TG, TH, trackM(TG, [20, 2], TH)],
    [
      "X -> PK: out by the edge's far end",
      X,
      door("PK", PK),
      TG,
      PK,
      trackM(...GAP_EDGE.slice(1), [20, 5], PK),
    ],
    [
      "PK -> X: the same track backwards",
      door("PK", PK),
      X,
      PK,
      TG,
      trackM(...GAP_EDGE.slice(1), [20, 5], PK),
    ],
  ] as const)("%s", async (_, from, to, ta, tb, railM) => {
    const { route } = await rail.plan({ from, to, path: true }, road);
    checkChain(route);
    const r = route.sections.find((s) => s.transport_mode === "RAIL")!;
    expect([r.from, r.to].map((p) => [(p as { lat: number }).lat, (p as { lng: number }).lng])).toEqual([
      ta,
      tb,
    ]);
    expect(Math.abs(r.distance.meters - railM)).toBeLessThanOrEqual(1);
    expectSeconds(r.duration, railHours(railM));
    // The road leg ends (or starts) at the track point and is as long as its link.
    for (const s of route.sections.filter((x) => x.transport_mode === "ROAD")) {
      const end = s.from === r.to ? to : from;
      const terminal = s.from === r.to ? tb : ta;
      expect(Math.abs(s.distance.meters - roadM(end, terminal))).toBeLessThanOrEqual(1);
    }
    // The drawn line follows the track from point to point.
    const line = r.path as LatLng[];
    expect(line[0]).toEqual(ta);
    expect(line.at(-1)).toEqual(tb);
    expect(polylineM(line.flat())).toBeCloseTo(railM, 3);
  });

  test("X -> PK leaves X's edge at G2, not at G1 (the end nearer X's point along the track)", async () => {
    const { route } = await rail.plan({ from: X, to: door("PK", PK), path: true }, road);
    const line = route.sections.find((s) => s.transport_mode === "RAIL")!.path;
    expect(line).toEqual([TG, [20, 2], TH, G2, [20, 5], PK]);
    const expected = roadM(X, TG) + trackM(...GAP_EDGE.slice(1), [20, 5], PK);
    expect(Math.abs(route.summary.distance.meters - expected)).toBeLessThanOrEqual(1);
  });
});

describe("railhead access limit", () => {
  test.each([
    [149, ["XAPR"]],
    [151, []],
  ] as const)("a door %d km north of R: railheads in reach %p", (km, expected) => {
    const c = rail.candidates(door("N", north(R, km)));
    expect(c.map((x) => x.terminal.locode)).toEqual([...expected]);
    for (const x of c) expect(x.km).toBeLessThanOrEqual(RAIL_ACCESS_MAX_KM);
  });

  test("149 km: road 149 km x 1.3 to R, rail to S, a door at S takes no road leg", async () => {
    const { route } = await rail.plan({ from: N149, to: door("S", S) }, road);
    checkChain(route);
    expect(route.transport_modes).toEqual(["ROAD", "RAIL"]);
    expect(Math.abs(route.sections[0]!.distance.meters - 149_000 * ROAD_FACTOR)).toBeLessThanOrEqual(1);
    expect(Math.abs(route.sections[1]!.distance.meters - trackM(R, [30, 1], S))).toBeLessThanOrEqual(1);
    expect(route.transfers.map((t) => [t.from_mode, t.to_mode, t.hours])).toEqual([
      ["ROAD", "RAIL", 12],
      ["RAIL", null, 12],
    ]);
  });

  test("151 km: no_route naming the origin and the 150 km limit", async () => {
    const err = await rail.plan({ from: N151, to: door("S", S) }, road).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EngineError);
    expect((err as EngineError).code).toBe("no_route");
    expect((err as Error).message).toBe(
      "No rail route: origin N151 has no railhead within 150 km (rail access limit).",
    );
  });
});

describe("ferries, components and handling", () => {
  const ferryM = trackM(...FERRY);
  const landM = trackM(F1, F2) + trackM(F3, F4);

  test("a railroad ferry joins the island line: its km count, at the ferry's own speed", async () => {
    const { route } = await rail.plan({ from: door("F1", F1), to: door("F4", F4) }, road);
    checkChain(route);
    expect(route.transport_modes).toEqual(["RAIL"]);
    const s = route.sections[0]!;
    expect(Math.abs(s.distance.meters - (landM + ferryM))).toBeLessThanOrEqual(1);
    expectSeconds(s.duration, railHours(landM) + ferryM / 1000 / FERRY_KMH);
    // Slower than the same km all at 30 km/h.
    expect(s.duration.seconds).toBeGreaterThan(railHours(landM + ferryM) * 3600 + 60);
    expect(route.transfers.map((t) => [t.from_mode, t.to_mode, t.hours])).toEqual([
      [null, "RAIL", 12],
      ["RAIL", null, 12],
    ]);
    expect(route.summary.duration.seconds).toBe(s.duration.seconds + 24 * 3600);
  });

  test("handling=false keeps the transfers, at 0 h; km and moving hours stay", async () => {
    const on = (await rail.plan({ from: O, to: D }, road)).route;
    const off = (await rail.plan({ from: O, to: D, handling: false }, road)).route;
    checkChain(off);
    expect(off.transfers.map((t) => [t.from_mode, t.to_mode, t.hours])).toEqual([
      ["ROAD", "RAIL", 0],
      ["RAIL", "ROAD", 0],
    ]);
    expect(off.summary.handling_hours).toBe(0);
    expect(on.summary.handling_hours).toBe(24);
    expect(off.summary.distance).toEqual(on.summary.distance);
    expect(off.summary.moving_hours).toBe(on.summary.moving_hours);
    expect(off.summary.duration.hours).toBeCloseTo(on.summary.duration.hours - 24, 9);
  });

  test.each([
    ["two rail networks not joined", door("F1", F1), door("I1", I1), /not connected by rail/],
    [
      "both ends served by the same railhead",
      X,
      door("X2", north(TG, 30)),
      /both ends are served by the same railhead \(XAPG PG\); use mode ROAD/,
    ],
    ["a destination with no railhead in reach", O, door("Sea", [0, -30]), /destination Sea has no railhead/],
  ] as const)("%s: no_route", async (_, from, to, message) => {
    const err = await rail.plan({ from, to }, road).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EngineError);
    expect((err as EngineError).code).toBe("no_route");
    expect((err as Error).message).toMatch(message);
  });
});
