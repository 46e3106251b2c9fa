/**
 * Starvation bench (issue 10, item 6): ocean GET /v1/account latency while one keyed client holds
 * 64 sea-route requests in flight against the distance product of the same process. Measured in
 * one run: a bare Bun.serve answering the same bytes (the baseline), the Portolan process idle,
 * then under the route load with routes planned on the serving thread (PORTOLAN_ROUTE_WORKERS=0,
 * the old behaviour) and on the worker pool (defaults), the route cache off in both.
 *
 *   bun bench/starvation.ts [--seconds 3]
 *
 * The route clients behave: a 503 is retried after its Retry-After, as the header asks.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { AccountsRepo } from "../api/accounts/repo.ts";
import { buildApps } from "../api/app.ts";
import { bootstrap } from "../api/bootstrap.ts";
import { loadConfig } from "../api/config.ts";
import { routePlanner } from "../engine/services.ts";
import { openDatabase } from "../storage/sqlite.ts";
import { sqliteStorage } from "../storage/storage.ts";
import { freePort } from "../test/helpers/redis-server.ts";
import { CACHE_OFF } from "./http.ts";
import { drive, fmt, type LoadResult } from "./http-driver.ts";

const ROUTE = "/v1/distance/route?from=NLRTM&to=SGSIN"; // default alternatives
/** A repeated route is answered from the route cache on the serving thread: the load must reach a planner. */
const ROUTE_CLIENTS = 64;
const PROBE_CLIENTS = 4;

/** Child mode: ocean and distance from one process, as `npm start` serves them. */
async function serve(database: string, oceanPort: number, distancePort: number): Promise<void> {
  const config = { ...loadConfig(), database, sandbox: false, roles: new Set(["api" as const]) };
  const apps = buildApps(await bootstrap(config));
  await routePlanner(config.buildDir, config.routes); // workers loaded before the clock starts
  Bun.serve({ hostname: "127.0.0.1", port: oceanPort, fetch: apps.ocean.fetch });
  Bun.serve({ hostname: "127.0.0.1", port: distancePort, fetch: apps.distance.fetch });
  console.log("ready");
}

async function start(args: string[], env: Record<string, string> = {}) {
  const proc = Bun.spawn([process.execPath, ...args], {
    env: { ...process.env, ...env },
    stdout: "pipe",
    stderr: "inherit",
  });
  await proc.stdout.getReader().read(); // "ready"
  return { stop: () => proc.kill() };
}

interface RouteLoad {
  served: number;
  shed: number;
  seconds: number;
}

/** `clients` closed-loop route clients until `stop` resolves; 503s wait out their Retry-After. */
async function routeLoad(url: string, init: RequestInit, clients: number, stop: Promise<void>) {
  let running = true;
  void stop.then(() => {
    running = false;
  });
  const load: RouteLoad = { served: 0, shed: 0, seconds: 0 };
  const t0 = performance.now();
  const client = async () => {
    while (running) {
      const res = await fetch(url, init);
      await res.arrayBuffer();
      if (res.status === 503) {
        load.shed++;
        await Promise.race([stop, Bun.sleep(Number(res.headers.get("retry-after") ?? 1) * 1000)]);
      } else load.served++;
    }
  };
  await Promise.all(Array.from({ length: clients }, client));
  load.seconds = (performance.now() - t0) / 1000;
  return load;
}

async function bench(seconds: number) {
  const dir = mkdtempSync(join(tmpdir(), "portolan-starve-"));
  const bun = process.execPath;
  try {
    const database = join(dir, "bench.sqlite");
    const storage = sqliteStorage(openDatabase(database));
    const repo = new AccountsRepo(storage);
    const org = await repo.createOrg("bench", { paid: true, rateLimit: 1_000_000_000 });
    const auth = (key: string) => ({ headers: { authorization: `Bearer ${key}` } });
    const ocean = auth((await repo.createKey(org.id, "ocean")).key);
    const distance = auth((await repo.createKey(org.id, "distance")).key);
    await storage.close();
    const probe = (port: number) =>
      drive(`http://127.0.0.1:${port}/v1/account`, ocean, { concurrency: PROBE_CLIENTS, seconds });

    const results: Array<{ name: string; account: LoadResult; routes?: RouteLoad }> = [];
    const modes: Array<[string, Record<string, string>]> = [
      ["routes on the serving thread (PORTOLAN_ROUTE_WORKERS=0)", { PORTOLAN_ROUTE_WORKERS: "0" }],
      ["routes on the worker pool (defaults)", {}],
    ];
    for (const [i, [name, env]] of modes.entries()) {
      const [oceanPort, distancePort] = [await freePort(), await freePort()];
      const server = await start(
        [import.meta.path, "serve", database, String(oceanPort), String(distancePort)],
        { ...env, ...CACHE_OFF },
      );
      try {
        if (i === 0) {
          // Baselines, once: a bare listener with the same bytes, then this process with no route load.
          const bodyFile = join(dir, "account.json");
          writeFileSync(
            bodyFile,
            await (await fetch(`http://127.0.0.1:${oceanPort}/v1/account`, ocean)).text(),
          );
          const barePort = await freePort();
          const bare = await start([join(import.meta.dir, "servers.ts"), "bare", String(barePort), bodyFile]);
          try {
            await drive(`http://127.0.0.1:${barePort}/`, {}, { concurrency: PROBE_CLIENTS, seconds: 1 });
            results.push({
              name: "bare Bun.serve, same bytes",
              account: await drive(
                `http://127.0.0.1:${barePort}/`,
                {},
                { concurrency: PROBE_CLIENTS, seconds },
              ),
            });
          } finally {
            bare.stop();
          }
          await probe(oceanPort);
          results.push({ name: "portolan, no route load", account: await probe(oceanPort) });
        }
        let stop = () => {};
        const stopped = new Promise<void>((r) => {
          stop = r;
        });
        const load = routeLoad(`http://127.0.0.1:${distancePort}${ROUTE}`, distance, ROUTE_CLIENTS, stopped);
        await Bun.sleep(500); // the load settles in
        const account = await probe(oceanPort);
        stop();
        results.push({ name, account, routes: await load });
      } finally {
        server.stop();
      }
    }
    return { results, seconds, bun };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const { values, positionals } = parseArgs({
    args: Bun.argv.slice(2),
    allowPositionals: true,
    options: { seconds: { type: "string", default: "3" } },
  });
  if (positionals[0] === "serve") {
    await serve(positionals[1]!, Number(positionals[2]), Number(positionals[3]));
  } else {
    const { results, seconds } = await bench(Number(values.seconds));
    const bare = results[0]!.account;
    const idle = results[1]!.account;
    console.log(
      `ocean GET /v1/account, ${PROBE_CLIENTS} clients, ${seconds} s each; route load: ${ROUTE_CLIENTS} clients on ${ROUTE}`,
    );
    for (const { name, account, routes } of results) {
      console.log(name);
      console.log(`  account   ${fmt(account)}`);
      console.log(
        `  p50 ratio ${(account.p50Ms / bare.p50Ms).toFixed(1)}x bare, ${(account.p50Ms / idle.p50Ms).toFixed(1)}x idle`,
      );
      if (routes)
        console.log(
          `  routes    ${(routes.served / routes.seconds).toFixed(0)} served/s, ${routes.shed} shed (503)`,
        );
    }
  }
}
