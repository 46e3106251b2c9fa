/**
 * The road engine adapter against real local HTTP servers answering OSRM and Valhalla bodies:
 * good answers, slow (past the timeout), 5xx, malformed JSON, "no route" bodies, back-off and recovery.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { haversineM } from "../../common/geo.ts";
import { EngineError } from "../../engine/errors.ts";
import { ROAD_DEFAULTS, type RoadConfig, roadConfig } from "../../engine/road/config.ts";
import { ExternalRoadEngine, estimateRoadLeg, roadEngine, truckTime } from "../../engine/road/external.ts";
import {
  BERLIN,
  HAMBURG,
  LINE,
  OSRM_NO_ROUTE,
  OSRM_NO_SEGMENT,
  osrmOk,
  VALHALLA_NO_EDGES,
  VALHALLA_NO_PATH,
  valhallaOk,
} from "./fixtures.ts";

type Reply = { status: number; body: string } | "hang";

/** A local engine whose next answers the test chooses; counts and records requests. */
function engineServer() {
  let reply: Reply = { status: 200, body: "{}" };
  const hung: Array<() => void> = [];
  const seen: Array<{ method: string; url: string; body: string }> = [];
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      seen.push({ method: req.method, url: req.url, body: await req.text() });
      const r = reply;
      if (r === "hang") {
        // Never answers within the adapter's timeout; released when the test ends.
        await new Promise<void>((resolve) => hung.push(resolve));
        return new Response("{}", { status: 200 });
      }
      return new Response(r.body, { status: r.status, headers: { "content-type": "application/json" } });
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}`,
    seen,
    json(status: number, body: unknown) {
      reply = { status, body: JSON.stringify(body) };
    },
    raw(status: number, body: string) {
      reply = { status, body };
    },
    hang() {
      reply = "hang";
    },
    stop() {
      for (const release of hung.splice(0)) release();
      server.stop(true);
    },
  };
}

let osrm: ReturnType<typeof engineServer>;
let valhalla: ReturnType<typeof engineServer>;
beforeAll(() => {
  osrm = engineServer();
  valhalla = engineServer();
});
afterAll(() => {
  osrm.stop();
  valhalla.stop();
});

function config(engine: "osrm" | "valhalla", baseUrl: string, extra: Partial<RoadConfig> = {}): RoadConfig {
  return {
    ...roadConfig({ PORTOLAN_ROAD_ENGINE: engine, PORTOLAN_ROAD_URL: baseUrl }),
    timeoutMs: 300,
    backoffMs: 1_000,
    backoffMaxMs: 8_000,
    ...extra,
  };
}

/** A clock the test moves: back-off is checked without sleeping. */
function clock(start = 1_000_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

const GREAT_CIRCLE_M = haversineM(BERLIN.lat, BERLIN.lng, HAMBURG.lat, HAMBURG.lng);

function expectEstimate(leg: Awaited<ReturnType<ExternalRoadEngine["route"]>>, reason: RegExp) {
  expect(leg.estimated).toBe(true);
  expect(leg.source).toBe("estimate");
  expect(leg.distance_m).toBeCloseTo(GREAT_CIRCLE_M * 1.3, 3);
  expect(leg.reason).toMatch(reason);
}

describe("OSRM", () => {
  test("route service answer: distance, car duration, polyline6 path", async () => {
    osrm.json(200, osrmOk());
    const engine = new ExternalRoadEngine(config("osrm", osrm.url));
    const leg = await engine.route(BERLIN, HAMBURG, { path: true });
    expect(leg).toMatchObject({
      distance_m: 289356.2,
      duration_s: 10962.1,
      duration_basis: "car",
      estimated: false,
      source: "osrm",
    });
    expect(leg.path).toHaveLength(LINE.length);
    expect(leg.path![0]![0]).toBeCloseTo(BERLIN.lat, 6);
    expect(leg.path![4]![1]).toBeCloseTo(HAMBURG.lng, 6);
    const url = new URL(osrm.seen.at(-1)!.url);
    // OSRM takes lng,lat pairs.
    expect(url.pathname).toBe(`/route/v1/driving/${BERLIN.lng},${BERLIN.lat};${HAMBURG.lng},${HAMBURG.lat}`);
    expect(url.searchParams.get("geometries")).toBe("polyline6");
    expect(url.searchParams.get("overview")).toBe("full");
  });

  test("without path: overview=false and no path on the leg", async () => {
    osrm.json(200, osrmOk());
    const leg = await new ExternalRoadEngine(config("osrm", osrm.url)).route(BERLIN, HAMBURG);
    expect(leg.path).toBeUndefined();
    expect(new URL(osrm.seen.at(-1)!.url).searchParams.get("overview")).toBe("false");
  });

  test("polyline (precision 5) and GeoJSON geometries decode too", async () => {
    const { encodePolyline } = await import("../../engine/road/polyline.ts");
    osrm.json(200, osrmOk(encodePolyline(LINE, 5)));
    const p5 = await new ExternalRoadEngine(config("osrm", osrm.url), { osrmGeometries: "polyline" }).route(
      BERLIN,
      HAMBURG,
      { path: true },
    );
    expect(p5.path![2]![0]).toBeCloseTo(53.1, 5);
    osrm.json(200, osrmOk({ type: "LineString", coordinates: LINE.map(([la, ln]) => [ln, la]) }));
    const gj = await new ExternalRoadEngine(config("osrm", osrm.url), { osrmGeometries: "geojson" }).route(
      BERLIN,
      HAMBURG,
      { path: true },
    );
    expect(gj.path).toEqual(LINE);
  });

  test("NoRoute is no_route (the engine is fine: no back-off)", async () => {
    osrm.json(400, OSRM_NO_ROUTE);
    const engine = new ExternalRoadEngine(config("osrm", osrm.url));
    const err = await engine.route(BERLIN, HAMBURG).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EngineError);
    expect((err as EngineError).code).toBe("no_route");
    expect(engine.state().failures).toBe(0);
  });

  test("NoSegment (point off the engine's map) is estimated without back-off", async () => {
    osrm.json(400, OSRM_NO_SEGMENT);
    const engine = new ExternalRoadEngine(config("osrm", osrm.url));
    expectEstimate(await engine.route(BERLIN, HAMBURG), /declined: NoSegment/);
    expect(engine.state().failures).toBe(0);
  });

  test.each([
    ["HTTP 500", (s: typeof osrm) => s.raw(500, "<html>Internal Server Error</html>"), /HTTP 500/],
    ["HTTP 503 JSON", (s: typeof osrm) => s.json(503, { code: "Busy" }), /HTTP 503/],
    ["malformed JSON", (s: typeof osrm) => s.raw(200, '{"code":"Ok","routes":[{"distance":'), /not JSON/],
    ["wrong shape", (s: typeof osrm) => s.json(200, { code: "Ok", routes: [] }), /without a route/],
    ["bad geometry", (s: typeof osrm) => s.json(200, osrmOk("_p~iF~ps|U_")), /polyline/],
    ["slow (past the timeout)", (s: typeof osrm) => s.hang(), /no answer within 300 ms/],
  ])("%s -> estimated leg, engine backed off", async (_name, arrange, reason) => {
    arrange(osrm);
    const engine = new ExternalRoadEngine(config("osrm", osrm.url));
    const leg = await engine.route(BERLIN, HAMBURG, { path: true });
    expectEstimate(leg, reason);
    expect(leg.path).toEqual([
      [BERLIN.lat, BERLIN.lng],
      [HAMBURG.lat, HAMBURG.lng],
    ]);
    expect(engine.state().failures).toBe(1);
  });

  test("connection refused -> estimated", async () => {
    const dead = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("") });
    const url = `http://127.0.0.1:${dead.port}`;
    dead.stop(true);
    const leg = await new ExternalRoadEngine(config("osrm", url)).route(BERLIN, HAMBURG);
    expectEstimate(leg, /osrm unavailable/);
  });
});

describe("Valhalla", () => {
  test("/route with truck costing: km length, truck time, joined leg shapes", async () => {
    valhalla.json(200, valhallaOk());
    const leg = await new ExternalRoadEngine(config("valhalla", valhalla.url)).route(BERLIN, HAMBURG, {
      path: true,
    });
    expect(leg).toMatchObject({
      distance_m: 291342,
      duration_s: 12744.8,
      duration_basis: "truck",
      estimated: false,
      source: "valhalla",
    });
    expect(leg.distance_m).toBeCloseTo(291342, 6);
    // Two legs share their joint point: five points, not six.
    expect(leg.path).toHaveLength(LINE.length);
    const sent = valhalla.seen.at(-1)!;
    expect(sent.method).toBe("POST");
    expect(new URL(sent.url).pathname).toBe("/route");
    expect(JSON.parse(sent.body)).toMatchObject({
      costing: "truck",
      units: "kilometers",
      locations: [
        { lat: BERLIN.lat, lon: BERLIN.lng },
        { lat: HAMBURG.lat, lon: HAMBURG.lng },
      ],
    });
  });

  test("units=miles answers are converted", async () => {
    valhalla.json(200, valhallaOk("miles"));
    const leg = await new ExternalRoadEngine(config("valhalla", valhalla.url)).route(BERLIN, HAMBURG);
    expect(leg.distance_m).toBeCloseTo(181.03 * 1609.344, 3);
  });

  test("error 442 (no path) is no_route; 171 (no edges near) is estimated, no back-off", async () => {
    const engine = new ExternalRoadEngine(config("valhalla", valhalla.url));
    valhalla.json(400, VALHALLA_NO_PATH);
    const err = await engine.route(BERLIN, HAMBURG).catch((e: unknown) => e);
    expect((err as EngineError).code).toBe("no_route");
    valhalla.json(400, VALHALLA_NO_EDGES);
    expectEstimate(await engine.route(BERLIN, HAMBURG), /declined: 171/);
    expect(engine.state().failures).toBe(0);
  });

  test.each([
    [
      "HTTP 500 error body",
      (s: typeof valhalla) => s.json(500, { error_code: 199, error: "Unknown", status_code: 500 }),
    ],
    ["HTTP 502 proxy page", (s: typeof valhalla) => s.raw(502, "Bad Gateway")],
    ["malformed JSON", (s: typeof valhalla) => s.raw(200, '{"trip":{"summary":')],
    ["trip without summary", (s: typeof valhalla) => s.json(200, { trip: { legs: [] } })],
    ["slow", (s: typeof valhalla) => s.hang()],
  ])("%s -> estimated", async (_name, arrange) => {
    arrange(valhalla);
    const engine = new ExternalRoadEngine(config("valhalla", valhalla.url));
    expectEstimate(await engine.route(BERLIN, HAMBURG), /valhalla unavailable/);
    expect(engine.state().failures).toBe(1);
  });
});

describe("back-off", () => {
  test("after a failure the engine is not asked until the back-off passes, then recovers", async () => {
    const t = clock();
    const engine = new ExternalRoadEngine(config("osrm", osrm.url), { now: t.now });
    osrm.raw(500, "down");
    expectEstimate(await engine.route(BERLIN, HAMBURG), /HTTP 500/);
    expect(engine.state()).toMatchObject({ failures: 1, retryAt: t.now() + 1_000 });

    // Engine healthy again, but still inside the back-off: not asked.
    osrm.json(200, osrmOk());
    const asked = osrm.seen.length;
    expectEstimate(await engine.route(BERLIN, HAMBURG), /backed off after 1 failure/);
    expect(osrm.seen.length).toBe(asked);

    t.advance(1_000);
    const leg = await engine.route(BERLIN, HAMBURG);
    expect(leg).toMatchObject({ estimated: false, source: "osrm" });
    expect(osrm.seen.length).toBe(asked + 1);
    expect(engine.state()).toEqual({ failures: 0, retryAt: 0, lastError: null });
  });

  test("consecutive failures double the delay up to the cap", async () => {
    const t = clock();
    const engine = new ExternalRoadEngine(config("osrm", osrm.url), { now: t.now });
    osrm.raw(500, "down");
    const delays: number[] = [];
    for (let i = 0; i < 6; i++) {
      await engine.route(BERLIN, HAMBURG);
      const { retryAt } = engine.state();
      delays.push(retryAt - t.now());
      t.advance(retryAt - t.now());
    }
    expect(delays).toEqual([1_000, 2_000, 4_000, 8_000, 8_000, 8_000]);
    expect(engine.backoffDelay(0)).toBe(0);
    expect(engine.backoffDelay(1000)).toBe(8_000);
  });
});

describe("inputs and estimates", () => {
  test("bad points are invalid_request (EngineError), never anything else", async () => {
    const engine = new ExternalRoadEngine(config("osrm", osrm.url));
    const bad = [
      { lat: 91, lng: 0 },
      { lat: 0, lng: -181 },
      { lat: Number.NaN, lng: 1 },
      null,
      { lat: "1", lng: 2 },
    ] as unknown as Array<{ lat: number; lng: number }>;
    for (const p of bad) {
      for (const call of [() => engine.route(p, HAMBURG), () => engine.route(BERLIN, p)]) {
        const err = await Promise.resolve()
          .then(call)
          .catch((e: unknown) => e);
        expect(err).toBeInstanceOf(EngineError);
        expect((err as EngineError).code).toBe("invalid_request");
      }
      expect(() => estimateRoadLeg(p, HAMBURG)).toThrow(EngineError);
    }
    expect(() => estimateRoadLeg(BERLIN, HAMBURG, { circuity: 0.5 })).toThrow(EngineError);
    expect(() => estimateRoadLeg(BERLIN, HAMBURG, { truckSpeedKmh: 0 })).toThrow(EngineError);
  });

  test("estimate: great circle x circuity; truck time comes out at the default truck speed", () => {
    const leg = estimateRoadLeg(BERLIN, HAMBURG, { circuity: 1.23 });
    expect(leg.distance_m).toBeCloseTo(GREAT_CIRCLE_M * 1.23, 3);
    const t = truckTime(leg);
    expect(leg.distance_m / 1000 / t.driving_hours).toBeCloseTo(ROAD_DEFAULTS.truckSpeedKmh, 6);
    expect(estimateRoadLeg(BERLIN, HAMBURG).distance_m).toBeCloseTo(GREAT_CIRCLE_M * 1.3, 3);
  });

  test("truckTime applies x 1.2 to car time only", () => {
    expect(truckTime({ duration_s: 10 * 3600, duration_basis: "car" }).driving_hours).toBeCloseTo(12, 9);
    expect(truckTime({ duration_s: 10 * 3600, duration_basis: "truck" })).toEqual({
      driving_hours: 10,
      rest_hours: 11,
      hours: 21,
    });
  });
});

describe("config", () => {
  test("defaults and parsing", () => {
    expect(roadConfig({})).toMatchObject({ engine: null, baseUrl: null, circuity: 1.3, truckSpeedKmh: 60.8 });
    expect(roadEngine(roadConfig({}))).toBeNull();
    const v = roadConfig({
      PORTOLAN_ROAD_ENGINE: "Valhalla",
      PORTOLAN_ROAD_URL: "http://valhalla:8002/",
      PORTOLAN_ROAD_TIMEOUT_MS: "2500",
      PORTOLAN_ROAD_CIRCUITY: "1.23",
    });
    expect(v).toMatchObject({
      engine: "valhalla",
      baseUrl: "http://valhalla:8002",
      profile: "truck",
      timeoutMs: 2500,
      circuity: 1.23,
    });
    expect(roadEngine(v)).toBeInstanceOf(ExternalRoadEngine);
    expect(roadConfig({ PORTOLAN_ROAD_ENGINE: "osrm", PORTOLAN_ROAD_URL: "http://o:5000" }).profile).toBe(
      "driving",
    );
  });
  test.each([
    [{ PORTOLAN_ROAD_ENGINE: "graphhopper", PORTOLAN_ROAD_URL: "http://x" }, /PORTOLAN_ROAD_ENGINE/],
    [{ PORTOLAN_ROAD_ENGINE: "osrm" }, /PORTOLAN_ROAD_URL/],
    [{ PORTOLAN_ROAD_TIMEOUT_MS: "0" }, /PORTOLAN_ROAD_TIMEOUT_MS/],
    [{ PORTOLAN_ROAD_CIRCUITY: "0.9" }, /PORTOLAN_ROAD_CIRCUITY/],
    [{ PORTOLAN_ROAD_BACKOFF_MS: "10", PORTOLAN_ROAD_BACKOFF_MAX_MS: "5" }, /BACKOFF_MAX_MS/],
  ])("%p is refused with its name", (env, message) => {
    expect(() => roadConfig(env)).toThrow(message);
  });
});
