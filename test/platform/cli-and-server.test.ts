/** The CLI and the real listeners, as a new user meets them: subprocesses and sockets. */
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PRODUCTS } from "../../api/shared/products.ts";
import { DEMO_REFERENCES } from "../../ingest/sandbox/demo.ts";
import { sharedTestDatabase } from "../helpers/database.ts";
import { freePort } from "../helpers/redis-server.ts";

const root = join(import.meta.dir, "../..");
const dir = mkdtempSync(join(tmpdir(), "portolan-cli-"));
// The CLI and the server are separate processes on one database (SQLite file, or PostgreSQL in
// the suite's PostgreSQL pass, where account changes reach the server by NOTIFY).
const env = { ...process.env, PORTOLAN_DB: sharedTestDatabase(join(dir, "portolan.sqlite")) };
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function cli(...args: string[]) {
  const r = Bun.spawnSync([join(root, "bin/portolan"), ...args], { env, cwd: root });
  return { code: r.exitCode, out: r.stdout.toString().trim().split("\n"), err: r.stderr.toString() };
}

/** The first value `read` gives that passes `done`, asking for a second at most; else the last. */
async function withinASecond<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const end = Date.now() + 1000;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > end) return value;
    await Bun.sleep(20);
  }
}

test("CLI and every product on its own port: org, key, first call, plan, revoke", async () => {
  const org = cli("org", "create", "Acme", "Freight");
  expect(org.code).toBe(0);
  const orgId = org.out.at(-1)!;
  expect(orgId).toMatch(/^[0-9a-f-]{36}$/);
  const key = cli("key", "create", "--org", orgId, "--product", "ocean").out.at(-1)!;
  expect(key).toMatch(/^oc_/);
  const dkey = cli("key", "create", "--org", orgId, "--product", "distance").out.at(-1)!;

  const ports = await Promise.all(PRODUCTS.map(() => freePort()));
  const portEnv = {
    ...Object.fromEntries(PRODUCTS.map((p, i) => [`PORTOLAN_${p.id.toUpperCase()}_PORT`, String(ports[i])])),
    // The default start runs the sandbox carrier and its AIS feed: free ports, so runs can overlap.
    PORTOLAN_SANDBOX_PORT: String(await freePort()),
    PORTOLAN_SANDBOX_AIS_PORT: String(await freePort()),
    PORTOLAN_SANDBOX_AIR_PORT: String(await freePort()),
    PORTOLAN_ADMIN_PORT: "off",
  };
  const server = Bun.spawn([join(root, "node_modules/.bin/bun"), join(root, "api/main.ts")], {
    env: { ...env, ...portEnv },
    cwd: root,
    stdout: "pipe",
    stderr: "inherit",
  });
  try {
    const base = (i: number) => `http://127.0.0.1:${ports[i]}`;
    for (let tries = 0; ; tries++) {
      try {
        await fetch(`${base(5)}/healthz`);
        break;
      } catch {
        // The start loads every route worker's graphs first: slow on a busy two-core machine.
        if (tries > 400) throw new Error("server did not start");
        await Bun.sleep(50);
      }
    }
    for (const [i, p] of PRODUCTS.entries()) {
      const health = await fetch(`${base(i)}/healthz`);
      expect([p.id, health.status]).toEqual([p.id, 200]);
      expect(JSON.stringify(await health.json())).toContain(`"product":"${p.id}"`);
    }
    const me = await fetch(`${base(0)}/v1/account`, { headers: { authorization: `Bearer ${key}` } });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { data: { entitlement: string } }).data.entitlement).toBe("active");
    expect(
      (await fetch(`${base(5)}/v1/account`, { headers: { authorization: `Bearer ${dkey}` } })).status,
    ).toBe(200);

    // The sandbox carrier beside the API: a documented demo reference tracks at once.
    const reference = DEMO_REFERENCES.find(
      (d) => d.scac === "MAEU" && d.scenario === "in_transit",
    )!.reference;
    const demo = await fetch(`${base(0)}/v1/containers`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ identifier: reference, identifier_type: "container_id" }),
    });
    expect(demo.status).toBe(201);
    const read = (await (
      await fetch(`${base(0)}/v1/containers/lookup/${reference}`, {
        headers: { authorization: `Bearer ${key}` },
      })
    ).json()) as { data: { carrier: string; events: unknown[] } };
    expect(read.data.carrier).toBe("Maersk A/S");
    expect(read.data.events.length).toBeGreaterThan(0);

    const plan = cli(
      "plan",
      "set",
      "--org",
      orgId,
      "--paid",
      "--plan",
      "pro",
      "--shipments",
      "500",
      "--entitle",
      "ocean:2020-01-01",
    );
    expect(plan.code).toBe(0);
    // Another process's change is seen within a second (the bound for revocations).
    const account = async () =>
      (await (
        await fetch(`${base(0)}/v1/account`, { headers: { authorization: `Bearer ${key}` } })
      ).json()) as { data: { paid: boolean; entitlement: string; rate_limit: { limit: number } } };
    expect(await withinASecond(account, (a) => a.data.paid)).toMatchObject({
      data: { paid: true, entitlement: "expired", rate_limit: { limit: 120 } },
    });

    const bad = cli("plan", "set", "--org", orgId, "--free", "--entitle", "nonsense");
    expect(bad.code).toBe(2);
    const still = (await (
      await fetch(`${base(0)}/v1/account`, { headers: { authorization: `Bearer ${key}` } })
    ).json()) as {
      data: { paid: boolean };
    };
    expect(still.data.paid).toBe(true); // the rejected command changed nothing

    expect(cli("key", "revoke", key).code).toBe(0);
    const status = () =>
      fetch(`${base(0)}/v1/account`, { headers: { authorization: `Bearer ${key}` } }).then((r) => r.status);
    expect(await withinASecond(status, (s) => s === 401)).toBe(401);
  } finally {
    server.kill();
    await server.exited;
  }
}, 60_000);
