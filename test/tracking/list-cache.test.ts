/**
 * Cached renderings under tracked.version (api/ocean/list-page.ts, records.ts): a writer process
 * (another platform on the same database) adds and corrects events, updates, archives and
 * unarchives records and changes free-time terms, while a reader process answers list pages and
 * reads by UUID from its caches. Every answer must equal, byte for byte, what a third process with
 * its caches off answers at the same clock reading, however writes and reads interleave.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { LIST_CACHE_MAX } from "../../api/ocean/services.ts";
import { checkDigit } from "../../ingest/iso6346.ts";
import { visibleEvents } from "../../ingest/sandbox/box-view.ts";
import { simulateVoyage } from "../../ingest/sandbox/simulate.ts";
import { loadWorld } from "../../ingest/sandbox/world.ts";
import type { DcsaEventLike } from "../../ingest/tracking/dcsa.ts";
import { sharedTestDatabase } from "../helpers/database.ts";
import { bearer, ManualClock, makePlatform, type TestPlatform } from "../helpers/platform.ts";

const H = 3_600_000;
const dir = mkdtempSync(join(tmpdir(), "portolan-list-cache-"));
const clock = new ManualClock(Date.parse("2026-09-01T00:00:00Z"));
/** The API process with its caches, the writer, and a process answering without caches. */
let reader: TestPlatform;
let writer: TestPlatform;
let plain: TestPlatform;
/** Real sandbox voyages' events: what records of the tests are given, a few at a time. */
let voyages: DcsaEventLike[][];

beforeAll(async () => {
  const database = sharedTestDatabase(join(dir, "db.sqlite"));
  reader = await makePlatform({ database }, clock.now);
  writer = await makePlatform({ database }, clock.now);
  plain = await makePlatform({ database }, clock.now);
  for (const cache of caches(plain)) cache.resize(0);
  const world = await loadWorld();
  const end = Date.parse("2027-03-01T00:00:00Z");
  voyages = [0, 1, 2, 3].map((i) => {
    const serial = String(400_000 + i * 7919);
    const number = `MSCU${serial}${checkDigit(`MSCU${serial}`)}`;
    return visibleEvents(simulateVoyage(number, { world })!, end, number);
  });
}, 60_000);
afterAll(async () => {
  await reader.close();
  await writer.close();
  await plain.close();
  rmSync(dir, { recursive: true, force: true });
});

const iso = () => new Date(clock.t).toISOString();

/** Every cache of renderings and rows a process keeps. */
const caches = (p: TestPlatform) => {
  const { timelines, lookups, listItems, listPages } = p.tracking;
  return [p.tracking.ocean.rowCaches.rows, timelines, lookups, listItems, listPages];
};

/** An organisation of its own, with `n` container records (no events yet). */
async function fleet(n: number) {
  const { orgId, keys } = await writer.tenant({ paid: true });
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const serial = String(500_000 + i).padStart(6, "0");
    const number = `MSDU${serial}${checkDigit(`MSDU${serial}`)}`;
    const row = await writer.storage.trackings.insert({
      id: crypto.randomUUID(),
      orgId,
      identifier: number,
      identifierType: "container_id",
      containerNumber: number,
      carrierCode: "MSCU",
      carrierName: "Mediterranean Shipping Company",
      destinationUnlocode: ["SGSIN", "NLRTM", "USNYC"][i % 3]!,
      containerSize: i % 2 ? "40HC" : "20GP",
      tags: i % 2 ? ["a"] : ["a", "b"],
      updatedAt: iso(),
      addedAt: iso(),
    });
    ids.push(row.id);
    clock.advance(1000);
  }
  return { orgId, key: keys.ocean, ids };
}

/** An error body's request id: each answer has its own. */
const withoutRequestId = (body: string) => body.replace(/,"request_id":"[^"]+"/, "");

/** The same request to the caching reader and the cache-less process: equal bodies and statuses. */
async function same(path: string, key: string): Promise<{ status: number; body: string }> {
  const a = await reader.call("ocean", path, bearer(key));
  const b = await plain.call("ocean", path, bearer(key));
  const body = await a.text();
  const other = await b.text();
  expect({ path, status: a.status, body: withoutRequestId(body) }).toEqual({
    path,
    status: b.status,
    body: withoutRequestId(other),
  });
  return { status: a.status, body };
}

type Write =
  | { kind: "event"; record: number }
  | { kind: "correct"; record: number; hours: number }
  | { kind: "update"; record: number; field: number; value: number }
  | { kind: "archive"; record: number }
  | { kind: "unarchive"; record: number }
  | { kind: "terms"; days: number; rate: number | null; port: number }
  | { kind: "untermed" }
  | { kind: "clock"; hours: number };

type Read =
  | { kind: "list"; archived: boolean; status: number; tag: number; limit: number; pages: number }
  | { kind: "read"; record: number }
  | { kind: "lookup"; record: number };

const RECORDS = 6;
const record = fc.integer({ min: 0, max: RECORDS - 1 });
const write: fc.Arbitrary<Write> = fc.oneof(
  fc.record({ kind: fc.constant("event" as const), record }),
  fc.record({ kind: fc.constant("correct" as const), record, hours: fc.integer({ min: 1, max: 48 }) }),
  fc.record({
    kind: fc.constant("update" as const),
    record,
    field: fc.integer({ min: 0, max: 6 }),
    value: fc.integer({ min: 0, max: 5 }),
  }),
  fc.record({ kind: fc.constant("archive" as const), record }),
  fc.record({ kind: fc.constant("unarchive" as const), record }),
  fc.record({
    kind: fc.constant("terms" as const),
    days: fc.integer({ min: 0, max: 10 }),
    rate: fc.option(fc.integer({ min: 1, max: 300 })),
    port: fc.integer({ min: 0, max: 3 }),
  }),
  fc.record({ kind: fc.constant("untermed" as const) }),
  fc.record({ kind: fc.constant("clock" as const), hours: fc.integer({ min: 1, max: 96 }) }),
);
const read: fc.Arbitrary<Read> = fc.oneof(
  fc.record({
    kind: fc.constant("list" as const),
    archived: fc.boolean(),
    status: fc.integer({ min: 0, max: 2 }),
    tag: fc.integer({ min: 0, max: 2 }),
    limit: fc.integer({ min: 1, max: 7 }),
    pages: fc.integer({ min: 1, max: 3 }),
  }),
  fc.record({ kind: fc.constant("read" as const), record }),
  fc.record({ kind: fc.constant("lookup" as const), record }),
);

const STATUSES = ["in_transit", "discharged", "delivered"];

/** One write through the writer process's storage and engine, as ingest and the API make them. */
async function apply(w: Write, t: { orgId: string; ids: string[] }, given: Map<string, number>) {
  if (w.kind === "clock") return clock.advance(w.hours * H);
  if (w.kind === "terms") {
    await writer.storage.terms.add({
      id: crypto.randomUUID(),
      orgId: t.orgId,
      carrierCode: "MSCU",
      portUnlocode: w.port < 3 ? ["SGSIN", "NLRTM", "USNYC"][w.port]! : null,
      equipment: null,
      freeDays: w.days,
      dailyRateUsd: w.rate,
      createdAt: iso(),
    });
    return;
  }
  if (w.kind === "untermed") {
    const [first] = await writer.storage.terms.forOrg(t.orgId);
    if (first) await writer.storage.terms.remove(t.orgId, first.id);
    return;
  }
  const id = t.ids[w.record]!;
  const events = voyages[w.record % voyages.length]!;
  const n = given.get(id) ?? 0;
  switch (w.kind) {
    case "event":
      if (n < events.length) {
        await writer.storage.events.insert(id, events[n]!.eventID, events[n], iso());
        given.set(id, n + 1);
      }
      return;
    case "correct": {
      const stored = await writer.storage.events.forRecord(id);
      const e = stored[w.hours % Math.max(stored.length, 1)];
      if (!e) return;
      const before = e.payload as { eventDateTime: string };
      const after = {
        ...before,
        eventDateTime: new Date(Date.parse(before.eventDateTime) + w.hours * H).toISOString(),
      };
      await writer.storage.events.correct(id, e.eventId, before, after, iso());
      return;
    }
    case "update": {
      const at = new Date(clock.t - w.value * H).toISOString();
      const fields = [
        { status: STATUSES[w.value % 3]! },
        { eta: w.value ? at : null, etaIsEstimated: w.value % 2 === 0 },
        { tags: w.value % 2 ? ["a"] : ["a", "b"] },
        { dischargedAt: w.value ? at : null, deliveredAt: null },
        { currentVesselImo: w.value ? `93${w.value}1234` : null, currentVesselName: `HULL ${w.value}` },
        { customsHoldReason: w.value ? `hold ${w.value}` : null, customsHoldSince: w.value ? at : null },
        // A write that leaves updated_at: only the version says it changed.
        { lastPolledAt: at },
      ][w.field]!;
      // Most writes move the list order as the engine's visible changes do; the last one does not.
      await writer.storage.trackings.update(id, w.field < 6 ? { ...fields, updatedAt: iso() } : fields);
      return;
    }
    case "archive":
      await writer.tracking.ocean.archive(t.orgId, id, "deleted");
      return;
    case "unarchive":
      await writer.storage.trackings.update(id, { archivedAt: null, archivedReason: null, updatedAt: iso() });
      return;
  }
}

/** A list query of the read and its following pages: each page the same from both processes. */
async function check(r: Read, t: { key: string; ids: string[] }) {
  if (r.kind === "read") {
    const { status, body } = await same(`/v1/containers/${t.ids[r.record]}`, t.key);
    expect(status).toBe(200);
    return JSON.parse(body).data.events.length as number;
  }
  if (r.kind === "lookup") {
    // By container number: an archived one would be registered again, a write this read must not make.
    const row = (await writer.storage.trackings.byId(t.ids[r.record]!))!;
    if (row.archivedAt !== null) return 0;
    const { status } = await same(`/v1/containers/lookup/${row.containerNumber}`, t.key);
    expect(status).toBe(200);
    return 0;
  }
  const query = new URLSearchParams({ limit: String(r.limit) });
  if (r.archived) query.set("archived", "true");
  if (r.status) query.set("status", STATUSES[r.status - 1]!);
  if (r.tag) query.set("tags", r.tag === 1 ? "a" : "a,b");
  for (let page = 0; page < r.pages; page++) {
    const { status, body } = await same(`/v1/containers?${query}`, t.key);
    expect(status).toBe(200);
    const cursor = JSON.parse(body).data.next_cursor as string | null;
    if (!cursor) break;
    query.set("cursor", cursor);
  }
  return 0;
}

test("list pages and reads equal cache-less answers over interleaved writes in another process", async () => {
  let eventsSeen = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.tuple(fc.array(write, { maxLength: 4 }), read), { minLength: 1, maxLength: 12 }),
      async (steps) => {
        const t = await fleet(RECORDS);
        const given = new Map<string, number>();
        for (const [writes, r] of steps) {
          for (const w of writes) await apply(w, t, given);
          // Read twice: the second read is served from what the first one cached.
          await check(r, t);
          eventsSeen += await check(r, t);
        }
      },
    ),
    { numRuns: 40 },
  );
  // Every cache was in use, and the milestones rendered were real ones.
  expect(eventsSeen).toBeGreaterThan(0);
  for (const cache of caches(reader)) expect(cache.size).toBeGreaterThan(0);
  expect(reader.tracking.listItems.size).toBeLessThanOrEqual(LIST_CACHE_MAX);
  for (const cache of caches(plain)) expect(cache.size).toBe(0);
}, 240_000);

test("a record's version moves with every kind of write to it", async () => {
  const t = await fleet(2);
  const [id, other] = t.ids as [string, string];
  const version = async (of = id) => (await writer.storage.trackings.byId(of))!.version;
  const steps: Array<[string, () => Promise<unknown>]> = [
    ["update", () => writer.storage.trackings.update(id, { status: "in_transit" })],
    ["event added", () => writer.storage.events.insert(id, "e1", voyages[0]![0], iso())],
    [
      "event corrected",
      () => writer.storage.events.correct(id, "e1", voyages[0]![0], { ...voyages[0]![0], x: 1 }, iso()),
    ],
    ["archive", () => writer.tracking.ocean.archive(t.orgId, id, "deleted")],
    [
      "tree update",
      () => writer.storage.trackings.updateTree(id, { archivedAt: null, archivedReason: null }),
    ],
  ];
  const seen: Array<[string, number]> = [["insert", await version()]];
  for (const [name, step] of steps) {
    await step();
    seen.push([name, await version()]);
  }
  expect(seen).toEqual([
    ["insert", 1],
    ["update", 2],
    ["event added", 3],
    ["event corrected", 4],
    ["archive", 5],
    ["tree update", 6],
  ]);
  // Another record's writes leave it.
  expect(await version(other)).toBe(1);
});

test("another organisation's records are never listed, and their ids answer 404 cached or not", async () => {
  const a = await fleet(2);
  const b = await fleet(2);
  const list = await same("/v1/containers", a.key);
  const listed = (JSON.parse(list.body).data.items as Array<{ id: string }>).map((i) => i.id);
  expect(listed.sort()).toEqual([...a.ids].sort());
  // b's records, in the reader's caches from b's own reads, still answer 404 to a.
  await same("/v1/containers", b.key);
  for (const id of b.ids) await same(`/v1/containers/${id}`, b.key);
  for (const id of b.ids) expect((await same(`/v1/containers/${id}`, a.key)).status).toBe(404);
});

test("a page and a lookup kept whole are answered again only while their records' versions hold", async () => {
  const t = await fleet(3);
  const [first, , last] = t.ids as [string, string, string];
  const number = (await writer.storage.trackings.byId(last))!.containerNumber!;
  const reads = ["/v1/containers", "/v1/containers?limit=2", `/v1/containers/lookup/${number}`];
  // Writes that leave the list's order (updated_at) alone: only the versions say the text changed.
  const writes: Array<() => Promise<unknown>> = [
    () => writer.storage.trackings.update(first, { lastPolledAt: iso() }),
    () => writer.storage.trackings.update(last, { lastPolledAt: iso() }),
    () => writer.storage.events.insert(last, voyages[0]![0]!.eventID, voyages[0]![0], iso()),
    () => writer.storage.trackings.update(last, { customsHoldReason: "exam", customsHoldSince: iso() }),
  ];
  for (const w of writes) {
    clock.advance(H);
    // Twice: the second answer comes from what the first one kept.
    for (const path of reads) for (const _ of [1, 2]) await same(path, t.key);
    await w();
    for (const path of reads) await same(path, t.key);
  }
  expect(reader.tracking.listPages.size).toBeGreaterThan(0);
  expect(reader.tracking.lookups.size).toBeGreaterThan(0);
});
