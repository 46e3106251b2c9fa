/**
 * Load plans on the route workers: a large plan in flight leaves the event loop free
 * (/healthz and /v1/account answer before it), the pool's plans and LoadPlanErrors are the
 * in-thread planner's, a worker killed mid-plan answers 503 overloaded + Retry-After and is
 * replaced, and PORTOLAN_ROUTE_WORKERS=0 still plans on the serving thread.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { loadPlannerFor } from "../../api/loading/routes.ts";
import { LoadPlanError } from "../../engine/loadplan/errors.ts";
import type { LoadPlanInput } from "../../engine/loadplan/types.ts";
import { RoutePool } from "../../engine/sea/pool.ts";
import { closeRoutePlanners, routePlanner } from "../../engine/services.ts";
import type { TestPlatform } from "../helpers/platform.ts";
import { apiOf, BODY, boxTypes, LARGE, loadingPlatform, loadingTenant, storedPlans } from "./setup.ts";

const ITEMS = boxTypes(30);

let p: TestPlatform;
let tenant: { orgId: string; key: string };
let api: ReturnType<typeof apiOf>;
let pool: RoutePool;

beforeAll(async () => {
  // One worker, so "busy" names the worker planning our request; a pool another file left
  // behind may have other settings.
  await closeRoutePlanners();
  p = await loadingPlatform({ routes: { workers: 1, queue: 8 } });
  tenant = await loadingTenant(p, "Pooled Loads");
  api = apiOf(p, tenant.key);
  const planner = await routePlanner(p.config.buildDir, p.config.routes);
  if (!(planner instanceof RoutePool)) throw new Error("expected the route pool");
  pool = planner;
}, 60_000);
afterAll(async () => {
  await closeRoutePlanners();
  await p?.close();
});

/** Waits for `ready`, or for `settled` (the request it watches answered without it). */
const until = async (ready: () => boolean, settled: Promise<unknown>) => {
  let done = false;
  void settled.finally(() => {
    done = true;
  });
  while (!ready() && !done) await Bun.sleep(1);
};

test("while a large plan runs, /healthz and /v1/account answer before it", async () => {
  const order: string[] = [];
  const planned = api("POST", "/v1/load-plans", LARGE).then((r) => {
    order.push("plan");
    return r;
  });
  // In flight on the worker; planned on this thread it would finish before anything else ran.
  await until(() => pool.stats().busy === 1, planned);
  const health = await p.call("loading", "/healthz");
  order.push("healthz");
  const account = await api("GET", "/v1/account");
  order.push("account");
  const plan = await planned;
  expect([health.status, account.status, plan.status]).toEqual([200, 200, 201]);
  expect(order).toEqual(["healthz", "account", "plan"]);
  expect(plan.body.data.status).toBe("complete");
});

const inputs: Array<[string, LoadPlanInput]> = [
  ["one greedy pass", { items: ITEMS, dimensionUnit: "cm", equipment: ["20GP"], workBudget: 0 }],
  [
    "default budget, mixed units, cheapest",
    {
      items: ITEMS.slice(0, 6),
      dimensionUnit: "cm",
      equipment: [
        { type: "20GP", cost: 1800 },
        { type: "40GP", cost: 2600 },
        { type: "40HC", cost: 2900 },
      ],
      objective: "cheapest",
    },
  ],
];

test.each(inputs)("the pool plans exactly as this thread: %s", async (_, input) => {
  const here = (await loadPlannerFor(p.config.buildDir)).plan(input);
  expect(await pool.planLoad(input)).toStrictEqual(here);
});

const invalid: Array<[string, unknown]> = [
  ["no items", { items: [], dimensionUnit: "cm", equipment: ["20GP"] }],
  ["negative width", { items: [{ ...ITEMS[0], width: -1 }], dimensionUnit: "cm", equipment: ["20GP"] }],
  ["unknown equipment", { items: ITEMS, dimensionUnit: "cm", equipment: ["99XX"] }],
];

test.each(invalid)("a refused input crosses as the same LoadPlanError: %s", async (_, input) => {
  const planner = await loadPlannerFor(p.config.buildDir);
  const here = (() => {
    try {
      planner.plan(input);
    } catch (err) {
      return err;
    }
  })();
  const there = await pool.planLoad(input as LoadPlanInput).catch((err: unknown) => err);
  expect(here).toBeInstanceOf(LoadPlanError);
  expect(there).toBeInstanceOf(LoadPlanError);
  const parts = (e: LoadPlanError) => ({ code: e.code, message: e.message, field: e.field });
  expect(parts(there as LoadPlanError)).toEqual(parts(here as LoadPlanError));
  expect((there as LoadPlanError).code).toBe("invalid_request");
});

test("a worker killed mid-plan answers 503 overloaded with Retry-After; the next plan is served", async () => {
  const before = (await storedPlans(p, tenant.orgId)).length;
  const planned = api("POST", "/v1/load-plans", LARGE);
  await until(() => pool.stats().busy === 1, planned);
  expect(pool.stats().busy).toBe(1);
  const [victim] = pool.threads();
  await victim!.terminate();
  const lost = await planned;
  expect(lost.status).toBe(503);
  expect(lost.headers.get("retry-after")).toBe("1");
  expect(lost.body).toMatchObject({ ok: false, error: { code: "SERVICE_UNAVAILABLE" } });
  expect((await storedPlans(p, tenant.orgId)).length).toBe(before);
  const next = await api("POST", "/v1/load-plans", BODY);
  expect(next.status).toBe(201);
  expect(pool.threads()[0]).not.toBe(victim);
});

test("PORTOLAN_ROUTE_WORKERS=0 plans on the serving thread, with the same answer", async () => {
  const local = await loadingPlatform({ routes: { workers: 0, queue: 0 } });
  try {
    const localApi = apiOf(local, (await loadingTenant(local, "In-thread Loads")).key);
    const [here, there] = [
      await localApi("POST", "/v1/load-plans", BODY),
      await api("POST", "/v1/load-plans", BODY),
    ];
    expect([here.status, there.status]).toEqual([201, 201]);
    const planOf = (r: typeof here) => ({ units: r.body.data.units, unplaced: r.body.data.unplaced });
    expect(planOf(here)).toEqual(planOf(there));
  } finally {
    await local.close();
  }
});
