/** Road routes over HTTP on the real build: the spec's route chain, ferries, islands, errors. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { haversineM } from "../../common/geo.ts";
import { errorCode, errorProblems, successProblems } from "../helpers/envelopes.ts";
import type { TestPlatform } from "../helpers/platform.ts";
import { chainClient, type Distance, type Duration, type Summary } from "./chain-client.ts";

let p: TestPlatform;
let get: Awaited<ReturnType<typeof chainClient>>["get"];
beforeAll(async () => {
  ({ p, get } = await chainClient("road"));
});
afterAll(() => p.close());

type Section = {
  transport_mode: string;
  distance: Distance;
  duration: Duration;
  driving_hours: number;
  rest_hours: number;
  ferry_hours: number;
  ferry_paths: number[][][];
  path?: number[][];
  estimated: boolean;
  source: string;
  attribution: string;
};
type Chain = {
  label: string;
  transport_modes: string[];
  summary: Summary;
  sections: Section[];
  transfers: unknown[];
  estimated: boolean;
};
type RoadData = {
  from: { lat: number; lng: number };
  to: { lat: number; lng: number };
  route: Chain;
  alternatives: Chain[];
};

const road = async (q: string) => {
  const { status, body } = await get(`/v1/distance/route?${q}`);
  expect(status, JSON.stringify(body).slice(0, 300)).toBe(200);
  expect(successProblems("distance", body)).toEqual([]);
  return body.data as RoadData;
};

test("NLRTM -> DEHAM by road: a chain whose sections add up to the summary", async () => {
  const data = await road("from=NLRTM&to=DEHAM&mode=ROAD&path=true");
  expect(Object.keys(data)).toEqual(["from", "to", "route", "alternatives"]);
  const r = data.route;
  expect(r.label).toBe("Road");
  expect(r.transport_modes).toEqual(["ROAD"]);
  expect(r.transfers).toEqual([]);
  expect(r.estimated).toBe(false);
  expect(r.sections.map((s) => s.transport_mode)).toEqual(["ROAD"]);
  const sum = (f: (s: Section) => number) => r.sections.reduce((a, s) => a + f(s), 0);
  expect(sum((s) => s.distance.meters)).toBe(r.summary.distance.meters);
  expect(sum((s) => s.duration.seconds)).toBe(r.summary.duration.seconds);
  expect(r.summary.duration.hours).toBeCloseTo(r.summary.moving_hours + r.summary.handling_hours, 9);
  expect(r.summary.handling_hours).toBe(0);
  expect(r.summary.cost_index).toBeCloseTo((r.summary.distance.km * 6) / 1000, 2);
  const s = r.sections[0]!;
  // Rotterdam-Hamburg is ~490 km by road: under 9 h of truck driving would be too fast, one rest.
  expect(r.summary.distance.km).toBeGreaterThan(400);
  expect(r.summary.distance.km).toBeLessThan(600);
  expect(s.rest_hours).toBe(11 * Math.max(0, Math.ceil(s.driving_hours / 9) - 1));
  expect(s.duration.hours).toBeCloseTo(s.driving_hours + s.rest_hours + s.ferry_hours, 1);
  expect(s.source).toBe("model");
  expect(s.attribution).toStartWith("Road distances come from a model unless an engine is set");
  expect(s.path!.length).toBeGreaterThan(2);
  expect(s.path![0]).toEqual([data.from.lat, data.from.lng]);
  // A road route is never shorter than the great circle.
  expect(r.summary.distance.meters).toBeGreaterThanOrEqual(
    haversineM(data.from.lat, data.from.lng, data.to.lat, data.to.lng),
  );
  // Without path the section has none; TRUCK is the alias.
  const plain = await road("from=NLRTM&to=DEHAM&mode=truck");
  expect(plain.route.sections[0]!.path).toBeUndefined();
  expect(plain.route.summary.distance.meters).toBe(r.summary.distance.meters);
});

test("swapped ends agree within 2 %", async () => {
  const there = await road("from=NLRTM&to=DEHAM&mode=ROAD");
  const back = await road("from=DEHAM&to=NLRTM&mode=ROAD");
  const [a, b] = [there.route.summary, back.route.summary];
  expect(Math.abs(a.distance.km / b.distance.km - 1)).toBeLessThan(0.02);
  expect(Math.abs(a.duration.hours / b.duration.hours - 1)).toBeLessThan(0.02);
});

test("Great Britain to France crosses the Channel by ferry or tunnel, listed in ferry_paths", async () => {
  const data = await road("from=GBLON&to=FRPAR&mode=ROAD");
  const s = data.route.sections[0]!;
  expect(s.ferry_paths.length).toBeGreaterThan(0);
  expect(s.ferry_hours).toBeGreaterThan(0);
  // Crossing hours are not driving: duration = driving + crossings + rests.
  expect(s.duration.hours).toBeCloseTo(s.driving_hours + s.ferry_hours + s.rest_hours, 1);
  for (const line of s.ferry_paths) {
    expect(line.length).toBe(2);
    for (const [lat, lng] of line) {
      expect(lat).toBeGreaterThan(50);
      expect(lat).toBeLessThan(52);
      expect(Math.abs(lng!)).toBeLessThan(3);
    }
  }
  // Alternatives default to true for ROAD: the route avoiding ferries (or none when only a tunnel was used).
  for (const alt of data.alternatives)
    expect(alt.sections[0]!.ferry_paths.length).toBeLessThanOrEqual(s.ferry_paths.length);
});

test("Colombo to Nhava Sheva: Sri Lanka has no road link, no_route 422", async () => {
  const { status, body } = await get("/v1/distance/route?from=LKCMB&to=INNSA&mode=ROAD");
  expect(status).toBe(422);
  expect(errorProblems("distance", body)).toEqual([]);
  expect(errorCode(body)).toBe("no_route");
  expect(JSON.stringify(body)).toMatch(/Colombo/);
});

test("unknown mode is invalid_request; alternatives=false gives none", async () => {
  const bad = await get("/v1/distance/route?from=NLRTM&to=DEHAM&mode=HOVERCRAFT");
  expect(bad.status).toBe(400);
  expect(errorCode(bad.body)).toBe("invalid_request");
  const none = await road("from=GBLON&to=FRPAR&mode=ROAD&alternatives=false");
  expect(none.alternatives).toEqual([]);
});
