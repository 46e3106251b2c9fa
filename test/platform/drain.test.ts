/**
 * Stopping as an orchestrator does (SIGTERM): a real api/main.ts with requests in flight (their
 * bodies half sent, so they are certainly still being served) stops accepting, reports not ready,
 * answers every one of them once the bodies arrive, and then exits cleanly. Routes being planned
 * by the route workers at the signal are answered too (the workers close after the drain).
 */
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase } from "../../storage/sqlite.ts";
import { sqliteStorage } from "../../storage/storage.ts";
import { type ApiProcess, payingTenant, startApi } from "../hardening/sqlite-cluster.ts";
import { recordingFetch, testAccounts } from "../helpers/issued-secrets.ts";
import { freePort } from "../helpers/redis-server.ts";

const dir = mkdtempSync(join(tmpdir(), "portolan-drain-"));
let api: ApiProcess | null = null;
afterAll(async () => {
  if (api?.proc.exitCode === null) api.proc.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

const IN_FLIGHT = 6;

/** A POST whose body stops half-way until `finish`; resolves to the raw answer once it is closed. */
async function heldRequest(port: number, key: string, body: string) {
  let answer = "";
  let closed!: () => void;
  const done = new Promise<void>((resolve) => {
    closed = resolve;
  });
  const socket = await Bun.connect({
    hostname: "127.0.0.1",
    port,
    socket: {
      data: (_s, chunk) => {
        answer += chunk.toString();
      },
      close: () => closed(),
      error: () => closed(),
    },
  });
  const head = [
    "POST /v1/webhooks HTTP/1.1",
    `Host: 127.0.0.1:${port}`,
    `Authorization: Bearer ${key}`,
    "Content-Type: application/json",
    `Content-Length: ${Buffer.byteLength(body)}`,
    "Connection: close",
  ].join("\r\n");
  socket.write(`${head}\r\n\r\n${body.slice(0, 10)}`);
  return {
    finish: async () => {
      socket.write(body.slice(10));
      await done;
      return answer;
    },
  };
}

/** A gauge's value from the admin port's /metrics. */
async function gauge(adminPort: number, series: string): Promise<number> {
  const text = await (await recordingFetch(`http://127.0.0.1:${adminPort}/metrics`)).text();
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return Number(line?.split(" ")[1] ?? 0);
}

async function until(condition: () => Promise<boolean>, what: string): Promise<void> {
  for (let tries = 0; !(await condition()); tries++) {
    if (tries > 600) throw new Error(`never saw: ${what}`);
    await Bun.sleep(50);
  }
}

test("SIGTERM: requests in flight are all answered, then the process exits 0", async () => {
  const database = join(dir, "portolan.sqlite");
  const adminPort = await freePort();
  // Creates the schema and the tenant before the server opens the file.
  api = await startApi(database, [], {
    PORTOLAN_ROLES: "api",
    PORTOLAN_ADMIN_PORT: String(adminPort),
    PORTOLAN_DRAIN_MS: "60000",
  });
  const { key } = await payingTenant(database);
  const port = Number(new URL(api.urls.ocean).port);
  const held = await Promise.all(
    Array.from({ length: IN_FLIGHT }, (_, i) =>
      heldRequest(port, key, JSON.stringify({ url: `https://93.184.216.34/hook-${i}` })),
    ),
  );
  await until(
    async () => (await gauge(adminPort, 'portolan_http_requests_in_flight{product="ocean"}')) === IN_FLIGHT,
    "every request in flight",
  );

  api.proc.kill("SIGTERM");
  await until(
    async () => (await recordingFetch(`http://127.0.0.1:${adminPort}/readyz`)).status === 503,
    "/readyz not ready",
  );
  await until(
    () =>
      recordingFetch(`${api!.urls.ocean}/livez`).then(
        () => false,
        () => true,
      ),
    "the product port refusing new connections",
  );

  const answers = await Promise.all(held.map((h) => h.finish()));
  expect(answers.map((a) => a.split("\r\n")[0])).toEqual(Array(IN_FLIGHT).fill("HTTP/1.1 201 Created"));
  expect(await api.proc.exited).toBe(0);
}, 120_000);

/** A distance key on the database a server runs on. */
async function distanceKey(database: string): Promise<string> {
  const storage = sqliteStorage(openDatabase(database));
  try {
    const accounts = testAccounts(storage);
    const org = await accounts.createOrg("routes", {
      paid: true,
      plan: "enterprise",
      rateLimit: 1_000_000_000,
    });
    await accounts.setEntitlement(org.id, "distance", null);
    return (await accounts.createKey(org.id, "distance")).key;
  } finally {
    await storage.close();
  }
}

test("SIGTERM: routes waiting for or on the route workers are answered, not shed", async () => {
  const database = join(dir, "routes.sqlite");
  const adminPort = await freePort();
  // One worker: the routes queue behind each other, so several are in flight at the signal.
  const server = await startApi(database, [], {
    PORTOLAN_ROLES: "api",
    PORTOLAN_ADMIN_PORT: String(adminPort),
    PORTOLAN_ROUTE_WORKERS: "1",
    PORTOLAN_DRAIN_MS: "60000",
  });
  api = server;
  const key = await distanceKey(database);
  const pairs = ["NLRTM-SGSIN", "CNSHA-USLAX", "DEHAM-BRSSZ", "JPTYO-NLRTM", "AUSYD-GBFXT", "INNSA-USNYC"];
  const routes = pairs.map((pair) => {
    const [from, to] = pair.split("-");
    return recordingFetch(`${server.urls.distance}/v1/distance/route?from=${from}&to=${to}`, {
      headers: { authorization: `Bearer ${key}` },
    }).then((r) => r.status);
  });
  await until(
    async () => (await gauge(adminPort, 'portolan_http_requests_in_flight{product="distance"}')) > 0,
    "routes in flight",
  );
  server.proc.kill("SIGTERM");
  expect(await Promise.all(routes)).toEqual(pairs.map(() => 200));
  expect(await server.proc.exited).toBe(0);
}, 120_000);
