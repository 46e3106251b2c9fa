/**
 * With REDIS_URL set and Redis down, keyed and per-IP-limited routes must not answer 500 after
 * a 5 s wait (node-redis's offline queue and default command timeout) while /healthz says ok.
 * The policy is to fail open: the in-process window decides, the compat cache
 * and usage counters work in the process, one warning per transition, health reports the state,
 * and the shared window is used again once Redis is back. A real redis-server is killed, stalled
 * (SIGSTOP) and restarted on the same port (with an append-only file, so its data survives).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "redis";
import { closeCompat } from "../../api/compat/routes.ts";
import { health } from "../../api/shared/health.ts";
import { type CompatWorld, compatGet, compatWorld } from "../compat/setup.ts";
import { type CapturedLogs, captureLogs } from "../helpers/logs.ts";
import { bearer, makePlatform } from "../helpers/platform.ts";
import { freePort } from "../helpers/redis-server.ts";

/** A redis-server that can be stopped and started again on the same port, keeping its data. */
class Redis {
  proc: ReturnType<typeof Bun.spawn> | null = null;
  constructor(
    readonly port: number,
    readonly dir: string,
  ) {}
  get url() {
    return `redis://127.0.0.1:${this.port}`;
  }
  async start() {
    this.proc = Bun.spawn(
      [
        "redis-server",
        ...["--port", String(this.port), "--bind", "127.0.0.1", "--save", ""],
        ...["--appendonly", "yes", "--appendfsync", "always", "--dir", this.dir],
      ],
      { stdout: "ignore", stderr: "ignore" },
    );
    await until(`redis on ${this.port}`, async () => {
      try {
        const sock = await Bun.connect({ hostname: "127.0.0.1", port: this.port, socket: { data() {} } });
        sock.end();
        return true;
      } catch {
        return false;
      }
    });
  }
  async stop() {
    this.proc?.kill();
    await this.proc?.exited;
    this.proc = null;
  }
  signal(sig: "SIGSTOP" | "SIGCONT") {
    this.proc?.kill(sig);
  }
}

/** Polls `cond` until it holds; bounded, never a timing assertion. */
async function until(what: string, cond: () => boolean | Promise<boolean>, ms = 20_000) {
  const deadline = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(50);
  }
}

const statuses = async (n: number, send: () => Promise<Response>) => {
  const out: Response[] = [];
  for (let i = 0; i < n; i++) out.push(await send());
  return out;
};
const count = (rs: Response[], s: number) => rs.filter((r) => r.status === s).length;

let dir: string;
let redis: Redis;
let w: CompatWorld;
let freeKey: string;
let freeOrg: string;
let logs: CapturedLogs;
const redisWarnings = (re: RegExp) =>
  logs.lines.filter((l) => l.level === 40 && String(l.msg).startsWith("redis ") && re.test(String(l.msg)))
    .length;
const admin = () => createClient({ url: redis.url });

beforeAll(async () => {
  logs = captureLogs("warn");
  dir = mkdtempSync(join(tmpdir(), "portolan-redis-down-"));
  redis = new Redis(await freePort(), dir);
  await redis.start();
  // A long window so nothing rolls out of it during the test; trustProxy for per-IP buckets.
  w = await compatWorld({ config: { redisUrl: redis.url, trustProxy: true, rateWindowMs: 600_000 } });
  const org = await w.p.accounts.createOrg("free", { paid: false, plan: "free" });
  await w.p.accounts.setEntitlement(org.id, "ocean", null);
  await w.p.accounts.setEntitlement(org.id, "rates", null);
  freeOrg = org.id;
  freeKey = (await w.p.accounts.createKey(org.id, "ocean")).key;
});
afterAll(async () => {
  await w?.close();
  redis?.signal("SIGCONT");
  await redis?.stop();
  logs?.restore();
  rmSync(dir, { recursive: true, force: true });
});

const account = () => w.p.call("ocean", "/v1/account", bearer(freeKey));
const openRoute = () =>
  w.p.call("schedules", "/public/v1/ping", { headers: { "x-forwarded-for": "198.51.100.7" } });
const usageTotal = async (ref: string) => {
  const r = await compatGet(w, { number: ref });
  expect(r.status).toBe(200);
  expect(r.body.status).toBe("success");
  return Number(r.headers.get("x-usage-total"));
};

describe("REDIS_URL set", () => {
  test("Redis up: shared window, shared counters, health ok", async () => {
    const rs = await statuses(5, account);
    expect(rs.map((r) => r.headers.get("x-ratelimit-remaining"))).toEqual(["39", "38", "37", "36", "35"]);
    const a = admin();
    await a.connect();
    expect(await a.zCard(`portolan:rl:acct:ocean:${freeOrg}`)).toBe(5);
    await a.quit();
    expect(await usageTotal("MAEU0712717")).toBe(1);
    expect(await usageTotal("MAEU0712717")).toBe(2);
    expect(w.proxy.asked("MAEU0712717")).toBe(1);
    expect(health(w.p)).toEqual({ status: "ok", dependencies: { redis: "up" } });
    expect(redisWarnings(/./)).toBe(0);
  });

  test("Redis killed: the in-process window answers 200 then 429, never 500; health degraded", async () => {
    await redis.stop();
    await until("health to notice", () => health(w.p).status === "degraded");
    expect(health(w.p)).toEqual({ status: "degraded", dependencies: { redis: "down" } });
    // What monitors see over HTTP: still 200, the dependency named.
    const probe = await w.p.call("ocean", "/healthz");
    expect(probe.status).toBe(200);
    expect(((await probe.json()) as { data: unknown }).data).toEqual({
      product: "ocean",
      status: "degraded",
      dependencies: { redis: "down" },
    });
    // Readiness names Redis degraded and stays ready: every use of it falls back.
    const ready = await w.p.call("ocean", "/readyz");
    expect([ready.status, await ready.json()]).toEqual([
      200,
      { status: "ready", checks: { database: { status: "up" }, redis: { status: "degraded" } } },
    ]);

    // Keyed: a fresh local window of 40 (the 5 shared hits are not known here), then 429.
    const keyed = await statuses(45, account);
    expect(count(keyed, 200)).toBe(40);
    expect(count(keyed, 429)).toBe(5);
    expect(keyed[0]!.headers.get("x-ratelimit-remaining")).toBe("39");
    expect(keyed[39]!.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(Number(keyed[44]!.headers.get("retry-after"))).toBeGreaterThan(0);
    // Another product's bucket of the same account is separate.
    const rates = await w.p.accounts.createKey(freeOrg, "rates");
    expect((await w.p.call("rates", "/v1/account", bearer(rates.key))).status).toBe(200);

    // Per-IP limited open route: 40 pass (404: no such route, still counted), then 429.
    const open = await statuses(41, openRoute);
    expect(count(open, 404)).toBe(40);
    expect(open[40]!.status).toBe(429);

    // Compat: answers cached in memory (the carrier is asked once), calls counted on top of the
    // last shared count this process saw.
    expect(await usageTotal("MSCU5226569")).toBe(3);
    expect(await usageTotal("MSCU5226569")).toBe(4);
    expect(w.proxy.asked("MSCU5226569")).toBe(1);

    // One warning for the outage, not one per request.
    expect(redisWarnings(/is down/)).toBe(1);
    expect(health(w.p).status).toBe("degraded");
  });

  test("Redis back on the same port: shared window and counters again, health ok", async () => {
    await redis.start();
    await until("health to recover", () => health(w.p).status === "ok");
    expect(health(w.p)).toEqual({ status: "ok", dependencies: { redis: "up" } });

    // The local window is spent (it would answer 429); the shared one holds the 5 earlier hits.
    const res = await account();
    expect(res.status).toBe(200);
    expect(res.headers.get("x-ratelimit-remaining")).toBe("34");
    // The IP spent its local window during the outage; Redis never saw it.
    expect((await openRoute()).status).toBe(404);

    // The two calls counted during the outage were added to Redis: 2 + 2 + this one.
    expect(await usageTotal("MAEU0712717")).toBe(5);
    const a = admin();
    await a.connect();
    const keys = await a.keys("portolan:compat:usage:key:*:all");
    expect(keys.length).toBe(1);
    expect(await a.get(keys[0]!)).toBe("5");
    await a.quit();

    expect(redisWarnings(/is down/)).toBe(1);
    expect(redisWarnings(/back up/)).toBe(1);
  });

  test("a stalled Redis (SIGSTOP) is bounded by the command timeout, then skipped until it answers", async () => {
    const org = await w.p.accounts.createOrg("stalled", { paid: false, plan: "free" });
    await w.p.accounts.setEntitlement(org.id, "air", null);
    const { key } = await w.p.accounts.createKey(org.id, "air");
    const call = () => w.p.call("air", "/v1/account", bearer(key));
    redis.signal("SIGSTOP");
    try {
      // The first call waits for the timeout and falls back; later ones fall back at once.
      const rs = await statuses(10, call);
      expect(count(rs, 200)).toBe(10);
      expect(rs.map((r) => r.headers.get("x-ratelimit-remaining"))).toEqual([
        "39",
        "38",
        "37",
        "36",
        "35",
        "34",
        "33",
        "32",
        "31",
        "30",
      ]);
      expect(health(w.p)).toEqual({ status: "degraded", dependencies: { redis: "down" } });
    } finally {
      redis.signal("SIGCONT");
    }
    await until("the probe to see Redis answer", () => health(w.p).status === "ok");
    expect((await account()).headers.get("x-ratelimit-remaining")).toBe("33");
    expect(redisWarnings(/is down/)).toBe(2);
    expect(redisWarnings(/back up/)).toBe(2);
  });
});

test("Redis down at start-up: the process starts degraded and picks Redis up when it appears", async () => {
  const late = new Redis(await freePort(), mkdtempSync(join(dir, "late-")));
  const p = await makePlatform({ redisUrl: late.url, rateWindowMs: 600_000 });
  try {
    expect(health(p)).toEqual({ status: "degraded", dependencies: { redis: "down" } });
    const { keys, orgId } = await p.tenant();
    const first = await p.call("distance", "/v1/account", bearer(keys.distance));
    expect(first.status).toBe(200);
    expect(first.headers.get("x-ratelimit-remaining")).toBe("39");
    await late.start();
    await until("the reconnect", () => health(p).status === "ok");
    expect((await p.call("distance", "/v1/account", bearer(keys.distance))).status).toBe(200);
    const a = createClient({ url: late.url });
    await a.connect();
    expect(await a.zCard(`portolan:rl:acct:distance:${orgId}`)).toBe(1);
    await a.quit();
  } finally {
    await closeCompat(p);
    await p.close();
    await late.stop();
  }
});

test("without REDIS_URL health has no dependencies and says ok", async () => {
  const p = await makePlatform();
  expect(health(p)).toEqual({ status: "ok", dependencies: {} });
  await p.close();
});
