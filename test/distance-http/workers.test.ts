/**
 * Routes on worker threads: the pool answers exactly as the in-thread
 * router, engine errors keep their codes across the thread boundary, a full queue sheds with 503
 * overloaded + Retry-After, other routes keep answering while searches run, and a worker killed
 * mid-request costs that request a 503, not the service. ROAD routes run on the same pool.
 */
// Runs once, on SQLite: the subject is the route worker pool; the database only holds the keys.
import { afterAll, afterEach, beforeAll, expect, test } from "bun:test";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { distanceApp } from "../../api/distance/app.ts";
import { routeConfig } from "../../engine/config.ts";
import { EngineError } from "../../engine/errors.ts";
import { inThreadPlanner, Overloaded, RoutePool, type SeaPlanner } from "../../engine/sea/pool.ts";
import { type SeaRouteRequest, SeaRouter } from "../../engine/sea/router.ts";
import { closeRoutePlanners, routePlanner } from "../../engine/services.ts";
import { errorCode, errorProblems } from "../helpers/envelopes.ts";
import { bearer, makePlatform, type TestPlatform } from "../helpers/platform.ts";

const BUILD_DIR = join(import.meta.dir, "../../data/build");
/** Long searches (~15-20 ms each with alternatives and geometry), so a burst stays in flight. */
const LONG = "/v1/distance/route?from=NLRTM&to=AUSYD&path=true&alternatives=true";
/** A long road route with its geometry (~0.4 ms of CPU in-thread). */
const ROAD = "/v1/distance/route?from=ESALG&to=DEHAM&mode=ROAD&path=true";

let p: TestPlatform;
let keys: { distance: string; ocean: string };
let router: SeaRouter;
const pools: RoutePool[] = [];

beforeAll(async () => {
  p = await makePlatform({ buildDir: BUILD_DIR });
  const org = await p.accounts.createOrg("route-workers", { paid: true, rateLimit: 1_000_000_000 });
  keys = {
    distance: (await p.accounts.createKey(org.id, "distance")).key,
    ocean: (await p.accounts.createKey(org.id, "ocean")).key,
  };
  router = await SeaRouter.load(BUILD_DIR);
});
// Each worker holds its own graph (~50 MB): no pool outlives its test.
afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.close()));
});
afterAll(() => p.close());

const startPool = async (workers: number, queue: number, waitMs?: number) => {
  const pool = await RoutePool.start({ buildDir: BUILD_DIR, workers, queue, waitMs });
  pools.push(pool);
  return pool;
};
/** The reference: the same router on this thread, as the API planned before the pool. */
const inThread = (): SeaPlanner => inThreadPlanner(router);
const appWith = (routes: SeaPlanner) => {
  const app = distanceApp(p, { routes });
  return (path: string) => app.handle(new Request(`http://localhost${path}`, bearer(keys.distance)));
};
/** The answer's data, or its error without the request id each answer has its own of. */
const dataOf = async (res: Response) => {
  const body = (await res.json()) as { data?: unknown; error?: Record<string, unknown> };
  const error = body.error && { ...body.error, request_id: undefined };
  return { status: res.status, answer: body.data ?? error };
};
const until = async (ready: () => boolean) => {
  while (!ready()) await Bun.sleep(1);
};

/**
 * Holds `routes` requests of `path` in flight on a real socket with one busy worker and more
 * waiting, then asks /healthz and each probe: every one must answer before all routes finished.
 */
async function probesAnswerFirst(
  pool: RoutePool,
  path: string,
  routes: number,
  probes: Array<() => Promise<Response>>,
): Promise<void> {
  const distance = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: distanceApp(p, { routes: pool }).fetch,
  });
  try {
    let finished = 0;
    const inFlight = Array.from({ length: routes }, async () => {
      const res = await fetch(`${distance.url}${path.slice(1)}`, bearer(keys.distance));
      await res.arrayBuffer();
      finished++;
      return res.status;
    });
    // Searches running with more waiting: the worker is busy, the event loop should not be.
    await until(() => pool.stats().busy === 1 && pool.stats().waiting > 0);
    for (const probe of [() => fetch(`${distance.url}healthz`), ...probes]) {
      const res = await probe();
      expect(res.status).toBe(200);
      expect(finished).toBeLessThan(routes);
    }
    expect(await Promise.all(inFlight)).toEqual(Array(routes).fill(200));
  } finally {
    distance.stop(true);
  }
}

test("the pool answers exactly as the in-thread router for real pairs and options", async () => {
  const viaPool = appWith(await startPool(2, 32));
  const viaThread = appWith(inThread());
  const paths = [
    "from=NLRTM&to=SGSIN",
    "from=CNSHA&to=USLAX&path=true",
    "from=DEHAM&to=BRSSZ&alternatives=false",
    "from=NLRTM&to=SGSIN&avoid=suez&speed_knots=18",
    "from=NLRTM&to=SGSIN&routing_mode=safe&path=true",
    "from=LKCMB&to=ESALG",
    "from=AUSYD&to=ZADUR&path=true",
    "from=51.9,4.4667&to=1.2667,103.8333",
    "from=Hamburg&to=USNYC&avoid=kiel,dover",
    "from=JPTYO&to=CLVAP",
  ].map((q) => `/v1/distance/route?${q}`);
  // All at once: several requests per worker, answers matched to their own request.
  const [pooled, reference] = await Promise.all([
    Promise.all(paths.map(async (path) => dataOf(await viaPool(path)))),
    Promise.all(paths.map(async (path) => dataOf(await viaThread(path)))),
  ]);
  expect(reference.every((r) => r.status === 200)).toBe(true);
  expect(pooled).toEqual(reference);
});

test("a sea answer's data is JSON.stringify({ from, to, ...the planned route }), byte for byte", async () => {
  const asked: SeaRouteRequest[] = [];
  const reference = inThread();
  const call = appWith({
    ...reference,
    planJson: (request) => {
      asked.push(request);
      return reference.planJson(request);
    },
  });
  const queries = [
    "from=NLRTM&to=SGSIN&alternatives=true",
    "from=CNSHA&to=USLAX&path=true",
    "from=Hamburg&to=USNYC",
  ];
  for (const [i, q] of queries.entries()) {
    const res = await call(`/v1/distance/route?${q}`);
    expect(res.status).toBe(200);
    const text = await res.text();
    const data = text.slice('{"data":'.length, text.lastIndexOf(',"meta":'));
    const { from, to } = JSON.parse(data) as { from: unknown; to: unknown };
    expect(data).toBe(JSON.stringify({ from, to, ...router.plan(asked[i]!) }));
  }
});

test("engine errors keep their status, code, message and extra fields through the pool", async () => {
  const pool = await startPool(1, 8);
  const viaPool = appWith(pool);
  const viaThread = appWith(inThread());
  const cases: Array<[string, number, string]> = [
    ["from=Denver,%20US&to=NLRTM", 422, "no_route"],
    ["from=0,-60&to=NLRTM", 422, "no_route"],
    ["from=NLRTM&to=SGSIN&avoid=atlantis", 400, "invalid_request"],
    ["from=NLRTM&to=SGSIN&speed_knots=2", 400, "invalid_request"],
    ["from=NLRTM&to=SGSIN&routing_mode=fastest", 400, "invalid_request"],
    ["from=QQZZZ&to=SGSIN", 404, "location_not_found"],
    ["from=95,10&to=SGSIN", 400, "invalid_request"],
  ];
  for (const [query, status, code] of cases) {
    const res = await viaPool(`/v1/distance/route?${query}`);
    const body = (await res.clone().json()) as Record<string, unknown>;
    expect([query, res.status, errorCode(body)]).toEqual([query, status, code]);
    expect(errorProblems("distance", body)).toEqual([]);
    expect(await dataOf(res)).toEqual(await dataOf(await viaThread(`/v1/distance/route?${query}`)));
  }
  // Extra error fields cross too: the exhausted search budget says why.
  const starved: SeaRouteRequest = {
    from: { lat: 51.9, lng: 4.47 },
    to: { lat: 1.27, lng: 103.83 },
    maxSettled: 10,
  };
  const pooled = (await pool.plan(starved).catch((e: unknown) => e)) as EngineError;
  const local = (() => {
    try {
      router.plan(starved);
    } catch (e) {
      return e as EngineError;
    }
  })()!;
  expect(pooled).toBeInstanceOf(EngineError);
  expect([pooled.code, pooled.message, pooled.extra]).toEqual([
    local.code,
    local.message,
    { reason: "budget_exhausted" },
  ]);
});

test("a full queue sheds with 503 overloaded and Retry-After, never a 500", async () => {
  const call = appWith(await startPool(1, 2));
  const answers = await Promise.all(Array.from({ length: 12 }, () => call(LONG)));
  const statuses = answers.map((r) => r.status);
  expect(statuses.every((s) => s === 200 || s === 503)).toBe(true);
  // One running and two waiting are always taken; the burst is far beyond that.
  expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(3);
  const shed = answers.filter((r) => r.status === 503);
  expect(shed.length).toBeGreaterThan(0);
  for (const res of shed) {
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    const body = (await res.json()) as Record<string, unknown>;
    expect(errorProblems("distance", body)).toEqual([]);
    expect(errorCode(body)).toBe("overloaded");
  }
  // Shedding is momentary: once the burst is through, the next route is served.
  expect((await call(LONG)).status).toBe(200);
});

test("while routes are in flight on a real socket, /healthz and ocean /v1/account answer first", async () => {
  const ocean = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: p.apps.ocean.fetch });
  try {
    await probesAnswerFirst(await startPool(1, 64), LONG, 24, [
      () => fetch(`${ocean.url}v1/account`, bearer(keys.ocean)),
    ]);
  } finally {
    ocean.stop(true);
  }
});

test("a worker killed mid-request answers that request 503 and is replaced", async () => {
  const pool = await startPool(1, 4);
  const call = appWith(pool);
  const answers = Array.from({ length: 4 }, () => call(LONG));
  await until(() => pool.stats().busy === 1);
  const [victim] = pool.threads();
  await victim!.terminate();
  const settled = await Promise.all(answers);
  const statuses = settled.map((r) => r.status);
  expect(statuses.every((s) => s === 200 || s === 503)).toBe(true);
  const lost = settled.filter((r) => r.status === 503);
  expect(lost.length).toBeGreaterThanOrEqual(1);
  for (const res of lost) {
    expect(res.headers.get("retry-after")).toBe("1");
    expect(errorCode((await res.json()) as Record<string, unknown>)).toBe("overloaded");
  }
  const next = await call("/v1/distance/route?from=NLRTM&to=SGSIN");
  expect(next.status).toBe(200);
  expect(pool.threads()[0]).not.toBe(victim);
  expect(pool.stats()).toMatchObject({ workers: 1, ready: 1 });
});

test("the API's planner holds two jobs per worker (the next one queued while it plans) and answers each as the router does", async () => {
  // A pool another file left behind may have other settings.
  await closeRoutePlanners();
  const planner = await routePlanner(BUILD_DIR, { workers: 1, queue: 4 });
  try {
    expect(planner).toBeInstanceOf(RoutePool);
    const pool = planner as RoutePool;
    const requests: SeaRouteRequest[] = [
      { from: { lat: 51.9, lng: 4.47 }, to: { lat: 1.27, lng: 103.83 } },
      { from: { lat: 51.9, lng: 4.47 }, to: { lat: -33.86, lng: 151.2 }, alternatives: true },
      { from: { lat: 31.23, lng: 121.47 }, to: { lat: 34.05, lng: -118.24 }, path: true },
    ];
    const answers = requests.map((r) => pool.plan(r));
    // Dispatched at once: two on the one worker, the third waiting.
    expect(pool.stats()).toMatchObject({ workers: 1, busy: 1, waiting: 1 });
    expect(await Promise.all(answers)).toEqual(requests.map((r) => router.plan(r)));
  } finally {
    await closeRoutePlanners();
  }
});

test("a closed pool sheds instead of hanging", async () => {
  const pool = await startPool(1, 1);
  await pool.close();
  const err = await pool
    .plan({ from: { lat: 51.9, lng: 4.47 }, to: { lat: 1.27, lng: 103.83 } })
    .catch((e) => e);
  expect(err).toBeInstanceOf(Overloaded);
});

test("PORTOLAN_ROUTE_WORKERS and PORTOLAN_ROUTE_QUEUE: defaults leave a core to the event loop, and one worker to routes", () => {
  const byDefault = routeConfig({});
  expect(byDefault.workers).toBe(Math.max(2, availableParallelism() - 1));
  expect(byDefault.queue).toBe(32 * byDefault.workers);
  expect(routeConfig({ PORTOLAN_ROUTE_WORKERS: "3" })).toEqual({ workers: 3, queue: 96 });
  expect(routeConfig({ PORTOLAN_ROUTE_WORKERS: "0", PORTOLAN_ROUTE_QUEUE: "5" })).toEqual({
    workers: 0,
    queue: 5,
  });
  expect(() => routeConfig({ PORTOLAN_ROUTE_QUEUE: "-1" })).toThrow("PORTOLAN_ROUTE_QUEUE");
});

test("the lanes' settings: queue bounds, heavy workers and the wait bound, refused out of range", () => {
  const env = {
    PORTOLAN_ROUTE_WORKERS: "3",
    PORTOLAN_LOADPLAN_QUEUE: "4",
    PORTOLAN_PICTURE_QUEUE: "0",
    PORTOLAN_HEAVY_WORKERS: "1",
    PORTOLAN_QUEUE_WAIT_MS: "2500",
  };
  expect(routeConfig(env)).toEqual({
    workers: 3,
    queue: 96,
    lanes: { loadplan: 4, picture: 0 },
    heavyWorkers: 1,
    waitMs: 2500,
  });
  // The wait must end before the server's 10 s idle timeout would close the connection.
  expect(() => routeConfig({ PORTOLAN_QUEUE_WAIT_MS: "9000" })).toThrow("PORTOLAN_QUEUE_WAIT_MS");
  expect(() => routeConfig({ PORTOLAN_QUEUE_WAIT_MS: "0" })).toThrow("PORTOLAN_QUEUE_WAIT_MS");
  expect(() => routeConfig({ PORTOLAN_HEAVY_WORKERS: "0" })).toThrow("PORTOLAN_HEAVY_WORKERS");
  expect(() => routeConfig({ PORTOLAN_LOADPLAN_QUEUE: "x" })).toThrow("PORTOLAN_LOADPLAN_QUEUE");
});

test("ROAD routes through the pool answer exactly as the in-thread planner, errors included", async () => {
  const viaPool = appWith(await startPool(2, 32));
  // The reference plans on this thread: PORTOLAN_ROUTE_WORKERS=0, under its own cache key for
  // the build directory so no pool another test started answers instead.
  const inThreadApp = distanceApp({
    ...p,
    config: { ...p.config, buildDir: `${BUILD_DIR}/`, routes: { workers: 0, queue: 0 } },
  });
  const viaThread = (path: string) =>
    inThreadApp.handle(new Request(`http://localhost${path}`, bearer(keys.distance)));
  try {
    const paths = [
      "from=NLRTM&to=DEHAM&mode=ROAD&path=true",
      "from=GBLON&to=FRPAR&mode=ROAD&path=true",
      "from=GBLON&to=FRPAR&mode=truck&alternatives=false",
      "from=ESALG&to=DEHAM&mode=ROAD",
      "from=51.9,4.4667&to=48.85,2.35&mode=ROAD&path=true",
      "from=LKCMB&to=INNSA&mode=ROAD",
      "from=0,-30&to=NLRTM&mode=ROAD",
      "from=QQZZZ&to=NLRTM&mode=ROAD",
    ].map((q) => `/v1/distance/route?${q}`);
    const [pooled, reference] = await Promise.all([
      Promise.all(paths.map(async (path) => dataOf(await viaPool(path)))),
      Promise.all(paths.map(async (path) => dataOf(await viaThread(path)))),
    ]);
    expect(reference.filter((r) => r.status === 200).length).toBe(5);
    expect(reference.map((r) => r.status).slice(5)).toEqual([422, 422, 404]);
    expect(pooled).toEqual(reference);
    // Byte for byte (key order too), all but meta.took_ms.
    const dataText = async (res: Response) => JSON.stringify(((await res.json()) as { data: unknown }).data);
    for (const path of paths.slice(0, 2))
      expect(await dataText(await viaPool(path))).toBe(await dataText(await viaThread(path)));
  } finally {
    await closeRoutePlanners();
  }
});

test("while ROAD routes are in flight on a real socket, /healthz answers first", async () => {
  // The first road job loads the road model in the worker (seconds on a busy machine): the rest
  // wait behind it longer than the default wait bound would let them.
  await probesAnswerFirst(await startPool(1, 512, 60_000), ROAD, 256, []);
});
