import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { errorCode } from "../helpers/envelopes.ts";
import { bearer, ManualClock, makePlatform } from "../helpers/platform.ts";
import { type RedisProcess, startRedis } from "../helpers/redis-server.ts";

const burst = async (n: number, send: () => Promise<Response>) => {
  const statuses: number[] = [];
  for (let i = 0; i < n; i++) statuses.push((await send()).status);
  return statuses;
};
const count = (xs: number[], s: number) => xs.filter((x) => x === s).length;

test("free plan: 40 per rolling 20 s window, 429 VALIDATION_ERROR after, headers on every keyed response", async () => {
  const clock = new ManualClock();
  const p = await makePlatform({}, clock.now);
  const { keys } = await p.tenant();
  const first = await p.call("ocean", "/v1/account", bearer(keys.ocean));
  expect(first.headers.get("x-ratelimit-limit")).toBe("40");
  expect(first.headers.get("x-ratelimit-remaining")).toBe("39");
  expect(Number(first.headers.get("x-ratelimit-reset"))).toBe(Math.ceil((clock.t + 20_000) / 1000));
  expect(count(await burst(39, () => p.call("ocean", "/v1/account", bearer(keys.ocean))), 200)).toBe(39);
  const over = await p.call("ocean", "/v1/account", bearer(keys.ocean));
  expect(over.status).toBe(429);
  const body = (await over.json()) as Record<string, unknown>;
  expect(errorCode(body)).toBe("VALIDATION_ERROR");
  expect(JSON.stringify(body)).toMatch(/rate limit exceeded/i);
  expect(over.headers.get("x-ratelimit-remaining")).toBe("0");
  expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
  await p.close();
});

test.each(["air", "rates", "distance", "schedules", "loading"] as const)(
  "%s: the burst 429 carries the spec's validation code in the product's spelling",
  async (id) => {
    const p = await makePlatform({}, new ManualClock().now);
    const { keys } = await p.tenant();
    await burst(40, () => p.call(id, "/v1/account", bearer(keys[id])));
    const over = await p.call(id, "/v1/account", bearer(keys[id]));
    expect(over.status).toBe(429);
    const lower = id === "air" || id === "rates" || id === "distance";
    expect(errorCode((await over.json()) as Record<string, unknown>)).toBe(
      lower ? "invalid_request" : "VALIDATION_ERROR",
    );
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
    await p.close();
  },
);

test("the window rolls: requests leaving it free exactly that much capacity", async () => {
  const clock = new ManualClock();
  const p = await makePlatform({}, clock.now);
  const { keys } = await p.tenant();
  const call = () => p.call("distance", "/v1/account", bearer(keys.distance));
  await burst(10, call); // t = 0
  clock.advance(10_000);
  expect(count(await burst(35, call), 200)).toBe(30); // t = 10 s: 30 more fit, 5 rejected
  clock.advance(9_999); // t = 19.999 s: the first ten are still inside the window
  expect((await call()).status).toBe(429);
  clock.advance(1); // t = 20 s: the first ten leave, exactly ten slots come back
  const statuses = await burst(11, call);
  expect(count(statuses, 200)).toBe(10);
  expect(statuses[10]).toBe(429);
  // Rejected requests were not counted: once the t=10 s batch leaves, 30 more are admitted.
  clock.advance(10_000);
  expect(count(await burst(31, call), 200)).toBe(30);
  await p.close();
});

test("paid plan gets 120; accounts and products are limited independently", async () => {
  const clock = new ManualClock();
  const p = await makePlatform({}, clock.now);
  const paid = await p.tenant({ paid: true });
  const free = await p.tenant();
  const paidRes = await burst(121, () => p.call("ocean", "/v1/account", bearer(paid.keys.ocean)));
  expect(count(paidRes, 200)).toBe(120);
  expect(paidRes[120]).toBe(429);
  expect(
    (await p.call("ocean", "/v1/account", bearer(free.keys.ocean))).headers.get("x-ratelimit-limit"),
  ).toBe("40");
  // The paid account's ocean window is spent, its rates window is untouched.
  expect((await p.call("rates", "/v1/account", bearer(paid.keys.rates))).status).toBe(200);
  await p.close();
});

test("open routes are limited per client IP", async () => {
  const clock = new ManualClock();
  const p = await makePlatform({ trustProxy: true }, clock.now);
  const from = (ip: string) => () =>
    p.call("schedules", "/public/v1/ping", { headers: { "x-forwarded-for": ip } });
  const a = await burst(41, from("203.0.113.7"));
  expect(count(a, 404)).toBe(40); // an open route that does not exist still counts against the IP
  expect(a[40]).toBe(429);
  expect((await from("203.0.113.8")()).status).toBe(404);
  await p.close();
});

let redis: RedisProcess;
let dir: string;
beforeAll(async () => {
  redis = await startRedis();
  dir = mkdtempSync(join(tmpdir(), "portolan-rl-"));
});
afterAll(async () => {
  await redis.stop();
  rmSync(dir, { recursive: true, force: true });
});

test("with REDIS_URL two API instances share one window", async () => {
  const database = join(dir, "shared.sqlite");
  const a = await makePlatform({ database, redisUrl: redis.url });
  const b = await makePlatform({ database, redisUrl: redis.url });
  const { keys } = await a.tenant({ name: "shared" });
  const results = await Promise.all(
    Array.from({ length: 50 }, (_, i) => (i % 2 ? a : b).call("ocean", "/v1/account", bearer(keys.ocean))),
  );
  const statuses = results.map((r) => r.status);
  expect(count(statuses, 200)).toBe(40);
  expect(count(statuses, 429)).toBe(10);
  const remaining = results
    .filter((r) => r.status === 200)
    .map((r) => Number(r.headers.get("x-ratelimit-remaining")));
  expect(remaining.sort((x, y) => x - y)).toEqual(Array.from({ length: 40 }, (_, i) => i));
  await a.close();
  await b.close();
});

test("Redis window rolls too (short window) and survives a script-cache flush", async () => {
  const p = await makePlatform({ redisUrl: redis.url, rateWindowMs: 1500 });
  const { keys } = await p.tenant({ name: "roll" });
  const call = () => p.call("air", "/v1/account", bearer(keys.air));
  expect(count(await burst(41, call), 200)).toBe(40);
  await Bun.sleep(1600);
  const { createClient } = await import("redis");
  const admin = createClient({ url: redis.url });
  await admin.connect();
  await admin.scriptFlush();
  await admin.quit();
  expect(count(await burst(41, call), 200)).toBe(40);
  await p.close();
});

test("an arranged per-account ceiling overrides the plan's window limit", async () => {
  const clock = new ManualClock();
  const p = await makePlatform({}, clock.now);
  const org = await p.accounts.createOrg("arranged", { paid: true, rateLimit: 5 });
  const { key } = await p.accounts.createKey(org.id, "rates");
  const statuses = await burst(6, () => p.call("rates", "/v1/account", bearer(key)));
  expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  await p.close();
});
