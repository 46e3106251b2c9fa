/**
 * What the HTTP path costs beside the computation: a server process (bench/servers.ts, route cache
 * off) answers bench/http.ts's distinct sea route pairs, cycled, and its CPU time (user + system,
 * every thread, /proc/<pid>/stat) is divided by the requests it answered; in the same run one
 * thread plans the same pairs in process, through the distance engine (resolution, policy,
 * rendering) and through SeaRouter.planJson alone (what a route worker calls), and a bare Bun.serve
 * answers one route's bytes (the HTTP floor). Prints microseconds of CPU per request and the
 * server's ratio to each (issue 50's goal: server / planJson <= 1.5).
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
import { cpuSecondsOf, drive } from "./http-driver.ts";

const option = (name: string, fallback: number) =>
  Number(process.argv[process.argv.indexOf(name) + 1]) || fallback;
const seconds = option("--seconds", 5);
/** Long enough for the JIT to settle on the server's three threads: after 2 s it still costs ~50 us a request. */
const warmSeconds = option("--warm", 10);
const CONCURRENCY = 8;
const PAIRS = routerPairs();
const pathOf = (i: number) => `/v1/distance/route?${PAIRS[i % PAIRS.length]}&alternatives=false`;

/** Microseconds of server CPU per answered request while `url` is driven for `seconds`. */
async function serverCpu(pid: number, url: (i: number) => string, init: RequestInit, warm: number) {
  // Warm: every pair several times (the JIT, the lazily loaded planners, the resolved ends).
  await drive(url, init, { concurrency: CONCURRENCY, seconds: warm });
  const c0 = cpuSecondsOf(pid)!;
  const load = await drive(url, init, { concurrency: CONCURRENCY, seconds });
  const cpu = cpuSecondsOf(pid)! - c0;
  if (load.non2xx > 0) throw new Error(`${load.non2xx} of ${load.requests} requests failed`);
  return { usPerRequest: (cpu * 1e6) / load.requests, requests: load.requests, rps: load.rps };
}

/** Microseconds of this thread's CPU per call of `run` over `items`, after a warm-up pass. */
async function inProcessCpu<T>(items: T[], reps: number, run: (item: T) => unknown): Promise<number> {
  for (const item of items) await run(item);
  const c0 = process.cpuUsage();
  for (let k = 0; k < reps; k++) for (const item of items) await run(item);
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / (reps * items.length);
}

async function overHttp() {
  const dir = mkdtempSync(join(tmpdir(), "portolan-bench-"));
  try {
    const database = join(dir, "bench.sqlite");
    const keys = await benchKeys(database, ["distance"]);
    const init = { headers: { authorization: `Bearer ${keys.distance}` } };
    const ours = await startServer(["portolan", database, "distance"], CACHE_OFF);
    try {
      const bodyFile = join(dir, "body.json");
      const first = await fetch(`http://127.0.0.1:${ours.port}${pathOf(0)}`, init);
      writeFileSync(bodyFile, await first.text());
      const server = await serverCpu(
        ours.pid,
        (i) => `http://127.0.0.1:${ours.port}${pathOf(i)}`,
        init,
        warmSeconds,
      );
      ours.stop();
      const bare = await startServer(["bare", bodyFile]);
      try {
        const floor = await serverCpu(bare.pid, () => `http://127.0.0.1:${bare.port}${pathOf(0)}`, init, 2);
        return { server, floor };
      } finally {
        bare.stop();
      }
    } finally {
      ours.stop();
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

const { server, floor } = await overHttp();
const { engineUs, planJsonUs } = await inProcess();
const us = (n: number) => `${n.toFixed(1).padStart(8)} us`;
console.log(`sea routes, ${PAIRS.length} distinct pairs cycled, route cache off, ${CONCURRENCY} clients`);
console.log(
  `  server CPU per request      ${us(server.usPerRequest)}  (${server.requests} requests, ${server.rps.toFixed(0)} req/s, every thread)`,
);
console.log(`  bare Bun.serve, same bytes  ${us(floor.usPerRequest)}  (${floor.requests} requests)`);
console.log(`  engine.route in process     ${us(engineUs)}  (one thread: resolution, planJson)`);
console.log(`  SeaRouter.planJson          ${us(planJsonUs)}  (one thread)`);
console.log(`  ratio server / planJson     ${(server.usPerRequest / planJsonUs).toFixed(2)}  (goal <= 1.5)`);
console.log(`  ratio server / engine       ${(server.usPerRequest / engineUs).toFixed(2)}`);
console.log(
  `  ratio (server - bare) / planJson ${((server.usPerRequest - floor.usPerRequest) / planJsonUs).toFixed(2)}`,
);
