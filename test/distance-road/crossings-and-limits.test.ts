/**
 * Through the real build and planner: a route across water names its ferry or fixed link (the
 * Øresund, Helsingør-Helsingborg, Messina), and a truck's average speed over a lane stays within
 * the heavy-goods speed limits of the countries it crosses (truck-speed-limits.csv).
 */
import { beforeAll, expect, test } from "bun:test";
import { buildDirFrom } from "../../common/build-dir.ts";
import { laneLimitKmh, parseTruckSpeedLimits } from "../../data-build/road/speed-limits.ts";
import { RoadPlanner } from "../../engine/road/planner.ts";

let planner: RoadPlanner;
beforeAll(async () => {
  planner = await RoadPlanner.load(buildDirFrom());
});

const route = (from: [number, number, string], to: [number, number, string]) =>
  planner.plan({
    from: { lat: from[0], lng: from[1], name: from[2] },
    to: { lat: to[0], lng: to[1], name: to[2] },
  }).route;

test.each([
  [[55.676, 12.568, "Copenhagen"], [55.605, 13.0, "Malmö"], "bridge", "Øresund Bridge"],
  [[56.036, 12.613, "Helsingør"], [56.046, 12.694, "Helsingborg"], "ferry", "Helsingør-Helsingborg"],
  [[38.19, 15.55, "Messina"], [38.11, 15.65, "Reggio Calabria"], "ferry", "Strait of Messina"],
] as const)("%p to %p crosses the strait on a named %s", (from, to, kind, name) => {
  const r = route([...from], [...to]);
  const named = r.crossings.filter((c) => c.kind === kind && c.name.startsWith(name));
  expect(named.length, JSON.stringify(r.crossings)).toBe(1);
  if (kind === "ferry") expect(r.ferry_paths.length).toBe(1);
});

test.each([
  [
    [53.55, 9.99, "Hamburg"],
    [45.46, 9.19, "Milan"],
    ["DE", "AT", "CH", "IT"],
  ],
  [
    [51.43, 6.76, "Duisburg"],
    [47.56, 7.59, "Basel"],
    ["DE", "FR", "CH", "NL"],
  ],
  [[48.86, 2.35, "Paris"], [45.76, 4.84, "Lyon"], ["FR"]],
] as const)("%p to %p: average truck speed within the lane limits of %p", (from, to, countries) => {
  const limits = parseTruckSpeedLimits();
  const cap = Math.max(...countries.map((c) => laneLimitKmh(limits.get(c)!)));
  const r = route([...from], [...to]);
  expect(r.distance_m / 1000 / r.driving_hours).toBeLessThanOrEqual(cap);
});
