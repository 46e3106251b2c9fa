/**
 * Two API processes (two platforms over one SQLite file) sharing a real Redis: the answer cache,
 * the claim that keeps them from asking the carrier twice, and the usage counters are shared.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { closeCompat } from "../../api/compat/routes.ts";
import { SANDBOX_SCACS } from "../../ingest/sandbox/world.ts";
import { ManualClock, makePlatform, type TestPlatform } from "../helpers/platform.ts";
import { type RedisProcess, startRedis } from "../helpers/redis-server.ts";
import { type RunningSandbox, startSandbox } from "../sandbox/spawn.ts";
import { type CountingProxy, countingProxy, type Json } from "./setup.ts";

let redis: RedisProcess;
let sandbox: RunningSandbox;
let proxy: CountingProxy;
let dir: string;
const api: TestPlatform[] = [];
let key: string;

beforeAll(async () => {
  const start = "2026-11-21T12:00:00Z";
  [redis, sandbox] = await Promise.all([startRedis(), startSandbox({ SANDBOX_START: start })]);
  proxy = countingProxy(sandbox.url);
  dir = mkdtempSync(join(tmpdir(), "compat-redis-"));
  const clock = new ManualClock(Date.parse(start));
  for (let i = 0; i < 2; i++) {
    api.push(
      await makePlatform(
        {
          database: join(dir, "portolan.sqlite"),
          redisUrl: redis.url,
          carriers: SANDBOX_SCACS.map((scac) => ({ scac, baseUrl: `${proxy.url}/${scac}` })),
        },
        clock.now,
      ),
    );
  }
  const org = await api[0]!.accounts.createOrg("shared", { paid: true, rateLimit: 1_000_000 });
  await api[0]!.accounts.setEntitlement(org.id, "ocean", null);
  key = (await api[0]!.accounts.createKey(org.id, "ocean")).key;
});
afterAll(async () => {
  for (const p of api) {
    await closeCompat(p);
    await p.close();
  }
  proxy.stop();
  await Promise.all([sandbox.stop(), redis.stop()]);
  rmSync(dir, { recursive: true, force: true });
});

const poll = (p: TestPlatform, ref: string) =>
  p.call("ocean", `/compat/vendor/tracking?api_key=${key}&number=${ref}`);

test("parallel polls on two processes: one carrier call, one answer, shared counters", async () => {
  const ref = "MAEU0712717";
  const responses = await Promise.all(Array.from({ length: 40 }, (_, i) => poll(api[i % 2]!, ref)));
  const bodies = (await Promise.all(responses.map((r) => r.json()))) as Json[];
  expect(bodies.every((b) => b.status === "success")).toBe(true);
  expect(proxy.asked(ref)).toBe(1);
  const months = responses.map((r) => Number(r.headers.get("x-usage-month"))).sort((a, b) => a - b);
  expect(months).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
  const used = bodies.map((b) => ((b.data as Json).metadata as Json).api_calls as Json).map((c) => c.used);
  expect(Math.max(...(used as number[]))).toBe(40);
});
