/**
 * cutoff_approaching and reliability_drop end to end: the sandbox carriers' schedules (a real
 * process on a manual clock) refreshed day by day, the cut-off sweep and the reliability watch run
 * after each refresh from this process and, racing, from a second storage on the same database;
 * follows made through the real routes; the real dispatcher delivering to a real HTTPS receiver.
 * Expectations are recomputed from the stored sailings and the product's reliability route, not
 * written down: each approaching cut-off of a followed sailing or lane is delivered once, signed;
 * a second sweep or a re-sync raises nothing; a carrier's drop below a threshold taken from its own
 * measured reliability is delivered once to every subscriber, a lane's only to its followers, and
 * nothing repeats while the scope stays under threshold + margin. SQLite, and PostgreSQL under
 * PORTOLAN_TEST_DB.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { DcsaConnectorConfig } from "../../ingest/carriers/connector.ts";
import type { ScheduleCall } from "../../ingest/schedules/cs-types.ts";
import { CUTOFF_APPROACHING, CutoffSweep, DEFAULT_RENOTICE_HOURS } from "../../ingest/schedules/cutoffs.ts";
import {
  DEFAULT_RELIABILITY,
  RELIABILITY_DROP,
  ReliabilityWatch,
} from "../../ingest/schedules/reliability-watch.ts";
import { callsByKey } from "../../ingest/schedules/stored.ts";
import { ScheduleSync } from "../../ingest/schedules/sync.ts";
import { openStorage } from "../../storage/open.ts";
import type { SailingRow } from "../../storage/sailings.ts";
import type { Storage } from "../../storage/storage.ts";
import { bearer, type TestPlatform } from "../helpers/platform.ts";
import type { RunningSandbox } from "../sandbox/spawn.ts";
import { expectDeliveredOnce } from "../webhooks/delivered.ts";
import type { StoredEvent } from "../webhooks/event-schemas.ts";
import type { Receiver } from "../webhooks/receiver.ts";
import { type SchedulesWorld, START, schedulesWorld } from "./setup.ts";

// biome-ignore lint/suspicious/noExplicitAny: response bodies are read field by field and checked by the assertions
type Json = Record<string, any>;

const KEY = "schedules-watch-test-key";
const H = 3_600_000;
const SAILING_LEAD = 48;
const LANE_LEAD = 72;
/** Few enough that a followed lane is measured in the window; the threshold comes from the data. */
const MIN_CALLS = 3;
let clock = START;
let w: SchedulesWorld;
let sandbox: RunningSandbox;
let rx: Receiver;
let p: TestPlatform;
let elsewhere: Storage;
let carriers: DcsaConnectorConfig[];

interface Org {
  id: string;
  key: string;
  hook: { id: string; secret: string; path: string };
  types: string[];
}
const orgs = {} as Record<"follower" | "subscriber" | "slips", Org>;

async function org(name: string, path: string, types: string[]): Promise<Org> {
  const o = await p.accounts.createOrg(name, { paid: true, rateLimit: 1_000_000 });
  await p.accounts.setEntitlement(o.id, "schedules", null);
  const key = (await p.accounts.createKey(o.id, "schedules")).key;
  const res = await post(key, "/v1/webhooks", { url: rx.url(path), event_types: types });
  expect(res.status).toBe(201);
  return { id: o.id, key, hook: { id: res.body.data.id, secret: res.body.data.secret, path }, types };
}

async function post(key: string, path: string, body: unknown): Promise<{ status: number; body: Json }> {
  const res = await p.call("schedules", path, {
    method: "POST",
    body: JSON.stringify(body),
    ...bearer(key, { "content-type": "application/json" }),
  });
  return { status: res.status, body: (await res.json()) as Json };
}

async function get(path: string): Promise<Json> {
  const res = await p.call("schedules", path, bearer(orgs.follower.key));
  expect(res.status).toBe(200);
  return ((await res.json()) as Json).data;
}

beforeAll(async () => {
  w = await schedulesWorld("watch", KEY, () => clock);
  ({ sandbox, carriers, rx, p } = w);
  elsewhere = await openStorage(w.database);
  orgs.follower = await org("follows a sailing and lanes", "/ok/follower", [
    CUTOFF_APPROACHING,
    RELIABILITY_DROP,
  ]);
  orgs.subscriber = await org("drops, follows nothing", "/ok/drops", [RELIABILITY_DROP]);
  orgs.slips = await org("follows a lane, takes only slips", "/ok/slips", ["sailing_slipped"]);
}, 60_000);
afterAll(async () => {
  await elsewhere?.close();
  await w?.close();
});

const sync = async () => {
  const s = new ScheduleSync({ storage: p.storage, carriers, now: () => clock, log: () => {} });
  for (const c of carriers) await s.syncCarrier(c.scac);
};
const active = async (): Promise<SailingRow[]> =>
  (await p.storage.db.select().from(p.storage.t.sailings)).filter((r) => r.status === "active");
type Row = StoredEvent & { seq: number };
const outbox = async (): Promise<Row[]> =>
  (await p.storage.db.select().from(p.storage.t.outbox).orderBy(p.storage.t.outbox.seq)) as Row[];

// ---- The model, read off the stored sailings as docs/schedules.md states it ----

interface Followed {
  kind: "sailing" | "lane";
  sailingId?: string;
  origin?: string;
  destination?: string;
  lead: number;
  codes: string[];
}

/** (sailing, call key, code) -> UTC cut-off, for cut-offs in (now, now + lead] of any follow. */
function expectedCutoffs(
  rows: SailingRow[],
  follows: Followed[],
  now: number,
): Map<string, { at: string; lead: number }> {
  const out = new Map<string, { at: string; lead: number }>();
  for (const s of rows) {
    const keyed = [...callsByKey(s.calls as ScheduleCall[])];
    for (const f of follows) {
      let covered: typeof keyed;
      const open = ([, c]: (typeof keyed)[number]) =>
        c.exportVoyage === s.voyage && !c.departure.actual && (c.departure.planned || c.departure.estimated);
      if (f.kind === "sailing") covered = s.id === f.sailingId ? keyed.filter(open) : [];
      else {
        const i = keyed.findIndex(
          (k, n) =>
            k[1].place.unlocode === f.origin &&
            open(k) &&
            keyed.slice(n + 1).some(([, c]) => c.place.unlocode === f.destination),
        );
        covered = i < 0 ? [] : [keyed[i]!];
      }
      for (const [key, c] of covered) {
        for (const k of c.cutOffs) {
          const at = Date.parse(k.at);
          if (f.codes.length && !f.codes.includes(k.code)) continue;
          if (at <= now || at > now + f.lead * H) continue;
          const id = `${s.id} ${key} ${k.code}`;
          out.set(id, { at: new Date(at).toISOString(), lead: Math.max(f.lead, out.get(id)?.lead ?? 0) });
        }
      }
    }
  }
  return out;
}

const cutoffsWithin = (rows: SailingRow[], follows: Followed[], from: number, hours: number) =>
  expectedCutoffs(rows, follows, from).size > 0 && hours > 0;

test("approaching cut-offs of followed sailings and lanes, and reliability drops, raised once each and delivered signed", async () => {
  await sync();
  let rows = await active();
  // A sailing with a cut-off within the lead from now; a lane (FCO only) with one too.
  const sailing = rows
    .map((s) => s.id)
    .sort()
    .find((id) =>
      cutoffsWithin(rows, [{ kind: "sailing", sailingId: id, lead: SAILING_LEAD, codes: [] }], clock, 1),
    );
  expect(sailing).toBeDefined();
  const lanes = new Set<string>();
  for (const s of rows) {
    const ports = (s.calls as ScheduleCall[]).map((c) => c.place.unlocode!);
    for (let i = 0; i < ports.length - 1; i++) lanes.add(`${ports[i]} ${ports[ports.length - 1]}`);
  }
  const cutoffLane = [...lanes]
    .sort()
    .map((l) => l.split(" ") as [string, string])
    .find(
      ([origin, destination]) =>
        origin !== destination &&
        cutoffsWithin(
          rows,
          [{ kind: "lane", origin, destination, lead: LANE_LEAD, codes: ["FCO"] }],
          clock,
          1,
        ),
    )!;
  expect(cutoffLane).toBeDefined();

  // The threshold: the busiest carrier's own reliability now, so it holds now and drops the first
  // time it measures lower. The reliability lane: a measured one already under it (it drops now).
  const now = await get("/v1/reliability");
  const busiest = [...now.carriers].sort((a: Json, b: Json) => b.calls - a.calls)[0];
  const threshold = busiest.reliability as number;
  let reliabilityLane: [string, string] | undefined;
  for (const l of [...lanes].sort()) {
    const [origin, destination] = l.split(" ") as [string, string];
    if (origin === destination) continue;
    const r = (await get(`/v1/reliability?origin=${origin}&destination=${destination}`)).overall;
    if (r.calls >= MIN_CALLS && r.reliability < threshold) {
      reliabilityLane = [origin, destination];
      break;
    }
  }
  expect(reliabilityLane).toBeDefined();

  const followed: Followed[] = [
    { kind: "sailing", sailingId: sailing, lead: SAILING_LEAD, codes: [] },
    { kind: "lane", origin: cutoffLane[0], destination: cutoffLane[1], lead: LANE_LEAD, codes: ["FCO"] },
    // The reliability lane's follow takes the defaults: every code, a day ahead.
    { kind: "lane", origin: reliabilityLane![0], destination: reliabilityLane![1], lead: 24, codes: [] },
  ];
  const follow = (key: string, body: Json) =>
    post(key, "/v1/follows", body).then((r) => expect(r.status).toBe(201));
  await follow(orgs.follower.key, { type: "sailing", sailing_id: sailing, lead_hours: SAILING_LEAD });
  const laneBody = {
    type: "lane",
    origin: cutoffLane[0],
    destination: cutoffLane[1],
    lead_hours: LANE_LEAD,
    cut_off_codes: ["FCO"],
  };
  await follow(orgs.follower.key, laneBody);
  await follow(orgs.slips.key, laneBody);
  const relLane = { type: "lane", origin: reliabilityLane![0], destination: reliabilityLane![1] };
  await follow(orgs.follower.key, relLane);
  await follow(orgs.slips.key, relLane);

  const settings = { ...DEFAULT_RELIABILITY, threshold, minCalls: MIN_CALLS };
  const sweeps = [p.storage, elsewhere].map((storage) => new CutoffSweep({ storage, now: () => clock }));
  const watches = [p.storage, elsewhere].map(
    (storage) => new ReliabilityWatch({ storage, now: () => clock, settings }),
  );
  const laneScopes = [cutoffLane, reliabilityLane!].map(([o, d]) => `lane:*:${o}:${d}`);

  const notified = new Map<string, string>();
  const armed = new Map<string, boolean>();
  const measuredBelow: string[] = [];
  let renotices = 0;
  let busiestDropDay = -1;
  let heldAfterDrop = 0;
  for (let day = 0; day <= 28 && (busiestDropDay < 0 || heldAfterDrop < 2); day++) {
    if (day > 0) {
      clock = Date.parse((await sandbox.setClock({ advance_hours: 24 })).now);
      await sync();
    }
    const seen = (await outbox()).length;
    // ---- cut-offs: the two processes race; only the unseen ones (or moved earlier) are raised ----
    rows = await active();
    const due = expectedCutoffs(rows, followed, clock);
    const fresh = [...due].filter(([k, d]) => {
      const was = notified.get(k);
      return was === undefined || Date.parse(was) - Date.parse(d.at) > DEFAULT_RENOTICE_HOURS * H;
    });
    const raced = await Promise.all(sweeps.map((s) => s.sweep()));
    expect(raced[0]!.raised + raced[1]!.raised, `day ${day}`).toBe(fresh.length);
    expect((await sweeps[0]!.sweep()).raised).toBe(0);
    const cutRows = (await outbox()).slice(seen).filter((r) => r.type === CUTOFF_APPROACHING);
    expect(cutRows.every((r) => r.orgId === orgs.follower.id)).toBe(true);
    expect(
      cutRows.map((r) => `${r.data.sailing_id} ${r.data.call} ${r.data.cut_off_code}`).sort(),
      `day ${day}`,
    ).toEqual(fresh.map(([k]) => k).sort());
    for (const r of cutRows) {
      const k = `${r.data.sailing_id} ${r.data.call} ${r.data.cut_off_code}`;
      expect(r.data.cut_off_at).toBe(due.get(k)!.at);
      expect(r.data.lead_hours).toBe(due.get(k)!.lead);
      expect(r.data.previous_cut_off_at).toBe(notified.get(k) ?? null);
      expect(r.data.hours_left).toBe(Math.round(((Date.parse(due.get(k)!.at) - clock) / H) * 10) / 10);
      expect(r.data.detected_at).toBe(new Date(clock).toISOString());
      if (notified.has(k)) renotices++;
      notified.set(k, due.get(k)!.at);
    }
    // ---- reliability: measured through the product's route, hysteresis applied here ----
    const measured: Array<[string, Json]> = (await get("/v1/reliability")).carriers.map((c: Json) => [
      `carrier:${c.carrier}`,
      c,
    ]);
    for (const [scope, [o, d]] of [laneScopes[0], laneScopes[1]].map(
      (s, i) => [s, i ? reliabilityLane! : cutoffLane] as const,
    )) {
      measured.push([scope!, (await get(`/v1/reliability?origin=${o}&destination=${d}`)).overall]);
    }
    const drops: string[] = [];
    for (const [scope, t] of measured) {
      const isArmed = armed.get(scope) ?? true;
      if (t.calls < MIN_CALLS || t.reliability === null) continue;
      if (isArmed && t.reliability < threshold) {
        drops.push(scope);
        armed.set(scope, false);
      } else if (!isArmed && t.reliability >= threshold + settings.margin) armed.set(scope, true);
      if (!isArmed && t.reliability < threshold) measuredBelow.push(scope);
    }
    const watched = await Promise.all(watches.map((w) => w.check()));
    expect([...watched[0]!.drops, ...watched[1]!.drops].sort(), `day ${day}`).toEqual(drops.sort());
    expect((await watches[0]!.check()).drops).toEqual([]);
    const dropRows = (await outbox()).slice(seen).filter((r) => r.type === RELIABILITY_DROP);
    const expectedRows = drops.flatMap((scope) =>
      (scope.startsWith("lane:") ? [orgs.follower.id] : [orgs.follower.id, orgs.subscriber.id]).map(
        (o) => `${o} ${scope}`,
      ),
    );
    const scopeOf = (d: Json) =>
      d.scope === "carrier" ? `carrier:${d.carrier_code}` : `lane:*:${d.lane.origin}:${d.lane.destination}`;
    expect(dropRows.map((r) => `${r.orgId} ${scopeOf(r.data)}`).sort(), `day ${day}`).toEqual(
      expectedRows.sort(),
    );
    for (const r of dropRows) {
      const t = measured.find(([s]) => s === scopeOf(r.data))![1];
      expect(r.data).toMatchObject({
        reliability: t.reliability,
        calls: t.calls,
        on_time: t.on_time,
        threshold,
      });
      expect(r.data.reliability).toBeLessThan(threshold);
    }
    if (drops.includes(`carrier:${busiest.carrier}`)) busiestDropDay = day;
    else if (busiestDropDay >= 0 && measuredBelow.includes(`carrier:${busiest.carrier}`)) heldAfterDrop++;
    measuredBelow.length = 0;
    // ---- a re-sync at the same reading, then the sweeps and the watch again: nothing ----
    const before = (await outbox()).length;
    await sync();
    expect((await sweeps[1]!.sweep()).raised + (await watches[1]!.check()).drops.length).toBe(0);
    expect((await outbox()).length).toBe(before);
  }
  expect(busiestDropDay, "the busiest carrier fell below its own earlier reliability").toBeGreaterThan(0);
  expect(
    heldAfterDrop,
    "days the busiest carrier stayed under the threshold without a repeat",
  ).toBeGreaterThan(0);
  const rowsNow = await outbox();
  const lanesDropped = rowsNow.filter((r) => r.type === RELIABILITY_DROP && r.data.scope === "lane");
  expect(lanesDropped.length).toBeGreaterThan(0);
  for (const type of [CUTOFF_APPROACHING, RELIABILITY_DROP]) {
    expect(
      rowsNow.filter((r) => r.type === type && r.orgId === orgs.follower.id).length,
      type,
    ).toBeGreaterThan(0);
  }
  expect(rowsNow.filter((r) => r.orgId === orgs.slips.id && r.type !== "sailing_slipped")).toEqual([]);
  console.log(
    `[watch] ${rowsNow.filter((r) => r.type === CUTOFF_APPROACHING).length} cut-off notices (${renotices} again after moving earlier); threshold ${threshold} (${busiest.carrier}); its drop on day ${busiestDropDay}; ${lanesDropped.length} lane drops`,
  );

  // ---- delivery: each row once to its organisation's endpoint, signed with the schedules header ----
  const expected = [orgs.follower, orgs.subscriber].map((o) => ({
    hook: o.hook,
    rows: rowsNow.filter((r) => r.orgId === o.id && o.types.includes(r.type)),
  }));
  await expectDeliveredOnce(rx, p, expected, "schedules");
  expect(
    rx.received.filter(
      (r) => r.path === "/ok/slips" && r.headers["x-portolan-schedules-event"] !== "sailing_slipped",
    ),
  ).toEqual([]);
}, 300_000);
