/**
 * HTTP bench: real endpoints against a bare handler of the same runtime answering the same bytes,
 * measured in the same run; the Deno rows serve the same apps through the Deno start's adapters
 * (bench/deno-servers.ts) against a bare Deno.serve. Targets: the keyed no-op GET /v1/account (auth, rate window, envelope) and a sea
 * route GET /v1/distance/route (resolution + WASM search + rendering), without and with
 * alternatives; the last line says what the alternatives cost. The repeated NLRTM-SGSIN route is
 * answered from the route response cache (api/distance/route-cache.ts) after its first request;
 * the rows marked "route cache off" run a server with PORTOLAN_ROUTE_CACHE_ENTRIES=0, and the
 * distinct-pairs row cycles the 494 port pairs of bench/router.ts through it, so the cost of a
 * route the cache has not seen stays visible. The bare ceiling answers the first query's bytes.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AccountsRepo } from "../api/accounts/repo.ts";
import type { ProductId } from "../api/shared/products.ts";
import { openDatabase } from "../storage/sqlite.ts";
import { sqliteStorage } from "../storage/storage.ts";
import { mainPorts, pub151 } from "../test/distance-sea/fixture.ts";
import { freePort } from "../test/helpers/redis-server.ts";
import { drive, fmt, type LoadResult } from "./http-driver.ts";

const root = join(import.meta.dir, "..");
/** The bench server process of each runtime (bench/servers.ts, bench/deno-servers.ts). */
const SERVER = {
  bun: [join(root, "node_modules/.bin/bun"), join(root, "bench/servers.ts")],
  deno: [
    join(root, "node_modules/.bin/deno"),
    "run",
    "-A",
    "--no-check",
    join(root, "bench/deno-servers.ts"),
  ],
};
type Runtime = keyof typeof SERVER;

export interface BenchServer {
  port: number;
  /** Its CPU so far: cpuSecondsOf(pid) (http-driver.ts). */
  pid: number;
  stop(): void;
}

/** One bench/servers.ts process on a free loopback port, once it reports ready. */
export async function startServer(
  args: string[],
  env: Record<string, string> = {},
  runtime: Runtime = "bun",
): Promise<BenchServer> {
  const port = await freePort();
  const proc = Bun.spawn([...SERVER[runtime], args[0]!, String(port), ...args.slice(1)], {
    stdout: "pipe",
    stderr: "inherit",
    env: { ...process.env, ...env },
  });
  const stdout = proc.stdout.getReader();
  await stdout.read(); // "ready"
  // Its log (an access line a request) read and dropped as a collector would, so the pipe never fills.
  void (async () => {
    while (!(await stdout.read()).done);
  })();
  return { port, pid: proc.pid, stop: () => proc.kill() };
}

export interface Target {
  name: string;
  product: ProductId;
  /** The path, or the path of the i-th request (a run cycling through several queries). */
  path: string | ((i: number) => string);
  /** Environment of the server process (say, the route cache off). */
  env?: Record<string, string>;
  /** The runtime serving it and its bare ceiling (Bun unless named). */
  runtime?: Runtime;
}

/** A server environment with the route cache off (api/distance/route-cache.ts). */
export const CACHE_OFF = { PORTOLAN_ROUTE_CACHE_ENTRIES: "0" };

/** The port pairs of bench/router.ts: main ports by UN/LOCODE, the Pub. 151 pairs by coordinates. */
export function routerPairs(): string[] {
  const ports = mainPorts();
  const out: string[] = [];
  for (let i = 0; i < ports.length; i++) {
    for (const step of [7, 31, 53]) {
      const j = (i * step + 13) % ports.length;
      if (j !== i) out.push(`from=${ports[i]!.locode}&to=${ports[j]!.locode}`);
    }
  }
  for (const p of pub151()) out.push(`from=${p.a.lat},${p.a.lng}&to=${p.b.lat},${p.b.lng}`);
  return out;
}

const PAIRS = routerPairs();

const TARGETS: Target[] = [
  { name: "keyed no-op GET /v1/account", product: "ocean", path: "/v1/account" },
  {
    name: "sea route NLRTM-SGSIN",
    product: "distance",
    path: "/v1/distance/route?from=NLRTM&to=SGSIN&alternatives=false",
  },
  {
    name: "sea route NLRTM-SGSIN, route cache off",
    product: "distance",
    path: "/v1/distance/route?from=NLRTM&to=SGSIN&alternatives=false",
    env: CACHE_OFF,
  },
  {
    name: "sea route NLRTM-SGSIN with alternatives, route cache off",
    product: "distance",
    path: "/v1/distance/route?from=NLRTM&to=SGSIN&alternatives=true",
    env: CACHE_OFF,
  },
  {
    name: `sea routes, ${PAIRS.length} distinct pairs cycled, route cache off`,
    product: "distance",
    path: (i) => `/v1/distance/route?${PAIRS[i % PAIRS.length]}&alternatives=false`,
    env: CACHE_OFF,
  },
  { name: "keyed no-op GET /v1/account, Deno", product: "ocean", path: "/v1/account", runtime: "deno" },
  {
    name: "sea route NLRTM-SGSIN, route cache off, Deno",
    product: "distance",
    path: "/v1/distance/route?from=NLRTM&to=SGSIN&alternatives=false",
    env: CACHE_OFF,
    runtime: "deno",
  },
];

/** A SQLite database at `database` with one paid account and a key for each product. */
export async function benchKeys(
  database: string,
  products: ProductId[],
): Promise<Partial<Record<ProductId, string>>> {
  const storage = sqliteStorage(openDatabase(database));
  const repo = new AccountsRepo(storage);
  // An arranged ceiling far above the load, so the bench measures the path, not 429s.
  const org = await repo.createOrg("bench", { paid: true, rateLimit: 1_000_000_000 });
  const keys: Partial<Record<ProductId, string>> = {};
  for (const product of products) keys[product] ??= (await repo.createKey(org.id, product)).key;
  await storage.close();
  return keys;
}

export async function httpBench(opts: { seconds: number; concurrency: number; targets?: Target[] }) {
  const targets = opts.targets ?? TARGETS;
  const dir = mkdtempSync(join(tmpdir(), "portolan-bench-"));
  const results: Array<{ target: Target; ours: LoadResult; bare: LoadResult }> = [];
  try {
    const database = join(dir, "bench.sqlite");
    const keys = await benchKeys(
      database,
      targets.map((t) => t.product),
    );
    for (const target of targets) {
      const init = { headers: { authorization: `Bearer ${keys[target.product]}` } };
      const ours = await startServer(["portolan", database, target.product], target.env, target.runtime);
      const { path } = target;
      const pathOf = typeof path === "string" ? () => path : path;
      const url = (port: number) => (i: number) => `http://127.0.0.1:${port}${pathOf(i)}`;
      const bodyFile = join(dir, "body.json");
      writeFileSync(bodyFile, await (await fetch(url(ours.port)(0), init)).text());
      const bare = await startServer(["bare", bodyFile], {}, target.runtime);
      try {
        // Warm both, then measure one after the other under the same load.
        await drive(url(ours.port), init, { concurrency: 8, seconds: 1 });
        await drive(url(bare.port), init, { concurrency: 8, seconds: 1 });
        results.push({
          target,
          ours: await drive(url(ours.port), init, opts),
          bare: await drive(url(bare.port), init, opts),
        });
      } finally {
        ours.stop();
        bare.stop();
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return results;
}

if (import.meta.main) {
  const results = await httpBench({ seconds: 5, concurrency: 32 });
  for (const { target, ours, bare } of results) {
    console.log(target.name);
    console.log(`  portolan  ${fmt(ours)}`);
    console.log(`  bare ${target.runtime === "deno" ? "Deno" : "Bun "} ${fmt(bare)}`);
    console.log(`  ratio     ${(ours.rps / bare.rps).toFixed(2)} of the bare ceiling`);
  }
  // The same path under each runtime, each against its own ceiling and against each other.
  for (const [bunTarget, denoTarget] of [
    [TARGETS[0]!, TARGETS[5]!],
    [TARGETS[2]!, TARGETS[6]!],
  ] as const) {
    const [b, d] = [bunTarget, denoTarget].map((t) => results.find((r) => r.target === t));
    if (!b || !d) continue;
    console.log(
      `${bunTarget.name}: Deno ${(d.ours.rps / d.bare.rps).toFixed(2)} of its ceiling, Bun ${(b.ours.rps / b.bare.rps).toFixed(2)}; Deno at ${(d.ours.rps / b.ours.rps).toFixed(2)}x Bun's req/s`,
    );
  }
  // Goal: a route with alternatives costs at most 3x the same route without them (both
  // planned, not served from the cache).
  const [off, on] = [TARGETS[2]!, TARGETS[3]!].map((t) => results.find((r) => r.target === t)?.ours);
  if (off && on) {
    console.log(
      `alternatives on vs off: ${(off.rps / on.rps).toFixed(1)}x the cost per request (req/s), p50 ${(on.p50Ms / off.p50Ms).toFixed(1)}x`,
    );
  }
}
