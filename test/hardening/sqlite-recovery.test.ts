/**
 * An add interrupted by a crash. The record is committed (and charged) marked as
 * adding before the first carrier call; if the process dies there, a restart must end the add once
 * its lease has lapsed: the record answers normally, is fetched from the carrier, a re-add meets
 * ALREADY_TRACKED instead of CONTAINER_ADD_IN_PROGRESS, and nothing is charged twice. Before the
 * lease lapses the add is left alone: it may belong to another live process.
 */
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { visibleEvents } from "../../ingest/sandbox/box-view.ts";
import { simulateVoyage } from "../../ingest/sandbox/simulate.ts";
import { loadWorld, SANDBOX_SCACS } from "../../ingest/sandbox/world.ts";
import { ADD_LEASE_MS } from "../../ingest/tracking/registration.ts";
import { currentEvents, derive } from "../../ingest/tracking/timeline.ts";
import { bearer, makePlatform, type TestPlatform } from "../helpers/platform.ts";
import { startSandbox } from "../sandbox/spawn.ts";
import { containerNumbers, ledger, payingTenant, sandboxCarriers, startApi } from "./sqlite-cluster.ts";

const dir = mkdtempSync(join(tmpdir(), "portolan-sqlite-recovery-"));
// A fixed carrier clock, so which boxes are at sea (and stay tracked after a fetch) is known.
const SANDBOX_START = "2026-11-21T06:00:00Z";
const sandbox = await startSandbox({ SANDBOX_START });
const world = await loadWorld();
afterAll(async () => {
  await sandbox.stop();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * Container numbers of the sandbox lines whose voyage the carrier reports as under way: a fetch
 * gives events and leaves them tracked (a box already back empty is archived at its first fetch).
 */
function underWay(count: number, start: number): string[] {
  const next = containerNumbers(start);
  const found: string[] = [];
  while (found.length < count) {
    const n = next();
    const events = visibleEvents(simulateVoyage(n, { world })!, Date.parse(SANDBOX_START), n);
    if (events.length > 0 && derive(currentEvents(events)).stage === "in_transit") found.push(n);
  }
  return found;
}

const post = (p: TestPlatform, key: string, identifier: string) =>
  p.call("ocean", "/v1/containers", {
    method: "POST",
    ...bearer(key, { "content-type": "application/json" }),
    body: JSON.stringify({ identifier, identifier_type: "container_id" }),
  });
const errorCode = async (res: Response) => ((await res.json()) as { error: { code: string } }).error.code;

/** The API process as it restarts on the same file with the carrier reachable again, at `now`. */
const restart = (database: string, now: () => number) =>
  makePlatform({ database, sandbox: false, carriers: sandboxCarriers(sandbox.url) }, now);

test("an API process SIGKILLed mid-add: a restart finishes the adds once their lease lapsed, charged once", async () => {
  // The carrier takes the calls and never answers: the adds are in their first fetch when the process dies.
  const asked: string[] = [];
  let release = () => {};
  const hung = new Promise<void>((r) => {
    release = r;
  });
  const carrier = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      asked.push(new URL(req.url).searchParams.get("equipmentReference") ?? "");
      await hung;
      return Response.json([]);
    },
  });
  const database = join(dir, "killed.sqlite");
  const { orgId, key } = await payingTenant(database);
  const numbers = underWay(6, 100_000);
  try {
    const api = await startApi(
      database,
      SANDBOX_SCACS.map((scac) => ({ scac, baseUrl: `http://127.0.0.1:${carrier.port}/${scac}` })),
    );
    const answers = numbers.map((identifier) =>
      fetch(`${api.url}/v1/containers`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ identifier, identifier_type: "container_id" }),
      }).then(
        (r) => r.status,
        () => "no answer",
      ),
    );
    for (let i = 0; asked.length < numbers.length; i++) {
      if (i > 400) throw new Error(`only ${asked.length} carrier calls arrived`);
      await Bun.sleep(25);
    }
    await api.stop("SIGKILL");
    expect(await Promise.all(answers)).toEqual(numbers.map(() => "no answer"));
  } finally {
    release();
    carrier.stop(true);
  }
  const atCrash = ledger(database, orgId);
  expect({ created: atCrash.created.length, adding: atCrash.adding, charged: atCrash.charged }).toEqual({
    created: 6,
    adding: 6,
    charged: 6,
  });

  // Restarted at once: the adds' leases still run (another process could be mid-add), nothing is taken over.
  const early = await restart(database, Date.now);
  try {
    expect(await early.tracking.ocean.pollDue()).toBe(0);
    const lookup = await early.call("ocean", `/v1/containers/lookup/${numbers[0]}`, bearer(key));
    expect(lookup.status).toBe(202);
    const again = await post(early, key, numbers[0]!);
    expect([again.status, await errorCode(again)]).toEqual([409, "CONTAINER_ADD_IN_PROGRESS"]);
  } finally {
    await early.close();
  }

  // Restarted (or still running) once the leases lapsed: the next poller tick finishes every add.
  const late = await restart(database, () => Date.now() + ADD_LEASE_MS + 60_000);
  try {
    expect(await late.tracking.ocean.pollDue()).toBe(6);
    for (const n of numbers) {
      const lookup = await late.call("ocean", `/v1/containers/lookup/${n}`, bearer(key));
      const body = (await lookup.json()) as { data?: { last_updated_source: string; events: unknown[] } };
      expect([n, lookup.status, body.data?.last_updated_source]).toEqual([n, 200, "carrier_poll"]);
      expect(body.data!.events.length).toBeGreaterThan(0);
      const again = await post(late, key, n);
      expect([n, again.status, await errorCode(again)]).toEqual([n, 409, "ALREADY_TRACKED"]);
    }
  } finally {
    await late.close();
  }
  const after = ledger(database, orgId);
  expect(after).toEqual({ ...atCrash, adding: 0 });
  expect(after.chargedUsd).toBeCloseTo(6 * 0.25, 6);
}, 60_000);

test("a record an earlier version left marked as adding, next poll hours away, is recovered at restart", async () => {
  const database = join(dir, "legacy.sqlite");
  const { orgId, key } = await payingTenant(database);
  const [identifier] = underWay(1, 500_000);
  const before = await restart(database, Date.now);
  try {
    const org = (await before.accounts.getOrg(orgId))!;
    const row = await before.tracking.ocean.register(org, {
      identifier: identifier!,
      identifierType: "container_id",
    });
    // What the earlier code left when it died after the first fetch's write and before clearing the mark.
    const hour = 3_600_000;
    const { db, t } = before.storage;
    await db
      .update(t.tracked)
      .set({
        addedAt: new Date(Date.now() - hour).toISOString(),
        nextPollAt: new Date(Date.now() + 12 * hour).toISOString(),
      })
      .where(eq(t.tracked.id, row.id));
  } finally {
    await before.close();
  }
  const after = await restart(database, Date.now);
  try {
    expect(await after.tracking.ocean.pollDue()).toBe(1);
    const lookup = await after.call("ocean", `/v1/containers/lookup/${identifier}`, bearer(key));
    expect(lookup.status).toBe(200);
    const again = await post(after, key, identifier!);
    expect([again.status, await errorCode(again)]).toEqual([409, "ALREADY_TRACKED"]);
  } finally {
    await after.close();
  }
  expect(ledger(database, orgId)).toMatchObject({ adding: 0, charged: 1 });
});
