/**
 * The lookups' milestone cache and the list items' cache (common/versioned-cache.ts): a reader
 * process keeps rendered milestones and list items while a poller process (another platform on
 * the same database) refreshes the records from the sandbox carrier. Every read and list must
 * answer exactly what an uncached render answers at the same clock reading, byte for byte, however
 * the refreshes and readings interleave (vessel positions from the sandbox's AIS feed included).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { listPageJson } from "../../api/ocean/list-page.ts";
import { type ListItem, lookupRecord } from "../../api/ocean/records.ts";
import { TIMELINE_CACHE_MAX } from "../../api/ocean/services.ts";
import { PAGE_DEFAULT } from "../../api/shared/paging.ts";
import { API_VERSION } from "../../api/shared/products.ts";
import { VersionedCache } from "../../common/versioned-cache.ts";
import { withCheckDigit } from "../../ingest/iso6346.ts";
import { simulateVoyage } from "../../ingest/sandbox/simulate.ts";
import { loadWorld, SANDBOX_SCACS, type SandboxWorld } from "../../ingest/sandbox/world.ts";
import type { MilestoneView } from "../../ingest/tracking/timeline.ts";
import { sharedTestDatabase } from "../helpers/database.ts";
import { bearer, ManualClock, makePlatform, type TestPlatform } from "../helpers/platform.ts";
import { type RunningSandbox, startSandbox } from "../sandbox/spawn.ts";

const H = 3_600_000;
const START = "2026-08-01T00:00:00Z";
const dir = mkdtempSync(join(tmpdir(), "portolan-lookup-cache-"));
let sandbox: RunningSandbox;
let world: SandboxWorld;
const clock = new ManualClock(Date.parse(START));
/** The API process (reads, AIS feed) and the poller process, on one database. */
let reader: TestPlatform;
let poller: TestPlatform;

beforeAll(async () => {
  sandbox = await startSandbox({ SANDBOX_START: START, SANDBOX_AIS_INTERVAL_MS: "600000" });
  world = await loadWorld();
  const database = sharedTestDatabase(join(dir, "db.sqlite"));
  const carriers = SANDBOX_SCACS.map((scac) => ({ scac, baseUrl: sandbox.carrierUrl(scac) }));
  reader = await makePlatform({ database, carriers, aisFeeds: [sandbox.aisUrl] }, clock.now);
  poller = await makePlatform({ database, carriers }, clock.now);
}, 60_000);
afterAll(async () => {
  await reader.close();
  await poller.close();
  await sandbox.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Sets our clock and the carrier's (the sandbox republishes AIS positions at once). */
async function setClock(ms: number) {
  clock.t = ms;
  await sandbox.setClock({ now: new Date(ms).toISOString() });
}

/** Waits (a little) for the AIS fix the sandbox sent for the record's hull at the clock's reading. */
async function awaitFix(orgId: string, id: string) {
  const imo = (await reader.tracking.ocean.get(orgId, id))?.currentVesselImo;
  if (!imo) return;
  const at = new Date(Math.floor(clock.t / 1000) * 1000).toISOString();
  // A hull in port may send none: the readings then go without.
  for (let i = 0; i < 25; i++) {
    const fix = await reader.tracking.positions.byImo(Number(imo), clock.t);
    if (fix?.position_fix_at === at) return;
    await Bun.sleep(20);
  }
}

/** An organisation of its own per test: records of one test never answer another's lookups. */
async function tenant() {
  const org = await reader.accounts.createOrg("lookup cache", { paid: true, rateLimit: 1_000_000 });
  await reader.accounts.setEntitlement(org.id, "ocean", null);
  return { org, key: (await reader.accounts.createKey(org.id, "ocean")).key };
}

/** The read by UUID (the lookup record, archived records too), through the reader's API. */
async function cachedBody(key: string, id: string): Promise<string> {
  const res = await reader.call("ocean", `/v1/containers/${id}`, bearer(key));
  expect(res.status).toBe(200);
  return await res.text();
}

/**
 * The lookup by the record's own reference (the row found by identifier; null once it is archived
 * or still adding: the lookup then registers or answers 202), through the reader's API.
 */
async function cachedLookup(orgId: string, key: string, id: string): Promise<string | null> {
  const row = (await reader.tracking.ocean.get(orgId, id))!;
  if (row.archivedAt !== null || row.adding) return null;
  const res = await reader.call("ocean", `/v1/containers/lookup/${row.identifier}`, bearer(key));
  expect(res.status).toBe(200);
  return await res.text();
}

/** The same record rendered without the caches, at the same clock reading, by the same process. */
async function uncachedBody(orgId: string, id: string): Promise<string> {
  const row = (await reader.tracking.ocean.get(orgId, id))!;
  const data = await lookupRecord({ ...reader.tracking, timelines: new VersionedCache(0) }, row);
  return JSON.stringify({ api_version: API_VERSION, ok: true, data });
}

/** uncachedBody of the row the lookup by its reference finds (null when cachedLookup's is). */
async function uncachedLookup(orgId: string, id: string): Promise<string | null> {
  const row = (await reader.tracking.ocean.get(orgId, id))!;
  if (row.archivedAt !== null || row.adding) return null;
  const found = (await reader.tracking.ocean.findActive(orgId, row.identifier))!;
  return await uncachedBody(orgId, found.id);
}

/** The organisation's list (its items' cache in use), through the reader's API. */
async function cachedList(key: string): Promise<string> {
  const res = await reader.call("ocean", "/v1/containers", bearer(key));
  expect(res.status).toBe(200);
  return await res.text();
}

/** The same list rendered without the items' cache, by the same process. */
async function uncachedList(orgId: string): Promise<string> {
  const t = { ...reader.tracking, listItems: new VersionedCache<ListItem>(0) };
  const data = await listPageJson(t, orgId, { archived: false, tags: [] }, PAGE_DEFAULT);
  return `{"api_version":${JSON.stringify(API_VERSION)},"ok":true,"data":${data.json}}`;
}

/**
 * The cached answers (the read, and the list with the record's item) against the uncached ones.
 * An AIS fix landing between two renders moves the position: the pair is taken again until the
 * uncached renders on both sides agree.
 */
async function expectSameAsUncached(orgId: string, key: string, id: string) {
  for (let attempt = 0; attempt < 20; attempt++) {
    const before = await uncachedBody(orgId, id);
    const beforeList = await uncachedList(orgId);
    const beforeLookup = await uncachedLookup(orgId, id);
    const cached = await cachedBody(key, id);
    const list = await cachedList(key);
    const lookup = await cachedLookup(orgId, key, id);
    const afterLookup = await uncachedLookup(orgId, id);
    const afterList = await uncachedList(orgId);
    const after = await uncachedBody(orgId, id);
    if (before !== after || beforeList !== afterList || beforeLookup !== afterLookup) continue;
    expect(cached).toBe(before);
    expect(list).toBe(beforeList);
    expect(lookup).toBe(beforeLookup);
    return JSON.parse(cached).data as {
      status: string;
      events: MilestoneView[];
      vessel_position: { position_freshness: string } | null;
      demurrage_free_days_left: number | null;
    };
  }
  throw new Error(`${id}: positions kept moving`);
}

/** Sandbox references: containers and a B/L of several boxes (its boxes' timelines are cached too). */
function references() {
  const containers = [
    "MAEU0000008",
    "MSAU1742313",
    ...["MSCU", "HLCU", "CMAU", "MAEU"].map((p, i) => withCheckDigit(`${p}${300_017 + i * 7919}`)),
  ];
  const voyages = containers.map((ref) => ({ ref, v: simulateVoyage(ref, { world }) })).filter((x) => x.v);
  const multi = voyages.find((x) => x.v!.containers.length > 1);
  return [
    ...voyages.map(({ ref, v }) => ({ reference: ref, type: "container_id", v: v! })),
    ...(multi ? [{ reference: multi.v!.billOfLading, type: "bill_of_lading", v: multi.v! }] : []),
  ];
}

/** A new tenant adding the sandbox's MAEU0000008 three hours after the box's `milestone`. */
async function addBoxAt(milestone: "gateIn" | "loaded") {
  const { org, key } = await tenant();
  const ref = "MAEU0000008";
  const box = simulateVoyage(ref, { world })!.containers.find((c) => c.number === ref)!;
  await setClock(Date.parse(box.milestones[milestone]) + 3 * H);
  const { row } = await reader.tracking.ocean.add(org, { identifier: ref, identifierType: "container_id" });
  return { org, key, box, row };
}

test("another process's poll is visible at the reader's next read", async () => {
  const { org, key, box, row } = await addBoxAt("gateIn");
  let seen = await expectSameAsUncached(org.id, key, row.id);
  // A second read is served from the cache: the very same rendering.
  const first = await lookupRecord(reader.tracking, row);
  expect((await lookupRecord(reader.tracking, row)).events).toBe(first.events);
  const statuses = [seen.status];
  for (const m of ["loaded", "discharged", "gateOut", "emptyReturn"] as const) {
    await setClock(Date.parse(box.milestones[m]) + 3 * H);
    expect(await poller.tracking.ocean.pollDue()).toBeGreaterThan(0);
    const now = await expectSameAsUncached(org.id, key, row.id);
    expect(now.events.length).toBeGreaterThan(seen.events.length);
    statuses.push(now.status);
    seen = now;
  }
  expect(statuses).toEqual(["in_transit", "in_transit", "discharged", "delivered", "returned_empty"]);
}, 60_000);

test("a carrier's correction of a stored event (same event id) is visible at the next read", async () => {
  const { org, key, row } = await addBoxAt("loaded");
  const before = await expectSameAsUncached(org.id, key, row.id);
  // The poller process stores a corrected payload under the event's id, as apply() does.
  const stored = await poller.storage.events.forRecord(row.id);
  const event = stored.find((e) => (e.payload as { eventType: string }).eventType === "EQUIPMENT")!;
  const payload = event.payload as { eventDateTime: string };
  const corrected = { ...payload, eventDateTime: "2026-09-01T00:00:00Z" };
  await poller.storage.events.correct(
    row.id,
    event.eventId,
    payload,
    corrected,
    new Date(clock.t).toISOString(),
  );
  const after = await expectSameAsUncached(org.id, key, row.id);
  expect(after.events.map((e) => e.timestamp)).toContain("2026-09-01T00:00:00.000Z");
  expect(after.events).not.toEqual(before.events);
});

test("free-time terms another process adds or removes show at the reader's next read", async () => {
  const { org, key, box, row } = await addBoxAt("gateIn");
  await setClock(Date.parse(box.milestones.discharged) + 3 * H);
  expect(await poller.tracking.ocean.pollDue()).toBeGreaterThan(0);
  const read = () => expectSameAsUncached(org.id, key, row.id);
  // Read twice: the second is answered under the change token, terms included.
  expect((await read()).demurrage_free_days_left).toBeNull();
  expect((await read()).demurrage_free_days_left).toBeNull();
  const terms = {
    id: crypto.randomUUID(),
    orgId: org.id,
    carrierCode: null,
    portUnlocode: null,
    equipment: null,
    freeDays: 30,
    dailyRateUsd: 75,
    createdAt: new Date(clock.t).toISOString(),
  };
  await poller.storage.terms.add(terms);
  const termed = (await read()).demurrage_free_days_left;
  expect(termed).toBeGreaterThan(0);
  expect((await read()).demurrage_free_days_left).toBe(termed);
  await poller.storage.terms.remove(org.id, terms.id);
  expect((await read()).demurrage_free_days_left).toBeNull();
});

test("reads equal uncached renders byte for byte over records, refreshes and clock readings", async () => {
  const refs = references();
  expect(refs.map((r) => r.type)).toContain("bill_of_lading");
  expect(refs.length).toBeGreaterThanOrEqual(5);
  // The clock-bound parts were exercised: reads with AIS positions (of the ages the readings give).
  const freshness = new Set<string>();
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 0, max: refs.length - 1 }),
      // Moments of the voyage (share of booked to returned, plus a margin), each refreshed by the
      // poller, then read at several clock readings after it (positions and demurrage age).
      fc.array(
        fc.record({
          at: fc.integer({ min: 0, max: 110 }).map((pct) => pct / 100),
          reads: fc.array(fc.integer({ min: 0, max: 72 }), { minLength: 1, maxLength: 3 }),
        }),
        { minLength: 1, maxLength: 3 },
      ),
      async (n, steps) => {
        // A record of its own per run (stored events outlive a clock set back), moving forward.
        const { org, key } = await tenant();
        const { reference, type, v } = refs[n]!;
        let id: string | undefined;
        const booked = Date.parse(v.bookedAt) + 6 * H;
        const ended = Math.max(...v.containers.map((c) => Date.parse(c.milestones.emptyReturn)));
        for (const { at, reads } of [...steps].sort((a, b) => a.at - b.at)) {
          await setClock(booked + at * (ended - booked));
          if (!id) {
            const identifierType = type as "container_id" | "bill_of_lading";
            id = (await reader.tracking.ocean.add(org, { identifier: reference, identifierType })).row.id;
          } else await poller.tracking.ocean.refresh(id);
          await awaitFix(org.id, id);
          const refreshedAt = clock.t;
          for (const hours of reads) {
            clock.t = refreshedAt + hours * H;
            const read = await expectSameAsUncached(org.id, key, id);
            freshness.add(read.vessel_position?.position_freshness ?? "none");
          }
        }
      },
    ),
    { numRuns: 25 },
  );
  expect(freshness.size).toBeGreaterThanOrEqual(2);
  // Every cache served: rows, milestones, whole records and (with no hull aboard) whole pages.
  const { timelines, lookups, listPages } = reader.tracking;
  const { rows } = reader.tracking.ocean.rowCaches;
  for (const cache of [rows, timelines, lookups, listPages]) expect(cache.size).toBeGreaterThan(0);
  expect(timelines.size).toBeLessThanOrEqual(TIMELINE_CACHE_MAX);
}, 180_000);

test("the cache stores an id from its second offer on, keeps at most its bound, and drops the least recently read", () => {
  const cache = new VersionedCache<number>(3);
  cache.set("a", "v1", 1);
  // Offered once: only its name is kept, so a record read once costs no entry.
  expect([cache.size, cache.has("a"), cache.get("a", "v1")]).toEqual([0, false, undefined]);
  const offerTwice = (id: string, version: string, value: number) => {
    cache.set(id, version, value);
    cache.set(id, version, value);
  };
  for (const [id, v] of [
    ["a", 1],
    ["b", 2],
    ["c", 3],
  ] as const)
    offerTwice(id, "v1", v);
  expect(cache.size).toBe(3);
  expect(cache.get("a", "v1")).toBe(1); // a is now the most recently read
  offerTwice("d", "v1", 4);
  expect([cache.size, cache.get("b", "v1"), cache.get("a", "v1"), cache.get("d", "v1")]).toEqual([
    3,
    undefined,
    1,
    4,
  ]);
  expect(cache.get("a", "v2")).toBeUndefined(); // another version never serves
  cache.set("a", "v2", 10); // stored already: replaced at the first offer
  expect([cache.get("a", "v2"), cache.get("a", "v1")]).toEqual([10, undefined]);
  cache.resize(1);
  expect([cache.size, cache.get("a", "v2")]).toEqual([1, 10]); // a was read last
  cache.resize(0);
  offerTwice("e", "v1", 5);
  expect(cache.size).toBe(0);
});

/** A read through `cache` as the lookups make it: asked first, stored when wanted and missing. */
function read(cache: VersionedCache<string>, id: string, counts: { hits: number; stores: number }) {
  if (!cache.wants(id)) return;
  if (cache.get(id, "v1") !== undefined) counts.hits++;
  else {
    cache.set(id, "v1", id);
    counts.stores++;
  }
}

test("reads cycling through more ids than the cache holds keep a set that hits every cycle, and store nothing more", () => {
  const capacity = 100;
  const cache = new VersionedCache<string>(capacity);
  const ids = Array.from({ length: 500 }, (_, i) => `record-${i}`);
  const cycles = Array.from({ length: 8 }, () => {
    const counts = { hits: 0, stores: 0 };
    for (const id of ids) read(cache, id, counts);
    return counts;
  });
  // Storing each id that comes back would evict every entry before its next read (none hit).
  // Once full, an id coming back after the oldest entry was last read is not stored: the entries
  // stay, each read once a cycle.
  for (const counts of cycles.slice(3)) expect(counts).toEqual({ hits: capacity, stores: 0 });
  expect(cache.size).toBe(capacity);
  // What the metrics read (portolan_cache_hits_total and _misses_total): every get, hit or not.
  const total = (key: "hits" | "stores") => cycles.reduce((n, c) => n + c[key], 0);
  expect([cache.hits, cache.misses]).toEqual([total("hits"), total("stores")]);
});

test("a working set read often is kept through scans of the fleet, and replaces one no longer read", () => {
  const cache = new VersionedCache<string>(50);
  const counts = { hits: 0, stores: 0 };
  const fleet = Array.from({ length: 2_000 }, (_, i) => `fleet-${i}`);
  const hot = (set: string) => Array.from({ length: 30 }, (_, i) => `${set}-${i}`);
  // Each hot record read between every 20 fleet reads; the fleet read once or twice over.
  const run = (set: string[], fleetReads: number, from: number) => {
    for (let i = 0; i < fleetReads; i++) {
      read(cache, fleet[(from + i) % fleet.length]!, counts);
      if (i % 20 === 0) for (const id of set) read(cache, id, counts);
    }
  };
  const first = hot("dashboard-a");
  run(first, 4_000, 0);
  counts.hits = 0;
  run(first, 2_000, 4_000);
  // Every read of the working set hits (101 rounds of 30); the fleet's reads, spread over 2,000
  // records, are not stored in its place.
  expect(counts.hits).toBeGreaterThanOrEqual(100 * 30);
  for (const id of first) expect(cache.get(id, "v1")).toBe(id);
  // The dashboard moves to other records: once the first set goes unread, the new one is kept.
  const second = hot("dashboard-b");
  run(second, 4_000, 0);
  for (const id of second) expect(cache.get(id, "v1")).toBe(id);
});

test("a cache asked wants() before each offer stores what one offered every value stores", () => {
  const ids = ["a", "b", "c", "d", "e", "f"];
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: 4 }),
      fc.array(fc.tuple(fc.constantFrom(...ids), fc.constantFrom("v1", "v2"), fc.nat()), { maxLength: 60 }),
      (capacity, offers) => {
        const asked = new VersionedCache<number>(capacity);
        const offered = new VersionedCache<number>(capacity);
        let skipped = 0;
        for (const [id, version, value] of offers) {
          offered.set(id, version, value);
          if (asked.wants(id)) asked.set(id, version, value);
          else skipped++;
        }
        // The first offer of an id is never stored, so a cache told no there skips nothing it keeps.
        for (const id of ids)
          for (const version of ["v1", "v2"]) expect(asked.get(id, version)).toBe(offered.get(id, version));
        expect(asked.size).toBe(offered.size);
        if (capacity > 0) expect(skipped).toBeGreaterThanOrEqual(Math.min(1, offers.length));
      },
    ),
  );
});
