/**
 * GET and POST /v1/distance/matrix on the real build (real WASM router, the route workers): the
 * resolved places, cells in source-by-destination order, a cell's error beside routes, the limits,
 * an unresolvable place, and the options refused as a route refuses them. Every answer is checked
 * against the served OpenAPI document (the platform helper).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { distanceApp } from "../../api/distance/app.ts";
import { DistanceEngine } from "../../engine/distance/engine.ts";
import { MATRIX_LIMITS, parseMatrixQuery, planMatrix } from "../../engine/distance/matrix.ts";
import { parseRouteQuery } from "../../engine/distance/requests.ts";
import { RoutePool } from "../../engine/sea/pool.ts";
import { closeRoutePlanners } from "../../engine/services.ts";
import { mainPorts } from "../distance-sea/fixture.ts";
import { errorCode } from "../helpers/envelopes.ts";
import { bearer, type TestPlatform } from "../helpers/platform.ts";
import { chainClient } from "./chain-client.ts";

let p: TestPlatform;
let get: Awaited<ReturnType<typeof chainClient>>["get"];
let key: string;
beforeAll(async () => {
  ({ p, get } = await chainClient("matrix"));
  const org = await p.accounts.createOrg("matrix-post", { paid: true, rateLimit: 100_000 });
  key = (await p.accounts.createKey(org.id, "distance")).key;
});
afterAll(() => p.close());

type Cell = {
  distance?: { km: number; nm: number; meters: number };
  duration?: { hours: number; seconds: number };
  cost_index?: number;
  emissions?: { co2e_kg: number };
  error?: { code: string; message: string };
};
type Matrix = {
  sources: Array<{ locode?: string | null; name: string | null }>;
  destinations: Array<{ locode?: string | null; name: string | null }>;
  mode?: string;
  transport_modes?: string[];
  cells: Cell[][];
};

const post = async (body: unknown) => {
  const res = await p.call("distance", "/v1/distance/matrix", {
    method: "POST",
    headers: { ...bearer(key).headers, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};
const places = (n: number) => Array.from({ length: n }, (_, i) => `${(i % 60) - 30}.5,${(i * 7) % 170}.5`);

describe("GET /v1/distance/matrix", () => {
  test("a sea matrix: the resolved places, a row per source, each cell the route's figures", async () => {
    const res = await get("/v1/distance/matrix?sources=NLRTM|SGSIN&destinations=CNSHA|USLAX|DEHAM");
    expect(res.status).toBe(200);
    const m = res.body.data as Matrix;
    expect(m.mode).toBe("SEA");
    expect(m.sources.map((s) => s.locode)).toEqual(["NLRTM", "SGSIN"]);
    expect(m.destinations.map((s) => s.locode)).toEqual(["CNSHA", "USLAX", "DEHAM"]);
    expect(m.cells.map((row) => row.length)).toEqual([3, 3]);
    // Rotterdam to Hamburg is short, Singapore to Shanghai shorter than Rotterdam to Shanghai.
    expect(m.cells[0]![2]!.distance!.nm).toBeLessThan(500);
    expect(m.cells[1]![0]!.distance!.nm).toBeLessThan(m.cells[0]![0]!.distance!.nm);
    const cell = m.cells[0]![0]!;
    expect(cell.distance!.meters).toBe(Math.round(cell.distance!.km * 1000));
    expect(cell.duration!.seconds).toBe(Math.round(cell.duration!.hours * 3600));
    expect(cell.emissions!.co2e_kg).toBeGreaterThan(0);
  });

  test("a pair without a route answers its error in its cell; the other cells answer", async () => {
    // Kathmandu is far from any sea lane: no sea route reaches it.
    const res = await get("/v1/distance/matrix?sources=NLRTM&destinations=Kathmandu|SGSIN");
    expect(res.status).toBe(200);
    const [row] = (res.body.data as Matrix).cells;
    expect(row![0]!.error?.code).toBe("no_route");
    expect(row![0]!.error?.message.length).toBeGreaterThan(0);
    expect(row![1]!.distance!.nm).toBeGreaterThan(5000);
  });

  test("a road matrix carries the chain's cost index", async () => {
    const res = await get("/v1/distance/matrix?mode=ROAD&sources=DEHAM&destinations=DEMUC|NLRTM");
    expect(res.status).toBe(200);
    const m = res.body.data as Matrix;
    expect(m.mode).toBe("ROAD");
    for (const cell of m.cells[0]!) {
      expect(cell.cost_index).toBeGreaterThan(0);
      expect(cell.duration!.hours).toBeGreaterThan(3);
    }
  });

  test("modes asks for door to door", async () => {
    const res = await get("/v1/distance/matrix?modes=ROAD,RAIL&sources=DEHAM&destinations=ITMIL");
    expect(res.status).toBe(200);
    const m = res.body.data as Matrix;
    expect(m.transport_modes).toEqual(["ROAD", "RAIL"]);
    expect(m.cells[0]![0]!.cost_index).toBeGreaterThan(0);
  });

  test("an unresolvable place answers 404 naming it and its position", async () => {
    const res = await get("/v1/distance/matrix?sources=NLRTM|QQQQQ&destinations=SGSIN");
    expect(res.status).toBe(404);
    expect(errorCode(res.body)).toBe("location_not_found");
    expect(JSON.stringify(res.body)).toContain("sources[1]");
    expect(JSON.stringify(res.body)).toContain("QQQQQ");
  });

  test("bad input answers invalid_request", async () => {
    for (const q of [
      "sources=NLRTM||SGSIN&destinations=CNSHA",
      "sources=NLRTM&destinations=CNSHA&mode=SEA&modes=ROAD",
      "sources=NLRTM&destinations=CNSHA&mode=BOAT",
      "sources=NLRTM&destinations=CNSHA&speed_knots=fast",
      "sources=NLRTM&destinations=CNSHA&path=true",
      "sources=NLRTM|SGSIN&destinations=CNSHA&speed_knots=99",
      "sources=NLRTM|SGSIN&destinations=CNSHA&avoid=atlantis",
      "sources=NLRTM&destinations=CNSHA&modes=SEA&optimize=cheapest",
    ]) {
      const res = await get(`/v1/distance/matrix?${q}`);
      expect({ q, status: res.status }).toEqual({ q, status: 400 });
    }
  });

  test("more places than the limit answer invalid_request naming the limit", async () => {
    const over = places(MATRIX_LIMITS.doorToDoor + 1).join("|");
    const res = await get(`/v1/distance/matrix?modes=ROAD&sources=${over}&destinations=DEHAM`);
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain(`at most ${MATRIX_LIMITS.doorToDoor}`);
  });
});

describe("POST /v1/distance/matrix", () => {
  test("the places as lists, options as numbers", async () => {
    const res = await post({ sources: ["NLRTM"], destinations: ["SGSIN", "1.2,103.8"], speed_knots: 10 });
    expect(res.status).toBe(200);
    const [row] = (res.body.data as Matrix).cells;
    expect(row![0]!.duration!.hours).toBeGreaterThan(row![0]!.distance!.nm / 10 - 1);
  });

  test("101 sources answer invalid_request; so does an empty list", async () => {
    const over = await post({ sources: places(MATRIX_LIMITS.single + 1), destinations: ["NLRTM"] });
    expect(over.status).toBe(400);
    const empty = await post({ sources: [], destinations: ["SGSIN"] });
    expect(empty.status).toBe(400);
  });
});

describe("the route cache", () => {
  test("cells are planned for their figures: they neither read nor fill it", async () => {
    const engine = new DistanceEngine({ ...p.config, routeCacheEntries: 100 });
    await engine.route(parseRouteQuery({ from: "NLRTM", to: "SGSIN" }));
    expect(engine.routeCache.size).toBe(1);
    const { hits, misses } = engine.routeCache;
    const matrix = parseMatrixQuery({ sources: "NLRTM|DEHAM", destinations: "SGSIN|CNSHA" });
    const { cells } = JSON.parse(await planMatrix(engine, matrix)) as Matrix;
    expect(cells.flat().every((cell) => cell.distance !== undefined)).toBe(true);
    expect([engine.routeCache.hits, engine.routeCache.misses]).toEqual([hits, misses]);
    expect(engine.routeCache.size).toBe(1);
  });
});

describe("the route workers", () => {
  test("answer a matrix exactly as the in-thread planner (PORTOLAN_ROUTE_WORKERS=0)", async () => {
    // Its own cache key for the build directory, so the pool the platform started does not answer.
    const buildDir = `${join(import.meta.dir, "../../data/build")}/`;
    const config = { ...p.config, buildDir, routes: { workers: 0, queue: 0 }, routeCacheEntries: 0 };
    const inThread = new DistanceEngine(config);
    const pooled = new DistanceEngine({ ...p.config, routeCacheEntries: 0 });
    try {
      for (const query of [
        { sources: "NLRTM|Kathmandu|DEHAM", destinations: "SGSIN|USLAX", speed_knots: "11" },
        {
          sources: "Hamburg|Basel",
          destinations: "Milan|Paris",
          modes: "ROAD,RAIL,RIVER",
          date: "2026-07-01",
        },
        { sources: "DEHAM", destinations: "DEMUC|FRA", mode: "AIR" },
      ]) {
        const req = parseMatrixQuery(query);
        expect(await planMatrix(pooled, req)).toBe(await planMatrix(inThread, req));
      }
    } finally {
      await closeRoutePlanners();
    }
  });

  test("a sea matrix goes to them a row per job, a door-to-door one a few cells per job", async () => {
    const routes = { workers: 2, queue: 8 };
    const pool = await RoutePool.start({ buildDir: join(import.meta.dir, "../../data/build"), ...routes });
    try {
      const engine = new DistanceEngine({ ...p.config, routes, routeCacheEntries: 0 }, { routes: pool });
      const jobs = async (query: Parameters<typeof parseMatrixQuery>[0]) => {
        const before = pool.stats().lanes.route.answered;
        const { cells } = JSON.parse(await planMatrix(engine, parseMatrixQuery(query))) as Matrix;
        expect(cells.flat().every((cell) => cell.distance !== undefined)).toBe(true);
        return pool.stats().lanes.route.answered - before;
      };
      const ports = mainPorts()
        .slice(0, 12)
        .map((port) => port.locode);
      expect(await jobs({ sources: ports.slice(0, 3), destinations: ports })).toBe(3);
      const cities = ["Hamburg", "Milan", "Paris", "Munich", "Vienna"];
      // Four cells per job: a row of five is two jobs.
      expect(await jobs({ sources: cities.slice(0, 2), destinations: cities, modes: "" })).toBe(4);
    } finally {
      await pool.close();
    }
  });

  test("a matrix larger than the route queue answers whole, and a route asked meanwhile answers first", async () => {
    // One worker and a queue of 8: a matrix that queued all its 400 cells at once would be shed.
    const routes = { workers: 1, queue: 8 };
    const pool = await RoutePool.start({ buildDir: join(import.meta.dir, "../../data/build"), ...routes });
    try {
      const app = distanceApp(
        { ...p, config: { ...p.config, routes, routeCacheEntries: 0 } },
        { routes: pool },
      );
      const ask = (path: string) => app.handle(new Request(`http://localhost${path}`, bearer(key)));
      const ports = mainPorts()
        .slice(0, 20)
        .map((port) => port.locode)
        .join("|");
      const finished: string[] = [];
      const matrix = ask(`/v1/distance/matrix?sources=${ports}&destinations=${ports}`).then((res) => {
        finished.push("matrix");
        return res;
      });
      while (pool.stats().lanes.route.answered < 5) await Bun.sleep(1);
      const route = await ask("/v1/distance/route?from=NLRTM&to=SGSIN");
      finished.push("route");
      expect(route.status).toBe(200);
      const res = await matrix;
      expect(res.status).toBe(200);
      const cells = ((await res.json()) as { data: Matrix }).data.cells.flat();
      expect(cells.length).toBe(400);
      expect(finished).toEqual(["route", "matrix"]);
    } finally {
      await pool.close();
    }
  });
});
