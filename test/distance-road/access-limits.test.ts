/** Air and rail access limits at their edges (600 km to an airport, 150 km to a railhead), real data. */
import { expect, test } from "bun:test";
import { join } from "node:path";
import { EARTH_RADIUS_M, haversineM } from "../../common/geo.ts";
import { AIR_ACCESS_MAX_KM, AirPlanner, flightHours, flightMetres } from "../../engine/air/planner.ts";
import { RAIL_ACCESS_MAX_KM, RailPlanner } from "../../engine/rail/planner.ts";

/** Km per degree of latitude: moving along a meridian, haversine distance is exactly this. */
const KM_PER_DEG = ((EARTH_RADIUS_M / 1000) * Math.PI) / 180;
const north = (p: { lat: number; lng: number }, km: number) => ({ lat: p.lat + km / KM_PER_DEG, lng: p.lng });

const { planner: air } = await AirPlanner.load(join(import.meta.dir, "../../data/build"));
const byCode = (code: string) => air.airports.find((a) => a.iata === code)!;

test.each([
  ["ANC", 599, ["ANC"]],
  ["ANC", 601, []],
  ["JNB", -599, ["JNB"]],
  ["JNB", -601, []],
])("%s offset %d km along the meridian: airports in reach %p", (code, km, expected) => {
  const p = north(byCode(code), km);
  expect(Math.abs(haversineM(p.lat, p.lng, byCode(code).lat, byCode(code).lng) / 1000)).toBeCloseTo(
    Math.abs(km),
    6,
  );
  expect(air.nearest(p).map((c) => c.airport.iata)).toEqual(expected);
});

test.each([
  // Frankfurt city: FRA first; the second closest of the list comes next.
  [{ lat: 50.1109, lng: 8.6821 }, "FRA"],
  [{ lat: 41.8781, lng: -87.6298 }, "ORD"],
  [{ lat: 51.9244, lng: 4.4777 }, "AMS"],
])("closest cargo airports of %p start with %s, at most two, closest first", (p, first) => {
  const near = air.nearest(p);
  expect(near[0]!.airport.iata).toBe(first);
  expect(near.length).toBeLessThanOrEqual(2);
  expect(near.every((c) => c.km <= AIR_ACCESS_MAX_KM)).toBe(true);
  if (near.length === 2) expect(near[0]!.km).toBeLessThanOrEqual(near[1]!.km);
});

test("flight = great circle x 1.05 at 800 km/h + 0.75 h", () => {
  const [fra, ord] = [byCode("FRA"), byCode("ORD")];
  const m = flightMetres(fra, ord);
  expect(m).toBeCloseTo(haversineM(fra.lat, fra.lng, ord.lat, ord.lng) * 1.05, 6);
  expect(m / 1000).toBeGreaterThan(7000);
  expect(m / 1000).toBeLessThan(7600);
  expect(flightHours(800_000)).toBe(1.75);
});

const rail = await RailPlanner.load(join(import.meta.dir, "../../data/build"));

test("railheads within 150 km: in at 149 km, out at 151 km (Kalgoorlie's line, due north)", () => {
  const first = rail.candidates({ lat: -30.75, lng: 121.47 })[0]!;
  expect(first).toBeDefined();
  const at = (km: number) => rail.candidates(north(first.terminal, km));
  const inReach = at(149);
  expect(inReach.map((c) => c.terminal.locode)).toContain(first.terminal.locode);
  expect(inReach.find((c) => c.terminal.locode === first.terminal.locode)!.km).toBeCloseTo(149, 6);
  const beyond = at(151);
  expect(beyond.map((c) => c.terminal.locode)).not.toContain(first.terminal.locode);
  for (const c of [...inReach, ...beyond]) expect(c.km).toBeLessThanOrEqual(RAIL_ACCESS_MAX_KM);
});

test("railhead candidates: at most three, none on a point in mid-ocean", () => {
  expect(rail.candidates({ lat: 51.9244, lng: 4.4777 }).length).toBe(3);
  expect(rail.candidates({ lat: 30, lng: -40 })).toEqual([]);
});
