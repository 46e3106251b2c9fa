/**
 * A SQLite database that cannot grow (a full disk: SQLITE_FULL) answers writes 503
 * SERVICE_UNAVAILABLE with Retry-After in the product's envelope, never a 500; reads keep working,
 * nothing written before is lost, and writes succeed again once there is room. The limit is
 * SQLite's own `max_page_count`, which fails a write that needs one more page exactly as a full
 * disk does (the same result code).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { buildApps } from "../../api/app.ts";
import { bootstrap, type Running } from "../../api/bootstrap.ts";
import { loadConfig } from "../../api/config.ts";

let dir = "";
let platform: Running;
let app: ReturnType<typeof buildApps>["ocean"];
let key = "";

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "portolan-full-"));
  platform = await bootstrap({ ...loadConfig(), database: join(dir, "full.sqlite"), sandbox: false });
  const org = await platform.accounts.createOrg("full", { paid: true });
  await platform.accounts.setPlan(org.id, { rateLimit: 1_000_000 });
  await platform.accounts.setEntitlement(org.id, "ocean", null);
  key = (await platform.accounts.createKey(org.id, "ocean")).key;
  app = buildApps(platform).ocean;
});

afterAll(async () => {
  await platform?.close();
  rmSync(dir, { recursive: true, force: true });
});

const call = (method: string, path: string, body?: unknown) =>
  app.handle(
    new Request(`http://localhost${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );

async function pragma(text: string): Promise<number> {
  const rows = (await platform.storage.db.all(sql.raw(`PRAGMA ${text}`))) as Array<Record<string, number>>;
  return Object.values(rows[0] ?? { n: 0 })[0]!;
}

test("a full database answers writes 503 with Retry-After, keeps reads and what was written", async () => {
  const label = "x".repeat(100);
  await pragma(`max_page_count = ${await pragma("page_count")}`);
  let full: Response | null = null;
  let written = 0;
  // Each key is a row of ~300 bytes: the pages left fill within a few dozen.
  for (let i = 0; i < 500 && !full; i++) {
    const res = await call("POST", "/v1/account/keys", { label });
    expect(res.status === 201 || res.status === 503).toBe(true);
    if (res.status === 503) full = res;
    else written++;
  }
  expect(full).not.toBeNull();
  expect(full!.headers.get("retry-after")).toBe("2");
  const body = (await full!.json()) as { ok: boolean; error: { code: string } };
  expect(body.ok).toBe(false);
  expect(body.error.code).toBe("SERVICE_UNAVAILABLE");

  // Reads answer, with every key written before the disk filled (the caller's, and `written` more).
  const listed = await call("GET", "/v1/account/keys");
  expect(listed.status).toBe(200);
  const { data } = (await listed.json()) as { data: { items: unknown[] } };
  expect(data.items.length).toBe(1 + written);

  // Room again: the same write succeeds.
  await pragma("max_page_count = 1073741823");
  expect((await call("POST", "/v1/account/keys", { label })).status).toBe(201);
});
