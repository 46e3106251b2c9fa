/**
 * Real voyages through the sandbox carrier over HTTP (its own process, manual clock): the tracked
 * record, the lookup record, the DCSA event feed and the outbox rows, from booking to empty return.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { withCheckDigit } from "../../ingest/iso6346.ts";
import { lesseeOf } from "../../ingest/sandbox/references.ts";
import { type SimulatedVoyage, simulateVoyage } from "../../ingest/sandbox/simulate.ts";
import { loadWorld, SANDBOX_SCACS, type SandboxWorld } from "../../ingest/sandbox/world.ts";
import { errorCode } from "../helpers/envelopes.ts";
import { bearer, ManualClock, makePlatform, type TestPlatform } from "../helpers/platform.ts";
import { type RunningSandbox, startSandbox } from "../sandbox/spawn.ts";
import { schemaProblems, storedEvents } from "../webhooks/event-schemas.ts";

type Json = Record<string, unknown> & { data: Record<string, unknown> & { items?: Json[] } };

/** Every field of the spec's tracked record (list item), in its table order. */
const TRACKED_FIELDS = [
  "id",
  "org_id",
  "identifier",
  "identifier_type",
  "carrier_code",
  "carrier_name",
  "tags",
  "status",
  "eta",
  "eta_is_estimated",
  "planned_departure_at",
  "current_vessel_imo",
  "poll_priority",
  "demurrage_at_risk",
  "demurrage_accrued_usd",
  "demurrage_last_free_day",
  "customs_hold_reason",
  "customs_hold_since",
  "origin_unlocode",
  "destination_unlocode",
  "destination_name",
  "container_size",
  "equipment_type",
  "iso_type_code",
  "equipment_owner",
  "equipment_lessor",
  "lessee_name",
  "carrier_hint_code",
  "lessor_status",
  "lessor_checked_at",
  "connector_status",
  "connector_notify_requested_at",
  "redelivery_reference",
  "redelivery_date",
  "redelivery_location",
  "redelivery_yard",
  "lessor_contract_number",
  "lessor_contract_type",
  "equipment_manufacturer",
  "last_polled_at",
  "added_at",
  "archived_at",
  "archived_reason",
  "unresolvable_since",
  "unresolved_reason",
  "route_alert",
  "source",
  "delay_bars",
  "route_ports",
  "is_demo",
  "vessel_position",
];
const LOOKUP_FIELDS = [
  "id",
  "container_number",
  "bl_number",
  "booking_number",
  "identifier",
  "identifier_type",
  "container_size",
  "equipment_type",
  "iso_type_code",
  "child_containers",
  "status",
  "route_alert",
  "carrier",
  "vessel_name",
  "vessel_imo",
  "vessel_position",
  "origin_name",
  "destination_name",
  "eta",
  "eta_confidence_pct",
  "last_updated_at",
  "last_updated_source",
  "last_polled_at",
  "last_ais_fix_at",
  "field_provenance",
  "demurrage_free_days_left",
  "ai_narrative",
  "events",
];
const MILESTONE_FIELDS = [
  "type",
  "classifier",
  "is_actual",
  "label",
  "timestamp",
  "event_local_datetime",
  "utc_offset_minutes",
  "event_timezone",
  "location",
];

let sandbox: RunningSandbox;
let world: SandboxWorld;
let clock: ManualClock;
let p: TestPlatform;
let key: string;
let orgId: string;

beforeAll(async () => {
  const start = "2026-08-01T00:00:00Z";
  sandbox = await startSandbox({ SANDBOX_START: start });
  world = await loadWorld();
  clock = new ManualClock(Date.parse(start));
  p = await makePlatform(
    {
      carriers: SANDBOX_SCACS.map((scac) => ({ scac, baseUrl: sandbox.carrierUrl(scac) })),
      lessors: [{ name: "sandbox lessor", baseUrl: `${sandbox.url}/lessor` }],
    },
    clock.now,
  );
  const org = await p.accounts.createOrg("voyages", { paid: true, rateLimit: 1_000_000 });
  await p.accounts.setEntitlement(org.id, "ocean", null);
  orgId = org.id;
  key = (await p.accounts.createKey(org.id, "ocean")).key;
});
afterAll(async () => {
  await sandbox.stop();
  await p.close();
});

/** Moves both clocks (ours and the carrier's) and lets the poller run. */
async function at(instant: string | number) {
  clock.t = typeof instant === "number" ? instant : Date.parse(instant);
  await sandbox.setClock({ now: new Date(clock.t).toISOString() });
  await p.tracking.ocean.pollDue();
}
const H = 3_600_000;
const get = async (path: string) => {
  const res = await p.call("ocean", path, bearer(key));
  return { status: res.status, headers: res.headers, body: (await res.json()) as Json };
};
const add = async (
  identifier: string,
  identifier_type: string,
  extra: Record<string, unknown> = {},
  apiKey = key,
) => {
  const res = await p.call("ocean", "/v1/containers", {
    method: "POST",
    body: JSON.stringify({ identifier, identifier_type, ...extra }),
    ...bearer(apiKey, { "content-type": "application/json" }),
  });
  return { status: res.status, body: (await res.json()) as Json };
};
const outboxOf = async (containerNumber: string) => {
  const { outbox } = p.storage.t;
  const rows = await p.storage.db.select().from(outbox).orderBy(outbox.seq);
  return rows.filter((o) => (o.data as { container_number?: string }).container_number === containerNumber);
};
/** How many tracking records the platform holds. */
const trackedCount = async () => (await p.storage.db.select().from(p.storage.t.tracked)).length;
const voyage = (ref: string): SimulatedVoyage => simulateVoyage(ref, { world })!;

describe("a container from booking to empty return", () => {
  const ref = "MAEU0000008";
  test("status moves forward at each milestone; records, feed and outbox agree", async () => {
    const v = voyage(ref);
    const box = v.containers.find((c) => c.number === ref)!;
    await at(Date.parse(v.bookedAt) + 6 * H);
    const added = await add(ref, "container_id", { tags: ["demo", "asia"] });
    expect(added.status).toBe(201);
    expect(added.body.data).toMatchObject({ identifier: ref, carrier_code: "MAEU" });
    const id = added.body.data.id as string;

    const seen: string[] = [];
    for (const m of ["gateIn", "loaded", "discharged", "gateOut", "emptyReturn"] as const) {
      await at(Date.parse(box.milestones[m]) + 3 * H);
      seen.push((await p.tracking.ocean.get(orgId, id))!.status);
      if (m === "loaded") {
        const list = await get("/v1/containers?tags=asia");
        const item = list.body.data.items![0]!;
        expect(Object.keys(item)).toEqual(TRACKED_FIELDS);
        expect(item).toMatchObject({
          status: "in_transit",
          origin_unlocode: v.origin.locode,
          destination_unlocode: v.destination.locode,
          current_vessel_imo: v.legs[0]!.vessel.imo,
          poll_priority: "transit",
          is_demo: true, // a documented sample reference
          container_size: expect.any(String),
        });
        expect(item.delay_bars).toHaveLength(5);
        const lookup = await get(`/v1/containers/lookup/${ref}`);
        expect(Object.keys(lookup.body.data)).toEqual(LOOKUP_FIELDS);
        const events = lookup.body.data.events as Json[];
        for (const e of events) expect(Object.keys(e)).toEqual(MILESTONE_FIELDS);
        const times = events.map((e) => Date.parse(e.timestamp as string));
        expect(times).toEqual([...times].sort((a, b) => a - b));
        const loadEvent = events.find((e) => e.type === "LOAD" && e.is_actual)!;
        expect(loadEvent.event_timezone).toBe("Europe/Amsterdam"); // loaded at Rotterdam in September
        expect(loadEvent.utc_offset_minutes).toBe(120);
        expect(
          events.some((e) => e.is_actual === false && /\((planned|estimated)\)$/.test(e.label as string)),
        ).toBe(true);
      }
    }
    expect(seen).toEqual(["in_transit", "in_transit", "discharged", "delivered", "returned_empty"]);

    const done = (await p.tracking.ocean.get(orgId, id))!;
    expect(done.archivedAt).not.toBeNull();
    expect(done.archivedReason).toMatch(/completed/);
    const archived = await get("/v1/containers?archived=true");
    expect(archived.body.data.items!.map((i) => i.id)).toContain(id);

    const raised = (await outboxOf(ref)).map((o) => o.type);
    // One departure per vessel the box rides (Rotterdam, then the transshipment at Shanghai).
    const rides = v.legs.filter((l) => l.containers.includes(ref)).length;
    expect(rides).toBe(2);
    expect(raised.filter((t) => t === "vessel_departed")).toHaveLength(rides);
    expect(raised.filter((t) => t === "container_arrived")).toHaveLength(1);
    expect(raised.filter((t) => t === "container_delivered")).toHaveLength(1);
    expect(raised).not.toContain("customs_hold");
    for (const row of await outboxOf(ref)) {
      const data = row.data as Record<string, unknown>;
      expect(row.orgId).toBe(orgId);
      if (row.type !== "eta_changed") {
        expect(data.event_date_time).toMatch(/Z$/);
        expect(data.event_timezone).toEqual(expect.any(String));
        expect(typeof data.utc_offset_minutes).toBe("number");
      }
    }

    // The DCSA feed: a bare array, pages chained by Next-Page-Cursor, nothing twice.
    const ids: string[] = [];
    let path: string | null = `/v2/events?equipmentReference=${ref}&limit=7`;
    while (path) {
      const page = await p.call("ocean", path, bearer(key));
      expect(page.status).toBe(200);
      const body = (await page.json()) as Array<{ eventID: string }>;
      expect(Array.isArray(body)).toBe(true);
      ids.push(...body.map((e) => e.eventID));
      const cursor = page.headers.get("next-page-cursor");
      expect(page.headers.get("next-page") !== null).toBe(cursor !== null);
      path = cursor ? `/v2/events?equipmentReference=${ref}&limit=7&cursor=${cursor}` : null;
    }
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBeGreaterThan(7);
  });
});

describe("a bill of lading and a booking resolve to several boxes", () => {
  test.each([
    ["MAEU200015838", "bill_of_lading", "bl_number"],
    ["MAEU200007919", "booking", "booking_number"],
  ])("%s (%s)", async (ref, type, field) => {
    const v = voyage(ref);
    await at(Date.parse(v.bookedAt) + 30 * 24 * H);
    const added = await add(ref, type);
    expect(added.status).toBe(201);
    const lookup = await get(`/v1/containers/lookup/${ref}`);
    expect(lookup.status).toBe(200);
    const data = lookup.body.data;
    expect(data[field]).toBe(ref);
    expect(data.container_number).toBeNull();
    const children = data.child_containers as Record<string, { events: Json[]; status: string }>;
    expect(Object.keys(children).sort()).toEqual(v.containers.map((c) => c.number).sort());
    for (const [number, child] of Object.entries(children)) {
      expect(child.events.length).toBeGreaterThan(0);
      const own = await get(`/v1/containers/lookup/${number}`);
      expect(own.body.data.container_number).toBe(number);
      expect(own.body.data.child_containers).toBeNull();
    }
    const feed = (await (
      await p.call(
        "ocean",
        `/v2/events?${type === "booking" ? "carrierBookingReference" : "transportDocumentReference"}=${ref}`,
        bearer(key),
      )
    ).json()) as unknown[];
    expect(feed.length).toBeGreaterThan(0);
  });
});

describe("events at the right moments", () => {
  test("a customs hold appears with its reason, raises customs_hold once, and clears", async () => {
    const ref = "MAEU1900690";
    const v = voyage(ref);
    const hold = v.containers.find((c) => c.number === ref)!.customsHold!;
    await at(Date.parse(hold.from) - 48 * H);
    const { body } = await add(ref, "container_id");
    const id = body.data.id as string;
    await at(Date.parse(hold.from) + 2 * H);
    const during = (await p.tracking.ocean.get(orgId, id))!;
    expect(during.status).toBe("customs_hold");
    expect(during.customsHoldReason).toContain("X-ray");
    expect(during.customsHoldReason).not.toMatch(/^customs hold/i);
    expect(during.customsHoldSince).not.toBeNull();
    // The label says "Customs hold" once, in the timeline and in the webhook.
    const read = (await (await p.call("ocean", `/v1/containers/${id}`, bearer(key))).json()) as Json;
    const labels = ((read.data as Json).events as Json[]).map((e) => e.label as string);
    const holdLabel = labels.find((l) => l.startsWith("Customs hold"))!;
    expect(holdLabel).toMatch(/^Customs hold: X-ray/);
    expect(holdLabel).not.toMatch(/Customs hold.*Customs hold/i);
    const raised = (await outboxOf(ref)).find((o) => o.type === "customs_hold")!;
    expect(JSON.stringify(raised.data)).not.toMatch(/Customs hold: Customs hold/i);
    await at(Date.parse(hold.to) + 2 * H);
    const after = (await p.tracking.ocean.get(orgId, id))!;
    expect(after.status).not.toBe("customs_hold");
    expect(after.customsHoldReason).toBeNull();
    expect((await outboxOf(ref)).filter((o) => o.type === "customs_hold")).toHaveLength(1);
  });

  test("a transshipment with a missed connection sets route_alert and raises container_misrouted", async () => {
    const ref = "MRKU3405304";
    const v = voyage(ref);
    const firstLeg = v.legs[0]!;
    await at(Date.parse(firstLeg.departure) + 24 * H);
    const { body } = await add(ref, "container_id");
    const id = body.data.id as string;
    const rolled = v.legs.find((l) => l.unplanned)!;
    await at(Date.parse(rolled.departure) + 6 * H);
    const row = (await p.tracking.ocean.get(orgId, id))!;
    expect(row.routeAlert).toBe("missed_connection");
    // The single read says it as the list item does.
    const lookup = await get(`/v1/containers/lookup/${ref}`);
    expect(lookup.body.data.route_alert).toBe("missed_connection");
    const list = await get(`/v1/containers?limit=100`);
    expect(list.body.data.items!.find((i) => i.id === id)!.route_alert).toBe("missed_connection");
    expect(row.routePorts?.map((r) => r.role)).toEqual(["origin", "transshipment", "destination"]);
    const misrouted = (await outboxOf(ref)).filter((o) => o.type === "container_misrouted");
    expect(misrouted).toHaveLength(1);
    expect((misrouted[0]!.data as { route_alert: string }).route_alert).toBe("missed_connection");
  });

  test("an ETA change raises eta_changed with the previous ETA", async () => {
    const ref = "MSAU2375830";
    const v = voyage(ref);
    // Added after departure (the first estimate is out), then a later estimate moves the ETA.
    await at(Date.parse(v.legs[0]!.departure) + 2 * H);
    const { body } = await add(ref, "container_id");
    const id = body.data.id as string;
    const before = (await p.tracking.ocean.get(orgId, id))!.eta;
    expect(before).not.toBeNull();
    await at(Date.parse(v.legs[0]!.departure) + 20 * 24 * H);
    const after = (await p.tracking.ocean.get(orgId, id))!.eta;
    expect(after).not.toBe(before);
    const changed = (await outboxOf(ref)).filter((o) => o.type === "eta_changed");
    expect(changed.length).toBeGreaterThan(0);
    expect((changed[0]!.data as { previous_eta: string }).previous_eta).toBe(before!);
  });
});

describe("validation, resolution and errors", () => {
  test("an invalid check digit: 400 with a suggestion on add, REFERENCE_NOT_RESOLVABLE on lookup, a hint on the public lookup", async () => {
    // CSQU3054383 is ISO 6346's own example; a 4 in the last place is a typo.
    const bad = await add("CSQU3054384", "container_id");
    expect(bad.status).toBe(400);
    expect(errorCode(bad.body)).toBe("VALIDATION_ERROR");
    expect(JSON.stringify(bad.body)).toContain("did you mean CSQU3054383");
    const lookup = await get("/v1/containers/lookup/CSQU3054384");
    expect(lookup.status).toBe(404);
    expect(errorCode(lookup.body)).toBe("REFERENCE_NOT_RESOLVABLE");
    const open = await p.call("ocean", "/public/v1/lookup/CSQU3054384");
    expect(open.status).toBe(400);
    const body = (await open.json()) as Json;
    expect(Object.keys(body).sort()).toEqual(["message", "ok", "request_id"]);
    expect(body.message).toContain("did you mean CSQU3054383");
  });

  test("a line without a connector: 201 with a warning and connector_status; a lessor box needs a carrier_code", async () => {
    const evergreen = await add(withCheckDigit("EGHU123456"), "container_id");
    expect(evergreen.status).toBe(201);
    expect(evergreen.body.warning).toMatch(/connector/);
    const row = (await p.tracking.ocean.get(orgId, evergreen.body.data.id as string))!;
    expect(row.connectorStatus).toBe("not_connected");
    // AAAU (Asia Container) is not a line and no connected lessor knows its boxes.
    const unleased = withCheckDigit("AAAU123456");
    const lessor = await add(unleased, "container_id");
    expect(lessor.status).toBe(404);
    expect(errorCode(lessor.body)).toBe("REFERENCE_NOT_RESOLVABLE");
    const hinted = await add(unleased, "container_id", { carrier_code: "MSCU" });
    expect(hinted.status).toBe(201);
  });

  test("wrong bodies are VALIDATION_ERROR and change nothing", async () => {
    const before = await trackedCount();
    for (const body of [
      { identifier: "", identifier_type: "container_id" },
      { identifier: "X".repeat(51), identifier_type: "container_id" },
      { identifier: "MSCU1234565", identifier_type: "pallet" },
      { identifier: "MSCU1234565", identifier_type: "container_id", carrier_code: "M" },
      {
        identifier: "MSCU1234565",
        identifier_type: "container_id",
        tags: Array.from({ length: 21 }, (_, i) => `t${i}`),
      },
    ]) {
      const res = await add(body.identifier, body.identifier_type, body);
      expect(res.status).toBe(400);
      expect(errorCode(res.body)).toBe("VALIDATION_ERROR");
    }
    expect(await trackedCount()).toBe(before);
  });

  test("an unknown reference on lookup registers it: 202 TRACKING_IN_PROGRESS, then the record", async () => {
    const ref = "CMAU1663002";
    const first = await p.call("ocean", `/v1/containers/lookup/${ref}`, bearer(key));
    expect(first.status).toBe(202);
    const body = (await first.json()) as {
      ok: boolean;
      error: { code: string; retry_after_seconds: number };
    };
    expect(body.ok).toBe(false);
    expect(body.error.code).toBe("TRACKING_IN_PROGRESS");
    expect(body.error.retry_after_seconds).toBeGreaterThan(0);
    const { shipmentUsage } = p.storage.t;
    expect(
      await p.storage.db.select().from(shipmentUsage).where(eq(shipmentUsage.identifier, ref)),
    ).toHaveLength(1);
    let status = 202;
    for (let i = 0; i < 50 && status === 202; i++) {
      await Bun.sleep(20);
      status = (await get(`/v1/containers/lookup/${ref}`)).status;
    }
    expect(status).toBe(200);
  });

  test("a lookup of a box whose cycle already ended registers it once, then answers the completed record", async () => {
    const ref = withCheckDigit("MAEU000002");
    const box = voyage(ref).containers.find((c) => c.number === ref)!;
    const resume = clock.t;
    try {
      await at(Date.parse(box.milestones.emptyReturn) + 3 * H);
      const before = await trackedCount();
      let res = await get(`/v1/containers/lookup/${ref}`);
      expect(res.status).toBe(202);
      // The first fetch finds the empty returned and closes the record out; the polls that follow
      // (the 202's contract) meet that record, not a registration of their own.
      for (let i = 0; i < 50 && res.status === 202; i++) {
        await Bun.sleep(20);
        res = await get(`/v1/containers/lookup/${ref}`);
      }
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ container_number: ref, status: "returned_empty" });
      const done = (await p.tracking.ocean.get(orgId, res.body.data.id as string))!;
      expect(done.archivedReason).toMatch(/^completed/);
      for (let i = 0; i < 3; i++) {
        const again = await get(`/v1/containers/lookup/${ref}`);
        expect(again.status).toBe(200);
        expect(again.body.data.id).toBe(done.id);
      }
      expect(await trackedCount()).toBe(before + 1);
    } finally {
      await at(resume);
    }
  });

  test("the public lookup answers live from the carrier without storing anything", async () => {
    const before = await trackedCount();
    const res = await p.call("ocean", "/public/v1/lookup/HLCU4276280");
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      ok: boolean;
      data: { carrier: string; status: string; events: Json[] };
    };
    expect(body.ok).toBe(true);
    expect(body.data.carrier).toBe("Hapag-Lloyd");
    expect(body.data.events.length).toBeGreaterThan(0);
    expect(Object.keys(body.data.events[0]!)).toEqual(MILESTONE_FIELDS);
    expect(await trackedCount()).toBe(before);
    const unknownLine = await p.call("ocean", `/public/v1/lookup/${withCheckDigit("EGHU765432")}`);
    expect(unknownLine.status).toBe(404);
    expect(Object.keys((await unknownLine.json()) as Json).sort()).toEqual(["message", "ok", "request_id"]);
  });

  test("recheck is limited to once per 10 minutes per record", async () => {
    const { body } = await add("HLCU1662993", "container_id");
    const id = body.data.id as string;
    const first = await p.call("ocean", `/v1/containers/${id}/recheck`, { method: "POST", ...bearer(key) });
    expect(first.status).toBe(200);
    expect(((await first.json()) as Json).data.source).toBe("direct_carrier");
    const second = await p.call("ocean", `/v1/containers/${id}/recheck`, { method: "POST", ...bearer(key) });
    expect(second.status).toBe(429);
    const tooSoon = (await second.json()) as Json;
    expect(errorCode(tooSoon)).toBe("RATE_LIMITED");
    // The header says what the body says.
    const wait = (tooSoon.error as Json).retry_after_seconds as number;
    expect(wait).toBeGreaterThan(0);
    expect(second.headers.get("retry-after")).toBe(String(wait));
  });

  test("another account's record answers 404 everywhere; DELETE archives", async () => {
    const { body } = await add("ONEU1425428", "container_id");
    const id = body.data.id as string;
    const other = await p.accounts.createOrg("other");
    const otherKey = (await p.accounts.createKey(other.id, "ocean")).key;
    for (const [method, path] of [
      ["GET", `/v1/containers/${id}`],
      ["DELETE", `/v1/containers/${id}`],
      ["POST", `/v1/containers/${id}/recheck`],
    ] as const) {
      const res = await p.call("ocean", path, { method, ...bearer(otherKey) });
      expect([path, res.status]).toEqual([path, 404]);
    }
    expect(
      ((await (await p.call("ocean", "/v1/containers", bearer(otherKey))).json()) as Json).data.items,
    ).toEqual([]);
    const del = await p.call("ocean", `/v1/containers/${id}`, { method: "DELETE", ...bearer(key) });
    expect(((await del.json()) as Json).data).toMatchObject({ archived_reason: "deleted" });
    expect((await add("ONEU1425428", "container_id")).status).toBe(201); // archived: may be tracked again
  });

  test("list: page size limits, cursor pages without overlap, status filter", async () => {
    expect((await get("/v1/containers?limit=501")).status).toBe(400);
    expect((await get("/v1/containers?cursor=nonsense")).status).toBe(400);
    const all = (await get("/v1/containers?limit=500")).body.data.items!.map((i) => i.id);
    const paged: unknown[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: Json } = await get(`/v1/containers?limit=2${cursor ? `&cursor=${cursor}` : ""}`);
      paged.push(...page.body.data.items!.map((i) => i.id));
      cursor = page.body.data.next_cursor as string | null;
      expect(page.body.data.has_more).toBe(cursor !== null);
    } while (cursor);
    expect(paged).toEqual(all);
    const held = (await get("/v1/containers?status=in_transit")).body.data.items!;
    expect(held.every((i) => i.status === "in_transit")).toBe(true);
    const summary = await get("/v1/portfolio/summary");
    const rows = summary.body.data.items as Json[];
    expect(rows.every((r) => /^[A-Z]{4}\d{7}$/.test(r.id as string))).toBe(true);
  });
});

describe("quotas and concurrency", () => {
  test("402 codes: container slots (naming the plan), unique shipments, pay-as-you-go cap; nothing charged", async () => {
    const org = await p.accounts.createOrg("small", { containerSlots: 1 });
    await p.accounts.setEntitlement(org.id, "ocean", null);
    const k = (await p.accounts.createKey(org.id, "ocean")).key;
    expect((await add("HLCU4276280", "container_id", {}, k)).status).toBe(201);
    const full = await add("HLCU5226534", "container_id", {}, k);
    expect(full.status).toBe(402);
    expect(errorCode(full.body)).toBe("CONTAINER_QUOTA_EXCEEDED");
    expect((full.body.error as { plan_needed: string }).plan_needed).toBe("starter");

    await p.accounts.setPlan(org.id, { containerSlots: null, shipmentQuota: 2 });
    expect((await add("HLCU5226534", "container_id", {}, k)).status).toBe(201);
    const quota = await add("HLXU6867407", "container_id", {}, k);
    expect(quota.status).toBe(402);
    expect(errorCode(quota.body)).toBe("UNIQUE_QUOTA_EXCEEDED");

    await p.accounts.setPlan(org.id, { shipmentQuota: null, paygSpendCapUsd: 1.5, paygUnitPriceUsd: 1 });
    expect((await add("HLXU6867407", "container_id", {}, k)).status).toBe(201);
    const cap = await add("MOLU1381170", "container_id", {}, k);
    expect(cap.status).toBe(402);
    expect(errorCode(cap.body)).toBe("PAYG_SPEND_CAP_REACHED");
    const { tracked } = p.storage.t;
    const rows = await p.storage.db.select().from(tracked).where(eq(tracked.orgId, org.id));
    expect(rows.map((r) => r.identifier).sort()).toEqual(["HLCU4276280", "HLCU5226534", "HLXU6867407"]);
  });

  test("50 parallel adds of one identifier create one record", async () => {
    const ref = "ONEU4276267";
    const results = await Promise.all(Array.from({ length: 50 }, () => add(ref, "container_id")));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(49);
    for (const r of results.filter((x) => x.status === 409)) {
      expect(["CONTAINER_ADD_IN_PROGRESS", "ALREADY_TRACKED"]).toContain(errorCode(r.body) ?? "none");
    }
    const { tracked } = p.storage.t;
    expect(await p.storage.db.select().from(tracked).where(eq(tracked.identifier, ref))).toHaveLength(1);
  });
});

describe("demurrage from free-time terms", () => {
  test("terms via the API; free days count down, warning, accrual, frozen at gate-out; events once each", async () => {
    const ref = "MSKU9084923"; // discharged at Busan (UTC+9) on local 2026-11-29, gated out on local 2026-12-01
    const org = await p.accounts.createOrg("demurrage", { paid: true, rateLimit: 1_000_000 });
    await p.accounts.setEntitlement(org.id, "ocean", null);
    const k = (await p.accounts.createKey(org.id, "ocean")).key;
    const call = async (path: string, init: RequestInit = {}) => {
      const res = await p.call("ocean", path, {
        ...init,
        ...bearer(k, { "content-type": "application/json" }),
      });
      return { status: res.status, body: (await res.json()) as Json };
    };
    const bad = await call("/v1/demurrage/terms", {
      method: "POST",
      body: JSON.stringify({ free_days: -1 }),
    });
    expect(bad.status).toBe(400);
    const generic = await call("/v1/demurrage/terms", {
      method: "POST",
      body: JSON.stringify({ free_days: 10 }),
    });
    expect(generic.status).toBe(201);
    const specific = await call("/v1/demurrage/terms", {
      method: "POST",
      body: JSON.stringify({
        carrier_code: "MAEU",
        port_unlocode: "KRPUS",
        free_days: 1,
        daily_rate_usd: 100,
      }),
    });
    expect(specific.status).toBe(201);
    expect((await call("/v1/demurrage/terms")).body.data.items).toHaveLength(2);
    // Another account cannot remove them.
    const foreign = await p.call("ocean", `/v1/demurrage/terms/${specific.body.data.id}`, {
      method: "DELETE",
      ...bearer(key),
    });
    expect(foreign.status).toBe(404);

    await at("2026-11-27T00:00:00Z");
    const added = await call("/v1/containers", {
      method: "POST",
      body: JSON.stringify({ identifier: ref, identifier_type: "container_id" }),
    });
    const id = added.body.data.id as string;
    const read = async () =>
      (await call(`/v1/containers/${id}`)).body.data as Json["data"] & {
        field_provenance: Record<string, { state: string }>;
      };
    const before = await read();
    expect(before.demurrage_free_days_left).toBeNull();
    expect(before.field_provenance.demurrage_free_days_left!.state).toBe("awaiting_carrier");

    await at("2026-11-29T06:00:00Z"); // discharged; local date 2026-11-29 is the one free day
    const free = await read();
    expect(free.demurrage_free_days_left).toBe(0);
    expect(free.field_provenance.demurrage_free_days_left!.state).toBe("resolved");
    const listItem = (await call("/v1/containers")).body.data.items!.find((i) => i.id === id)!;
    expect(listItem).toMatchObject({
      demurrage_last_free_day: "2026-11-29",
      demurrage_at_risk: true,
      demurrage_accrued_usd: 0,
    });

    await at("2026-11-30T06:00:00Z"); // local 2026-11-30: one day over
    const accruing = (await call("/v1/containers")).body.data.items!.find((i) => i.id === id)!;
    expect(accruing.demurrage_accrued_usd).toBe(100);

    await at("2026-12-02T06:00:00Z"); // gate-out 2026-11-30T19:00Z = local 2026-12-01: two days, then frozen
    const after = (await call("/v1/containers?archived=true")).body.data
      .items!.concat((await call("/v1/containers")).body.data.items!)
      .find((i) => i.id === id)!;
    expect(after.demurrage_accrued_usd).toBe(200);
    expect(after.demurrage_at_risk).toBe(false);
    await at("2026-12-04T06:00:00Z");
    expect((await read()).demurrage_free_days_left).toBeNull();

    const { outbox } = p.storage.t;
    const types = (
      await p.storage.db.select({ type: outbox.type }).from(outbox).where(eq(outbox.orgId, org.id))
    ).map((o) => o.type);
    expect(types.filter((t) => t === "demurrage_warning")).toHaveLength(1);
    expect(types.filter((t) => t === "demurrage_started")).toHaveLength(1);
  });
});

describe("a leased box", () => {
  test("the lessor names the lessee: a carrier hint only, events from that line, lease fields, off-hire after return", async () => {
    const number = withCheckDigit("TGHU314159");
    const lessee = lesseeOf("TGHU", 314159);
    const v = voyage(number);
    const box = v.containers.find((c) => c.number === number)!;
    await at(Date.parse(box.milestones.loaded) + 24 * H);
    const added = await add(number, "container_id");
    expect(added.status).toBe(201);
    const id = added.body.data.id as string;
    const item = (await get("/v1/containers?limit=500")).body.data.items!.find((i) => i.id === id)!;
    expect(added.body.data.carrier_code).toBeNull();
    expect(item).toMatchObject({
      carrier_code: null,
      carrier_name: null,
      carrier_hint_code: lessee,
      equipment_owner: "Textainer",
      equipment_lessor: "Textainer",
      lessee_name: p.tracking.carriers.carrier(lessee)!.name,
      lessor_status: "on-hire",
      status: "in_transit",
      lessor_contract_number: expect.stringMatching(/^TEX-/),
      equipment_manufacturer: expect.any(String),
    });
    expect(item.lessor_checked_at).toBe(new Date(clock.t).toISOString());
    const lookup = await get(`/v1/containers/lookup/${number}`);
    const prov = lookup.body.data.field_provenance as Record<string, { state: string }>;
    expect(prov.equipment_lessor!.state).toBe("resolved");
    expect((lookup.body.data.events as Json[]).length).toBeGreaterThan(0);
    // The hint is never shown as the carrier: the lookup record's carrier is not the lessee's line.
    expect(lookup.body.data.carrier).toBe("Unknown");
    // The compat surface: the line is not confirmed, so sealine is auto and its name Unknown, not
    // the lessee's.
    const compat = (await (
      await p.call("ocean", `/compat/vendor/tracking?api_key=${key}&number=${number}`)
    ).json()) as Json;
    expect((compat.data as Json).metadata).toMatchObject({ sealine: "auto", sealine_name: "Unknown" });
    if (item.lessor_contract_type === "one-way") expect(item.redelivery_location).toBe(v.destination.locode);
    else expect(item.redelivery_date).toBeNull();

    await at(Date.parse(box.milestones.emptyReturn) + 26 * H);
    const { tracked } = p.storage.t;
    const after = (await p.storage.db.select().from(tracked).where(eq(tracked.id, id)).limit(1))[0]!;
    expect(after.lessorStatus).toBe("off-hire");
    expect(after.carrierCode).toBeNull(); // never confirmed from lessor data
  });
});

test("every event raised above matches its schema in the event catalogue", async () => {
  const rows = await storedEvents(p.storage);
  expect(rows.length).toBeGreaterThan(0);
  expect(schemaProblems(rows)).toEqual([]);
});
