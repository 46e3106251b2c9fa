/**
 * The route pool's lanes (engine/sea/lanes.ts) over real sockets, with one worker: load plans
 * queued on the pool do not hold up a sea route (it is answered while plans still wait); a full
 * lane answers 503 overloaded with Retry-After in its own product's envelope and leaves the other
 * lanes their places; a request waiting past the wait bound answers 503 while the job ahead of
 * it still runs, instead of waiting for the server to drop its connection.
 */
import { afterEach, expect, test } from "bun:test";
import { serveBun } from "../../api/runtime/bun-serve.ts";
import type { RouteConfig } from "../../engine/config.ts";
import { RoutePool } from "../../engine/sea/pool.ts";
import { closeRoutePlanners, routePlanner } from "../../engine/services.ts";
import { errorCode, errorProblems } from "../helpers/envelopes.ts";
import { bearer, type TestPlatform } from "../helpers/platform.ts";
import { BODY, LARGE, loadingPlatform } from "./setup.ts";

/** A long sea search (~15-20 ms with alternatives and geometry). */
const LONG = "/v1/distance/route?from=NLRTM&to=AUSYD&path=true&alternatives=true";

const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
});

/**
 * A platform whose route pool has these settings, its load-plan and distance hosts on sockets. No
 * wait bound unless the test sets one: a large plan (about 1.2 s on a quiet machine) can run past
 * the default 5 s on a loaded one, and the route behind it would be shed for that, not for its lane.
 */
async function setUp(settings: RouteConfig) {
  const routes: RouteConfig = { waitMs: Number.POSITIVE_INFINITY, ...settings };
  await closeRoutePlanners();
  const p: TestPlatform = await loadingPlatform({ routes, routeCacheEntries: 0 });
  stops.push(async () => {
    await closeRoutePlanners();
    await p.close();
  });
  const tenant = await p.tenant({ paid: true, name: "Lanes" });
  await p.accounts.setPlan(tenant.orgId, { rateLimit: 1_000_000_000 });
  const pool = await routePlanner(p.config.buildDir, routes);
  if (!(pool instanceof RoutePool)) throw new Error("expected the route pool");
  const loadingHost = serveBun(p.apps.loading, "127.0.0.1", 0);
  const distanceHost = serveBun(p.apps.distance, "127.0.0.1", 0);
  stops.push(async () => {
    loadingHost.stop(true);
    distanceHost.stop(true);
  });
  const json = { "content-type": "application/json" };
  return {
    pool,
    plan: (body: unknown) =>
      fetch(`${loadingHost.url}v1/load-plans`, {
        method: "POST",
        body: JSON.stringify(body),
        ...bearer(tenant.keys.loading, json),
      }),
    route: (path: string) => fetch(`${distanceHost.url}${path.slice(1)}`, bearer(tenant.keys.distance)),
  };
}

/** Waits for `ready`, or for `settled` (the requests it watches answered without it). */
async function until(ready: () => boolean, settled: Promise<unknown>) {
  let done = false;
  void settled.finally(() => {
    done = true;
  });
  while (!ready() && !done) await Bun.sleep(1);
}

/** A 503 in the product's envelope: code overloaded (SERVICE_UNAVAILABLE on the load-plan host), Retry-After. */
async function expectShed(res: Response, product: "loading" | "distance"): Promise<string> {
  expect(res.status).toBe(503);
  expect(Number(res.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  const body = (await res.json()) as Record<string, unknown> & { error: { message: string } };
  expect(errorProblems(product, body)).toEqual([]);
  expect(errorCode(body)).toBe(product === "loading" ? "SERVICE_UNAVAILABLE" : "overloaded");
  return body.error.message;
}

test("with one worker, a sea route asked behind six large plans is answered while plans still wait", async () => {
  const s = await setUp({ workers: 1, queue: 8, lanes: { loadplan: 16 } });
  let plansAnswered = 0;
  const plans = Array.from({ length: 6 }, () =>
    s.plan(LARGE).then((res) => {
      plansAnswered++;
      return res;
    }),
  );
  await until(() => s.pool.stats().waiting >= 4, Promise.all(plans));
  const route = await s.route("/v1/distance/route?from=NLRTM&to=SGSIN");
  const { waiting } = s.pool.stats();
  expect(route.status).toBe(200);
  expect(waiting).toBeGreaterThan(0);
  expect(plansAnswered).toBeLessThan(6);
  // Each plan is made; none is dropped.
  expect((await Promise.all(plans)).map((res) => res.status)).toEqual(Array(6).fill(201));
}, 60_000);

test("with two workers, plans run on one at most and a route finds the other at once", async () => {
  const s = await setUp({ workers: 2, queue: 8 });
  const plans = Array.from({ length: 4 }, () => s.plan(LARGE));
  await until(() => s.pool.stats().waiting >= 3, Promise.all(plans));
  expect(s.pool.stats()).toMatchObject({ busy: 1, waiting: 3 });
  const route = await s.route(LONG);
  expect(route.status).toBe(200);
  expect(s.pool.stats().lanes.loadplan).toMatchObject({ running: 1, answered: 0 });
  for (const res of await Promise.all(plans)) if (res.status !== 201) await expectShed(res, "loading");
}, 60_000);

test("a full load-plan lane answers 503 with Retry-After in the load-plan envelope; routes keep their places", async () => {
  const s = await setUp({ workers: 1, queue: 4, lanes: { loadplan: 1 } });
  const plans = Array.from({ length: 4 }, () => s.plan(LARGE));
  await until(() => s.pool.stats().busy === 1, Promise.all(plans));
  const routes = await Promise.all(Array.from({ length: 3 }, () => s.route(LONG)));
  expect(routes.map((r) => r.status)).toEqual([200, 200, 200]);
  const answers = await Promise.all(plans);
  // One running and one waiting are taken; the other two are shed at once.
  expect(answers.map((r) => r.status).sort()).toEqual([201, 201, 503, 503]);
  for (const res of answers.filter((r) => r.status === 503)) await expectShed(res, "loading");
}, 60_000);

test("a full route lane answers 503 with Retry-After in the distance envelope; a load plan keeps its place", async () => {
  const s = await setUp({ workers: 1, queue: 1 });
  const first = s.plan(LARGE);
  await until(() => s.pool.stats().busy === 1, first);
  const routes = Array.from({ length: 4 }, () => s.route(LONG));
  await until(() => s.pool.stats().waiting === 1, Promise.all(routes));
  const second = await s.plan(BODY);
  expect(second.status).toBe(201);
  const answers = await Promise.all(routes);
  expect(answers.map((r) => r.status).sort()).toEqual([200, 503, 503, 503]);
  for (const res of answers.filter((r) => r.status === 503)) await expectShed(res, "distance");
  expect((await first).status).toBe(201);
}, 60_000);

test("a plan and a route waiting past the wait bound answer 503 while the plan ahead still runs", async () => {
  const s = await setUp({ workers: 1, queue: 8, waitMs: 100 });
  const order: string[] = [];
  const first = s.plan(LARGE).then((res) => {
    order.push(`plan ahead ${res.status}`);
    return res;
  });
  await until(() => s.pool.stats().busy === 1, first);
  const [plan, route] = await Promise.all([s.plan(LARGE), s.route(LONG)]);
  order.push(`waiting ${plan.status} ${route.status}`);
  expect(await expectShed(plan, "loading")).toContain("waited 0.1 s");
  expect(await expectShed(route, "distance")).toContain("waited 0.1 s");
  expect((await first).status).toBe(201);
  expect(order).toEqual(["waiting 503 503", "plan ahead 201"]);
}, 60_000);
