/**
 * The river planner over a tiny hand-made river map, river ports, seasonal rules and access roads,
 * through the real pipeline (encodeGraph, the artifact encoders, the real router.wasm,
 * RiverPlanner, the road planner for access legs). Expected river figures come from the
 * contract's formula (map.ts riverSeconds), never from the router.
 *
 *   A ===main river (flows A -> B, 2 km/h, class Vb)=== M ===(rule CLO1)=== B
 *    \______________ canal (class Va, slack water, 2 locks) ______________/
 *   D ===(rule CLO2: the only reach)=== E          F === G  (joined to nothing else)
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { parseSeasonalRules } from "../../data-build/river/seasonal-calendar.ts";
import type { RoadNode } from "../../data-build/road/network.ts";
import { EngineError } from "../../engine/errors.ts";
import { RIVER } from "../../engine/modes/river.ts";
import { RiverPlanner } from "../../engine/river/planner.ts";
import type { RoadRoutePlanner } from "../../engine/road/planner.ts";
import { encodeRiverPorts } from "../../formats/river-ports.ts";
import { encodeRiverRules } from "../../formats/river-rules.ts";
import { checkChain } from "../support/chain.ts";
import { roadLinker, roadNode, routerWasm, tinyRoadPlanner } from "../support/tiny-road.ts";
import { encodeRiver, type LatLng, type Reach, reachM, riverSeconds } from "./map.ts";

const NODES: LatLng[] = [
  [0, 0], // 0 A
  [0, 1], // 1 M
  [0, 2], // 2 B
  [0.6, 1], // 3 canal midpoint
  [5, 0], // 4 D
  [5, 1], // 5 E
  [10, 0], // 6 F
  [10, 0.5], // 7 G
  [15, 0], // 8 H
  [15, 1], // 9 I
];
const WATERWAYS = [
  { name: "", class: "" },
  { name: "Main River", class: "Vb" },
  { name: "Side Canal", class: "Va" },
  { name: "East River", class: "IV" },
  { name: "Lone River", class: "IV" },
];
const RULES_JSON = JSON.stringify(
  ["CLO1", "CLO2", "LOW1"].map((id) => ({
    id,
    type: id.startsWith("CLO") ? "ice_closure" : "low_water",
    waterway: "Main River",
    segment: id,
    typical_window: "January",
    effect: "test rule",
    sources: ["https://example.org/rules"],
  })),
);
const CALENDAR = `id,kind,from,to,time_factor,basis
CLO1,closure,01-01,01-31,,test
CLO2,closure,01-01,01-31,,test
LOW1,low_water,07-01,07-31,1.5,test
`;
const REACHES: Reach[] = [
  { from: 0, to: 1, speedKmh: 12.5, current: 2, cls: 6, waterway: 1, rules: [2] },
  { from: 1, to: 2, speedKmh: 12.5, current: 2, cls: 6, waterway: 1, rules: [0] },
  { from: 0, to: 3, speedKmh: 10, current: 0, cls: 5, waterway: 2, locks: 1 },
  { from: 3, to: 2, speedKmh: 10, current: 0, cls: 5, waterway: 2, locks: 1 },
  { from: 4, to: 5, speedKmh: 12.5, current: 0, cls: 4, waterway: 3, rules: [1] },
  { from: 6, to: 7, speedKmh: 12.5, current: 0, cls: 4, waterway: 4 },
  // Only uncurated water (waterway 0, class 0) joins H and I: 111 km, more than a connector.
  { from: 8, to: 9, speedKmh: 12.5, current: 0, cls: 0, waterway: 0 },
];
const port = (locode: string, node: number) => ({
  locode,
  name: `Port ${locode}`,
  country: "XA",
  lat: NODES[node]![0],
  lng: NODES[node]![1],
  node,
  snapKm: 0,
  source: "unlocode" as const,
  harbour: "",
  geocoded: false,
});
const PORTS = [
  port("XAAAA", 0),
  port("XABBB", 2),
  port("XADDD", 4),
  port("XAEEE", 5),
  port("XAGGG", 7),
  port("XAHHH", 8),
  port("XAIII", 9),
];

// Doors 0.05 degrees (5.6 km) north of each port, a road from each door to its port, and roads
// between the doors of each system (the fallback when the river is closed).
const ROAD_NODES: RoadNode[] = [
  roadNode("doorA", 0.05, 0),
  roadNode("portA", 0, 0),
  roadNode("doorB", 0.05, 2),
  roadNode("portB", 0, 2),
  roadNode("doorD", 5.05, 0),
  roadNode("portD", 5, 0),
  roadNode("doorE", 5.05, 1),
  roadNode("portE", 5, 1),
  roadNode("doorG", 10.05, 0.5),
  roadNode("portG", 10, 0.5),
  roadNode("doorH", 15.05, 0),
  roadNode("portH", 15, 0),
  roadNode("doorI", 15.05, 1),
  roadNode("portI", 15, 1),
];
const link = roadLinker(ROAD_NODES);
const ROAD_LINKS = [
  link("doorA", "portA", "road", 7000),
  link("doorB", "portB", "road", 7000),
  link("doorA", "doorB", "road", 260_000),
  link("doorD", "portD", "road", 7000),
  link("doorE", "portE", "road", 7000),
  link("doorD", "doorE", "road", 130_000),
  link("doorG", "portG", "road", 7000),
  link("doorH", "portH", "road", 7000),
  link("doorI", "portI", "road", 7000),
];
const door = (name: string) => {
  const n = ROAD_NODES.find((x) => x.name === name)!;
  return { lat: n.lat, lng: n.lng, name };
};

let river: RiverPlanner;
let road: RoadRoutePlanner;
beforeAll(async () => {
  const wasm = await routerWasm();
  const rules = parseSeasonalRules(RULES_JSON, CALENDAR);
  river = RiverPlanner.fromBytes(wasm, {
    graph: encodeRiver(NODES, REACHES, WATERWAYS, rules),
    ports: encodeRiverPorts(PORTS, [], {}, "tiny-river"),
    rules: encodeRiverRules(rules, "tiny-river"),
  });
  const { planner } = await tinyRoadPlanner(ROAD_NODES, ROAD_LINKS, wasm);
  road = { plan: async (r) => planner.plan(r) };
});

const reach = (i: number) => reachM(NODES, REACHES[i]!);
type Section = {
  transport_mode: string;
  duration: { seconds: number };
  distance: { meters: number };
} & Record<string, unknown>;
const riverSection = (c: { sections: unknown[] }) =>
  (c.sections as Section[]).find((s) => s.transport_mode === "RIVER")!;

describe("river chains on a tiny map", () => {
  test("downstream A -> B rides the main river with the current; upstream B -> A is slower", async () => {
    const down = await river.plan({ from: door("doorA"), to: door("doorB"), date: "2026-06-01" }, road);
    const up = await river.plan({ from: door("doorB"), to: door("doorA"), date: "2026-06-01" }, road);
    for (const p of [down, up]) checkChain(p.route);
    const d = riverSection(down.route);
    const u = riverSection(up.route);
    expect(down.route.label).toBe("River");
    expect(down.route.transport_modes).toEqual(["ROAD", "RIVER", "ROAD"]);
    expect(d.distance.meters).toBe(Math.round(reach(0) + reach(1)));
    const downS = riverSeconds(reach(0) + reach(1), 12.5, 2);
    const upS = riverSeconds(reach(0) + reach(1), 12.5, -2);
    expect(d.duration.seconds).toBe(Math.round(downS));
    expect(u.duration.seconds).toBe(Math.round(upS));
    expect(d.current).toEqual({
      downstream_km: Math.round((reach(0) + reach(1)) / 100) / 10,
      upstream_km: 0,
      slack_water_km: 0,
    });
    expect((u.current as { upstream_km: number }).upstream_km).toBeGreaterThan(0);
    expect(d.waterways).toEqual([
      { name: "Main River", km: Math.round((reach(0) + reach(1)) / 100) / 10, class: "Vb" },
    ]);
    expect(d.locks).toBe(0);
    expect(d.attribution).toContain("Natural Earth");
    expect(down.route.transfers.map((t) => t.hours)).toEqual([RIVER.handlingHours, RIVER.handlingHours]);
    expect(down.seasonal_notes).toEqual([]);
    expect(down.date).toBe("2026-06-01");
  });

  test("a closure on the main river forces the canal (locks counted) and says detour", async () => {
    const p = await river.plan({ from: door("doorA"), to: door("doorB"), date: "2026-01-15" }, road);
    checkChain(p.route);
    const s = riverSection(p.route);
    expect(s.distance.meters).toBe(Math.round(reach(2) + reach(3)));
    expect(s.locks).toBe(2);
    expect(s.lock_hours).toBe(1.5);
    expect(s.duration.seconds).toBe(Math.round(riverSeconds(reach(2) + reach(3), 10, 0) + 2 * 0.75 * 3600));
    expect(p.seasonal_notes).toEqual([
      expect.objectContaining({ id: "CLO1", kind: "closure", effect: "detour", reopens_about: "2026-02-01" }),
    ]);
    expect(p.seasonal_notes[0]!.km).toBeCloseTo(reach(1) / 1000, 1);
  });

  test("seasonal=false ignores the closure", async () => {
    const p = await river.plan(
      { from: door("doorA"), to: door("doorB"), date: "2026-01-15", seasonal: false },
      road,
    );
    expect(riverSection(p.route).distance.meters).toBe(Math.round(reach(0) + reach(1)));
    expect(p.seasonal_notes).toEqual([]);
  });

  test("low water multiplies the time on its stretch only, and is listed on the section", async () => {
    const p = await river.plan({ from: door("doorA"), to: door("doorB"), date: "2026-07-10" }, road);
    const s = riverSection(p.route);
    const expected = riverSeconds(reach(0), 12.5, 2, 1.5) + riverSeconds(reach(1), 12.5, 2);
    expect(s.duration.seconds).toBe(Math.round(expected));
    expect(s.seasonal).toEqual([
      expect.objectContaining({ id: "LOW1", kind: "low_water", time_factor: 1.5, effect: "slower" }),
    ]);
    expect(p.seasonal_notes.map((n) => n.id)).toEqual(["LOW1"]);
  });

  test("a closure leaving no river route falls back to the road chain with a no_route note", async () => {
    const p = await river.plan({ from: door("doorD"), to: door("doorE"), date: "2026-01-15" }, road);
    expect(p.route.label).toBe("Road");
    expect(p.route.transport_modes).toEqual(["ROAD"]);
    checkChain(p.route);
    expect(p.seasonal_notes).toEqual([
      expect.objectContaining({
        id: "CLO2",
        kind: "closure",
        effect: "no_route",
        reopens_about: "2026-02-01",
      }),
    ]);
    const open = await river.plan({ from: door("doorD"), to: door("doorE"), date: "2026-03-01" }, road);
    expect(open.route.label).toBe("River");
  });

  test("handling=false keeps the transfers at 0 h", async () => {
    const p = await river.plan(
      { from: door("doorA"), to: door("doorB"), date: "2026-06-01", handling: false },
      road,
    );
    expect(p.route.transfers.map((t) => t.hours)).toEqual([0, 0]);
    checkChain(p.route);
  });

  test.each([
    ["ports not joined by water", "doorA", "doorG", /not joined by navigable water/],
    ["ports joined only by 111 km of uncurated water", "doorH", "doorI", /not joined by navigable water/],
    ["no river port within 150 km", "doorA", null, /no river port within 150 km/],
    ["the same river port on both sides", "doorA", "portA", /same river port/],
  ])("%s: no_route", async (_name, a, b, why) => {
    const to = b === null ? { lat: 20, lng: 20, name: "nowhere" } : door(b);
    try {
      await river.plan({ from: door(a), to, date: "2026-06-01" }, road);
      throw new Error("planned");
    } catch (e) {
      expect(e).toBeInstanceOf(EngineError);
      expect((e as EngineError).code).toBe("no_route");
      expect((e as Error).message).toMatch(why);
    }
  });
});
