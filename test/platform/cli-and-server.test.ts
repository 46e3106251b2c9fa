/** The CLI and the real listeners, as a new user meets them: subprocesses and sockets. */
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PRODUCTS } from "../../api/shared/products.ts";
import { DEMO_REFERENCES } from "../../ingest/sandbox/demo.ts";
import { runCli } from "../helpers/cli.ts";
import { sharedTestDatabase } from "../helpers/database.ts";
import { recordingFetch } from "../helpers/issued-secrets.ts";
import { startServerProcess } from "../helpers/server-process.ts";

const dir = mkdtempSync(join(tmpdir(), "portolan-cli-"));
// The CLI and the server are separate processes on one database (SQLite file, or PostgreSQL in
// the suite's PostgreSQL pass, where account changes reach the server by NOTIFY).
const env = { ...process.env, PORTOLAN_DB: sharedTestDatabase(join(dir, "portolan.sqlite")) };
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function cli(...args: string[]) {
  return runCli(args, env);
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

  const server = await startServerProcess(env);
  try {
    const base = (i: number) => server.base[PRODUCTS[i]!.id];
    for (const [i, p] of PRODUCTS.entries()) {
      const health = await recordingFetch(`${base(i)}/healthz`);
      expect([p.id, health.status]).toEqual([p.id, 200]);
      expect(JSON.stringify(await health.json())).toContain(`"product":"${p.id}"`);
    }
    const me = await recordingFetch(`${base(0)}/v1/account`, { headers: { authorization: `Bearer ${key}` } });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { data: { entitlement: string } }).data.entitlement).toBe("active");
    expect(
      (await recordingFetch(`${base(5)}/v1/account`, { headers: { authorization: `Bearer ${dkey}` } }))
        .status,
    ).toBe(200);

    // The sandbox carrier beside the API: a documented demo reference tracks at once.
    const reference = DEMO_REFERENCES.find(
      (d) => d.scac === "MAEU" && d.scenario === "in_transit",
    )!.reference;
    const demo = await recordingFetch(`${base(0)}/v1/containers`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ identifier: reference, identifier_type: "container_id" }),
    });
    expect(demo.status).toBe(201);
    const read = (await (
      await recordingFetch(`${base(0)}/v1/containers/lookup/${reference}`, {
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
        await recordingFetch(`${base(0)}/v1/account`, { headers: { authorization: `Bearer ${key}` } })
      ).json()) as { data: { paid: boolean; entitlement: string; rate_limit: { limit: number } } };
    expect(await withinASecond(account, (a) => a.data.paid)).toMatchObject({
      data: { paid: true, entitlement: "expired", rate_limit: { limit: 120 } },
    });

    const bad = cli("plan", "set", "--org", orgId, "--free", "--entitle", "nonsense");
    expect(bad.code).toBe(2);
    const still = (await (
      await recordingFetch(`${base(0)}/v1/account`, { headers: { authorization: `Bearer ${key}` } })
    ).json()) as {
      data: { paid: boolean };
    };
    expect(still.data.paid).toBe(true); // the rejected command changed nothing

    expect(cli("key", "revoke", key).code).toBe(0);
    const status = () =>
      recordingFetch(`${base(0)}/v1/account`, { headers: { authorization: `Bearer ${key}` } }).then(
        (r) => r.status,
      );
    expect(await withinASecond(status, (s) => s === 401)).toBe(401);
  } finally {
    await server.stop();
  }
}, 60_000);
