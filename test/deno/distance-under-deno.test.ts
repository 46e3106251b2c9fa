/**
 * The distance API and its route map page served by a real Deno process (deno from npm), called
 * over a socket.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AccountsRepo } from "../../api/accounts/repo.ts";
import { PAGE_CSP } from "../../api/shared/pages/serve.ts";
import { loadRuleStretches } from "../../engine/river/rule-stretches.ts";
import { openDatabase } from "../../storage/sqlite.ts";
import { sqliteStorage } from "../../storage/storage.ts";
import { freePort } from "../helpers/redis-server.ts";

const root = join(import.meta.dir, "../..");
const dir = mkdtempSync(join(tmpdir(), "portolan-deno-"));
let base: string;
let key: string;
let deno: ReturnType<typeof Bun.spawn>;

beforeAll(async () => {
  const database = join(dir, "db.sqlite");
  // SQLite whatever the pass: the Deno runtime opens its database with node:sqlite.
  const storage = sqliteStorage(openDatabase(database));
  const repo = new AccountsRepo(storage);
  const org = await repo.createOrg("deno");
  key = (await repo.createKey(org.id, "distance")).key;
  await storage.close();
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  deno = Bun.spawn(
    [join(root, "node_modules/.bin/deno"), "run", "-A", "--no-check", "api/runtime/deno-distance.ts"],
    {
      cwd: root,
      env: {
        ...process.env,
        PORTOLAN_DB: database,
        PORTOLAN_DISTANCE_PORT: String(port),
        PORTOLAN_BUILD_DIR: join(root, "data/build"),
      },
      stdout: "pipe",
      stderr: "inherit",
    },
  );
  const reader = (deno.stdout as ReadableStream<Uint8Array>).getReader();
  const { value } = await reader.read();
  expect(new TextDecoder().decode(value)).toContain("ready");
  // Deno loads the build's artifacts before it listens: seconds on a busy machine.
}, 60_000);
afterAll(async () => {
  deno.kill();
  await deno.exited;
  rmSync(dir, { recursive: true, force: true });
});

test("a sea route and a location search answer in the spec's shapes under Deno", async () => {
  const auth = { headers: { authorization: `Bearer ${key}` } };
  const route = await fetch(`${base}/v1/distance/route?from=NLRTM&to=USNYC&alternatives=false`, auth);
  expect(route.status).toBe(200);
  const body = (await route.json()) as {
    data: { route: { distance: { nm: number } } };
    meta: { took_ms: number };
  };
  expect(body.data.route.distance.nm).toBeGreaterThan(3000);
  expect(body.data.route.distance.nm).toBeLessThan(4000);
  expect(typeof body.meta.took_ms).toBe("number");
  const found = await fetch(`${base}/v1/distance/locations?q=hamburg&limit=3`, auth);
  expect(((await found.json()) as { data: Array<{ name: string }> }).data[0]!.name).toMatch(/Hamburg/);
});

test("keys, errors and envelopes behave as under Bun", async () => {
  const missing = await fetch(`${base}/v1/distance/route?from=NLRTM&to=USNYC`);
  expect(missing.status).toBe(401);
  expect(await missing.json()).toEqual({
    error: { code: "missing_key", message: expect.any(String), request_id: expect.any(String) },
  });
  const bad = await fetch(`${base}/v1/distance/route?from=NLRTM&to=USNYC&speed_knots=99`, {
    headers: { authorization: `Bearer ${key}` },
  });
  expect(bad.status).toBe(400);
  expect(((await bad.json()) as { error: { code: string } }).error.code).toBe("invalid_request");
});

test("the route map page and its files are served under Deno as under Bun", async () => {
  for (const path of ["/map", "/map/app.js", "/map/worldmap.js", "/map/pages.css"]) {
    const res = await fetch(`${base}${path}`);
    expect(res.status, path).toBe(200);
    expect(res.headers.get("content-security-policy"), path).toBe(PAGE_CSP);
    expect((await res.arrayBuffer()).byteLength, path).toBeGreaterThan(0);
  }
  expect(await (await fetch(`${base}/map`)).text()).toContain('src="/map/app.js"');
  // The basemap: world-atlas's file itself (found from the page module under either runtime), gzipped.
  const land = await fetch(`${base}/map/land.json`, { headers: { "accept-encoding": "gzip" } });
  expect(land.status).toBe(200);
  const basemap = createRequire(import.meta.url).resolve("world-atlas/land-50m.json");
  expect(new Uint8Array(await land.arrayBuffer())).toEqual(new Uint8Array(readFileSync(basemap)));
  // The seasonal rules' stretches, derived from the river artifacts by the Deno process.
  const stretches = await fetch(`${base}/map/seasonal-stretches.json`);
  expect(stretches.status).toBe(200);
  expect(await stretches.json()).toEqual(
    JSON.parse(JSON.stringify(await loadRuleStretches(join(root, "data/build")))),
  );
}, 60_000);
