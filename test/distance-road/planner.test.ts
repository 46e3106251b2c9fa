/**
 * The road planner over a hand-made road network, through the real pipeline: RoadNode/RoadLink
 * table -> buildRoadGraph -> encodeGraph -> the real router.wasm -> RoadPlanner. Lengths and
 * speeds are chosen so the truck rule's edges are exact: 675 km at 90 km/h car = 7.5 h car =
 * 9 h truck driving.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { haversineM } from "../../common/geo.ts";
import type { RoadLink } from "../../data-build/road/network.ts";
import { type RoadPlanner, renderRoadChain } from "../../engine/road/planner.ts";
import { roadNode as node, roadLinker, tinyRoadPlanner } from "../support/tiny-road.ts";

const NODES = [
  node("A", 0, 0),
  node("B", 0, 6),
  node("C", 0, 6.5),
  node("D", 1, 7), // island: ferry terminal
  node("E", 1.5, 7), // island town
  node("F", -5, 20), // second island, joined only by a ferry without trucks
  node("G", -5, 20.5),
  node("H", 10, 40), // an island without any link
  node("B2", 0, 6.01),
];
const ix = (name: string) => NODES.findIndex((n) => n.name === name);

/** Links at 75 km/h truck = 90 km/h car (the network stores truck speed; the graph stores car speed). */
const link = roadLinker(NODES);

const ferryLen = haversineM(0, 6, 1, 7);
const LINKS: RoadLink[] = [
  link("A", "B", "road", 675_000),
  link("B", "C", "road", 60_000),
  link("B", "B2", "road", 1_500),
  link("B", "D", "ferry", ferryLen, {
    crossingHours: 4,
    speedKmh: ferryLen / 1000 / 4,
    name: "B-D ferry",
    factor: 1,
  }),
  link("D", "E", "road", 60_000),
  // The long way round to the island: slower than the ferry, so only the no-ferry alternative takes it.
  link("C", "E", "road", 400_000),
  link("C", "F", "ferry", haversineM(0, 6.5, -5, 20), {
    crossingHours: 10,
    carriesTruck: false,
    name: "passenger ferry",
    factor: 1,
  }),
  link("F", "G", "road", 60_000),
];

let planner: RoadPlanner;
beforeAll(async () => {
  const tiny = await tinyRoadPlanner(NODES, LINKS);
  expect(tiny.stats.droppedNonTruck).toBe(1);
  expect(tiny.stats.ferries).toBe(1);
  planner = tiny.planner;
});

const at = (name: string) => ({ lat: NODES[ix(name)]!.lat, lng: NODES[ix(name)]!.lng, name });

describe("truck time through the planner", () => {
  test("exactly 9 h of driving: no rest", () => {
    const r = planner.plan({ from: at("A"), to: at("B") }).route;
    expect(r.distance_m).toBeCloseTo(675_000, 0);
    expect(r.car_seconds).toBeCloseTo(7.5 * 3600, 3);
    expect(r.driving_hours).toBeCloseTo(9, 9);
    expect(r.rest_hours).toBe(0);
    expect(r.hours).toBeCloseTo(9, 9);
    expect(r.ferry_paths).toEqual([]);
  });

  test("9 h and a minute of driving: one 11 h rest", () => {
    const r = planner.plan({ from: at("A"), to: at("B2") }).route;
    expect(r.driving_hours).toBeCloseTo((676.5 / 90) * 1.2, 9);
    expect(r.driving_hours).toBeGreaterThan(9);
    expect(r.rest_hours).toBe(11);
    expect(r.hours).toBeCloseTo(r.driving_hours + 11, 9);
  });

  test("a longer drive: 9.8 h driving, one rest", () => {
    const r = planner.plan({ from: at("A"), to: at("C") }).route;
    expect(r.driving_hours).toBeCloseTo(9.8, 9);
    expect(r.rest_hours).toBe(11);
    expect(r.hours).toBeCloseTo(20.8, 9);
  });
});

describe("two points on one node", () => {
  // Both 0.3 degrees (~33 km) south of A, 2 km apart: through A is a ~67 km detour.
  const p = { lat: -0.3, lng: 0, name: "quay" };
  const q = { lat: -0.3, lng: 0.018, name: "town" };

  test("drive straight to each other, great circle x circuity, path from point to point", () => {
    const r = planner.plan({ from: p, to: q, path: true }).route;
    const direct = haversineM(p.lat, p.lng, q.lat, q.lng);
    expect(r.distance_m).toBeGreaterThanOrEqual(direct);
    expect(r.distance_m).toBeLessThan(2 * direct);
    expect(r.path).toEqual([
      [p.lat, p.lng],
      [q.lat, q.lng],
    ]);
  });

  test("points on different nodes still go through the network", () => {
    const r = planner.plan({ from: p, to: at("B") }).route;
    expect(r.distance_m).toBeGreaterThan(675_000);
  });
});

describe("ferries", () => {
  test("a crossing counts its listed hours, unscaled, and is listed in ferry_paths", () => {
    const plan = planner.plan({ from: at("A"), to: at("E"), alternatives: true });
    const r = plan.route;
    expect(r.distance_m).toBeCloseTo(675_000 + ferryLen + 60_000, 0);
    expect(r.ferry_hours).toBeCloseTo(4, 4);
    // Driving = road car time x 1.2 only: (675 + 60) km / 90 km/h x 1.2.
    expect(r.driving_hours).toBeCloseTo(9.8, 4);
    expect(r.rest_hours).toBe(11);
    expect(r.hours).toBeCloseTo(9.8 + 4 + 11, 4);
    expect(r.ferry_paths).toEqual([
      [
        [0, 6],
        [1, 7],
      ],
    ]);
    expect(r.crossings).toEqual([
      { name: "B-D ferry", kind: "ferry", hours: 4, km: Math.round(ferryLen / 100) / 10 },
    ]);
    // The alternative avoids the ferry: the long road round.
    expect(plan.alternatives).toHaveLength(1);
    const alt = plan.alternatives[0]!;
    expect(alt.label).toBe("Road avoiding ferries");
    expect(alt.ferry_paths).toEqual([]);
    expect(alt.distance_m).toBeCloseTo(675_000 + 60_000 + 400_000, 0);
    expect(alt.driving_hours).toBeCloseTo((1135 / 90) * 1.2, 4);
  });

  test("the other way the ferry line runs the other way", () => {
    const r = planner.plan({ from: at("E"), to: at("A") }).route;
    expect(r.ferry_paths).toEqual([
      [
        [1, 7],
        [0, 6],
      ],
    ]);
    expect(r.hours).toBeCloseTo(9.8 + 4 + 11, 4);
  });

  test("the chain: one ROAD section whose figures are the summary's, ferry lines included", () => {
    const r = planner.plan({ from: at("A"), to: at("E"), path: true }).route;
    const chain = renderRoadChain(r, "A", "E");
    expect(chain.transport_modes).toEqual(["ROAD"]);
    expect(chain.sections).toHaveLength(1);
    const s = chain.sections[0]!;
    expect(s.distance).toEqual(chain.summary.distance);
    expect(s.duration.seconds).toBe(chain.summary.duration.seconds);
    expect(chain.summary.duration.hours).toBeCloseTo(
      chain.summary.moving_hours + chain.summary.handling_hours,
      9,
    );
    expect(s.ferry_paths).toEqual(r.ferry_paths);
    expect(s.driving_hours).toBeCloseTo(9.8, 2);
    expect(chain.summary.cost_index).toBeCloseTo((r.distance_m / 1000) * 0.006, 3);
    expect(s.source).toBe("model");
    expect(String(s.attribution)).toContain(
      "road distances come from a model unless an engine is set".replace(/^r/, "R"),
    );
    expect(s.path![0]).toEqual([0, 0]);
    expect(s.path!.at(-1)).toEqual([1.5, 7]);
  });
});

describe("no route", () => {
  test("an island joined only by a ferry that carries no trucks", () => {
    expect(() => planner.plan({ from: at("A"), to: at("G") })).toThrow(/no road route between A and G/);
    try {
      planner.plan({ from: at("A"), to: at("G") });
    } catch (err) {
      expect((err as { code: string }).code).toBe("no_route");
    }
  });

  test("an island without any link names the place", () => {
    expect(() => planner.plan({ from: at("H"), to: at("A") })).toThrow(/H has no road link to anywhere/);
  });

  test("a point more than 300 km from every node", () => {
    expect(() => planner.plan({ from: { lat: 0, lng: -5, name: "Far Away" }, to: at("A") })).toThrow(
      /Far Away is \d+ km from the nearest road node \(limit 300 km\)/,
    );
  });

  test("bad coordinates are invalid_request", () => {
    try {
      planner.plan({ from: { lat: 91, lng: 0 }, to: at("A") });
      throw new Error("no error");
    } catch (err) {
      expect((err as { code: string }).code).toBe("invalid_request");
    }
  });
});
