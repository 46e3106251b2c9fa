/**
 * Route points for every mode: each end of a ROAD, RAIL, AIR and RIVER route and of a door-to-door
 * chain says where the route really starts and ends and how far that is from the asked point, as
 * a sea route's ends do; each section's route_points say it for that leg.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { haversineM } from "../../common/geo.ts";
import { bearer, makePlatform, type TestPlatform } from "../helpers/platform.ts";

let p: TestPlatform;
let key: string;
beforeAll(async () => {
  p = await makePlatform({ buildDir: join(import.meta.dir, "../../data/build") });
  const org = await p.accounts.createOrg("route points", { paid: true, rateLimit: 100_000 });
  key = (await p.accounts.createKey(org.id, "distance")).key;
});
afterAll(() => p.close());

type RoutePoint = { lat: number; lng: number; distance_km: number };
type End = { lat: number; lng: number; name?: string; route_point?: RoutePoint };
type Section = {
  transport_mode: string;
  from: End;
  to: End;
  path?: number[][];
  route_points: { from?: RoutePoint; to?: RoutePoint };
};
type Answer = { from: End; to: End; route: { sections: Section[] } };

async function answer(path: string): Promise<Answer> {
  const res = await p.call("distance", path, bearer(key));
  const body = (await res.json()) as { data: Answer };
  expect(res.status, JSON.stringify(body)).toBe(200);
  return body.data;
}

/** distance_km is the great circle from `asked` to the route point, to 0.1 km. */
function measured(asked: End, point: RoutePoint | undefined): RoutePoint {
  expect(point).toBeDefined();
  const km = haversineM(asked.lat, asked.lng, point!.lat, point!.lng) / 1000;
  expect(Math.abs(point!.distance_km - km)).toBeLessThanOrEqual(0.06);
  return point!;
}

/** The ends' route points are the first section's start and the last section's end, measured from the asked ends. */
function checkEnds(data: Answer) {
  const { sections } = data.route;
  const first = measured(data.from, data.from.route_point);
  const last = measured(data.to, data.to.route_point);
  const start = measured(sections[0]!.from, sections[0]!.route_points.from);
  const end = measured(sections.at(-1)!.to, sections.at(-1)!.route_points.to);
  expect([first.lat, first.lng]).toEqual([start.lat, start.lng]);
  expect([last.lat, last.lng]).toEqual([end.lat, end.lng]);
}

const near = (point: RoutePoint, at: number[]) => {
  expect(point.lat).toBeCloseTo(at[0]!, 4);
  expect(point.lng).toBeCloseTo(at[1]!, 4);
};

test("ROAD: the ends join the road where the drawn road path leaves the asked point", async () => {
  // A point in the North Sea dunes, off every modelled road; Utrecht's centre.
  const data = await answer("/v1/distance/route?from=52.62,4.63&to=Utrecht&mode=ROAD&path=true");
  checkEnds(data);
  const road = data.route.sections[0]!;
  expect(road.transport_mode).toBe("ROAD");
  // The path runs from the asked point to the snapped node and on: the route point is its second point.
  expect(road.path![0]).toEqual([52.62, 4.63]);
  near(data.from.route_point!, road.path![1]!);
  expect(data.from.route_point!.distance_km).toBeGreaterThan(0.5);
});

test("RAIL: the chain starts where its road access leg joins the road; the ride at its railheads", async () => {
  const data = await answer("/v1/distance/route?from=Duisburg&to=Milan&mode=RAIL&path=true");
  checkEnds(data);
  for (const s of data.route.sections) {
    measured(s.from, s.route_points.from);
    measured(s.to, s.route_points.to);
    if (s.transport_mode === "RAIL") {
      // A railhead stands on the track: the ride starts at it, where its path starts.
      expect(s.route_points.from!.distance_km).toBe(0);
      near(s.route_points.from!, s.path![0]!);
      near(s.route_points.to!, s.path!.at(-1)!);
    }
  }
  expect(data.route.sections.some((s) => s.transport_mode === "RAIL")).toBe(true);
});

test("AIR: the flight starts and ends at its airports", async () => {
  const data = await answer("/v1/distance/route?from=FRA&to=ORD&mode=AIR");
  checkEnds(data);
  const air = data.route.sections.find((s) => s.transport_mode === "AIR")!;
  expect(air.route_points.from).toEqual({ lat: air.from.lat, lng: air.from.lng, distance_km: 0 });
  expect(air.route_points.to).toEqual({ lat: air.to.lat, lng: air.to.lng, distance_km: 0 });
});

test("RIVER: the barge leg starts at the port's river node, where its path starts", async () => {
  const data = await answer("/v1/distance/route?from=Duisburg&to=Basel&mode=RIVER&path=true");
  checkEnds(data);
  const barge = data.route.sections.find((s) => s.transport_mode === "RIVER")!;
  near(barge.route_points.from!, barge.path![0]!);
  near(barge.route_points.to!, barge.path!.at(-1)!);
});

test("door to door: the chain's ends are its first and last legs' route points", async () => {
  const data = await answer("/v1/distance/multimodal?from=Duisburg&to=Shanghai&path=true");
  checkEnds(data);
  expect(data.route.sections[0]!.transport_mode).not.toBe("SEA");
  // The sea leg starts and ends on the lanes, where its path does.
  const sea = data.route.sections.find((s) => s.transport_mode === "SEA")!;
  near(sea.route_points.from!, sea.path![0]!);
  near(sea.route_points.to!, sea.path!.at(-1)!);
  for (const s of data.route.sections) {
    measured(s.from, s.route_points.from);
    measured(s.to, s.route_points.to);
  }
});
