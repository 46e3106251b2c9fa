/**
 * Account changes an API process is not told of. Each process caches key, plan and entitlement
 * decisions and drops them on a NOTIFY; one sent while its LISTEN connection is away (PostgreSQL
 * restarting: that connection comes back after the server does) is lost. A real api/main.ts on a
 * PostgreSQL of the test's own. The changes are made through a storage connection of their own, as
 * the CLI makes them, while the server takes no connection on the process's port
 * (scripts/postgres-temp.sh `up DIR PORT`: the same data on another port), so they land in that gap
 * whatever the timing; then the server comes back on its own port. And a revocation written to the
 * table by hand, which signals nothing. Either way the process must refuse the key, and show the new
 * plan and entitlement, within the bound docs/storage.md gives (CACHE_MAX_AGE_MS; the polls allow 5 s
 * more for a loaded machine, and stop as soon as the answer is right).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { type AccountsRepo, CACHE_MAX_AGE_MS } from "../../api/accounts/repo.ts";
import { openStorage } from "../../storage/open.ts";
import { recordingFetch, testAccounts } from "../helpers/issued-secrets.ts";
import { postgresTemp as pg } from "../helpers/postgres-server.ts";
import { freePort } from "../helpers/redis-server.ts";
import { type ApiProcess, startApi } from "./sqlite-cluster.ts";

/** How long a poll waits for the right answer: the documented bound, and slack. */
const WITHIN_MS = CACHE_MAX_AGE_MS + 5_000;

let dir = "";
let url = "";
let api: ApiProcess;

beforeAll(async () => {
  [url, dir] = pg("start").split(" ") as [string, string];
  api = await startApi(url, [], {}, "tail");
}, 120_000);

afterAll(async () => {
  await api?.stop("SIGKILL");
  if (dir) pg("stop", dir);
});

/** Runs `work` on a storage of its own on `target`, as the CLI would. */
async function asOperator<T>(
  target: string,
  work: (accounts: AccountsRepo, storage: Awaited<ReturnType<typeof openStorage>>) => Promise<T>,
): Promise<T> {
  const storage = await openStorage(target, { poolSize: 2 });
  try {
    return await work(testAccounts(storage), storage);
  } finally {
    await storage.close();
  }
}

/**
 * A paid organisation on the pro plan entitled to ocean tracking, and an ocean key of it; a rate
 * limit the polls never reach.
 */
async function tenant(accounts: AccountsRepo, name: string) {
  const org = await accounts.createOrg(name, { paid: true, plan: "pro", rateLimit: 1_000_000_000 });
  await accounts.setEntitlement(org.id, "ocean", null);
  return { orgId: org.id, ...(await accounts.createKey(org.id, "ocean")) };
}

/** GET /v1/account with `key`: the status and, on 200, the plan and the ocean entitlement. */
async function account(key: string): Promise<{ status: number; plan?: unknown; entitlement?: unknown }> {
  const res = await recordingFetch(`${api.url}/v1/account`, { headers: { authorization: `Bearer ${key}` } });
  const body = (await res.json()) as { data?: { plan?: unknown; entitlement?: unknown } };
  return res.status === 200
    ? { status: 200, plan: body.data?.plan, entitlement: body.data?.entitlement }
    : { status: res.status };
}

/** Asks until the answer equals `want` or WITHIN_MS pass; the last answer either way. */
async function settlesTo<T>(ask: () => Promise<T>, want: T): Promise<T> {
  const end = performance.now() + WITHIN_MS;
  for (;;) {
    const got = await ask();
    if (Bun.deepEquals(got, want) || performance.now() > end) return got;
    await Bun.sleep(100);
  }
}

test("a revocation, a plan and an entitlement change made while the process's LISTEN is away are seen", async () => {
  const [revoked, changed] = await asOperator(url, async (accounts) => [
    await tenant(accounts, "revoked"),
    await tenant(accounts, "changed"),
  ]);
  // Cached in the process now.
  expect(await account(revoked.key)).toEqual({ status: 200, plan: "pro", entitlement: "active" });
  expect(await account(changed.key)).toEqual({ status: 200, plan: "pro", entitlement: "active" });

  pg("down", dir);
  const elsewhere = await freePort();
  pg("up", dir, elsewhere);
  const side = new URL(url);
  side.port = String(elsewhere);
  await asOperator(side.toString(), async (accounts) => {
    expect(await accounts.revokeKey(revoked.id)).toBe(true);
    await accounts.setPlan(changed.orgId, { plan: "enterprise" });
    await accounts.removeEntitlement(changed.orgId, "ocean");
  });
  pg("down", dir);
  pg("up", dir);

  expect(await settlesTo(() => account(revoked.key), { status: 401 })).toEqual({ status: 401 });
  const now = { status: 200, plan: "enterprise", entitlement: "none" };
  expect(await settlesTo(() => account(changed.key), now)).toEqual(now);
}, 60_000);

test("a revocation written to the table by hand, which signals no process, is seen within the bound", async () => {
  const quiet = await asOperator(url, (accounts) => tenant(accounts, "quiet"));
  expect((await account(quiet.key)).status).toBe(200);
  await asOperator(url, async (_, storage) => {
    const keys = storage.t.apiKeys;
    await storage.db.update(keys).set({ revokedAt: new Date().toISOString() }).where(eq(keys.id, quiet.id));
  });
  expect(await settlesTo(() => account(quiet.key), { status: 401 })).toEqual({ status: 401 });
}, 60_000);
