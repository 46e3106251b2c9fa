/**
 * The parsed-sailings cache behind point-to-point search (storage/sailing-cache.ts): a platform
 * whose cache is warm answers exactly as one reading the database cold, and a refresh applied by
 * another connection to the same database (another process, as far as either cache can tell) shows
 * at once. The refreshes are the real sync against the real sandbox process, its clock moved.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import type { ScheduleCall } from "../../ingest/schedules/cs-types.ts";
import { ScheduleSync } from "../../ingest/schedules/sync.ts";
import { sharedTestDatabase } from "../helpers/database.ts";
import { bearer, makePlatform, type TestPlatform } from "../helpers/platform.ts";
import { type RunningSandbox, sandboxCarriers, startSandbox } from "../sandbox/spawn.ts";

const KEY = "schedules-cache-test-key";
const D = 86_400_000;
const START = Date.parse("2026-02-02T00:00:00Z");
let clock = START;
let dir: string;
let database: string;
let sandbox: RunningSandbox;
/** Serves the queries: its cache stays warm across every refresh. */
let reader: TestPlatform;
/** Applies the refreshes on a connection of its own. */
let writer: TestPlatform;
let sync: ScheduleSync;
let key: string;
let lanes: Array<[string, string]>;

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Point-to-point paths over `lanes` from the clock's day: direct only, and up to 2 transshipments. */
const paths = () =>
  lanes.flatMap(([o, d]) =>
    ["&direct_only=true", "&max_transshipments=2"].map(
      (extra) =>
        `/v1/point-to-point?origin=${o}&destination=${d}&from=${day(clock)}&to=${day(clock + 27 * D)}&limit=500${extra}`,
    ),
  );

async function answers(p: TestPlatform, list: string[]): Promise<string[]> {
  const out: string[] = [];
  for (const path of list) {
    const res = await p.call("schedules", path, bearer(key));
    const text = await res.text();
    expect(res.status, text).toBe(200);
    out.push(text);
  }
  return out;
}

/** The same paths on a platform opened now over the same database: nothing cached. */
async function coldAnswers(list: string[]): Promise<string[]> {
  const cold = await makePlatform({ database }, () => clock);
  try {
    return await answers(cold, list);
  } finally {
    await cold.close();
  }
}

async function moveClock(to: number) {
  clock = to;
  await sandbox.setClock({ now: new Date(clock).toISOString() });
  await sync.pollDue();
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "portolan-schedules-cache-"));
  database = sharedTestDatabase(join(dir, "portolan.sqlite"));
  sandbox = await startSandbox({ SANDBOX_API_KEY: KEY, SANDBOX_EPOCH: "2026-01-05T00:00:00Z" });
  await sandbox.setClock({ now: new Date(clock).toISOString() });
  const carriers = await sandboxCarriers(sandbox, KEY);
  reader = await makePlatform({ database }, () => clock);
  writer = await makePlatform({ database }, () => clock);
  const tenant = await reader.tenant();
  key = tenant.keys.schedules;
  await reader.accounts.setPlan(tenant.orgId, { rateLimit: 1_000_000 });
  sync = new ScheduleSync({ storage: writer.storage, carriers, now: () => clock, log: () => {} });
  expect(await sync.pollDue()).toBe(carriers.length);
  // Lanes of sailings departing within days of the clock: each sailing's first and third port.
  const { db, t } = writer.storage;
  const seen = new Map<string, [string, string]>();
  for (const s of await db.select().from(t.sailings)) {
    const calls = s.calls as ScheduleCall[];
    if (Math.abs(Date.parse(s.departsAt) - clock) > 5 * D || calls.length < 3) continue;
    const [o, d] = [calls[0]!.place.unlocode!, calls[2]!.place.unlocode!];
    seen.set(`${o}-${d}`, [o, d]);
  }
  lanes = [...seen.values()].slice(0, 4);
  expect(lanes.length).toBeGreaterThan(1);
}, 120_000);

afterAll(async () => {
  await reader?.close();
  await writer?.close();
  await sandbox?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("parsed-sailings cache", () => {
  test("a refresh by another connection after the sandbox clock moved changes a warm platform's answer at once", async () => {
    const list = paths();
    const before = await answers(reader, list);
    // Warm: the second reading is served from the cache, and answers the same.
    expect(await answers(reader, list)).toEqual(before);
    await moveClock(clock + 2 * D);
    // The same window as before: only the refresh (estimates, actuals) can change the answers.
    const after = await answers(reader, list);
    const cold = await coldAnswers(list);
    expect(after).toEqual(cold);
    expect(after.filter((a, i) => a !== before[i]).length).toBeGreaterThan(0);
  }, 60_000);

  test("two writes of one sailing within a millisecond, calls of equal length, are both seen", async () => {
    const { db, t } = writer.storage;
    const [s] = await db.select().from(t.sailings).limit(1);
    const q = { from: s!.departsAt, to: s!.arrivesAt, carriers: [s!.carrier] };
    const read = async () => (await reader.storage.sailings.overlapping(q)).find((r) => r.id === s!.id)!;
    const warm = await read();
    const named = (name: string) =>
      (warm.calls as ScheduleCall[]).map((c, i) => (i === 0 ? { ...c, place: { ...c.place, name } } : c));
    const [first, second] = [named("Terminal 07"), named("Terminal 08")];
    expect(JSON.stringify(first).length).toBe(JSON.stringify(second).length);
    // Same changed_at, same text length: only the version tells the two writes apart.
    for (const calls of [first, second]) {
      await writer.storage.sailings.update(s!.id, { calls });
      const now = await read();
      expect([now.changedAt, now.calls]).toEqual([warm.changedAt, calls]);
    }
  });

  test("cached and uncached answers are byte-identical over several clock readings", async () => {
    let step = 0;
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 10 }), async (days) => {
        await moveClock(START + (4 + step++) * 3 * D + days * 3_600_000);
        const list = paths();
        expect(await answers(reader, list)).toEqual(await coldAnswers(list));
      }),
      { numRuns: 4, seed: 17 },
    );
  }, 120_000);
});
