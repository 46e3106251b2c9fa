/**
 * A slow tenant's webhooks, the second section of bench/webhooks.ts (alone: `bun
 * bench/webhook-tenants.ts [--seconds 4]`). One server process serves ocean and load plans from a
 * SQLite file and runs the dispatcher in-process, as `npm start` does; an HTTPS receiver in this
 * process answers /ok/ paths at once and never answers /hang/ ones (the attempt times out after
 * 3 s). Organisation B probes ocean GET /v1/account with 4 clients and posts a load plan every
 * 50 ms; its one load-plan endpoint answers at once, and the lag is from the POST's answer to the
 * delivery's arrival. Measured in one run, each phase adding to the one before, against the first:
 *
 *   idle         nothing else;
 *   crowded      10,000 active load-plan endpoints of 200 other organisations that raise nothing
 *                (a plan write must not pay for them);
 *   slow tenant  organisation A with 50 load-plan endpoints on the hanging receiver posting 5 plans
 *                a second (250 deliveries a second that each hold a slot until the timeout);
 *   + 2 loops    2 clients looping A's GET /v1/account (A's rate limit lifted, as B's): what any 2
 *                busy clients cost, the reference for the next;
 *   + its lists  the same 2 clients looping A's GET /v1/webhooks instead.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { AccountsRepo } from "../api/accounts/repo.ts";
import { buildApps } from "../api/app.ts";
import { bootstrap } from "../api/bootstrap.ts";
import { loadConfig } from "../api/config.ts";
import { Dispatcher } from "../api/webhooks/dispatcher.ts";
import { openDatabase } from "../storage/sqlite.ts";
import { sqliteStorage } from "../storage/storage.ts";
import { freePort } from "../test/helpers/redis-server.ts";
import { makeCertificates } from "../test/webhooks/receiver.ts";
import { drive, fmt, type LoadResult } from "./http-driver.ts";

const PROBE_CLIENTS = 4;
const TIMEOUT_MS = 3000;
const B_PLAN_EVERY_MS = 50;
const A_PLANS_PER_SECOND = 5;
const A_ENDPOINTS = 50;
const CROWD = { orgs: 200, endpoints: 50 };
/** How long after a phase its deliveries to B may still arrive before they count as missing. */
const ARRIVAL_GRACE_MS = 20_000;
const PLAN = {
  name: "bench",
  dimension_unit: "cm",
  equipment: ["20GP"],
  items: [{ id: "crate", length: 60, width: 50, height: 40, weight: 40, quantity: 4 }],
  work_budget: 0,
};

/** Child mode: ocean and load plans from one process with the dispatcher in it, as `npm start` runs. */
async function serve(database: string, oceanPort: number, loadingPort: number): Promise<void> {
  const config = { ...loadConfig(), database, sandbox: false, roles: new Set(["api" as const]) };
  const platform = await bootstrap(config);
  const apps = buildApps(platform);
  Bun.serve({ hostname: "127.0.0.1", port: oceanPort, fetch: apps.ocean.fetch });
  Bun.serve({ hostname: "127.0.0.1", port: loadingPort, fetch: apps.loading.fetch });
  await Dispatcher.start(platform.storage, config.webhooks, { wakeups: platform.tracking.wakeups });
  console.log("ready");
}

/** The server process, its settings pointing the dispatcher at this process's receiver. */
async function startServer(database: string, ca: string) {
  const [oceanPort, loadingPort] = [await freePort(), await freePort()];
  const proc = Bun.spawn(
    [process.execPath, import.meta.path, "serve", database, String(oceanPort), String(loadingPort)],
    {
      env: {
        ...process.env,
        PORTOLAN_WEBHOOK_KEYS: `bench:${Buffer.alloc(32, 7).toString("base64")}`,
        PORTOLAN_WEBHOOK_ALLOW_PRIVATE: "1",
        PORTOLAN_WEBHOOK_CA_FILE: ca,
        PORTOLAN_WEBHOOK_RESOLVE: "hooks.test=127.0.0.1",
        PORTOLAN_WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS),
        // Plan events wait for a sweep: a short one keeps the idle lag small against what it measures.
        PORTOLAN_WEBHOOK_SWEEP_MS: "50",
      },
      stdout: "pipe",
      stderr: "inherit",
    },
  );
  await proc.stdout.getReader().read(); // "ready"
  const call: Call = (host, method, path, key, body) =>
    fetch(`http://127.0.0.1:${host === "ocean" ? oceanPort : loadingPort}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  return { call, oceanUrl: `http://127.0.0.1:${oceanPort}`, stop: () => proc.kill() };
}

/** The receiver: /ok/ answers 204 and notes when each plan's delivery arrived; /hang/ never answers. */
function receiver(certs: { cert: string; key: string }) {
  const arrived = new Map<string, number>();
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    tls: { cert: Bun.file(certs.cert), key: Bun.file(certs.key) },
    fetch: async (req) => {
      if (new URL(req.url).pathname.startsWith("/hang/")) return new Promise<Response>(() => {});
      const body = (await req.json()) as { data: { id: string } };
      if (!arrived.has(body.data.id)) arrived.set(body.data.id, performance.now());
      return new Response(null, { status: 204 });
    },
  });
  return { port: server.port, arrived, stop: () => server.stop(true) };
}

type Host = "ocean" | "loading";
type Call = (host: Host, method: string, path: string, key: string, body?: unknown) => Promise<Response>;

interface Ctx {
  call: Call;
  oceanUrl: string;
  bKeys: Record<Host, string>;
  arrived: Map<string, number>;
}

interface Phase {
  name: string;
  probe: LoadResult;
  posts: number[];
  lags: number[];
  missing: number;
}

const pct = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? Number.NaN;
};

/** A promise to stop a load with, and the function that resolves it. */
function stopper() {
  let stop = () => {};
  const stopped = new Promise<void>((r) => {
    stop = r;
  });
  return { stop, stopped };
}

/** `step` again and again until `stop` resolves, each at least `everyMs` after the last began; how many ran. */
async function loop(stop: Promise<void>, everyMs: number, step: () => Promise<void>): Promise<number> {
  let running = true;
  void stop.then(() => {
    running = false;
  });
  let n = 0;
  while (running) {
    const t0 = performance.now();
    await step();
    n++;
    const wait = everyMs - (performance.now() - t0);
    if (wait > 0) await Promise.race([stop, Bun.sleep(wait)]);
  }
  return n;
}

/** One phase: B's probes and paced plans for `seconds`, then the arrival of those plans' deliveries. */
async function measure(name: string, seconds: number, ctx: Ctx): Promise<Phase> {
  const { stop, stopped } = stopper();
  const answered = new Map<string, number>();
  const posts: number[] = [];
  const plans = loop(stopped, B_PLAN_EVERY_MS, async () => {
    const t0 = performance.now();
    const res = await ctx.call("loading", "POST", "/v1/load-plans", ctx.bKeys.loading, PLAN);
    const { data } = (await res.json()) as { data: { id: string } };
    answered.set(data.id, performance.now());
    posts.push(performance.now() - t0);
  });
  const auth = { headers: { authorization: `Bearer ${ctx.bKeys.ocean}` } };
  const probe = await drive(`${ctx.oceanUrl}/v1/account`, auth, { concurrency: PROBE_CLIENTS, seconds });
  stop();
  await plans;
  const deadline = performance.now() + ARRIVAL_GRACE_MS;
  while ([...answered.keys()].some((id) => !ctx.arrived.has(id)) && performance.now() < deadline)
    await Bun.sleep(50);
  const lags = [...answered]
    .filter(([id]) => ctx.arrived.has(id))
    .map(([id, at]) => ctx.arrived.get(id)! - at);
  return { name, probe, posts, lags, missing: answered.size - lags.length };
}

/** Other organisations' endpoints that never hear of an event: written straight to the database. */
async function crowd(database: string): Promise<void> {
  const storage = sqliteStorage(openDatabase(database));
  const now = new Date().toISOString();
  const rows = Array.from({ length: CROWD.orgs * CROWD.endpoints }, (_, i) => ({
    id: crypto.randomUUID(),
    orgId: `crowd-${Math.floor(i / CROWD.endpoints)}`,
    product: "loading",
    url: "https://hooks.test/ok/crowd",
    eventTypes: [],
    createdAt: now,
    secretHash: "bench",
    secretKeyId: "bench",
    secretSealed: "bench",
  }));
  for (let i = 0; i < rows.length; i += 500)
    await storage.db.insert(storage.t.webhookEndpoints).values(rows.slice(i, i + 500));
  await storage.close();
}

/** B (ocean and load plans) and A (load plans), their rate limits lifted. */
async function accounts(database: string) {
  const storage = sqliteStorage(openDatabase(database));
  const repo = new AccountsRepo(storage);
  const org = async (name: string, products: Host[]) => {
    const o = await repo.createOrg(name, { paid: true, rateLimit: 1_000_000_000 });
    const keys = {} as Record<Host, string>;
    for (const p of products) {
      await repo.setEntitlement(o.id, p, null);
      keys[p] = (await repo.createKey(o.id, p)).key;
    }
    return keys;
  };
  const b = await org("victim", ["ocean", "loading"]);
  const a = await org("slow tenant", ["loading"]);
  await storage.close();
  return { a, b };
}

/** The slow tenant's phases: its plans to hanging receivers, then 2 looping clients of each kind. */
async function slowPhases(seconds: number, ctx: Ctx, aKey: string, phases: Phase[]) {
  const plans = stopper();
  const planned = loop(plans.stopped, 1000 / A_PLANS_PER_SECOND, async () => {
    await (await ctx.call("loading", "POST", "/v1/load-plans", aKey, PLAN)).arrayBuffer();
  });
  await Bun.sleep(1000); // a backlog builds
  phases.push(await measure("slow tenant", seconds, ctx));
  const looped: Record<string, number> = {};
  for (const [name, path] of [
    ["  + 2 loops", "/v1/account"],
    ["  + its lists", "/v1/webhooks"],
  ] as const) {
    const loops = stopper();
    const gets = [1, 2].map(() =>
      loop(loops.stopped, 0, async () => {
        await (await ctx.call("loading", "GET", path, aKey)).arrayBuffer();
      }),
    );
    phases.push(await measure(name, seconds, ctx));
    loops.stop();
    looped[path] = (await Promise.all(gets)).reduce((x, y) => x + y, 0);
  }
  plans.stop();
  return { plans: await planned, looped };
}

export async function bench(seconds: number) {
  const dir = mkdtempSync(join(tmpdir(), "portolan-bench-tenants-"));
  const certs = makeCertificates(dir);
  const rx = receiver(certs);
  const database = join(dir, "bench.sqlite");
  const { a, b } = await accounts(database);
  const server = await startServer(database, certs.ca);
  try {
    const register = async (key: string, path: string) => {
      const url = `https://hooks.test:${rx.port}${path}`;
      const res = await server.call("loading", "POST", "/v1/webhooks", key, { url });
      if (res.status !== 201) throw new Error(`register ${path}: ${res.status} ${await res.text()}`);
    };
    await register(b.loading, "/ok/b");
    const ctx: Ctx = { call: server.call, oceanUrl: server.oceanUrl, bKeys: b, arrived: rx.arrived };
    await measure("warm-up", seconds, ctx); // code compiled before the first measured phase
    const phases = [await measure("idle", seconds, ctx)];
    await crowd(database);
    phases.push(await measure(`crowded (${CROWD.orgs * CROWD.endpoints} other endpoints)`, seconds, ctx));
    for (let i = 0; i < A_ENDPOINTS; i++) await register(a.loading, `/hang/a/${i}`);
    const slow = await slowPhases(seconds, ctx, a.loading, phases);
    return { phases, slow };
  } finally {
    server.stop();
    rx.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

export function report(r: Awaited<ReturnType<typeof bench>>, seconds: number): void {
  const idle = r.phases[0]!;
  const ms = (x: number, base: number) => `${x.toFixed(2)} ms (${(x / base).toFixed(1)}x)`;
  const at = (xs: number[], base: number[], q: number) => ms(pct(xs, q), pct(base, q));
  console.log(
    `a slow tenant's webhooks: org B's ocean GET /v1/account (${PROBE_CLIENTS} clients), its plan POSTs ` +
      `(one per ${B_PLAN_EVERY_MS} ms) and their deliveries; ${seconds} s a phase, ratios to idle; ` +
      "one process with the dispatcher, SQLite",
  );
  for (const p of r.phases) {
    console.log(p.name);
    console.log(`  account    ${fmt(p.probe)}`);
    console.log(
      `             p50 ${ms(p.probe.p50Ms, idle.probe.p50Ms)}  p99 ${ms(p.probe.p99Ms, idle.probe.p99Ms)}`,
    );
    console.log(`  plan POST  p50 ${at(p.posts, idle.posts, 0.5)}  p99 ${at(p.posts, idle.posts, 0.99)}`);
    console.log(
      `  B's lag    p50 ${at(p.lags, idle.lags, 0.5)}  p99 ${at(p.lags, idle.lags, 0.99)}  ` +
        `(${p.missing} of ${p.lags.length + p.missing} not arrived within ${ARRIVAL_GRACE_MS / 1000} s)`,
    );
  }
  console.log(
    `slow tenant: ${r.slow.plans} plans (${r.slow.plans * A_ENDPOINTS} deliveries to receivers that never ` +
      `answer, ${TIMEOUT_MS / 1000} s timeout); looped ${Object.entries(r.slow.looped)
        .map(([path, n]) => `${n} GET ${path}`)
        .join(", ")}`,
  );
}

if (import.meta.main) {
  const { values, positionals } = parseArgs({
    args: Bun.argv.slice(2),
    allowPositionals: true,
    options: { seconds: { type: "string", default: "4" } },
  });
  if (positionals[0] === "serve") {
    await serve(positionals[1]!, Number(positionals[2]), Number(positionals[3]));
  } else {
    const seconds = Number(values.seconds);
    report(await bench(seconds), seconds);
  }
}
