/** Rail and air chains over HTTP on the real build (real WASM router): the spec's route chain. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { haversineM } from "../../common/geo.ts";
import { errorCode, successProblems } from "../helpers/envelopes.ts";
import type { TestPlatform } from "../helpers/platform.ts";
import {
  type ChainPoint,
  type ChainTransfer,
  chainClient,
  checkChain,
  type Distance,
  type Duration,
  type Summary,
} from "./chain-client.ts";

let p: TestPlatform;
let get: Awaited<ReturnType<typeof chainClient>>["get"];
beforeAll(async () => {
  ({ p, get } = await chainClient("rail-air"));
});
afterAll(() => p.close());

type Point = ChainPoint;
type Section = {
  transport_mode: string;
  from: Point;
  to: Point;
  distance: Distance;
  duration: Duration;
  path?: number[][];
  estimated: boolean;
};
type Transfer = ChainTransfer;
type Chain = {
  label: string;
  transport_modes: string[];
  summary: Summary;
  sections: Section[];
  transfers: Transfer[];
  estimated: boolean;
};
type Data = { from: Point; to: Point; route: Chain; alternatives: Chain[] };

const route = async (q: string) => {
  const { status, body } = await get(`/v1/distance/route?${q}`);
  expect(status, JSON.stringify(body).slice(0, 300)).toBe(200);
  expect(successProblems("distance", body)).toEqual([]);
  return body.data as Data;
};

test("Rotterdam -> Milan by RAIL: road, ~1000 km of rail at 30 km/h, road; 12 h at each terminal", async () => {
  const data = await route("from=Rotterdam&to=Milan&mode=RAIL");
  const r = data.route;
  expect(r.label).toBe("Rail");
  expect(r.transport_modes).toEqual(["ROAD", "RAIL", "ROAD"]);
  checkChain(r);
  const rail = r.sections[1]!;
  expect(rail.from.kind).toBe("rail_terminal");
  expect(rail.from.locode?.slice(0, 2)).toBe("NL");
  expect(rail.to.locode?.slice(0, 2)).toBe("IT");
  expect(rail.distance.km).toBeGreaterThan(900);
  expect(rail.distance.km).toBeLessThan(1200);
  expect(rail.duration.hours).toBeCloseTo(rail.distance.meters / 1000 / 30, 2);
  // Access legs stay within the 150 km railhead limit.
  for (const s of [r.sections[0]!, r.sections[2]!]) expect(s.distance.km).toBeLessThan(250);
  expect(r.transfers).toEqual([
    { at: rail.from, from_mode: "ROAD", to_mode: "RAIL", hours: 12 },
    { at: rail.to, from_mode: "RAIL", to_mode: "ROAD", hours: 12 },
  ]);
  expect(r.summary.handling_hours).toBe(24);
  // Alternatives: other railhead pairings, never faster than the route.
  expect(data.alternatives.length).toBeGreaterThan(0);
  expect(data.alternatives.length).toBeLessThanOrEqual(3);
  for (const alt of data.alternatives) {
    checkChain(alt);
    expect(alt.summary.duration.hours).toBeGreaterThanOrEqual(r.summary.duration.hours);
    expect([alt.sections[1]!.from.locode, alt.sections[1]!.to.locode]).not.toEqual([
      rail.from.locode,
      rail.to.locode,
    ]);
  }

  const bare = await route("from=Rotterdam&to=Milan&mode=RAIL&handling=false&alternatives=false");
  expect(bare.alternatives).toEqual([]);
  expect(bare.route.summary.handling_hours).toBe(0);
  expect(bare.route.transfers.map((t) => t.hours)).toEqual([0, 0]);
  expect(bare.route.summary.distance).toEqual(r.summary.distance);
  expect(bare.route.summary.duration.hours).toBeCloseTo(r.summary.duration.hours - 24, 2);
});

test("RAIL with path: the rail line runs between the terminals, road legs carry their own", async () => {
  const r = (await route("from=Rotterdam&to=Milan&mode=RAIL&path=true&alternatives=false")).route;
  const rail = r.sections[1]!;
  const line = rail.path!;
  expect(line.length).toBeGreaterThan(10);
  const near = (pt: number[], q: Point) => haversineM(pt[0]!, pt[1]!, q.lat, q.lng);
  expect(near(line[0]!, rail.from)).toBeLessThan(1000);
  expect(near(line[line.length - 1]!, rail.to)).toBeLessThan(1000);
  expect(r.sections[0]!.path!.length).toBeGreaterThan(1);
  const plain = (await route("from=Rotterdam&to=Milan&mode=RAIL&alternatives=false")).route;
  expect(plain.sections.every((s) => s.path === undefined)).toBe(true);
});

test("Chicago -> Los Angeles by RAIL: a North American rail section of ~3500 km", async () => {
  const r = (await route("from=Chicago&to=Los%20Angeles&mode=RAIL")).route;
  checkChain(r);
  expect(r.transport_modes).toContain("RAIL");
  const rail = r.sections.find((s) => s.transport_mode === "RAIL")!;
  expect(rail.from.locode?.slice(0, 2)).toBe("US");
  expect(rail.distance.km).toBeGreaterThan(2900);
  expect(rail.distance.km).toBeLessThan(4500);
  expect(rail.duration.hours).toBeCloseTo(rail.distance.meters / 1000 / 30, 2);
});

test("RAIL between Europe and North America: no_route 422", async () => {
  const { status, body } = await get("/v1/distance/route?from=Rotterdam&to=New%20York&mode=RAIL");
  expect(status).toBe(422);
  expect(errorCode(body)).toBe("no_route");
  expect(JSON.stringify(body)).toContain("not connected by rail");
});

test("Frankfurt (city) -> Chicago by AIR: road to a cargo airport, great circle x 1.05, road", async () => {
  const data = await route("from=50.1109,8.6821&to=Chicago&mode=AIR");
  const r = data.route;
  expect(r.label).toBe("Air");
  checkChain(r);
  expect(r.transport_modes).toEqual(["ROAD", "AIR", "ROAD"]);
  const air = r.sections[1]!;
  expect(air.from.iata).toBe("FRA");
  expect(air.to.iata).toBe("ORD");
  const gc = haversineM(air.from.lat, air.from.lng, air.to.lat, air.to.lng);
  expect(air.distance.meters).toBe(Math.round(gc * 1.05));
  expect(air.duration.hours).toBeCloseTo(air.distance.meters / 1000 / 800 + 0.75, 2);
  expect(r.transfers).toEqual([
    { at: air.from, from_mode: "ROAD", to_mode: "AIR", hours: 12 },
    { at: air.to, from_mode: "AIR", to_mode: "ROAD", hours: 12 },
  ]);
  // Up to 2 x 2 airport pairs: the others are alternatives, none faster.
  expect(data.alternatives.length).toBeGreaterThan(0);
  expect(data.alternatives.length).toBeLessThanOrEqual(3);
  for (const alt of data.alternatives) {
    checkChain(alt);
    expect(alt.summary.duration.hours).toBeGreaterThanOrEqual(r.summary.duration.hours);
  }
});

test("FRA -> ORD by IATA codes (and FLIGHT alias): only the flight, handling at both airports", async () => {
  const data = await route("from=FRA&to=ORD&mode=FLIGHT&path=true");
  const r = data.route;
  checkChain(r);
  expect(r.transport_modes).toEqual(["AIR"]);
  expect(r.sections).toHaveLength(1);
  const air = r.sections[0]!;
  // The ends as asked, and where the route starts and ends: at the airports themselves.
  const { route_point: fromPoint, ...from } = data.from as typeof data.from & { route_point: unknown };
  const { route_point: toPoint, ...to } = data.to as typeof data.to & { route_point: unknown };
  expect(air.from).toEqual(from);
  expect(air.to).toEqual(to);
  expect(fromPoint).toEqual({ lat: from.lat, lng: from.lng, distance_km: 0 });
  expect(toPoint).toEqual({ lat: to.lat, lng: to.lng, distance_km: 0 });
  expect(r.transfers.map((t) => [t.from_mode, t.to_mode, t.hours])).toEqual([
    [null, "AIR", 12],
    ["AIR", null, 12],
  ]);
  expect(r.summary.duration.hours).toBeCloseTo(air.distance.meters / 1000 / 800 + 0.75 + 24, 2);
  expect(data.alternatives).toEqual([]);
  // The drawn line follows the great circle from airport to airport.
  const line = air.path!;
  expect(line[0]).toEqual([data.from.lat, data.from.lng]);
  expect(line[line.length - 1]).toEqual([data.to.lat, data.to.lng]);
  expect(line.length).toBeGreaterThan(50);

  const swapped = (await route("from=ORD&to=FRA&mode=AIR")).route;
  expect(swapped.summary.distance).toEqual(r.summary.distance);
  const icao = (await route("from=EDDF&to=KORD&mode=AIR")).route;
  expect(icao.summary.distance).toEqual(r.summary.distance);
  const bare = (await route("from=FRA&to=ORD&mode=AIR&handling=false")).route;
  expect(bare.summary.duration.hours).toBeCloseTo(r.summary.duration.hours - 24, 2);
});

test("AIR from an island with no large cargo airport within 600 km: no_route naming the side", async () => {
  // Saint Helena, South Atlantic.
  const { status, body } = await get("/v1/distance/route?from=-15.9244,-5.7181&to=FRA&mode=AIR");
  expect(status).toBe(422);
  expect(errorCode(body)).toBe("no_route");
  expect(JSON.stringify(body)).toContain("origin");
  expect(JSON.stringify(body)).toContain("600 km");
});

test("AIR between two points served by the same airport: no_route pointing to ROAD", async () => {
  const { status, body } = await get("/v1/distance/route?from=50.1109,8.6821&to=49.99,8.25&mode=AIR");
  expect(status).toBe(422);
  expect(errorCode(body)).toBe("no_route");
  expect(JSON.stringify(body)).toContain("FRA");
});

test("unknown mode stays invalid_request; bad handling is invalid_request", async () => {
  for (const q of ["mode=ZEPPELIN", "mode=RAIL&handling=maybe"]) {
    const { status, body } = await get(`/v1/distance/route?from=Rotterdam&to=Milan&${q}`);
    expect(status).toBe(400);
    expect(errorCode(body)).toBe("invalid_request");
  }
});
