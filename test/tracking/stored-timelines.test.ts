/**
 * Stored milestone renderings (the `milestones_*` columns of tracked rows, storage/schema/tracking.ts),
 * against the sandbox carrier: each refresh stores every tracked record's milestones exactly as a
 * reader would derive them from the events, reads answer the stored text, and a rendering that no
 * longer fits its record (events written since, another places build, other parked boxes) is never
 * served.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { simulateVoyage } from "../../ingest/sandbox/simulate.ts";
import { loadWorld, type SandboxWorld } from "../../ingest/sandbox/world.ts";
import { milestonesJson, parkedList, renderForStore, storedFits } from "../../ingest/tracking/timeline.ts";
import type { TrackedRow } from "../../storage/trackings.ts";
import { PARKED_REASON } from "../../storage/trackings.ts";
import { type CompatWorld, compatWorld, type Json, oceanCall, oceanTenant } from "../compat/setup.ts";

const H = 3_600_000;
const START = "2026-11-21T12:00:00Z";
const BL = "MEDU200142542"; // the MSC demo B/L: four boxes, all picked up by START
let w: CompatWorld;
let world: SandboxWorld;

beforeAll(async () => {
  w = await compatWorld({ start: START });
  world = await loadWorld();
});
afterAll(() => w.close());

const tenant = (name: string, plan: Parameters<typeof oceanTenant>[2]) => oceanTenant(w, name, plan);
const call = (key: string, path: string, init: RequestInit = {}) => oceanCall(w, key, path, init);

const ocean = () => w.p.tracking.ocean;
const views = () => w.p.tracking.views;
const rowsOf = async (orgId: string): Promise<TrackedRow[]> => {
  const { tracked } = w.p.storage.t;
  const ids = await w.p.storage.db.select({ id: tracked.id }).from(tracked).where(eq(tracked.orgId, orgId));
  return Promise.all(ids.map(async ({ id }) => (await ocean().get(orgId, id))!));
};

/** The organisation's root record of `identifier` once its first carrier fetch ended (bounded wait). */
async function settled(orgId: string, identifier: string): Promise<TrackedRow | undefined> {
  let root: TrackedRow | undefined;
  for (let i = 0; i < 500 && (!root || root.adding); i++) {
    root = (await rowsOf(orgId)).find((r) => r.identifier === identifier && r.parentId === null);
    if (!root || root.adding) await Bun.sleep(10);
  }
  return root;
}

/** The record's milestones derived from its root's events now, as the spec's JSON. */
const derived = async (row: TrackedRow) => milestonesJson(await views().timeline(row), views().places);

/** The parked boxes a reader of `row` renders its milestones for (parkedList). */
async function parkedOf(row: TrackedRow): Promise<string> {
  return row.identifierType === "container_id"
    ? ""
    : parkedList(
        (await views().children(row.id))
          .filter((c) => c.archivedReason === PARKED_REASON)
          .map((c) => c.containerNumber),
      );
}

/** The parked boxes a record's stored rendering was made for (renderForStore: after its answers, a line on). */
async function parkedNamed(id: string): Promise<string> {
  const { of } = (await w.p.storage.timelines.get(id))!;
  return (JSON.parse(of.slice(of.indexOf("\n") + 1)) as [number, string | null, string])[2];
}

/** Whether a reader of `row` takes a rendering stored with `of` as its own (storedFits). */
const readerAccepts = async (row: TrackedRow, of: string) =>
  storedFits(of, views().places, row.containerNumber, await parkedOf(row));

/** What a refresh would store for `row` now, its text replaced by `json`. */
const storedAs = async (row: TrackedRow, json: string, box = row.containerNumber) => ({
  of: renderForStore(await views().timeline(row), views().places, box, await parkedOf(row)).of,
  json,
});

/** Every tracked (not parked) record of the organisation has a stored rendering its reader accepts, equal to the derivation. */
async function expectStoredAsDerived(orgId: string): Promise<number> {
  let checked = 0;
  for (const row of await rowsOf(orgId)) {
    if (row.archivedReason === PARKED_REASON) continue;
    const stored = await w.p.storage.timelines.get(row.id);
    expect([row.identifier, stored !== undefined && (await readerAccepts(row, stored.of))]).toEqual([
      row.identifier,
      true,
    ]);
    expect([row.identifier, stored?.json]).toEqual([row.identifier, await derived(row)]);
    checked++;
  }
  return checked;
}

/**
 * The single reads' one statement (readOwn, readFirstActive) gives each record of the organisation
 * as the separate reads do: the row, its stored rendering or null, and whether the organisation
 * has free-time terms, both without terms and with one on file for the while, while another
 * organisation has terms throughout (its terms are not this one's); the key reads and the list
 * page's keys tell the same. Another organisation reads none of the records. Returns how many
 * carried a stored rendering.
 */
async function expectReadsAsParts(orgId: string): Promise<number> {
  const { trackings, timelines, terms } = w.p.storage;
  expect(await terms.forOrg(orgId)).toEqual([]);
  const other = await w.p.accounts.createOrg("other terms", { paid: true });
  const otherTerm = {
    id: crypto.randomUUID(),
    orgId: other.id,
    carrierCode: null,
    portUnlocode: null,
    equipment: null,
    freeDays: 7,
    dailyRateUsd: 50,
    createdAt: new Date(w.clock.t).toISOString(),
  };
  await terms.add(otherTerm);
  let withRendering = 0;
  for (const orgHasTerms of [false, true]) {
    const term = { id: crypto.randomUUID(), orgId, carrierCode: null, portUnlocode: null, equipment: null };
    if (orgHasTerms) {
      await terms.add({
        ...term,
        freeDays: 4,
        dailyRateUsd: 90,
        createdAt: new Date(w.clock.t).toISOString(),
      });
    }
    withRendering = 0;
    for (const row of await rowsOf(orgId)) {
      const stored = (await timelines.get(row.id)) ?? null;
      if (stored) withRendering++;
      expect(await trackings.readOwn(orgId, row.id)).toEqual({ row, stored, orgHasTerms });
      expect((await trackings.keyOf(orgId, row.id))?.orgHasTerms).toBe(orgHasTerms);
      expect(await trackings.readOwn(crypto.randomUUID(), row.id)).toBeUndefined();
      for (const name of [row.identifier, row.containerNumber]) {
        if (!name) continue;
        const first = await trackings.firstActiveCarrying(orgId, name);
        const firstStored = first ? ((await timelines.get(first.id)) ?? null) : null;
        expect(await trackings.readFirstActive(orgId, name)).toEqual(
          first && { row: first, stored: firstStored, orgHasTerms },
        );
        expect(await trackings.readFirstActive(crypto.randomUUID(), name)).toBeUndefined();
      }
    }
    const page = await trackings.listKeys(orgId, { archived: false, limit: 5, tags: [] });
    expect(page.keys.length).toBeGreaterThan(0);
    expect(page.orgHasTerms).toBe(orgHasTerms);
    if (orgHasTerms) expect(await terms.remove(orgId, term.id)).toBe(true);
  }
  expect(await terms.remove(other.id, otherTerm.id)).toBe(true);
  return withRendering;
}

/** The lookup record's milestones (by UUID), and each box's for a B/L or booking. */
async function answered(key: string, id: string) {
  const res = await call(key, `/v1/containers/${id}`);
  expect(res.status).toBe(200);
  const data = res.body.data as Json;
  const kids = (data.child_containers ?? {}) as Record<string, Json>;
  return {
    events: data.events,
    kids: Object.fromEntries(Object.entries(kids).map(([n, c]) => [n, c.events])),
  };
}

const ref = "MAEU0000008";

test("every refresh stores each tracked record's milestones as a reader derives them from the events", async () => {
  const voyage = simulateVoyage(ref, { world })!;
  const box = voyage.containers.find((c) => c.number === ref)!;
  await w.at(Date.parse(voyage.bookedAt) + 6 * H);
  const { orgId, key } = await tenant("stored timelines", { paid: true });
  const added = await call(key, "/v1/containers", {
    method: "POST",
    body: JSON.stringify({ identifier: ref, identifier_type: "container_id" }),
  });
  expect(added.status).toBe(201);
  const id = (added.body.data as Json).id as string;
  const seen = new Set<string>();
  for (const m of ["gateIn", "loaded", "discharged", "gateOut"] as const) {
    await w.at(Date.parse(box.milestones[m]) + 3 * H);
    await ocean().pollDue();
    expect(await expectStoredAsDerived(orgId)).toBe(1);
    const row = (await ocean().get(orgId, id))!;
    const { events } = await answered(key, id);
    expect(events).toEqual(JSON.parse(await derived(row)));
    seen.add(JSON.stringify(events));
  }
  // The timeline grew along the voyage: each step stored a new rendering.
  expect(seen.size).toBe(4);
});

test("a B/L with parked boxes: its rendering names them, and each box taken up gets its own", async () => {
  await w.at(START);
  const { orgId, key } = await tenant("parked boxes", { plan: "free", containerSlots: 2 });
  const add = (identifier: string) =>
    call(key, "/v1/containers", {
      method: "POST",
      body: JSON.stringify({ identifier, identifier_type: "container_id" }),
    });
  const held = await add("HLCU4276280");
  expect(held.status).toBe(201);
  expect((await add("HLCU5226534")).status).toBe(201);
  // The B/L added while its carrier is down (201 with a warning): its boxes arrive at a later poll,
  // which parks those beyond the free slots (a registration's first answer refuses them all).
  w.proxy.fail = { status: 503 };
  try {
    const bl = { identifier: BL, identifier_type: "bill_of_lading" };
    expect((await call(key, "/v1/containers", { method: "POST", body: JSON.stringify(bl) })).status).toBe(
      201,
    );
  } finally {
    w.proxy.fail = null;
  }
  await w.at(w.clock.t + 2 * 60_000); // past the first back-off
  await ocean().pollDue();
  const root = await settled(orgId, BL);
  expect(root?.adding).toBe(false);
  // Every box parked: the B/L's rendering names all four and leaves their equipment events out.
  expect(await expectStoredAsDerived(orgId)).toBe(3);
  // The parked boxes have none: their single reads say so.
  expect(await expectReadsAsParts(orgId)).toBe(3);
  expect((await parkedNamed(root!.id)).split(",")).toHaveLength(4);

  // A slot frees up: the recheck takes one box up; the B/L's rendering now names three.
  await call(key, `/v1/containers/${(held.body.data as Json).id}`, { method: "DELETE" });
  expect((await call(key, `/v1/containers/${root!.id}/recheck`, { method: "POST" })).status).toBe(200);
  // The B/L, its box taken up, the other held box, and the deleted one (its reads still answer).
  expect(await expectStoredAsDerived(orgId)).toBe(4);
  expect((await parkedNamed(root!.id)).split(",")).toHaveLength(3);
  const kids = await views().children(root!.id);
  const { events, kids: boxes } = await answered(key, root!.id);
  expect(events).toEqual(JSON.parse(await derived((await ocean().get(orgId, root!.id))!)));
  for (const kid of kids)
    expect([kid.containerNumber, boxes[kid.containerNumber!]]).toEqual([
      kid.containerNumber,
      JSON.parse(await derived(kid)),
    ]);
  expect(
    kids.filter((k) => k.archivedReason === PARKED_REASON).map((k) => boxes[k.containerNumber!]),
  ).toEqual([[], [], []]);
});

test("reads answer the stored rendering while it fits the record, whatever else the row's writes change", async () => {
  const { orgId, key } = await tenant("stored reads", { paid: true });
  const added = await call(key, "/v1/containers", {
    method: "POST",
    body: JSON.stringify({ identifier: ref, identifier_type: "container_id" }),
  });
  const id = (added.body.data as Json).id as string;
  const row = (await ocean().get(orgId, id))!;
  const truth = JSON.parse(await derived(row)) as Json[];
  expect(truth.length).toBeGreaterThan(2);
  // A rendering that says something the events do not, under the key this record's readers accept.
  const marked = JSON.stringify(
    truth.map((m, i) => (i === 0 ? { ...m, label: "from the stored rendering" } : m)),
  );
  const moveVersion = (tags: string[]) => w.p.storage.trackings.update(id, { tags });
  await w.p.storage.timelines.put(id, await storedAs(row, marked));
  await moveVersion(["a"]);
  expect((await answered(key, id)).events).toEqual(JSON.parse(marked));

  // Made when a port it names had another name: derived again instead.
  const { places } = views();
  const renamed = { ...places, name: (l: string) => `${places.name(l)} (before)` };
  await w.p.storage.timelines.put(id, {
    of: renderForStore(await views().timeline(row), renamed, row.containerNumber, "").of,
    json: marked,
  });
  await moveVersion(["b"]);
  expect((await answered(key, id)).events).toEqual(truth);
  // Stored before renderings named their answers (they named the data build): derived again.
  await w.p.storage.timelines.put(id, {
    of: JSON.stringify(["a build", row.containerNumber, ""]),
    json: marked,
  });
  await moveVersion(["c"]);
  expect((await answered(key, id)).events).toEqual(truth);
  // Made for another box: derived again too.
  await w.p.storage.timelines.put(id, await storedAs(row, marked, "MSCU1234565"));
  await moveVersion(["d"]);
  expect((await answered(key, id)).events).toEqual(truth);
});

test("an event written drops the renderings of its root and boxes in its transaction", async () => {
  await w.at(START);
  const { orgId, key } = await tenant("dropped", { paid: true });
  expect((await call(key, `/v1/containers/lookup/${BL}`)).status).toBe(202);
  const root = await settled(orgId, BL);
  const tree = (await rowsOf(orgId)).map((r) => r.id);
  expect(tree).toHaveLength(5);
  const stored = async () =>
    (await Promise.all(tree.map((t) => w.p.storage.timelines.get(t)))).filter(Boolean).length;
  expect(await stored()).toBe(5);
  const [first] = await w.p.storage.events.forRecord(root!.id);
  const extra = {
    ...(first!.payload as Json),
    eventID: crypto.randomUUID(),
    eventCreatedDateTime: new Date(w.clock.t).toISOString(),
  };

  // Rolled back with the event: the renderings stay.
  const failed = w.p.storage.transaction(async (tx) => {
    await tx.events.insert(root!.id, extra.eventID as string, extra, new Date(w.clock.t).toISOString());
    expect(await tx.timelines.get(root!.id)).toBeUndefined();
    throw new Error("rolled back");
  });
  expect(failed).rejects.toThrow("rolled back");
  await failed.catch(() => {});
  expect(await stored()).toBe(5);

  await w.p.storage.events.insert(
    root!.id,
    extra.eventID as string,
    extra,
    new Date(w.clock.t).toISOString(),
  );
  expect(await stored()).toBe(0);
  expect(await expectReadsAsParts(orgId)).toBe(0);
  // Read now, the milestones are derived from the events, the new one among them.
  const { events, kids } = await answered(key, root!.id);
  expect(events).toEqual(JSON.parse(await derived((await ocean().get(orgId, root!.id))!)));
  for (const kid of await views().children(root!.id))
    expect(kids[kid.containerNumber!]).toEqual(JSON.parse(await derived(kid)));
  // The next refresh stores them again.
  expect((await call(key, `/v1/containers/${root!.id}/recheck`, { method: "POST" })).status).toBe(200);
  expect(await expectStoredAsDerived(orgId)).toBe(5);
});
