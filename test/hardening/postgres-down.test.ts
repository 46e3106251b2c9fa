/**
 * PostgreSQL going away and coming back (a restart, a failover): requests that need the database
 * meanwhile answer 503 SERVICE_UNAVAILABLE in the product's envelope with a Retry-After, never a
 * 500, and the same process answers as before once the server is back. A server of its own
 * (scripts/postgres-temp.sh), stopped and started on the same port. Also: SQLite held locked by
 * another connection past the busy timeout is the same typed error.
 */

import { Database } from "bun:sqlite";
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildApps } from "../../api/app.ts";
import { bootstrap, type Running } from "../../api/bootstrap.ts";
import { loadConfig } from "../../api/config.ts";
import { StorageUnavailableError, storageError } from "../../storage/errors.ts";
import { captureLogs } from "../helpers/logs.ts";
import { postgresTemp as pg } from "../helpers/postgres-server.ts";

let dir = "";
let platform: Running;
let app: ReturnType<typeof buildApps>["ocean"];
let key = "";
let org: { id: string };

beforeAll(async () => {
  const [url, folder] = pg("start").split(" ");
  dir = folder!;
  platform = await bootstrap({ ...loadConfig(), database: url!, sandbox: false });
  org = await platform.accounts.createOrg("down", { paid: true });
  key = (await platform.accounts.createKey(org.id, "ocean")).key;
  await platform.accounts.setEntitlement(org.id, "ocean", null);
  app = buildApps(platform).ocean;
});

afterAll(async () => {
  await platform?.close().catch(() => {});
  if (dir) pg("stop", dir);
});

async function get(
  path: string,
): Promise<{ status: number; retryAfter: string | null; body: Record<string, unknown> }> {
  const res = await app.handle(
    new Request(`http://localhost${path}`, { headers: { authorization: `Bearer ${key}` } }),
  );
  return { status: res.status, retryAfter: res.headers.get("retry-after"), body: await res.json() };
}

test("while PostgreSQL is down, reads and compat polls answer 503 with Retry-After; after, as before", async () => {
  const before = await get("/v1/containers");
  expect(before.status).toBe(200);
  const poll = `/compat/vendor/tracking?api_key=${key}&number=MSCU2375717`;

  pg("down", dir);
  // What the products log of each refusal: the driver's reason, never the statement's parameters.
  const logs = captureLogs("warn");
  const answers = [];
  try {
    for (const path of ["/v1/containers", "/v1/containers/lookup/MSCU2375717", poll])
      answers.push({ path, answer: await get(path) });
  } finally {
    logs.restore();
  }
  expect(logs.text()).not.toContain("params:");
  expect(logs.text()).not.toContain(org.id);
  expect(
    logs.lines.filter((line) => line.msg === "database unavailable" && line.reason).length,
  ).toBeGreaterThan(0);
  for (const { path, answer } of answers) {
    expect(answer.status).toBe(503);
    expect(answer.retryAfter).toBe("2");
    // The product's envelope, or the compat surface's own.
    if (path === poll)
      expect(answer.body).toEqual({ status: "error", message: expect.any(String), data: null });
    else expect(JSON.stringify(answer.body)).toContain("SERVICE_UNAVAILABLE");
  }

  pg("up", dir);
  // The driver opens new connections at the next statement: the first read after the restart answers.
  const after = await get("/v1/containers");
  expect(after.status).toBe(200);
  expect(after.body).toEqual({ ...before.body, meta: after.body.meta });
});

test("/readyz turns not ready while PostgreSQL is down and ready again after; /livez stays up", async () => {
  const probe = async (path: string) => {
    const res = await app.handle(new Request(`http://localhost${path}`));
    return {
      status: res.status,
      body: (await res.json()) as { status: string; checks?: Record<string, unknown> },
    };
  };
  expect(await probe("/readyz")).toEqual({
    status: 200,
    body: { status: "ready", checks: { database: { status: "up" } } },
  });
  pg("down", dir);
  try {
    const down = await probe("/readyz");
    expect([down.status, down.body.status]).toEqual([503, "not_ready"]);
    expect(down.body.checks?.database).toMatchObject({ status: "down", detail: expect.any(String) });
    expect(await probe("/livez")).toEqual({ status: 200, body: { status: "live" } });
  } finally {
    pg("up", dir);
  }
  expect((await probe("/readyz")).status).toBe(200);
});

test("SQLite locked by another connection past the busy timeout is StorageUnavailableError", () => {
  const folder = mkdtempSync(join(tmpdir(), "portolan-busy-"));
  try {
    const file = join(folder, "busy.sqlite");
    const holder = new Database(file);
    holder.exec("PRAGMA journal_mode = WAL; CREATE TABLE t (x); BEGIN IMMEDIATE; INSERT INTO t VALUES (1);");
    const other = new Database(file);
    other.exec("PRAGMA busy_timeout = 0");
    let thrown: unknown;
    try {
      other.exec("INSERT INTO t VALUES (2)");
    } catch (err) {
      thrown = err;
    }
    expect(storageError(thrown)).toBeInstanceOf(StorageUnavailableError);
    holder.exec("ROLLBACK");
    holder.close();
    other.close();
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});
