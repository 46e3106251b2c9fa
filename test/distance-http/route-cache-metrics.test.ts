/**
 * The route cache's metrics as an operator scrapes them: the distance product and the admin
 * listener on real sockets, /metrics read with an npm Prometheus text parser. A route asked twice
 * is a miss then a hit; another route with room for one entry evicts the first.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import parse from "parse-prometheus-text-format";
import { serveAdmin, serveBun } from "../../api/runtime/bun-serve.ts";
import { adminApp } from "../../api/shared/admin.ts";
import { BUILD_DIR } from "../distance-sea/fixture.ts";
import { bearer, makePlatform, type TestPlatform } from "../helpers/platform.ts";

let p: TestPlatform;
let admin: ReturnType<typeof serveAdmin>;
let distance: ReturnType<typeof serveBun>;
let key: string;

beforeAll(async () => {
  // Room for one route: the second route asked evicts the first.
  p = await makePlatform({ buildDir: BUILD_DIR, routeCacheEntries: 1 });
  distance = serveBun(p.apps.distance, "127.0.0.1", 0);
  admin = serveAdmin(adminApp(p.readiness), "127.0.0.1", 0);
  key = (await p.tenant()).keys.distance;
});
afterAll(async () => {
  distance?.stop(true);
  admin?.stop(true);
  await p?.close();
});

/** The route cache's series: hits, misses, evictions and entries. */
async function routeCache() {
  const families = parse(await (await fetch(`http://127.0.0.1:${admin.port}/metrics`)).text());
  const value = (name: string) => {
    const family = families.find((f) => f.name === name);
    const series = family?.metrics.find((m) => m.labels?.cache === "routes");
    return series === undefined ? undefined : Number(series.value);
  };
  return {
    hits: value("portolan_cache_hits_total"),
    misses: value("portolan_cache_misses_total"),
    evictions: value("portolan_cache_evictions_total"),
    entries: value("portolan_cache_entries"),
  };
}

async function route(from: string, to: string): Promise<void> {
  const url = `http://127.0.0.1:${distance.port}/v1/distance/route?from=${from}&to=${to}`;
  const res = await fetch(url, bearer(key));
  expect(res.status).toBe(200);
  await res.arrayBuffer();
}

test("a route asked twice is a miss then a hit; another route evicts it", async () => {
  expect(await routeCache()).toEqual({ hits: 0, misses: 0, evictions: 0, entries: 0 });
  await route("NLRTM", "SGSIN");
  expect(await routeCache()).toEqual({ hits: 0, misses: 1, evictions: 0, entries: 1 });
  await route("NLRTM", "SGSIN");
  expect(await routeCache()).toEqual({ hits: 1, misses: 1, evictions: 0, entries: 1 });
  await route("DEHAM", "CNSHA");
  expect(await routeCache()).toEqual({ hits: 1, misses: 2, evictions: 1, entries: 1 });
});
