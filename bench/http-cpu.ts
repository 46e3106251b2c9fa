/**
 * What the HTTP path costs beside the computation: a server process (bench/servers.ts, route cache
 * off) answers bench/http.ts's distinct sea route pairs, cycled, and its CPU time (user + system,
 * every thread, /proc/<pid>/stat) is divided by the requests it answered; in the same run one
 * thread plans the same pairs in process, through the distance engine (resolution, policy,
 * rendering) and through SeaRouter.planJson alone (what a route worker calls), and a bare Bun.serve
 * answers one route's bytes (the HTTP floor); the same server's keyed GET /v1/account is the
 * request layer's own cost (auth, rate window, plugins, envelope, access line). The server runs
 * with its route workers and again with PORTOLAN_ROUTE_WORKERS=0. Prints microseconds of CPU per
 * request, by thread kind too, and the ratios (goal: server / planJson <= 1.5).
 * Usage: bun bench/http-cpu.ts [--seconds N] [--warm N]
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DistanceEngine } from "../engine/distance/engine.ts";
import { parseRouteQuery, type RouteQuery } from "../engine/distance/requests.ts";
import { geocoderConfig } from "../engine/locations/config.ts";
import { roadConfig } from "../engine/road/config.ts";
import type { SeaPlanner } from "../engine/sea/pool.ts";
import { type SeaRouteRequest, SeaRouter } from "../engine/sea/router.ts";
import { BUILD_DIR } from "../test/distance-sea/fixture.ts";
import { benchKeys, CACHE_OFF, routerPairs, startServer } from "./http.ts";
import { cpuSecondsByThread, cpuSecondsOf, drive, threadCpuBetween } from "./http-driver.ts";

const option = (name: string, fallback: number) =>
  Number(process.argv[process.argv.indexOf(name) + 1]) || fallback;
const seconds = option("--seconds", 5);
/** Long enough for the JIT to settle on the server's threads: after 2 s it costs 30-50 us a request. */
const warmSeconds = option("--warm", 10);
const CONCURRENCY = 8;
const PAIRS = routerPairs();
const pathOf = (i: number) => `/v1/distance/route?${PAIRS[i % PAIRS.length]}&alternatives=false`;

/**
 * Microseconds of server CPU per answered request while `url` is driven for `seconds`: in all, and
 * by thread kind (cpuSecondsByThread).
 */
async function serverCpu(pid: number, url: (i: number) => string, init: RequestInit, warm: number) {
  // Warm: every pair several times (the JIT, the lazily loaded planners, the resolved ends).
  await drive(url, init, { concurrency: CONCURRENCY, seconds: warm });
  const [c0, t0] = [cpuSecondsOf(pid)!, cpuSecondsByThread(pid)];
  const load = await drive(url, init, { concurrency: CONCURRENCY, seconds });
  const [c1, t1] = [cpuSecondsOf(pid)!, cpuSecondsByThread(pid)];
  if (load.non2xx > 0) throw new Error(`${load.non2xx} of ${load.requests} requests failed`);
  const perRequest = (s: number) => (s * 1e6) / load.requests;
  const threads = Object.entries(threadCpuBetween(t0, t1)).map(
    ([kind, s]) => `${kind} ${perRequest(s).toFixed(1)}`,
  );
  return { usPerRequest: perRequest(c1 - c0), requests: load.requests, rps: load.rps, threads };
}

/** Microseconds of this thread's CPU per call of `run` over `items`, after a warm-up pass. */
async function inProcessCpu<T>(items: T[], reps: number, run: (item: T) => unknown): Promise<number> {
  for (const item of items) await run(item);
  const c0 = process.cpuUsage();
  for (let k = 0; k < reps; k++) for (const item of items) await run(item);
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / (reps * items.length);
}

/** The server's CPU per request with `env` (by thread kind too) and its first answer. */
async function portolanCpu(database: string, init: RequestInit, env: Record<string, string>) {
  const ours = await startServer(["portolan", database, "distance"], { ...CACHE_OFF, ...env });
  try {
    const url = (i: number) => `http://127.0.0.1:${ours.port}${pathOf(i)}`;
    const body = await (await fetch(url(0), init)).text();
    const routes = await serverCpu(ours.pid, url, init, warmSeconds);
    // The request layer alone on the same server: auth, rate window, plugins, envelope, access line.
    const account = await serverCpu(ours.pid, () => `http://127.0.0.1:${ours.port}/v1/account`, init, 2);
    return { ...routes, body, account };
  } finally {
    ours.stop();
  }
}

async function overHttp() {
  const dir = mkdtempSync(join(tmpdir(), "portolan-bench-"));
  try {
    const database = join(dir, "bench.sqlite");
    const keys = await benchKeys(database, ["distance"]);
    const init = { headers: { authorization: `Bearer ${keys.distance}` } };
    const pooled = await portolanCpu(database, init, {});
    // The routes planned on the serving thread: what the worker round trip adds.
    const inThread = await portolanCpu(database, init, { PORTOLAN_ROUTE_WORKERS: "0" });
    const bodyFile = join(dir, "body.json");
    writeFileSync(bodyFile, pooled.body);
    const bare = await startServer(["bare", bodyFile]);
    try {
      const floor = await serverCpu(bare.pid, () => `http://127.0.0.1:${bare.port}${pathOf(0)}`, init, 2);
      return { pooled, inThread, floor };
    } finally {
      bare.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function inProcess() {
  const router = await SeaRouter.load(BUILD_DIR);
  const requests: SeaRouteRequest[] = [];
  // The engine on this thread, its sea routes planned by the same router and kept for the planJson row.
  const planner: SeaPlanner = {
    plan: async (request) => router.plan(request),
    planJson: async (request) => {
      requests.push(request);
      return router.planJson(request);
    },
  };
  const routes = { workers: 0, queue: 0 };
  const config = { buildDir: BUILD_DIR, routes, road: roadConfig({}), geocoder: geocoderConfig({}) };
  const engine = new DistanceEngine({ ...config, routeCacheEntries: 0 }, { routes: planner });
  const queries = PAIRS.map(
    (p) => Object.fromEntries(new URLSearchParams(`${p}&alternatives=false`)) as unknown as RouteQuery,
  );
  const engineUs = await inProcessCpu(queries, 5, (q) => engine.route(parseRouteQuery(q)));
  const planned = requests.slice(0, PAIRS.length);
  const planJsonUs = await inProcessCpu(planned, 5, (r) => router.planJson(r));
  return { engineUs, planJsonUs };
}

const { pooled, inThread, floor } = await overHttp();
const { engineUs, planJsonUs } = await inProcess();
const us = (n: number) => `${n.toFixed(1).padStart(8)} us`;
const row = (name: string, n: number, note: string) => console.log(`  ${name.padEnd(34)}${us(n)}  ${note}`);
const served = (r: Awaited<ReturnType<typeof serverCpu>>) =>
  `(${r.requests} requests, ${r.rps.toFixed(0)} req/s; by thread: ${r.threads.join(", ")})`;
console.log(`sea routes, ${PAIRS.length} distinct pairs cycled, route cache off, ${CONCURRENCY} clients`);
row("server, route workers", pooled.usPerRequest, served(pooled));
row("server, PORTOLAN_ROUTE_WORKERS=0", inThread.usPerRequest, served(inThread));
row("server, keyed GET /v1/account", pooled.account.usPerRequest, served(pooled.account));
row("bare Bun.serve, the first's bytes", floor.usPerRequest, `(${floor.requests} requests)`);
row("engine.route in process", engineUs, "(one thread: resolution, planJson)");
row("SeaRouter.planJson", planJsonUs, "(one thread)");
const ratio = (name: string, a: number, b: number, note = "") =>
  console.log(`  ${name.padEnd(44)}${(a / b).toFixed(2)}${note}`);
ratio("ratio server (route workers) / planJson", pooled.usPerRequest, planJsonUs, "  (goal <= 1.5)");
ratio("ratio server (workers=0) / planJson", inThread.usPerRequest, planJsonUs);
ratio("ratio server (route workers) / engine", pooled.usPerRequest, engineUs);
ratio("ratio server (workers=0) / engine", inThread.usPerRequest, engineUs);
