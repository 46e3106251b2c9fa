/**
 * `portolan db copy` as an operator runs it: a SQLite file the product wrote (an organisation with
 * its keys, a sandbox voyage's records and carrier events, an air waybill and its airline event,
 * webhook endpoints with deliveries and attempts, the outbox, shipment usage, free-time terms, call
 * counters, a carrier's sailings with their changes and feed, a follow with its cut-off notice and
 * the reliability watch's states, an imported rate sheet, a load plan) copied by the CLI process into
 * a PostgreSQL schema. Every table is then compared row by row; a second copy is refused and changes nothing; a copy that fails halfway leaves the target
 * empty; a key made before the copy works on a platform served from PostgreSQL, and the outbox
 * sequence continues after the copy.
 *
 * PostgreSQL: the test command's server (PORTOLAN_TEST_DB), or one started here for the SQLite pass.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { copyFileSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getTableName } from "drizzle-orm";
import { Dispatcher } from "../../api/webhooks/dispatcher.ts";
import { readRateFile } from "../../engine/rates/file.ts";
import { importSheet } from "../../ingest/rates/import.ts";
import { simulateVoyage } from "../../ingest/sandbox/simulate.ts";
import { loadWorld, SANDBOX_SCACS } from "../../ingest/sandbox/world.ts";
import { CUTOFF_APPROACHING, CutoffSweep } from "../../ingest/schedules/cutoffs.ts";
import { type FollowTarget, followedCalls, LEAD_HOURS } from "../../ingest/schedules/follows.ts";
import { ReliabilityWatch } from "../../ingest/schedules/reliability-watch.ts";
import { ScheduleSync } from "../../ingest/schedules/sync.ts";
import { copyOrder } from "../../storage/copy.ts";
import { openStorage } from "../../storage/open.ts";
import type { Storage } from "../../storage/storage.ts";
import { runCli } from "../helpers/cli.ts";
import { freshSchema, TEST_POSTGRES } from "../helpers/database.ts";
import { bearer, ManualClock, makePlatform } from "../helpers/platform.ts";
import { postgresTemp } from "../helpers/postgres-server.ts";
import { BODY as LOAD } from "../loading/setup.ts";
import { FCL_CSV } from "../rates/sheets.ts";
import { startSandbox } from "../sandbox/spawn.ts";
import { sampleDeletedPlan } from "../webhooks/event-samples.ts";
import { startReceiver } from "../webhooks/receiver.ts";
import { apiOf, testWebhookConfig, until } from "../webhooks/setup.ts";

const H = 3_600_000;
const dir = mkdtempSync(join(tmpdir(), "portolan-copy-"));
const source = join(dir, "source.sqlite");
let server = TEST_POSTGRES;
let ownServer: string | null = null;
/** What the source holds that the copy must carry over. */
let tenant: { orgId: string; keys: Record<string, string> };

function cli(args: string[], env: Record<string, string> = {}) {
  return runCli(args, { ...process.env, PORTOLAN_DB: source, ...env });
}

/** A follow of one sailing, every cut-off code, the longest lead. */
const sailingFollow = (sailingId: string): FollowTarget => ({
  kind: "sailing",
  sailingId,
  carrier: null,
  origin: null,
  destination: null,
  serviceCode: null,
  leadHours: LEAD_HOURS.max,
  cutOffCodes: [],
});

/** Every table's rows, each table sorted, so two databases compare whatever their row order. */
async function contents(storage: Storage): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const { name } of copyOrder()) {
    const table = Object.values(storage.t).find((t) => getTableName(t) === name)!;
    const rows = (await storage.db.select().from(table)) as unknown[];
    out[name] = rows
      .map((r) => [JSON.stringify(r), r] as const)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([, r]) => r);
  }
  return out;
}

async function contentsOf(target: string) {
  const storage = await openStorage(target);
  try {
    return await contents(storage);
  } finally {
    await storage.close();
  }
}

beforeAll(async () => {
  if (!server) {
    [server, ownServer] = postgresTemp("start").split(" ") as [string, string];
  }

  // The product writes the source: a voyage against the sandbox carrier, delivered to a receiver.
  const clock = new ManualClock(Date.parse("2026-08-01T00:00:00Z"));
  const sandbox = await startSandbox({ SANDBOX_START: new Date(clock.t).toISOString() });
  const rx = await startReceiver();
  const webhooks = testWebhookConfig(rx);
  const p = await makePlatform(
    {
      database: source,
      webhooks,
      carriers: SANDBOX_SCACS.map((scac) => ({ scac, baseUrl: sandbox.carrierUrl(scac) })),
    },
    clock.now,
  );
  const dispatcher = await Dispatcher.start(p.storage, webhooks);
  try {
    tenant = await p.tenant({ paid: true });
    await p.accounts.setPlan(tenant.orgId, { rateLimit: 1_000_000, shipmentQuota: 100 });
    const api = apiOf(p, tenant.keys.ocean!);
    expect((await api("POST", "/v1/webhooks", { url: rx.url("/ok/copy") })).status).toBe(201);
    const failing = await api("POST", "/v1/webhooks", {
      url: rx.url("/status/500"),
      event_types: ["customs_hold"],
    });
    expect((await api("POST", `/v1/webhooks/${(failing.body.data as { id: string }).id}/test`)).status).toBe(
      200,
    );
    expect(
      (await api("POST", "/v1/demurrage/terms", { carrier_code: "MAEU", equipment: "40", free_days: 5 }))
        .status,
    ).toBe(201);

    const ref = "MAEU0000008";
    const voyage = simulateVoyage(ref, { world: await loadWorld() })!;
    const box = voyage.containers.find((c) => c.number === ref)!;
    const at = async (ms: number) => {
      clock.t = ms;
      await sandbox.setClock({ now: new Date(ms).toISOString() });
      await p.tracking.ocean.pollDue();
    };
    await at(Date.parse(voyage.bookedAt) + 6 * H);
    expect(
      (await api("POST", "/v1/containers", { identifier: ref, identifier_type: "container_id" })).status,
    ).toBe(201);
    for (const m of ["gateIn", "loaded", "discharged"] as const)
      await at(Date.parse(box.milestones[m]) + 3 * H);

    // Through the repositories: a carrier's correction, and more call counters than one batch holds.
    const [record] = await p.storage.trackings.activeCarrying(tenant.orgId, ref);
    const [event] = await p.storage.events.forRecord(record!.id);
    await p.storage.events.correct(
      record!.id,
      event!.eventId,
      { was: 1 },
      { is: 2 },
      new Date(clock.t).toISOString(),
    );
    // The correction dropped the record's stored milestones (a poll would render them again).
    await p.storage.timelines.put(record!.id, { of: "copied", json: "[]" });
    await p.storage.usage.bump(
      Array.from({ length: 1234 }, (_, i) => ({ scope: `key:${i}`, period: "2026-08" })),
    );
    // An air waybill (Air France: no connector here) and an airline event applied to it.
    const awb = "05712345675";
    const added = await p.call("air", "/v1/awbs", {
      method: "POST",
      body: JSON.stringify({ awb }),
      ...bearer(tenant.keys.ocean!, { "content-type": "application/json" }),
    });
    expect(added.status).toBe(201);
    const waybill = ((await added.json()) as { data: { id: string } }).data.id;
    await p.air.waybills.apply(waybill, {
      awb,
      origin: "CDG",
      destination: "JFK",
      pieces: 1,
      weightKg: 12.5,
      events: [
        {
          id: "rcs-1",
          code: "RCS",
          timeType: "ACTUAL",
          at: new Date(clock.t).toISOString(),
          airport: "CDG",
          flight: null,
          toAirport: null,
          pieces: 1,
          partial: false,
        },
      ],
    });
    // One carrier's schedules refreshed twice, the clock moved between: sailings, changes, the feed.
    const maeu = sandbox.carrierUrl("MAEU");
    const schedules = new ScheduleSync({
      storage: p.storage,
      carriers: [{ scac: "MAEU", baseUrl: maeu, schedulesBaseUrl: `${maeu}/cs/v1` }],
      now: clock.now,
    });
    await schedules.syncCarrier("MAEU");
    clock.t += 48 * H;
    await sandbox.setClock({ now: new Date(clock.t).toISOString() });
    expect((await schedules.syncCarrier("MAEU")).changes).toBeGreaterThan(0);
    // A follow of a sailing with a cut-off ahead, swept at the test's clock for an organisation
    // subscribed to cutoff_approaching (a notice), and the reliability watch run (its states).
    const call = async (product: "schedules" | "loading", path: string, body: unknown) => {
      const res = await p.call(product, path, {
        method: "POST",
        body: JSON.stringify(body),
        ...bearer(tenant.keys[product]!, { "content-type": "application/json" }),
      });
      return { status: res.status, body: (await res.json()) as { data: Record<string, unknown> } };
    };
    const lead = LEAD_HOURS.max * H;
    const inLead = (at: string) => Date.parse(at) > clock.t && Date.parse(at) <= clock.t + lead;
    const followed = (await p.storage.db.select().from(p.storage.t.sailings)).find(
      (s) =>
        s.status === "active" &&
        followedCalls(sailingFollow(s.id), s).some(({ call }) => call.cutOffs.some((o) => inLead(o.at))),
    );
    expect(followed).toBeDefined();
    const hook = { url: rx.url("/ok/schedules"), event_types: [CUTOFF_APPROACHING] };
    expect((await call("schedules", "/v1/webhooks", hook)).status).toBe(201);
    const follow = { type: "sailing", sailing_id: followed!.id, lead_hours: LEAD_HOURS.max };
    expect((await call("schedules", "/v1/follows", follow)).status).toBe(201);
    expect((await new CutoffSweep({ storage: p.storage, now: clock.now }).sweep()).raised).toBeGreaterThan(0);
    expect(
      (await new ReliabilityWatch({ storage: p.storage, now: clock.now }).check()).scopes,
    ).toBeGreaterThan(0);
    // A rate sheet imported as the CLI does (sheet, lines, surcharges), and a load plan by its route.
    const sheet = readRateFile("fcl.csv", FCL_CSV);
    expect((await importSheet(p.storage, tenant.orgId, sheet, "fcl.csv", clock.t)).outcome).toBe("added");
    expect((await call("loading", "/v1/load-plans", LOAD)).status).toBe(201);
    // Revoked before the copy: must stay revoked after it.
    expect(await p.accounts.revokeKey(tenant.keys.air!)).toBe(true);

    const { webhookDeliveries, webhookAttempts } = p.storage.t;
    await until(async () => {
      const deliveries = await p.storage.db.select().from(webhookDeliveries);
      const attempts = await p.storage.db.select().from(webhookAttempts);
      return deliveries.length > 1 && deliveries.every((d) => d.attemptCount > 0) && attempts.length > 0;
    });
  } finally {
    await dispatcher.stop();
    await p.close();
    await sandbox.stop();
    await rx.close();
  }
}, 120_000);

afterAll(() => {
  if (ownServer) postgresTemp("stop", ownServer);
  rmSync(dir, { recursive: true, force: true });
});

test("the source holds rows in every table, so the comparison below covers each", async () => {
  const rows = await contentsOf(source);
  expect(Object.keys(rows)).toHaveLength(copyOrder().length);
  for (const [table, list] of Object.entries(rows)) expect([table, list.length > 0]).toEqual([table, true]);
  expect(rows.compat_usage!.length).toBeGreaterThan(1000); // several batches of 500
});

/** Tables a foreign key ties together: the parent must be copied first. */
const PARENT_FIRST: Array<[parent: string, child: string]> = [
  ["orgs", "api_keys"],
  ["orgs", "entitlements"],
  ["orgs", "tracked"],
  ["orgs", "free_time_terms"],
  ["tracked", "carrier_events"],
  ["webhook_endpoints", "webhook_deliveries"],
  ["webhook_deliveries", "webhook_attempts"],
  ["sailings", "sailing_changes"],
  ["orgs", "rate_sheets"],
  ["rate_sheets", "rate_lines"],
  ["rate_sheets", "rate_surcharges"],
  ["orgs", "load_plans"],
];

test.each(PARENT_FIRST)("%s is copied before %s", (parent, child) => {
  const order = copyOrder().map((t) => t.name);
  expect(order.indexOf(parent)).toBeGreaterThanOrEqual(0);
  expect(order.indexOf(parent)).toBeLessThan(order.indexOf(child));
});

test("db copy moves every row, refuses a second time, and the platform runs on the copy", async () => {
  const target = freshSchema(server);
  const before = await contentsOf(source);
  const run = cli(["db", "copy", "--to", target]);
  expect(run.err).toBe("");
  expect(run.code).toBe(0);
  // One line per table in copy order with its count, then the total.
  const tables = Object.keys(before);
  expect(run.out.slice(0, -1)).toEqual(tables.map((t) => `${t}: ${before[t]!.length} rows`));
  const total = tables.reduce((n, t) => n + before[t]!.length, 0);
  expect(run.out.at(-1)).toStartWith(`copied ${total} rows in ${copyOrder().length} tables into postgres://`);

  const copied = await contentsOf(target);
  for (const table of tables) expect([table, copied[table]]).toEqual([table, before[table]]);
  // Only read: the source is as it was.
  expect(await contentsOf(source)).toEqual(before);

  const again = cli(["db", "copy", "--to", target]);
  expect(again.code).toBe(2);
  const all = copyOrder().map((t) => t.name);
  expect(again.err).toContain(
    `the target already has rows in ${all.join(", ")}: db copy only fills an empty database`,
  );
  expect(await contentsOf(target)).toEqual(copied);

  const p = await makePlatform({ database: target });
  try {
    const me = await p.call("ocean", "/v1/account", bearer(tenant.keys.ocean!));
    expect(me.status).toBe(200);
    expect(((await me.json()) as { data: { org_id: string } }).data.org_id).toBe(tenant.orgId);
    expect((await p.call("air", "/v1/account", bearer(tenant.keys.air!))).status).toBe(401);

    // New outbox rows continue after the copied sequence instead of colliding with it.
    const { outbox } = p.storage.t;
    const last = Math.max(...(copied.outbox as Array<{ seq: number }>).map((r) => r.seq));
    await p.storage.outbox.append(
      [
        {
          orgId: tenant.orgId,
          product: "loading",
          type: "plan_deleted",
          data: sampleDeletedPlan("copy_check"),
        },
      ],
      new Date().toISOString(),
    );
    const seqs = (await p.storage.db.select({ seq: outbox.seq }).from(outbox)).map((r) => r.seq);
    expect(seqs).toHaveLength(copied.outbox!.length + 1);
    expect(Math.max(...seqs)).toBe(last + 1);
  } finally {
    await p.close();
  }
}, 60_000);

test("a copy that fails partway leaves the target without a row", async () => {
  // A text PostgreSQL cannot hold (NUL), in a table copied after orgs, api_keys, tracked...
  const broken = join(dir, "broken.sqlite");
  copyFileSync(source, broken);
  const storage = await openStorage(broken);
  await storage.quotas.recordShipment({ orgId: tenant.orgId, month: "2026-08", identifier: "MSCU\u0000" }, 0);
  await storage.close();

  const target = freshSchema(server);
  const run = cli(["db", "copy", "--to", target], { PORTOLAN_DB: broken });
  expect(run.code).toBe(1);
  expect(run.err).toContain("db copy failed, nothing was written: shipment_usage:");
  // Tables before it were written inside the transaction before it failed.
  const order = copyOrder().map((t) => t.name);
  expect(order.indexOf("orgs")).toBeLessThan(order.indexOf("shipment_usage"));
  expect(run.out).toContain("orgs: 1 rows");
  for (const [table, rows] of Object.entries(await contentsOf(target)))
    expect([table, rows]).toEqual([table, []]);
}, 60_000);

const REFUSALS: Array<[name: string, args: string[], env: Record<string, string>, message: string]> = [
  ["no --to", ["db", "copy"], {}, "missing --to"],
  [
    "a target that is not PostgreSQL",
    ["db", "copy", "--to", "other.sqlite"],
    {},
    "must be a postgres:// URL",
  ],
  [
    "a missing source file (not created)",
    ["db", "copy", "--to", "postgres://nobody@127.0.0.1:1/x", "--from", join(dir, "missing.sqlite")],
    {},
    "no SQLite database at",
  ],
  [
    "PORTOLAN_DB on PostgreSQL and no --from",
    ["db", "copy", "--to", "postgres://nobody@127.0.0.1:1/x"],
    { PORTOLAN_DB: "postgres://nobody@127.0.0.1:1/y" },
    "the source must be a SQLite file",
  ],
  [
    "a schema name PostgreSQL would need quoted",
    ["db", "copy", "--to", "postgres://nobody@127.0.0.1:1/x?schema=Bad-Name"],
    {},
    'the target URL: schema "Bad-Name" must be lower-case',
  ],
  ["another verb", ["db", "move", "--to", "postgres://nobody@127.0.0.1:1/x"], {}, "usage: portolan db copy"],
];

test.each(REFUSALS)("refused before anything opens: %s", (_name, args, env, message) => {
  const run = cli(args, env);
  expect(run.code).toBe(2);
  expect(run.err).toContain(message);
  expect(existsSync(join(dir, "missing.sqlite"))).toBe(false);
});
