/**
 * A failed statement never carries the values it was sent: its message, its string form and its
 * inspection (what console.error and a log line print) name the SQL, never a webhook's sealed
 * secret or its hash, nor a row PostgreSQL quotes in its error detail. Through the real schema and
 * drizzle, on SQLite and (in the PostgreSQL pass) on PostgreSQL; the typed errors still come through.
 */
import { afterEach, expect, test } from "bun:test";
import { DuplicateKeyError } from "../../storage/errors.ts";
import { openStorage } from "../../storage/open.ts";
import type { Storage } from "../../storage/storage.ts";
import { testDatabase } from "../helpers/database.ts";

const AT = "2026-01-01T00:00:00.000Z";
const SECRET_BLOB = "c2VhbGVkLXNlY3JldC1ibG9iLW5ldmVyLWxvZ2dlZA";
const SECRET_HASH = "9f2c1e7a5b3d4c6e8f0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f6a7";

const opened: Storage[] = [];
afterEach(async () => {
  for (const storage of opened.splice(0)) await storage.close();
});

async function storage(): Promise<Storage> {
  const s = await openStorage(testDatabase());
  opened.push(s);
  await s.db.insert(s.t.orgs).values({ id: "o1", name: "o1", createdAt: AT });
  return s;
}

const endpoint = (id: string, orgId: string) => ({
  id,
  orgId,
  product: "ocean",
  url: "https://hooks.example.com/in",
  eventTypes: [],
  description: "d",
  createdAt: AT,
  secretHash: SECRET_HASH,
  sealed: { keyId: "k1", blob: SECRET_BLOB },
});

/** Every way a caller or a logger turns the error into text. */
function printed(err: unknown): string {
  return [String(err), (err as Error).message, Bun.inspect(err), JSON.stringify(err)].join("\n");
}

async function failure(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (err) {
    return err;
  }
  throw new Error("the statement did not fail");
}

test("a statement that fails names its SQL, never its values", async () => {
  const s = await storage();
  // A NOT NULL failure on both databases; PostgreSQL's detail quotes the whole row.
  const noDescription = { ...endpoint("w1", "o1"), description: null as unknown as string };
  const err = await failure(() => s.webhooks.create(noDescription, 50));
  const text = printed(err);
  expect(text).toContain("webhook_endpoints");
  expect(text).not.toContain(SECRET_BLOB);
  expect(text).not.toContain(SECRET_HASH);
});

test("a duplicate key is still recognised, and prints no values either", async () => {
  const s = await storage();
  await s.webhooks.create(endpoint("w1", "o1"), 50);
  const err = await failure(() => s.webhooks.create(endpoint("w1", "o1"), 50));
  expect(err).toBeInstanceOf(DuplicateKeyError);
  const text = printed(err);
  expect(text).not.toContain(SECRET_BLOB);
  expect(text).not.toContain(SECRET_HASH);
});
