/**
 * blank_sailing and sailing_slipped end to end: the sandbox carriers' schedules (a real process on
 * a manual clock) refreshed day by day by this process and, at the same clock readings, by another
 * process on the same database; the real dispatcher delivering to a real HTTPS receiver. Each
 * withdrawal and each slip is raised once, per subscribed organisation, with the change that caused
 * it, and delivered signed with the schedules header; a re-sync raises nothing. Runs on SQLite and,
 * under PORTOLAN_TEST_DB, on PostgreSQL.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import type { DcsaConnectorConfig } from "../../ingest/carriers/connector.ts";
import type { ScheduleCall } from "../../ingest/schedules/cs-types.ts";
import { DEFAULT_SLIP_HOURS } from "../../ingest/schedules/events.ts";
import { type CarrierSyncResult, firstDeparture, ScheduleSync } from "../../ingest/schedules/sync.ts";
import { bearer, type TestPlatform } from "../helpers/platform.ts";
import type { RunningSandbox } from "../sandbox/spawn.ts";
import { expectDeliveredOnce } from "../webhooks/delivered.ts";
import type { StoredEvent } from "../webhooks/event-schemas.ts";
import type { Receiver } from "../webhooks/receiver.ts";
import { type SchedulesWorld, START, schedulesWorld } from "./setup.ts";

const ROOT = join(import.meta.dir, "../..");
const KEY = "schedules-events-test-key";
const H = 3_600_000;
let clock = START;
let w: SchedulesWorld;
let sandbox: RunningSandbox;
let rx: Receiver;
let p: TestPlatform;
let carriers: DcsaConnectorConfig[];

interface Hook {
  id: string;
  secret: string;
  path: string;
}
interface Org {
  id: string;
  hooks: Hook[];
}
const orgs = {} as Record<"all" | "slips" | "cutoffs", Org>;

/** An organisation entitled to schedules with one endpoint per entry ([path, event_types]). */
async function org(name: string, endpoints: Array<[string, string[] | undefined]>): Promise<Org> {
  const o = await p.accounts.createOrg(name, { paid: true, rateLimit: 1_000_000 });
  await p.accounts.setEntitlement(o.id, "schedules", null);
  const key = (await p.accounts.createKey(o.id, "schedules")).key;
  const hooks: Hook[] = [];
  for (const [path, eventTypes] of endpoints) {
    const res = await p.call("schedules", "/v1/webhooks", {
      method: "POST",
      body: JSON.stringify({ url: rx.url(path), ...(eventTypes ? { event_types: eventTypes } : {}) }),
      ...bearer(key, { "content-type": "application/json" }),
    });
    expect(res.status).toBe(201);
    const data = ((await res.json()) as { data: { id: string; secret: string } }).data;
    hooks.push({ id: data.id, secret: data.secret, path });
  }
  return { id: o.id, hooks };
}

beforeAll(async () => {
  w = await schedulesWorld("events", KEY);
  ({ sandbox, carriers, rx, p } = w);
  orgs.all = await org("every schedules event", [
    ["/ok/all", undefined],
    ["/ok/all-blanks", ["blank_sailing"]],
  ]);
  orgs.slips = await org("slips only", [["/ok/slips", ["sailing_slipped"]]]);
  orgs.cutoffs = await org("cut-offs only", [["/ok/cutoffs", ["cutoff_approaching"]]]);
}, 60_000);
afterAll(async () => {
  await w?.close();
});

const syncHere = (): Promise<CarrierSyncResult[]> => {
  const sync = new ScheduleSync({ storage: p.storage, carriers, now: () => clock });
  return Promise.all(carriers.map((c) => sync.syncCarrier(c.scac)));
};

/** The same refresh from another process (test/schedules-events/sync-once.ts) on the same database. */
async function syncElsewhere(): Promise<CarrierSyncResult[]> {
  const proc = Bun.spawn([process.execPath, join(import.meta.dir, "sync-once.ts")], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORTOLAN_DB: w.database,
      CARRIERS: JSON.stringify(carriers),
      CLOCK: String(clock),
    },
    stdout: "pipe",
    stderr: "inherit",
  });
  const out = await new Response(proc.stdout).text();
  expect(await proc.exited).toBe(0);
  return JSON.parse(out) as CarrierSyncResult[];
}

type Row = StoredEvent & { seq: number };
const outbox = async (): Promise<Row[]> =>
  (await p.storage.db.select().from(p.storage.t.outbox).orderBy(p.storage.t.outbox.seq)) as Row[];
const count = (results: CarrierSyncResult[], k: "blankSailings" | "slips") =>
  results.reduce((n, r) => n + r[k], 0);

test("the first refresh stores the schedules and raises nothing", async () => {
  const results = await syncHere();
  expect(results.every((r) => r.applied && r.inserted > 0)).toBe(true);
  expect(count(results, "blankSailings") + count(results, "slips")).toBe(0);
  expect(await outbox()).toEqual([]);
});

test("day by day, from two processes: each blank sailing and each slip is raised once, with its change, per subscribed organisation", async () => {
  let blanks = 0;
  let slips = 0;
  let raisedElsewhere = 0;
  for (let day = 1; day <= 42 && (blanks === 0 || slips === 0); day++) {
    clock = Date.parse((await sandbox.setClock({ advance_hours: 24 })).now);
    const seen = (await outbox()).length;
    // Odd days the two race; even days the other process refreshes first and this one after it.
    const [here, there]: [CarrierSyncResult[], CarrierSyncResult[]] =
      day % 2
        ? await Promise.all([syncHere(), syncElsewhere()])
        : await syncElsewhere().then(
            async (t) => [await syncHere(), t] as [CarrierSyncResult[], CarrierSyncResult[]],
          );
    const fresh = (await outbox()).slice(seen);
    const raised = {
      blank: count([...here, ...there], "blankSailings"),
      slip: count([...here, ...there], "slips"),
    };
    // One organisation row per event: the other process's refresh of the same reading raised nothing.
    const of = (o: Org, type: string) => fresh.filter((r) => r.orgId === o.id && r.type === type).length;
    expect([of(orgs.all, "blank_sailing"), of(orgs.all, "sailing_slipped")], `day ${day}`).toEqual([
      raised.blank,
      raised.slip,
    ]);
    expect(of(orgs.slips, "sailing_slipped"), `day ${day}`).toBe(raised.slip);
    expect(fresh.length, `day ${day}`).toBe(2 * raised.slip + raised.blank);
    for (const r of fresh) {
      expect(r.product).toBe("schedules");
      expect(r.occurredAt).toBe(new Date(clock).toISOString());
    }
    raisedElsewhere += count(there, "blankSailings") + count(there, "slips");
    blanks += raised.blank;
    slips += raised.slip;
  }
  expect(blanks).toBeGreaterThan(0);
  expect(slips).toBeGreaterThan(0);
  expect(raisedElsewhere).toBeGreaterThan(0);

  const rows = (await outbox()).filter((r) => r.orgId === orgs.all.id);
  const changesOf = (id: string) => p.storage.sailings.changes(id);
  // Every blank sailing: withdrawn, by exactly the recorded change; every withdrawal raised one.
  const blankRows = rows.filter((r) => r.type === "blank_sailing");
  const withdrawals = (await p.storage.db.select().from(p.storage.t.sailingChanges)).filter(
    (c) => c.field === "status" && c.after === "withdrawn",
  );
  expect(blankRows.map((r) => [r.data.sailing_id, r.data.withdrawn_at]).sort()).toEqual(
    withdrawals.map((c) => [c.sailingId, c.seenAt]).sort(),
  );
  for (const r of blankRows) {
    const s = (await p.storage.sailings.get(r.data.sailing_id as string))!;
    expect(s.status).toBe("withdrawn");
    const first = firstDeparture(s.calls as ScheduleCall[], s.voyage)!;
    expect(first.departed).toBe(false);
    expect(r.data).toMatchObject({
      carrier_code: s.carrier,
      service_code: s.serviceCode,
      voyage: s.voyage,
      vessel_imo: s.vesselImo,
      port_unlocode: first.unlocode,
      planned_departure: first.planned,
      expected_departure: first.expected,
      ports: (s.calls as ScheduleCall[]).map((c) => c.place.unlocode),
    });
  }
  // Every slip: later than the previous reference by more than the threshold, and found by the
  // refresh that recorded that departure time of the first call.
  const slipRows = rows.filter((r) => r.type === "sailing_slipped");
  expect(new Set(slipRows.map((r) => `${r.data.sailing_id} ${r.data.new_departure}`)).size).toBe(
    slipRows.length,
  );
  for (const r of slipRows) {
    const d = r.data as {
      sailing_id: string;
      previous_departure: string;
      new_departure: string;
      slip_hours: number;
      threshold_hours: number;
      detected_at: string;
    };
    expect(Date.parse(d.new_departure) - Date.parse(d.previous_departure)).toBeGreaterThan(
      DEFAULT_SLIP_HOURS * H,
    );
    expect(d.slip_hours).toBe(
      Math.round(((Date.parse(d.new_departure) - Date.parse(d.previous_departure)) / H) * 10) / 10,
    );
    expect(d.threshold_hours).toBe(DEFAULT_SLIP_HOURS);
    const moved = (await changesOf(d.sailing_id)).filter(
      (c) =>
        c.seenAt === d.detected_at &&
        /^departure\.(estimated|planned)$/.test(c.field) &&
        c.after !== null &&
        Date.parse(c.after as string) === Date.parse(d.new_departure),
    );
    expect(moved.length, d.sailing_id).toBe(1);
    // The previous reference is a departure the sailing's first call had before.
    const earlier = (await changesOf(d.sailing_id)).filter(
      (c) => c.call === moved[0]!.call && c.seenAt < d.detected_at && c.field.startsWith("departure."),
    );
    const known = [moved[0]!.before, ...earlier.flatMap((c) => [c.before, c.after])];
    expect(
      known.some((t) => t !== null && Date.parse(t as string) === Date.parse(d.previous_departure)),
    ).toBe(true);
  }
  // The slips-only organisation got the same slips, nothing else; nobody follows cut-offs yet. In
  // any order: on PostgreSQL two processes' appends draw seq values in turn, so one process's row
  // for one organisation can come before the other's and after it for the other organisation.
  const slipsOrg = (await outbox()).filter((r) => r.orgId === orgs.slips.id);
  const texts = (list: Row[]) => list.map((r) => JSON.stringify(r.data)).sort();
  expect(texts(slipsOrg)).toEqual(texts(slipRows));
  expect((await outbox()).filter((r) => r.orgId === orgs.cutoffs.id)).toEqual([]);
}, 300_000);

test("a re-sync at the same reading, here and elsewhere, raises nothing new", async () => {
  const before = await outbox();
  const results = [...(await syncHere()), ...(await syncElsewhere())];
  expect(results.every((r) => r.applied && r.changed === 0 && r.withdrawn === 0)).toBe(true);
  expect(count(results, "blankSailings") + count(results, "slips")).toBe(0);
  expect(await outbox()).toEqual(before);
});

test("each event reaches each subscribed endpoint once, signed with the schedules header", async () => {
  const rows = await outbox();
  const expected = [...orgs.all.hooks, ...orgs.slips.hooks].map((hook) => {
    const orgId = hook.path === "/ok/slips" ? orgs.slips.id : orgs.all.id;
    const types = hook.path === "/ok/all-blanks" ? ["blank_sailing"] : ["blank_sailing", "sailing_slipped"];
    return { hook, rows: rows.filter((r) => r.orgId === orgId && types.includes(r.type)) };
  });
  await expectDeliveredOnce(rx, p, expected, "schedules");
  expect(rx.received.filter((r) => r.path === "/ok/cutoffs")).toEqual([]);
}, 60_000);
