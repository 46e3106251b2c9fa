/** The distance product over its HTTP surface: spec shapes, every error code, envelopes. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { haversineM } from "../../common/geo.ts";
import { errorCode, errorProblems, successProblems } from "../helpers/envelopes.ts";
import { bearer, makePlatform, type TestPlatform } from "../helpers/platform.ts";

let p: TestPlatform;
let key: string;
beforeAll(async () => {
  p = await makePlatform({ buildDir: join(import.meta.dir, "../../data/build") });
  const org = await p.accounts.createOrg("routes", { paid: true, rateLimit: 100_000 });
  key = (await p.accounts.createKey(org.id, "distance")).key;
});
afterAll(() => p.close());

const get = async (path: string) => {
  const res = await p.call("distance", path, bearer(key));
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};
type Route = { distance: { nm: number; km: number }; passages: Array<{ id: string }>; path?: number[][] };
type RouteData = {
  from: Record<string, unknown>;
  to: Record<string, unknown>;
  route: Route;
  alternatives: Route[];
};

test("a port answers with the code asked for, and by the carriers' code when named in words", async () => {
  for (const [from, to] of [
    ["CNSHA", "CNNGB"],
    ["CNSHG", "CNNBG"],
  ]) {
    const { status, body } = await get(`/v1/distance/route?from=${from}&to=${to}`);
    expect(status).toBe(200);
    const data = body.data as RouteData;
    expect([data.from.locode, data.to.locode]).toEqual([from, to]);
  }
  // Chosen by the planner, a port goes by the code tracking, schedules and rates use.
  const chain = (await get("/v1/distance/multimodal?from=Shanghai&to=Ningbo&modes=SEA")).body.data as {
    route: { sections: Array<{ transport_mode: string; from: { locode: string }; to: { locode: string } }> };
  };
  const sea = chain.route.sections.find((s) => s.transport_mode === "SEA")!;
  expect([sea.from.locode, sea.to.locode]).toEqual(["CNSHA", "CNNGB"]);
  const found = (await get("/v1/distance/locations?q=Shanghai")).body.data as Array<{
    kind: string;
    locode: string;
  }>;
  expect(found.find((r) => r.kind === "port")?.locode).toBe("CNSHA");
});

test("sea route: spec keys at every level, meta.took_ms, alternatives, path only on request", async () => {
  const { status, body } = await get("/v1/distance/route?from=NLRTM&to=SGSIN&alternatives=true");
  expect(status).toBe(200);
  expect(successProblems("distance", body)).toEqual([]);
  const data = body.data as RouteData;
  expect(Object.keys(data)).toEqual(["from", "to", "routing_mode", "avoided", "route", "alternatives"]);
  for (const end of [data.from, data.to]) {
    for (const k of ["locode", "name", "country", "country_code", "lat", "lng", "source"])
      expect(end).toHaveProperty(k);
  }
  expect(data.from.locode).toBe("NLRTM");
  // The spec's keys plus emissions (beyond the spec, docs/emissions.md).
  expect(Object.keys(data.route).sort()).toEqual([
    "distance",
    "eca",
    "emissions",
    "label",
    "passages",
    "transit",
  ]);
  expect(data.route.passages.map((x) => x.id)).toContain("suez");
  // The Cape of Good Hope alternative is longer and does not use Suez.
  const cape = data.alternatives.find((a) => !a.passages.some((x) => x.id === "suez"));
  expect(cape).toBeDefined();
  expect(cape!.distance.nm).toBeGreaterThan(data.route.distance.nm);

  // Sea alternatives are opt-in: the spec defaults them to true for ROAD, RAIL, AIR and multimodal only.
  const byDefault = (await get("/v1/distance/route?from=NLRTM&to=SGSIN")).body.data as RouteData;
  expect(byDefault.alternatives).toEqual([]);
  expect(byDefault.route.distance.nm).toBe(data.route.distance.nm);

  const withPath = (await get("/v1/distance/route?from=NLRTM&to=SGSIN&path=true&alternatives=false")).body
    .data as RouteData;
  expect(withPath.alternatives).toEqual([]);
  expect(withPath.route.path!.length).toBeGreaterThan(10);
  expect(withPath.route.path![0]!.length).toBe(2);
});

test("an inland place is no_route with its distance from the sea lanes, not a route stopping short", async () => {
  // Basel is a UN/LOCODE port on the Rhine ~325 km above the last sea lane (near Koblenz): it used
  // to answer a 156 nm "Direct" route ending there.
  const inland = await get("/v1/distance/route?from=NLRTM&to=CHBSL");
  expect(inland.status).toBe(422);
  expect(errorProblems("distance", inland.body)).toEqual([]);
  expect(errorCode(inland.body)).toBe("no_route");
  expect(JSON.stringify(inland.body)).toMatch(/Basel is \d+ km from the nearest sea lane \(limit 200 km\)/);
  // Sea ports still answer, river sea ports included (Nanjing, ~245 km up the Yangtze).
  for (const q of ["from=NLRTM&to=DEHAM", "from=NLRTM&to=CNNKG"]) {
    const ok = await get(`/v1/distance/route?${q}`);
    expect(ok.status, q).toBe(200);
    expect((ok.body.data as RouteData).route.distance.nm).toBeGreaterThan(0);
  }
});

test("avoid and routing_mode change the route; speed changes only the transit time", async () => {
  const base = (await get("/v1/distance/route?from=NLRTM&to=SGSIN&alternatives=false")).body
    .data as RouteData;
  const noSuez = (await get("/v1/distance/route?from=NLRTM&to=SGSIN&avoid=suez&alternatives=false")).body
    .data as RouteData & {
    avoided: string[];
  };
  expect(noSuez.avoided).toContain("suez");
  expect(noSuez.route.passages.map((x) => x.id)).not.toContain("suez");
  expect(noSuez.route.distance.nm).toBeGreaterThan(base.route.distance.nm);
  const safe = (await get("/v1/distance/route?from=NLRTM&to=SGSIN&routing_mode=safe&alternatives=false")).body
    .data as RouteData;
  expect(safe.route.passages.map((x) => x.id)).not.toContain("babelmandeb");
  const fast = (await get("/v1/distance/route?from=NLRTM&to=SGSIN&speed_knots=20&alternatives=false")).body
    .data as {
    route: Route & { transit: { hours: number; speed_knots: number } };
  };
  expect(fast.route.distance.nm).toBe(base.route.distance.nm);
  expect(fast.route.transit.speed_knots).toBe(20);
  expect(fast.route.transit.hours).toBeCloseTo(base.route.distance.nm / 20, 0);
});

describe("errors in the distance envelope", () => {
  const cases: Array<[string, number, string]> = [
    ["/v1/distance/route?to=SGSIN", 400, "invalid_request"],
    ["/v1/distance/route?from=NLRTM&to=SGSIN&speed_knots=2", 400, "invalid_request"],
    ["/v1/distance/route?from=NLRTM&to=SGSIN&speed_knots=fast", 400, "invalid_request"],
    ["/v1/distance/route?from=NLRTM&to=SGSIN&avoid=atlantis", 400, "invalid_request"],
    ["/v1/distance/route?from=NLRTM&to=SGSIN&mode=SUBMARINE", 400, "invalid_request"],
    ["/v1/distance/route?from=NLRTM&to=SGSIN&routing_mode=fastest", 400, "invalid_request"],
    ["/v1/distance/route?from=NLRTM&to=SGSIN&path=maybe", 400, "invalid_request"],
    // A parameter the mode does not read is still checked: a bad value never passes silently.
    ["/v1/distance/route?from=NLRTM&to=SGSIN&handling=yes", 400, "invalid_request"],
    ["/v1/distance/route?from=NLRTM&to=SGSIN&seasonal=perhaps", 400, "invalid_request"],
    ["/v1/distance/route?from=NLRTM&to=SGSIN&date=tomorrow", 400, "invalid_request"],
    ["/v1/distance/route?from=NLRTM&to=DEHAM&mode=ROAD&speed_knots=fast", 400, "invalid_request"],
    ["/v1/distance/route?from=95,10&to=SGSIN", 400, "invalid_request"],
    ["/v1/distance/route?from=QQZZZ&to=SGSIN", 404, "location_not_found"],
    ["/v1/distance/route?from=Denver,%20US&to=NLRTM", 422, "no_route"],
    ["/v1/distance/locations?q=r", 400, "invalid_request"],
    ["/v1/distance/locations?q=rotterdam&limit=0", 400, "invalid_request"],
    ["/v1/distance/locations?q=rotterdam&limit=51", 400, "invalid_request"],
    ["/v1/distance/locations?q=rotterdam&types=volcano", 400, "invalid_request"],
  ];
  test.each(cases)("%s -> %i %s", async (path, status, code) => {
    const res = await get(path);
    expect(res.status).toBe(status);
    expect(errorProblems("distance", res.body)).toEqual([]);
    expect(errorCode(res.body)).toBe(code);
  });
});

test("an unknown UN/LOCODE answers 404 naming the nearest codes, in the message and as suggestions", async () => {
  const { status, body } = await get("/v1/distance/route?from=NLRTN&to=SGSIN");
  expect(status).toBe(404);
  expect(errorProblems("distance", body)).toEqual([]);
  const error = body.error as {
    code: string;
    message: string;
    suggestions: Array<{ code: string; name: string }>;
  };
  expect(error.code).toBe("location_not_found");
  expect(error.message).toStartWith("unknown UN/LOCODE NLRTN; did you mean NLRTM (Rotterdam)");
  expect(error.suggestions[0]).toEqual({ code: "NLRTM", name: "Rotterdam" });
});

test("no_route names where each end's text resolved: name, country, coordinates", async () => {
  const sea = await get("/v1/distance/route?from=NLRTM&to=Denver");
  expect(sea.status).toBe(422);
  expect(errorProblems("distance", sea.body)).toEqual([]);
  const seaMessage = (sea.body.error as { message: string }).message;
  expect(seaMessage).toContain("km from the nearest sea lane");
  // The end asked by its code is named by the code already.
  expect(seaMessage).toEndWith('; to "Denver" resolved to Denver, US (39.74, -104.98)');
  const chain = await get("/v1/distance/multimodal?from=Berlin&to=Denver&modes=RAIL");
  expect(chain.status).toBe(422);
  expect((chain.body.error as { message: string }).message).toEndWith(
    '; from "Berlin" resolved to Berlin, DE (52.52, 13.41); to "Denver" resolved to Denver, US (39.74, -104.98)',
  );
});

test("a sea route's ends say where the route meets the lanes; to an inland place it stops at the coast", async () => {
  type End = {
    lat: number;
    lng: number;
    route_point: { lat: number; lng: number; distance_km: number; note?: string };
  };
  const { status, body } = await get("/v1/distance/route?from=NLRTM&to=Paris&path=true");
  expect(status).toBe(200);
  const data = body.data as { from: End; to: End; route: { path: number[][] } };
  const path = data.route.path;
  for (const [end, at] of [
    [data.from, path[0]!],
    [data.to, path.at(-1)!],
  ] as const) {
    // The route point is where the path starts or ends, distance_km its distance from the asked point.
    expect([end.route_point.lat, end.route_point.lng]).toEqual([at[0]!, at[1]!]);
    const km = haversineM(end.lat, end.lng, at[0]!, at[1]!) / 1000;
    expect(end.route_point.distance_km).toBeCloseTo(km, 0);
  }
  // Rotterdam is a sea port: no note. Paris is 100+ km inland: the route ends near Rouen.
  expect(data.from.route_point.note).toBeUndefined();
  expect(data.to.route_point.distance_km).toBeGreaterThan(100);
  expect(data.to.route_point.lng).toBeLessThan(1.5);
  expect(data.to.route_point.note).toBe(
    `the sea route ends at the nearest sea lane, ${data.to.route_point.distance_km} km from Paris`,
  );
});

test("locations: {data: []} without meta, exact code first, types and limit honoured", async () => {
  const { status, body } = await get("/v1/distance/locations?q=NLRTM");
  expect(status).toBe(200);
  expect(Object.keys(body)).toEqual(["data"]);
  const rows = body.data as Array<Record<string, unknown>>;
  expect(rows[0]).toMatchObject({ kind: "port", locode: "NLRTM", country_code: "NL" });
  for (const k of ["kind", "locode", "name", "country", "country_code", "lat", "lng"])
    expect(rows[0]).toHaveProperty(k);
  const airports = (await get("/v1/distance/locations?q=singapore&types=airport&limit=2")).body
    .data as Array<{ kind: string }>;
  expect(airports.length).toBeGreaterThan(0);
  expect(airports.length).toBeLessThanOrEqual(2);
  expect(airports.every((a) => a.kind === "airport")).toBe(true);
});

test("distance needs a ds_ key", async () => {
  const res = await p.call("distance", "/v1/distance/route?from=NLRTM&to=SGSIN");
  expect(res.status).toBe(401);
  expect(errorCode((await res.json()) as Record<string, unknown>)).toBe("missing_key");
});
