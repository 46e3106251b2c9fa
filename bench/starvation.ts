/**
 * Starvation bench: what load on one product of a process does to the others. Measured in one
 * run, the route cache off throughout:
 *
 * - ocean GET /v1/account latency while one keyed client holds 64 sea-route requests in flight
 *   against the distance product: a bare Bun.serve answering the same bytes (the baseline), the
 *   Portolan process idle, then under the route load with routes planned on the serving thread
 *   (PORTOLAN_ROUTE_WORKERS=0) and on the worker pool (defaults);
 * - the lanes (engine/sea/lanes.ts), on the worker pool: ocean GET /v1/account and a sea route
 *   probed together, idle (the baseline), while one client loops on the picture of a unit of
 *   5,000 pieces (with the picture cache, and without: every request drawn), and while sixteen
 *   clients each keep a large load plan (~0.5 s of WASM) in flight.
 *
 * - a slow tenant's webhooks (bench/webhook-tenants.ts, also the second section of
 *   bench/webhooks.ts): another organisation's ocean GET /v1/account and its load-plan deliveries
 *   while one organisation's 50 endpoints hang, against the idle phase of the same run.
 *
 *   bun bench/starvation.ts [--seconds 3]
 *
 * The load clients behave: a 503 is retried after its Retry-After, as the header asks.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { AccountsRepo } from "../api/accounts/repo.ts";
import { buildApps } from "../api/app.ts";
import { bootstrap } from "../api/bootstrap.ts";
import { loadConfig } from "../api/config.ts";
import { serveBun } from "../api/runtime/bun-serve.ts";
import { routePlanner } from "../engine/services.ts";
import { openDatabase } from "../storage/sqlite.ts";
import { sqliteStorage } from "../storage/storage.ts";
import { freePort } from "../test/helpers/redis-server.ts";
import { LARGE } from "../test/loading/setup.ts";
import { CACHE_OFF } from "./http.ts";
import { drive, fmt, type LoadResult } from "./http-driver.ts";
import * as tenants from "./webhook-tenants.ts";

const ROUTE = "/v1/distance/route?from=NLRTM&to=SGSIN"; // default alternatives
/** A repeated route is answered from the route cache on the serving thread: the load must reach a planner. */
const ROUTE_CLIENTS = 64;
const PROBE_CLIENTS = 4;
const PLAN_CLIENTS = 16;
/** 5,000 cubes of 20 cm in one 40' high cube: one unit of 5,000 pieces. */
const PICTURE_PLAN = {
  name: "5,000 cubes",
  dimension_unit: "cm",
  equipment: ["40HC"],
  work_budget: 0,
  items: ["grey", "blue"].map((id) => ({ id, length: 20, width: 20, height: 20, weight: 1, quantity: 2500 })),
};

interface Ports {
  ocean: number;
  distance: number;
  loading: number;
}

/** Child mode: ocean, distance and load plans from one process, as `npm start` serves them. */
async function serve(database: string, ports: Ports): Promise<void> {
  const config = { ...loadConfig(), database, sandbox: false, roles: new Set(["api" as const]) };
  const apps = buildApps(await bootstrap(config));
  await routePlanner(config.buildDir, config.routes); // workers loaded before the clock starts
  for (const product of ["ocean", "distance", "loading"] as const)
    serveBun(apps[product], "127.0.0.1", ports[product]);
  console.log("ready");
}

async function start(args: string[], env: Record<string, string> = {}) {
  const proc = Bun.spawn([process.execPath, ...args], {
    env: { ...process.env, ...env },
    stdout: "pipe",
    stderr: "inherit",
  });
  const { done } = await proc.stdout.getReader().read(); // "ready"
  if (done) throw new Error(`${args.join(" ")} did not start (exit code ${await proc.exited})`);
  return {
    /** Stops the process and waits for it: its ports are free again after. */
    stop: async () => {
      proc.kill();
      await proc.exited;
    },
  };
}

interface Load {
  served: number;
  shed: number;
  /** Requests the server dropped without an answer. */
  dropped: number;
  seconds: number;
}

/** `clients` closed-loop clients until `stop` resolves; 503s wait out their Retry-After. */
async function closedLoop(url: string, init: RequestInit, clients: number, stop: Promise<void>) {
  let running = true;
  void stop.then(() => {
    running = false;
  });
  const load: Load = { served: 0, shed: 0, dropped: 0, seconds: 0 };
  const t0 = performance.now();
  const client = async () => {
    while (running) {
      const res = await fetch(url, init).catch(() => null);
      await res?.arrayBuffer();
      if (!res) load.dropped++;
      else if (res.status === 503) {
        load.shed++;
        await Promise.race([stop, Bun.sleep(Number(res.headers.get("retry-after") ?? 1) * 1000)]);
      } else load.served++;
    }
  };
  await Promise.all(Array.from({ length: clients }, client));
  load.seconds = (performance.now() - t0) / 1000;
  return load;
}

/** Runs `measure` while `clients` loop on `url` (after 0.5 s for the load to settle in). */
async function underLoad<T>(
  load: { url: string; init: RequestInit; clients: number },
  measure: () => Promise<T>,
): Promise<{ result: T; load: Load }> {
  let stop = () => {};
  const stopped = new Promise<void>((r) => {
    stop = r;
  });
  const running = closedLoop(load.url, load.init, load.clients, stopped);
  await Bun.sleep(500);
  const result = await measure();
  stop();
  return { result, load: await running };
}

type Auth = { headers: Record<string, string> };
type Keys = Record<"ocean" | "distance" | "loading", Auth>;

/** A database with one organisation entitled to every product we drive, and its keys. */
async function accounts(database: string): Promise<Keys> {
  const storage = sqliteStorage(openDatabase(database));
  const repo = new AccountsRepo(storage);
  const org = await repo.createOrg("bench", { paid: true, rateLimit: 1_000_000_000 });
  await repo.setEntitlement(org.id, "loading", null);
  const auth = async (product: keyof Keys) => ({
    headers: { authorization: `Bearer ${(await repo.createKey(org.id, product)).key}` },
  });
  const keys = {
    ocean: await auth("ocean"),
    distance: await auth("distance"),
    loading: await auth("loading"),
  };
  await storage.close();
  return keys;
}

/** A server process (serve above) with `env` over the defaults, the route cache off. */
async function server(database: string, env: Record<string, string>) {
  const ports: Ports = { ocean: await freePort(), distance: await freePort(), loading: await freePort() };
  const proc = await start(
    [import.meta.path, "serve", database, String(ports.ocean), String(ports.distance), String(ports.loading)],
    { ...env, ...CACHE_OFF },
  );
  const url = (product: keyof Ports, path: string) => `http://127.0.0.1:${ports[product]}${path}`;
  return { url, stop: proc.stop };
}

type Server = Awaited<ReturnType<typeof server>>;

interface Row {
  name: string;
  account: LoadResult;
  route?: LoadResult;
  load?: Load;
}

/** The bare listener's baseline: the account's bytes from a Bun.serve that does nothing else. */
async function bareRow(dir: string, body: string, seconds: number): Promise<Row> {
  const bodyFile = join(dir, "account.json");
  writeFileSync(bodyFile, body);
  const barePort = await freePort();
  const bare = await start([join(import.meta.dir, "servers.ts"), "bare", String(barePort), bodyFile]);
  try {
    const url = `http://127.0.0.1:${barePort}/`;
    await drive(url, {}, { concurrency: PROBE_CLIENTS, seconds: 1 });
    return {
      name: "bare Bun.serve, same bytes",
      account: await drive(url, {}, { concurrency: PROBE_CLIENTS, seconds }),
    };
  } finally {
    await bare.stop();
  }
}

/** ocean /v1/account under 64 route clients, routes on the serving thread and on the pool. */
async function routeRows(dir: string, database: string, keys: Keys, seconds: number): Promise<Row[]> {
  const rows: Row[] = [];
  const modes: Array<[string, Record<string, string>]> = [
    ["routes on the serving thread (PORTOLAN_ROUTE_WORKERS=0)", { PORTOLAN_ROUTE_WORKERS: "0" }],
    ["routes on the worker pool (defaults)", {}],
  ];
  for (const [i, [name, env]] of modes.entries()) {
    const s = await server(database, env);
    const probe = () =>
      drive(s.url("ocean", "/v1/account"), keys.ocean, { concurrency: PROBE_CLIENTS, seconds });
    try {
      if (i === 0) {
        const body = await (await fetch(s.url("ocean", "/v1/account"), keys.ocean)).text();
        rows.push(await bareRow(dir, body, seconds));
        await probe();
        rows.push({ name: "portolan, no route load", account: await probe() });
      }
      const routes = { url: s.url("distance", ROUTE), init: keys.distance, clients: ROUTE_CLIENTS };
      const { result, load } = await underLoad(routes, probe);
      rows.push({ name, account: result, load });
    } finally {
      await s.stop();
    }
  }
  return rows;
}

/** ocean /v1/account (4 clients) and a sea route (1 client, not cached), probed together. */
async function probeBoth(s: Server, keys: Keys, seconds: number) {
  const [account, route] = await Promise.all([
    drive(s.url("ocean", "/v1/account"), keys.ocean, { concurrency: PROBE_CLIENTS, seconds }),
    drive(s.url("distance", ROUTE), keys.distance, { concurrency: 1, seconds }),
  ]);
  return { account, route };
}

/** The plan of PICTURE_PLAN's body on the server: the URL of its unit's picture. */
async function picturePlan(s: Server, keys: Keys): Promise<string> {
  const res = await fetch(s.url("loading", "/v1/load-plans"), {
    method: "POST",
    body: JSON.stringify(PICTURE_PLAN),
    headers: { ...keys.loading.headers, "content-type": "application/json" },
  });
  const { data } = (await res.json()) as { data: { id: string } };
  return s.url("loading", `/v1/load-plans/${data.id}/units/1.svg`);
}

/** Account and route while one client loops on the picture of PICTURE_PLAN's unit. */
async function pictureRow(s: Server, keys: Keys, seconds: number, name: string): Promise<Row> {
  const loop = { url: await picturePlan(s, keys), init: keys.loading, clients: 1 };
  const { result, load } = await underLoad(loop, () => probeBoth(s, keys, seconds));
  return { name: `1 client looping on a 5,000-piece unit's SVG, ${name}`, ...result, load };
}

/** The lanes: account and route idle, under a picture loop (kept and drawn) and sixteen plans. */
async function laneRows(database: string, keys: Keys, seconds: number): Promise<Row[]> {
  const rows: Row[] = [];
  const plans = {
    url: "/v1/load-plans",
    init: {
      method: "POST",
      body: JSON.stringify(LARGE),
      headers: { ...keys.loading.headers, "content-type": "application/json" },
    },
    clients: PLAN_CLIENTS,
  };
  const defaults = await server(database, {});
  try {
    await probeBoth(defaults, keys, 1);
    rows.push({ name: "idle (the baseline)", ...(await probeBoth(defaults, keys, seconds)) });
    rows.push(await pictureRow(defaults, keys, seconds, "pool defaults"));
    const planLoad = { ...plans, url: defaults.url("loading", plans.url) };
    const { result, load } = await underLoad(planLoad, () => probeBoth(defaults, keys, seconds));
    rows.push({ name: `${PLAN_CLIENTS} clients each keeping a large plan in flight`, ...result, load });
  } finally {
    await defaults.stop();
  }
  const drawing = await server(database, { PORTOLAN_PICTURE_CACHE_BYTES: "0" });
  try {
    await probeBoth(drawing, keys, 1); // a fresh process: its first requests are slow
    rows.push(await pictureRow(drawing, keys, seconds, "picture cache off"));
  } finally {
    await drawing.stop();
  }
  return rows;
}

const ratio = (r: LoadResult, base: LoadResult) =>
  `p50 ${(r.p50Ms / base.p50Ms).toFixed(1)}x, p99 ${(r.p99Ms / base.p99Ms).toFixed(1)}x idle`;

function printLoad(load: Load | undefined): void {
  if (!load) return;
  console.log(
    `  load      ${(load.served / load.seconds).toFixed(1)} served/s, ${load.shed} shed (503), ${load.dropped} dropped`,
  );
}

function printRouteRows(rows: Row[], seconds: number): void {
  const bare = rows[0]!.account;
  const idle = rows[1]!.account;
  console.log(
    `ocean GET /v1/account, ${PROBE_CLIENTS} clients, ${seconds} s each; route load: ${ROUTE_CLIENTS} clients on ${ROUTE}`,
  );
  for (const { name, account, load } of rows) {
    console.log(name);
    console.log(`  account   ${fmt(account)}`);
    console.log(
      `  p50 ratio ${(account.p50Ms / bare.p50Ms).toFixed(1)}x bare, ${(account.p50Ms / idle.p50Ms).toFixed(1)}x idle`,
    );
    printLoad(load);
  }
}

function printLaneRows(rows: Row[], seconds: number): void {
  const idle = rows[0]!;
  console.log(
    `\nlanes: ocean GET /v1/account (${PROBE_CLIENTS} clients) and ${ROUTE} (1 client), together, ${seconds} s each`,
  );
  for (const { name, account, route, load } of rows) {
    console.log(name);
    console.log(`  account   ${fmt(account)}   ${ratio(account, idle.account)}`);
    console.log(`  route     ${fmt(route!)}   ${ratio(route!, idle.route!)}`);
    printLoad(load);
  }
}

if (import.meta.main) {
  const { values, positionals } = parseArgs({
    args: Bun.argv.slice(2),
    allowPositionals: true,
    options: { seconds: { type: "string", default: "3" } },
  });
  if (positionals[0] === "serve") {
    const [ocean, distance, loading] = positionals.slice(2).map(Number) as [number, number, number];
    await serve(positionals[1]!, { ocean, distance, loading });
  } else {
    const seconds = Number(values.seconds);
    const dir = mkdtempSync(join(tmpdir(), "portolan-starve-"));
    try {
      const database = join(dir, "bench.sqlite");
      const keys = await accounts(database);
      printRouteRows(await routeRows(dir, database, keys, seconds), seconds);
      printLaneRows(await laneRows(database, keys, seconds), seconds);
      console.log("\na slow tenant's webhooks");
      tenants.report(await tenants.bench(seconds), seconds);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}
