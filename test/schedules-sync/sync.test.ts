/**
 * Keeping schedules fresh (ingest/schedules/sync.ts) against the real sandbox process and its
 * manual clock, on the test database (SQLite, or PostgreSQL under PORTOLAN_TEST_DB): the first
 * refresh stores every carrier's sailings as the carrier publishes them and records no change; a
 * second at the same clock reading finds none; moving the clock records estimated times moving,
 * actual times appearing and blank sailings withdrawn, each matching what the carrier now
 * publishes; a malformed body (a local server breaking the second page) changes nothing.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import type { DcsaConnectorConfig } from "../../ingest/carriers/connector.ts";
import { CarrierError } from "../../ingest/carriers/connector.ts";
import { CsClient } from "../../ingest/schedules/cs-client.ts";
import type { ScheduleCall } from "../../ingest/schedules/cs-types.ts";
import { ScheduleSync, WINDOW_AHEAD_MS, WINDOW_BACK_MS } from "../../ingest/schedules/sync.ts";
import { openStorage } from "../../storage/open.ts";
import type { SailingRow } from "../../storage/sailings.ts";
import type { Storage } from "../../storage/storage.ts";
import { testDatabase } from "../helpers/database.ts";
import { type RunningSandbox, sandboxCarriers, startSandbox } from "../sandbox/spawn.ts";

const KEY = "schedules-sync-test-key";
const H = 3_600_000;
let sandbox: RunningSandbox;
let storage: Storage;
let carriers: DcsaConnectorConfig[];
let clock = Date.parse("2026-02-02T00:00:00Z");
const logged: unknown[][] = [];
const sync = (list = carriers) =>
  new ScheduleSync({ storage, carriers: list, now: () => clock, log: (...a) => logged.push(a) });

async function advance(hours: number) {
  const r = await sandbox.setClock({ advance_hours: hours });
  clock = Date.parse(r.now);
}

const allSailings = (): Promise<SailingRow[]> => storage.db.select().from(storage.t.sailings);
const allChanges = () => storage.db.select().from(storage.t.sailingChanges);

beforeAll(async () => {
  sandbox = await startSandbox({ SANDBOX_API_KEY: KEY, SANDBOX_EPOCH: "2026-01-05T00:00:00Z" });
  await sandbox.setClock({ now: new Date(clock).toISOString() });
  carriers = await sandboxCarriers(sandbox, KEY);
  storage = await openStorage(testDatabase());
});
afterAll(async () => {
  await storage?.close();
  await sandbox?.stop();
});

/** What the carrier publishes now for one voyage of a service: the calls departing on it. */
async function publishedDepartures(s: SailingRow): Promise<ScheduleCall[]> {
  const c = carriers.find((k) => k.scac === s.carrier)!;
  const client = new CsClient({ ...c, baseUrl: c.schedulesBaseUrl! });
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const hulls = await client.vesselSchedules({
    carrierServiceCode: s.serviceCode,
    carrierVoyageNumber: s.voyage,
    startDate: day(clock - 200 * 24 * H),
    endDate: day(clock + 200 * 24 * H),
  });
  return hulls.flatMap((h) => h.calls).filter((k) => k.exportVoyage === s.voyage);
}

const departing = (s: SailingRow) => (s.calls as ScheduleCall[]).filter((k) => k.exportVoyage === s.voyage);

test("the first refresh stores every carrier's sailings of the window as published, and records no change", async () => {
  expect(await sync().pollDue()).toBe(carriers.length);
  const rows = await allSailings();
  for (const { scac } of carriers) {
    const mine = rows.filter((r) => r.carrier === scac);
    expect(mine.length, scac).toBeGreaterThan(10);
    expect(new Set(mine.map((r) => r.serviceCode)).size, scac).toBeGreaterThan(1);
    const feed = await storage.sailings.feed(scac);
    expect(feed).toMatchObject({ lastSyncedAt: new Date(clock).toISOString(), lastError: null, failures: 0 });
  }
  const [from, to] = [clock - WINDOW_BACK_MS, clock + WINDOW_AHEAD_MS].map((t) => new Date(t).toISOString());
  for (const r of rows) {
    expect(r.status).toBe("active");
    expect(r.departsAt >= from! && r.departsAt <= to!, r.id).toBe(true);
    expect(r.arrivesAt > r.departsAt, r.id).toBe(true);
    expect(r.vesselImo, r.id).toMatch(/^\d{7}$/);
    expect(r.calls.length, r.id).toBeGreaterThanOrEqual(2);
  }
  // A sample in the past, around now and ahead: stored calls are exactly what the carrier publishes.
  const sorted = [...rows].sort((a, b) => a.departsAt.localeCompare(b.departsAt));
  for (const s of [sorted[0]!, sorted[Math.floor(sorted.length / 2)]!, sorted.at(-1)!]) {
    expect(departing(s), s.id).toEqual(await publishedDepartures(s));
  }
  expect(await allChanges()).toEqual([]);
});

test("a second refresh at the same clock reading finds no difference", async () => {
  const before = await allSailings();
  const results = await Promise.all(carriers.map((c) => sync().syncCarrier(c.scac)));
  for (const r of results) expect(r).toMatchObject({ applied: true, inserted: 0, changed: 0, withdrawn: 0 });
  expect(await allChanges()).toEqual([]);
  expect(await allSailings()).toEqual(before);
});

test("moving the clock two days records moved estimates and new actual times, as now published", async () => {
  const before = new Map((await allSailings()).map((r) => [r.id, r]));
  await advance(48);
  expect(await sync().pollDue()).toBe(carriers.length);
  const changes = await allChanges();
  const fields = new Set(changes.map((c) => c.field));
  expect(fields).toContain("departure.actual");
  expect([...fields].some((f) => f.endsWith(".estimated"))).toBe(true);
  for (const c of changes) expect(c.seenAt).toBe(new Date(clock).toISOString());
  // An actual departure appears only for a call the clock has passed.
  for (const c of changes.filter((k) => k.field === "departure.actual" && k.after !== null)) {
    expect(Date.parse(c.after as string)).toBeLessThanOrEqual(clock);
  }
  // Each changed sailing: its stored calls are what the carrier now publishes, and every change
  // row's `before` is what was stored.
  const changedIds = [...new Set(changes.map((c) => c.sailingId))];
  expect(changedIds.length).toBeGreaterThan(0);
  for (const id of changedIds.slice(0, 5)) {
    const [now] = await storage.db.select().from(storage.t.sailings).where(eq(storage.t.sailings.id, id));
    expect(departing(now!), id).toEqual(await publishedDepartures(now!));
    expect(now!.changedAt).toBe(new Date(clock).toISOString());
    const old = before.get(id)!;
    for (const c of changes.filter((k) => k.sailingId === id && /^(arrival|departure)\./.test(k.field))) {
      const [side, kind] = c.field.split(".") as [
        "arrival" | "departure",
        "planned" | "estimated" | "actual",
      ];
      const call = (old.calls as ScheduleCall[]).find((k) => k.transportCallReference === c.call);
      expect(call?.[side][kind] ?? null, `${id} ${c.call} ${c.field}`).toEqual(c.before as string | null);
    }
  }
});

test("a blank sailing announced while the clock moves becomes withdrawn, recorded once", async () => {
  const active = new Map((await allSailings()).map((r) => [r.id, r]));
  await advance(21 * 24);
  await sync().pollDue();
  const withdrawn = (await allSailings()).filter((r) => r.status === "withdrawn");
  expect(withdrawn.length).toBeGreaterThan(0);
  for (const w of withdrawn) {
    expect(active.get(w.id)?.status, w.id).toBe("active");
    // The carrier no longer publishes a departure on that voyage.
    expect(await publishedDepartures(w), w.id).toEqual([]);
    const rows = (await storage.sailings.changes(w.id)).filter((c) => c.field === "status");
    expect(
      rows.map((c) => [c.before, c.after]),
      w.id,
    ).toEqual([["active", "withdrawn"]]);
  }
  // Refreshing again at the same reading records nothing more.
  const count = (await allChanges()).length;
  await Promise.all(carriers.map((c) => sync().syncCarrier(c.scac)));
  expect((await allChanges()).length).toBe(count);
});

test("a malformed page changes nothing for the carrier; the next good refresh applies", async () => {
  const target = carriers.find((c) => c.scac === "MAEU") ?? carriers[0]!;
  // Forwards to the sandbox; the second page comes back with a timestamp classifier DCSA lacks.
  let pages = 0;
  const breaker = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      const u = new URL(req.url);
      const upstream = await fetch(
        `${target.schedulesBaseUrl}${u.pathname.replace(/^\/v1/, "")}${u.search}`,
        {
          headers: req.headers,
        },
      );
      const headers = new Headers({ "Content-Type": "application/json" });
      const next = upstream.headers.get("Next-Page-Cursor");
      if (next) headers.set("Next-Page-Cursor", next);
      const body = await upstream.text();
      pages++;
      return new Response(u.searchParams.has("cursor") ? body.replace('"EST"', '"GUESS"') : body, {
        status: upstream.status,
        headers,
      });
    },
  });
  try {
    await advance(48); // so a good refresh would change something
    const table = async () => ({
      sailings: (await allSailings()).filter((r) => r.carrier === target.scac),
      changes: await allChanges(),
    });
    const before = await table();
    const broken = { ...target, schedulesBaseUrl: `http://127.0.0.1:${breaker.port}`, pageLimit: 1 };
    const err = await sync([broken])
      .syncCarrier(target.scac)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CarrierError);
    expect((err as CarrierError).kind).toBe("invalid_payload");
    expect((err as CarrierError).details.issues?.join("\n")).toContain('"GUESS" is not one of PLN, EST, ACT');
    expect(pages).toBeGreaterThanOrEqual(2);
    expect(await table()).toEqual(before);
    expect(await storage.sailings.feed(target.scac)).toMatchObject({
      failures: 1,
      lastError: expect.stringContaining("invalid_payload"),
    });
    // pollDue logs the typed error and carries on.
    expect(await sync([broken]).pollDue()).toBe(0);
    expect(String(logged.at(-1))).toContain("invalid_payload");

    const good = await sync([target]).syncCarrier(target.scac);
    expect(good.applied).toBe(true);
    expect(good.changes).toBeGreaterThan(0);
    expect(await storage.sailings.feed(target.scac)).toMatchObject({ failures: 0, lastError: null });
  } finally {
    breaker.stop(true);
  }
});
