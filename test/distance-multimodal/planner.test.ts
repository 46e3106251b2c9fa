/**
 * The door-to-door planner over the tiny world (world.ts), through the real router.wasm: every
 * chain type, the Sea chain's port pairing and inland legs, the Sea + River drop rules triggered
 * and not, pol/pod, modes, handling, ordering, the seasonal closure and the estimated flag.
 * Expected figures come from the map (road km = great circle x 1.3, sea km = the lane's own
 * segments, handling = the spec's hours per terminal), never from the planner.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { haversineM } from "../../common/geo.ts";
import type { Chain, TransportMode } from "../../engine/chain.ts";
import { EngineError, type EngineErrorCode } from "../../engine/errors.ts";
import { MODES } from "../../engine/modes/index.ts";
import type { MultimodalRequest, Optimize, Place } from "../../engine/multimodal/options.ts";
import { compareChains, measure } from "../../engine/multimodal/order.ts";
import type { MultimodalPlan } from "../../engine/multimodal/planner.ts";
import { roadConfig } from "../../engine/road/config.ts";
import { roadEngine } from "../../engine/road/external.ts";
import { ExternalRoadPlanner } from "../../engine/road/planner.ts";
import { checkChain } from "../support/chain.ts";
import { AT, door, mainPort, type Name, roadKm, tinyWorld, type World } from "./world.ts";

const SUMMER = "2026-06-15";
const WINTER = "2026-01-15";

let w: World;
beforeAll(async () => {
  w = await tinyWorld();
});

type Request = Omit<MultimodalRequest<Place>, "from" | "to">;
const plan = (from: Place, to: Place, opts: Request = {}) =>
  w.planner.plan({ from, to, date: SUMMER, ...opts }, w.road);
const all = (p: MultimodalPlan) => [p.route, ...p.alternatives];
const labels = (p: MultimodalPlan) => [...new Set(all(p).map((c) => c.label))].sort();
const stop = (x: unknown) => x as Place;
const names = (c: Chain<Place>) =>
  c.sections.map((s) => `${s.transport_mode}:${stop(s.from).name}>${stop(s.to).name}`);
const transfers = (c: Chain<Place>) =>
  c.transfers.map((t) => [stop(t.at).name, t.from_mode, t.to_mode, t.hours]);
/** Km of the sea lane between two lane nodes (lng a..b at lat -1): the sum of its segments. */
const laneKm = (a: number, b: number) => {
  let m = 0;
  for (let i = a; i < b; i++) m += haversineM(-1, i, -1, i + 1);
  return m / 1000;
};
const rejects = async (p: Promise<unknown>, code: EngineErrorCode, message?: RegExp) => {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(EngineError);
  expect((err as EngineError).code).toBe(code);
  if (message) expect((err as EngineError).message).toMatch(message);
};

describe("chain types", () => {
  test.each([
    // O -> D: the barge is cheapest (RIVER 1.8 per km), every type is found.
    ["O", "D", "River", ["Air", "Rail", "River", "Road", "Sea"]],
    // D2 has no river port in reach: no River chain, and the barge to the sea then the ship wins.
    ["O", "D2", "Sea + River", ["Air", "Road", "Sea", "Sea + River"]],
  ] as const)("%s -> %s: route %s, chains %p", async (a, b, route, types) => {
    const p = await plan(door(a), door(b));
    expect(p.route.label).toBe(route);
    expect(labels(p)).toEqual([...types]);
    for (const c of all(p)) checkChain(c);
  });

  test("port to port the Sea chain is the direct sea route: one SEA section, 24 h at each port", async () => {
    const p = await plan(mainPort("W1"), mainPort("E1"), { modes: ["SEA"] });
    expect(p.route.label).toBe("Direct");
    expect(names(p.route)).toEqual(["SEA:Port W1>Port E1"]);
    expect(p.route.sections[0]!.distance.km).toBeCloseTo(laneKm(1, 9), 0);
    expect(transfers(p.route)).toEqual([
      ["Port W1", null, "SEA", 24],
      ["Port E1", "SEA", null, 24],
    ]);
    checkChain(p.route);
  });

  test("Sea chain: road to the nearest port (150 km < 250 km), the lane, road from the port", async () => {
    const p = await plan(door("O"), door("D"));
    const sea = all(p).filter((c) => c.label === "Sea");
    // The best three pairs are routed in full, each a different pair of ports.
    expect(sea.length).toBe(3);
    expect(
      new Set(sea.map((c) => `${stop(c.sections[1]!.from).name}>${stop(c.sections[1]!.to).name}`)).size,
    ).toBe(3);
    const best = sea[0]!;
    expect(names(best)).toEqual(["ROAD:O>Port W1", "SEA:Port W1>Port E1", "ROAD:Port E1>D"]);
    expect(best.sections[0]!.distance.km).toBeCloseTo(roadKm("O", "W1"), 1);
    expect(best.sections[1]!.distance.km).toBeCloseTo(laneKm(1, 9), 0);
    expect(best.sections[1]!.via).toBe("Suez Canal");
    expect(best.sections[2]!.distance.km).toBeCloseTo(roadKm("D", "E1"), 1);
    expect(transfers(best)).toEqual([
      ["Port W1", "ROAD", "SEA", 24],
      ["Port E1", "SEA", "ROAD", 24],
    ]);
  });

  test("River chain: road to the river port, barge along the West River and the Long Canal, road", async () => {
    const p = await plan(door("O"), door("D"));
    expect(names(p.route)).toEqual([
      "ROAD:O>River port RPO",
      "RIVER:River port RPO>River port RPD",
      "ROAD:River port RPD>D",
    ]);
    const bargeKm = (haversineM(...AT.RPO, ...AT.BEND) + haversineM(...AT.BEND, ...AT.RPD)) / 1000;
    expect(p.route.sections[1]!.distance.km).toBeCloseTo(bargeKm, 0);
    expect(transfers(p.route).map((t) => t[3])).toEqual([18, 18]);
  });

  test("Sea + River: barge down to the river mouth, sea to the port nearest D2, road; 18 h, 24 h, 24 h", async () => {
    const p = await plan(door("O"), door("D2"));
    expect(names(p.route)).toEqual([
      "ROAD:O>River port RPO",
      "RIVER:River port RPO>West River mouth",
      "SEA:West River mouth>Port E2",
      "ROAD:Port E2>D2",
    ]);
    // The ship leaves the lane node off the mouth: lane lng 3 -> 10, plus the mouth's gap to it.
    const gapKm = haversineM(...AT.GW, -1, 3) / 1000;
    expect(p.route.sections[2]!.distance.km).toBeCloseTo(laneKm(3, 10) + gapKm, 0);
    expect(p.route.sections[1]!.current).toMatchObject({ upstream_km: 0 });
    expect(transfers(p.route)).toEqual([
      ["River port RPO", "ROAD", "RIVER", 18],
      ["West River mouth", "RIVER", "SEA", 24],
      ["Port E2", "SEA", "ROAD", 24],
    ]);
  });

  test("inland legs above 250 km go by rail when RAIL is allowed, else by road", async () => {
    // F is 372 km from W1, its nearest port.
    expect(haversineM(...AT.F, ...AT.W1) / 1000).toBeGreaterThan(250);
    const withRail = (await plan(door("F"), door("D"))).route;
    expect(withRail.label).toBe("Sea");
    expect(names(withRail).slice(0, 4)).toEqual([
      "ROAD:F>RF",
      "RAIL:RF>RW",
      "ROAD:RW>Port W1",
      "SEA:Port W1>Port E1",
    ]);
    expect(transfers(withRail).map((t) => t[3])).toEqual([12, 12, 24, 24]);
    const byRoad = all(await plan(door("F"), door("D"), { modes: ["SEA", "ROAD"] })).find(
      (c) => c.label === "Sea",
    )!;
    expect(names(byRoad)[0]).toBe("ROAD:F>Port W1");
    expect(byRoad.sections[0]!.distance.km).toBeCloseTo(roadKm("F", "W1"), 1);
  });
});

/** The Sea + River candidates' outcomes: kept, or dropped with the rules that fired. */
const seaRiver = (p: MultimodalPlan) => p.considered.filter((c) => c.rule === "sea_river");

describe("Sea + River drop rules on the map", () => {
  test("no River chain and a short enough detour: nothing fires, the chain is kept", async () => {
    const sr = seaRiver(await plan(door("O"), door("D2")));
    expect(sr.length).toBeGreaterThan(0);
    expect(sr.every((c) => c.outcome === "kept")).toBe(true);
  });

  test("a River chain exists (O -> D): the detour by sea is slower; the longest also over 1.3 x its km", async () => {
    const p = await plan(door("O"), door("D"));
    const river = p.route;
    const sr = seaRiver(p);
    expect(sr.length).toBeGreaterThan(0);
    for (const c of sr) {
      expect(c.outcome).toBe("dropped");
      expect(c.reasons).toContain("not_3pct_faster_than_river");
      // The 1.3 x rule fires exactly when the km say so.
      expect(c.reasons!.includes("over_1.3x_river_km")).toBe(c.km! > 1.3 * river.summary.distance.km);
    }
    expect(sr.some((c) => c.reasons!.includes("over_1.3x_river_km"))).toBe(true);
    expect(sr.some((c) => !c.reasons!.includes("over_1.3x_river_km"))).toBe(true);
  });

  test("Q is 178 km from O: a sea detour of 723 km is over 2.5 x the great circle while the Sea chain exists", async () => {
    // The sea ports are 195-430 km from O and Q by road: Sea chains exist with ROAD allowed.
    const p = await plan(door("O"), door("Q"));
    expect(seaRiver(p).some((c) => c.reasons?.includes("over_2.5x_great_circle"))).toBe(true);
    // The 231 km road is the shortest chain: 1.6 x fires too.
    expect(seaRiver(p).every((c) => c.reasons?.includes("over_1.6x_shortest_without_air"))).toBe(true);
  });

  test("F -> D: rail to W1 and road from RPD are more than half of one candidate; the other is kept", async () => {
    const p = await plan(door("F"), door("D"));
    const sr = seaRiver(p);
    expect(
      sr.some((c) => c.outcome === "dropped" && c.reasons?.join() === "over_half_road_and_rail_access"),
    ).toBe(true);
    expect(sr.some((c) => c.outcome === "kept")).toBe(true);
    expect(labels(p)).toContain("Sea + River");
  });
});

describe("a barge a road serves better is not offered (barge-rule.ts)", () => {
  const barges = (p: MultimodalPlan) =>
    all(p).flatMap((c) => c.sections.filter((s) => s.transport_mode === "RIVER"));

  test("R is 5 km from main port W3: the ship sails from W3, no barge from RPW along the Coast Canal to the mouth", async () => {
    const p = await plan(door("R"), door("D2"));
    // The Coast Canal would take the cargo 100 km away from the port its ship calls at.
    expect(barges(p)).toEqual([]);
    const sea = all(p).find((c) => c.label === "Sea")!;
    expect(names(sea)[0]).toBe("ROAD:R>Port W3");
    expect(sea.sections[0]!.distance.km).toBeCloseTo(roadKm("R", "W3"), 1);
    expect(seaRiver(p)).toEqual([
      expect.objectContaining({ outcome: "dropped", reasons: ["road_to_sea_port_serves_better"] }),
    ]);
  });

  test("G is 5 km from the West River mouth: no 2 km barge from RPG to it", async () => {
    const p = await plan(door("G"), door("D2"));
    expect(barges(p)).toEqual([]);
    expect(seaRiver(p)).toEqual([
      expect.objectContaining({ outcome: "dropped", reasons: ["road_to_gateway_serves_better"] }),
    ]);
    // Without the barge the ship sails from W3, 115 km away by road.
    expect(names(p.route)[0]).toBe("ROAD:G>Port W3");
  });

  test("with the mouth fixed as pol, R's barge from RPW to it is offered: the caller chose not to sail from W3", async () => {
    const mouth: Place = {
      kind: "port",
      name: "West River mouth",
      locode: "XAGWX",
      lat: AT.GW[0],
      lng: AT.GW[1],
    };
    const p = await plan(door("R"), door("D2"), { pol: mouth, modes: ["SEA", "RIVER", "ROAD"] });
    expect(names(p.route).slice(0, 3)).toEqual([
      "ROAD:R>River port RPW",
      "RIVER:River port RPW>West River mouth",
      "SEA:West River mouth>Port E2",
    ]);
  });
});

describe("pol and pod", () => {
  test("pol fixes the port of loading: every chain sails from W2, and only chains with a sea leg remain", async () => {
    const p = await plan(door("O"), door("D"), { pol: mainPort("W2") });
    for (const c of all(p)) {
      expect(c.transport_modes).toContain("SEA");
      expect(stop(c.sections.find((s) => s.transport_mode === "SEA")!.from).locode).toBe("XAW2P");
      checkChain(c);
    }
    expect(p.route.sections[0]!.distance.km).toBeCloseTo(roadKm("O", "W2"), 1);
  });

  test("pod fixes the port of discharge: every sea leg ends at E2", async () => {
    const p = await plan(door("O"), door("D"), { pod: mainPort("E2") });
    for (const c of all(p))
      expect(stop(c.sections.findLast((s) => s.transport_mode === "SEA")!.to).locode).toBe("XAE2P");
    const both = await plan(door("O"), door("D"), { pol: mainPort("W3"), pod: mainPort("E3") });
    expect(both.alternatives).toEqual([]);
    expect(names(both.route)[1]).toBe("SEA:Port W3>Port E3");
  });

  test.each([
    ["an address", door("Q"), {}],
    ["a port far from the sea lanes", { kind: "port", name: "Inland", locode: "XAINL", lat: 5, lng: 5 }, {}],
    ["a sea port while SEA is not allowed", mainPort("W2"), { modes: ["ROAD"] as TransportMode[] }],
  ])("pol as %s is invalid_request", async (_, pol, opts) => {
    await rejects(plan(door("O"), door("D"), { pol, ...opts }), "invalid_request", /pol/);
  });
});

describe("modes", () => {
  // D and O are inland, 195 km and more from any sea port by road: SEA alone (or with RIVER) has
  // no Sea chain between them, as the spec's no_route example says; the River, Rail and Air chains
  // reach their terminals by road as the spec builds them.
  const cases: Array<[TransportMode[], string[]]> = [
    [["SEA"], []],
    [
      ["SEA", "ROAD"],
      ["Road", "Sea"],
    ],
    [["ROAD"], ["Road"]],
    [["RAIL"], ["Rail"]],
    [["AIR"], ["Air"]],
    [["RIVER"], ["River"]],
    [["SEA", "RIVER"], ["River"]],
    [
      ["RAIL", "AIR"],
      ["Air", "Rail"],
    ],
    [
      ["SEA", "ROAD", "RAIL", "AIR", "RIVER"],
      ["Air", "Rail", "River", "Road", "Sea"],
    ],
  ];
  test.each(cases)("modes %p: chains %p; no main leg outside the modes", async (modes, expected) => {
    if (expected.length === 0) {
      await rejects(plan(door("O"), door("D"), { modes }), "no_route", /ROAD is not among the modes/);
      return;
    }
    const p = await plan(door("O"), door("D"), { modes });
    expect(p.transport_modes).toEqual(MODES.filter((m) => modes.includes(m)));
    expect(labels(p)).toEqual(expected);
    for (const c of all(p)) {
      // Without ROAD, road legs are the access legs of a barge, train or flight (docs/multimodal.md).
      for (const [i, s] of c.sections.entries()) {
        if (s.transport_mode !== "ROAD" || modes.includes("ROAD")) expect(modes).toContain(s.transport_mode);
        else
          expect([c.sections[i - 1], c.sections[i + 1]].some((x) => x && x.transport_mode !== "SEA")).toBe(
            true,
          );
      }
      if (!modes.includes("ROAD")) expect(c.label).not.toBe("Road");
    }
  });

  test("unknown mode and optimize are invalid_request", async () => {
    await rejects(
      plan(door("O"), door("D"), { modes: ["BOAT" as TransportMode] }),
      "invalid_request",
      /BOAT/,
    );
    await rejects(plan(door("O"), door("D"), { optimize: "cheapest" }), "invalid_request", /optimize/);
  });
});

describe("handling", () => {
  test.each([
    ["O", "D", { Sea: 48, Rail: 24, River: 36, Air: 24, Road: 0 }],
    ["O", "D2", { "Sea + River": 66 }],
    ["F", "D", { Sea: 72 }],
  ] as const)(
    "%s -> %s: handling per chain %p; handling=false keeps the transfers at 0 h",
    async (a, b, hours) => {
      const on = await plan(door(a as Name), door(b as Name));
      const off = await plan(door(a as Name), door(b as Name), { handling: false });
      for (const [label, h] of Object.entries(hours)) {
        const c = all(on).find((x) => x.label === label)!;
        expect(c.summary.handling_hours).toBe(h);
        const same = all(off).find((x) => x.label === label && names(x).join() === names(c).join())!;
        expect(same.summary.handling_hours).toBe(0);
        expect(same.transfers.map((t) => [t.at, t.from_mode, t.to_mode])).toEqual(
          c.transfers.map((t) => [t.at, t.from_mode, t.to_mode]),
        );
        expect(c.summary.duration.seconds - same.summary.duration.seconds).toBe(h * 3600);
        checkChain(same);
      }
    },
  );
});

describe("optimize", () => {
  test.each(["cost", "time", "distance", "emissions"] as const)(
    "optimize=%s: the route is the best chain and alternatives follow in order",
    async (optimize: Optimize) => {
      const p = await plan(door("O"), door("D"), { optimize });
      expect(p.optimize).toBe(optimize);
      const chains = all(p);
      expect(chains).toEqual([...chains].sort(compareChains(optimize)));
      for (const c of chains)
        expect(measure(p.route.summary, optimize)).toBeLessThanOrEqual(measure(c.summary, optimize));
    },
  );

  test("O -> D: the barge is cheapest and shortest, the truck fastest", async () => {
    expect((await plan(door("O"), door("D"))).route.label).toBe("River");
    expect((await plan(door("O"), door("D"), { optimize: "time" })).route.label).toBe("Road");
    // 930 km by barge; the flight's 845 km come with 124 km of road to and from the airports.
    expect((await plan(door("O"), door("D"), { optimize: "distance" })).route.label).toBe("River");
    // g per tonne-km: rail 28 with 7 km of truck (116) at each end beats the barge (29.3) with 87 km
    // of truck at each end, which beats the ship (7.6) with 195 km of truck at each end; the flight
    // (630) is last. Each leg emits its mode's factor x its km.
    const green = await plan(door("O"), door("D"), { optimize: "emissions" });
    expect(green.route.label).toBe("Rail");
    expect(green.alternatives.slice(0, 2).map((c) => c.label)).toEqual(["River", "Sea"]);
    expect(green.alternatives.at(-1)!.label).toBe("Air");
    const factor = { ROAD: 116, RIVER: 29.3 } as Record<string, number>;
    for (const s of green.alternatives[0]!.sections)
      expect(s.emissions.co2e_kg).toBe(
        Math.round(factor[s.transport_mode]! * (s.distance.meters / 1000)) / 1000,
      );
  });

  test("alternatives=false leaves the route alone", async () => {
    const p = await plan(door("O"), door("D"), { alternatives: false });
    expect(p.route.label).toBe("River");
    expect(p.alternatives).toEqual([]);
  });
});

describe("sea options", () => {
  test("avoid=suez: the sea legs go round by the detour, longer; avoided is echoed", async () => {
    const open = all(await plan(mainPort("W1"), mainPort("E1"), { modes: ["SEA"] }))[0]!;
    const p = await plan(mainPort("W1"), mainPort("E1"), { modes: ["SEA"], avoid: ["suez"] });
    expect(p.avoided).toEqual(["suez"]);
    expect(p.route.sections[0]!.passages).toEqual([]);
    expect(p.route.summary.distance.km).toBeGreaterThan(open.summary.distance.km + 300);
    const safe = await plan(mainPort("W1"), mainPort("E1"), { modes: ["SEA"], routingMode: "safe" });
    expect(safe.routing_mode).toBe("safe");
    expect(safe.avoided).toEqual(["babelmandeb"]);
  });

  test("speed_knots sets the sea time; out of range or an unknown passage is invalid_request", async () => {
    const p = await plan(mainPort("W1"), mainPort("E1"), { modes: ["SEA"], speedKnots: 20 });
    const s = p.route.sections[0]!;
    expect(s.speed_knots).toBe(20);
    expect(s.duration.hours).toBeCloseTo(s.distance.nm / 20, 2);
    await rejects(plan(door("O"), door("D"), { speedKnots: 41 }), "invalid_request", /speed_knots/);
    await rejects(plan(door("O"), door("D"), { avoid: ["atlantis"] }), "invalid_request", /atlantis/);
  });
});

describe("seasonal rules", () => {
  test("modes=RIVER with the canal closed for the date: 422 no_route naming the closure, window and reopening", async () => {
    await rejects(
      plan(door("O"), door("D"), { modes: ["RIVER"], date: WINTER }),
      "no_route",
      /CLO1 Long Canal, bend to RPD: closed by ice \(typically January; reopens about 2026-02-01\)/,
    );
  });

  test("the same date with ROAD allowed: the Road chain, and the closure as a no_route note", async () => {
    const p = await plan(door("O"), door("D"), { modes: ["RIVER", "ROAD"], date: WINTER });
    expect(p.route.label).toBe("Road");
    expect(p.date).toBe(WINTER);
    expect(p.seasonal_notes).toEqual([
      expect.objectContaining({
        id: "CLO1",
        kind: "closure",
        effect: "no_route",
        reopens_about: "2026-02-01",
      }),
    ]);
  });

  test("summer, or seasonal=false, the River chain; date appears only when RIVER is allowed", async () => {
    expect((await plan(door("O"), door("D"), { modes: ["RIVER"] })).route.label).toBe("River");
    const off = await plan(door("O"), door("D"), { modes: ["RIVER"], date: WINTER, seasonal: false });
    expect(off.route.label).toBe("River");
    expect(off.seasonal_notes).toEqual([]);
    expect((await plan(door("O"), door("D"), { modes: ["ROAD"] })).date).toBeUndefined();
    await rejects(plan(door("O"), door("D"), { date: "2026-02-30" }), "invalid_request", /date/);
  });
});

describe("estimated and emissions", () => {
  test("road engine down: every road leg is estimated and so is every chain with one", async () => {
    const config = roadConfig({
      PORTOLAN_ROAD_ENGINE: "osrm",
      PORTOLAN_ROAD_URL: "http://127.0.0.1:9",
      PORTOLAN_ROAD_TIMEOUT_MS: "500",
    });
    const down = new ExternalRoadPlanner(roadEngine(config)!);
    const p = await w.planner.plan({ from: door("O"), to: door("D"), date: SUMMER }, down);
    for (const c of all(p)) {
      const road = c.sections.filter((s) => s.transport_mode === "ROAD");
      expect(road.length).toBeGreaterThan(0);
      for (const s of road) expect(s.estimated).toBe(true);
      expect(c.estimated).toBe(true);
      checkChain(c);
    }
    const direct = await w.planner.plan({ from: mainPort("W1"), to: mainPort("E1"), modes: ["SEA"] }, down);
    expect(direct.route.estimated).toBe(false);
  });

  test("cargo_tonnes restates every chain's emissions; out of range is invalid_request", async () => {
    const one = await plan(door("O"), door("D"), { optimize: "time" });
    const ten = await plan(door("O"), door("D"), { optimize: "time", cargoTonnes: 10 });
    expect(ten.route.label).toBe(one.route.label);
    expect(ten.route.summary.emissions.cargo_tonnes).toBe(10);
    expect(ten.route.summary.emissions.co2e_kg!).toBeCloseTo(one.route.summary.emissions.co2e_kg! * 10, 1);
    await rejects(plan(door("O"), door("D"), { cargoTonnes: 0 }), "invalid_request", /cargo_tonnes/);
  });
});

test("no chain joins a point off every network: no_route naming what each rule found", async () => {
  const nowhere: Place = { kind: "coordinates", name: "nowhere", lat: 30, lng: 30 };
  await rejects(plan(door("O"), nowhere), "no_route", /Sea: .*River: .*Rail: .*Air: .*Road: /);
});
