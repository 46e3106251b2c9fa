/**
 * `portolan webhooks listen` as a user runs it beside a started server: a ping and an event reach
 * its receiver verified, and the endpoint goes when it stops. The server's sweep is an hour away,
 * so only the wake-ups of the test route and of a committed event bring those deliveries.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli } from "../helpers/cli.ts";
import { sharedTestDatabase } from "../helpers/database.ts";
import { recordingFetch } from "../helpers/issued-secrets.ts";
import { linesOf } from "../helpers/lines.ts";
import { type ServerProcess, startServerProcess } from "../helpers/server-process.ts";

const root = join(import.meta.dir, "../..");
const dir = mkdtempSync(join(tmpdir(), "portolan-listen-test-"));
const env = {
  ...process.env,
  PORTOLAN_DB: sharedTestDatabase(join(dir, "portolan.sqlite")),
  PORTOLAN_WEBHOOK_SWEEP_MS: "3600000",
};
let server: ServerProcess;
let orgId: string;
let key: string;

function cli(...args: string[]) {
  return runCli(args, env);
}

beforeAll(async () => {
  orgId = cli("org", "create", "Listen Freight").out.at(-1)!;
  key = cli("key", "create", "--org", orgId, "--product", "loading").out.at(-1)!;
  server = await startServerProcess(env);
});
afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const call = async (method: string, path: string, body?: unknown) => {
  const res = await recordingFetch(`${server.base.loading}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as { ok: boolean; data: Record<string, unknown> } };
};

test("a ping and an event arrive verified; the endpoint goes on Ctrl-C", async () => {
  const listen = Bun.spawn(
    [
      join(root, "bin/portolan"),
      "webhooks",
      "listen",
      "--org",
      "Listen Freight",
      "--product",
      "loading",
    ].concat(["--events", "plan_created", "--json"]),
    { env, cwd: root, stdout: "pipe", stderr: "pipe" },
  );
  const lines = linesOf(listen.stdout);
  try {
    const ready = await lines.next(/^listening on /, "the ready line");
    const [, url, id, secret] = /^listening on (\S+) .*endpoint (\S+), secret (whsec_\w+);/.exec(ready)!;
    expect(url).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/$/);
    expect(secret).toMatch(/^whsec_/);
    const listed = await call("GET", `/v1/webhooks/${id}`);
    expect(listed.status).toBe(200);
    expect(listed.body.data).toMatchObject({ url, event_types: ["plan_created"], active: true });

    expect((await call("POST", `/v1/webhooks/${id}/test`)).status).toBe(200);
    const ping = JSON.parse(await lines.next(/"event":"ping"/, "the ping"));
    expect(ping).toMatchObject({
      event: "ping",
      signature_ok: true,
      body: { type: "ping", data: { endpoint_id: id } },
    });
    expect(ping.id).toBe(ping.body.id);

    const cargo = await Bun.file(join(root, "examples/cargo-list.json")).json();
    const plan = await call("POST", "/v1/load-plans", cargo);
    expect(plan.status).toBe(201);
    const event = JSON.parse(await lines.next(/"event":"plan_created"/, "plan_created"));
    expect(event).toMatchObject({
      signature_ok: true,
      body: { type: "plan_created", data: { id: plan.body.data.id } },
    });

    // Registrations over HTTP keep the address rule: the listener's own loopback URL is refused.
    const direct = await call("POST", "/v1/webhooks", { url });
    expect([direct.status, JSON.stringify(direct.body)]).toEqual([
      400,
      expect.stringContaining("INVALID_URL"),
    ]);

    listen.kill("SIGINT");
    expect(await listen.exited).toBe(0);
    expect((await call("GET", `/v1/webhooks/${id}`)).status).toBe(404);
  } finally {
    listen.kill();
  }
});

test("flags are checked before anything is registered (exit 2 naming the flag); a port taken exits 1", async () => {
  const cases: Array<[string[], string]> = [
    [["--product", "distance"], "--product"],
    [["--product", "loading", "--events", "plan_created,container_arrived"], "--events"],
    [["--product", "loading", "--port", "70000"], "--port"],
  ];
  for (const [flags, named] of cases) {
    const r = cli("webhooks", "listen", "--org", orgId, ...flags);
    expect([flags.join(" "), r.code, r.err]).toEqual([flags.join(" "), 2, expect.stringContaining(named)]);
  }
  const taken = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("") });
  try {
    const busy = cli(
      "webhooks",
      "listen",
      "--org",
      orgId,
      "--product",
      "loading",
      "--port",
      String(taken.port),
    );
    expect([busy.code, busy.err]).toEqual([1, expect.stringContaining("cannot start the receiver")]);
  } finally {
    taken.stop(true);
  }
  const other = cli("webhooks", "listen", "--org", "nobody", "--product", "loading");
  expect([other.code, other.err]).toEqual([2, expect.stringContaining("--org: no organisation nobody")]);
  expect((await call("GET", "/v1/webhooks")).body.data.items).toEqual([]);
});
