/**
 * Spec fidelity of quotas, slots and lists, against the sandbox carrier (its own process,
 * manual clock) behind the counting proxy: container slots hold for every way boxes arrive,
 * CONTAINER_QUOTA_EXCEEDED names a plan with room, malformed references cost nothing, and the
 * list's "most recently updated first" follows what users see change.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { and, eq, isNull } from "drizzle-orm";
import { planNeeded } from "../../common/plans.ts";
import { visibleEvents } from "../../ingest/sandbox/box-view.ts";
import { type SimulatedVoyage, simulateVoyage } from "../../ingest/sandbox/simulate.ts";
import { loadWorld, type SandboxWorld } from "../../ingest/sandbox/world.ts";
import { containerQuotaError } from "../../ingest/tracking/quotas.ts";
import type { Org } from "../../storage/orgs.ts";
import { NO_SLOTS_REASON, PARKED_REASON, REJECTED_REASON } from "../../storage/trackings.ts";
import {
  type CompatWorld,
  compatGet,
  compatWorld,
  type Json,
  oceanCall,
  oceanTenant,
} from "../compat/setup.ts";
import { errorCode } from "../helpers/envelopes.ts";

const H = 3_600_000;
const BL = "MEDU200142542"; // the MSC demo B/L: four boxes, all picked up by the world's start
let w: CompatWorld;
let world: SandboxWorld;

beforeAll(async () => {
  w = await compatWorld();
  world = await loadWorld();
});
afterAll(() => w.close());

const voyage = (ref: string): SimulatedVoyage => simulateVoyage(ref, { world })!;

const tenant = (name: string, plan: Parameters<typeof oceanTenant>[2]) => oceanTenant(w, name, plan);
const call = (key: string, path: string, init: RequestInit = {}) => oceanCall(w, key, path, init);
const add = (key: string, identifier: string, identifier_type: string) =>
  call(key, "/v1/containers", { method: "POST", body: JSON.stringify({ identifier, identifier_type }) });

const rowsOf = (orgId: string) => {
  const { tracked } = w.p.storage.t;
  return w.p.storage.db.select().from(tracked).where(eq(tracked.orgId, orgId));
};
/** Distinct container numbers actively tracked: the slots in use. */
const slotsInUse = async (orgId: string) => {
  const { tracked } = w.p.storage.t;
  const rows = await w.p.storage.db
    .select({ containerNumber: tracked.containerNumber })
    .from(tracked)
    .where(
      and(eq(tracked.orgId, orgId), isNull(tracked.archivedAt), eq(tracked.identifierType, "container_id")),
    );
  return new Set(rows.map((r) => r.containerNumber)).size;
};
const usageOf = (orgId: string, identifier: string) => {
  const { shipmentUsage } = w.p.storage.t;
  return w.p.storage.db
    .select()
    .from(shipmentUsage)
    .where(and(eq(shipmentUsage.orgId, orgId), eq(shipmentUsage.identifier, identifier)));
};

/** Waits (bounded) for the first carrier fetch of an identifier's records to end; the active one first. */
async function settled(orgId: string, identifier: string) {
  for (let i = 0; i < 500; i++) {
    const roots = (await rowsOf(orgId)).filter((r) => r.identifier === identifier && r.parentId === null);
    if (roots.length > 0 && roots.every((r) => !r.adding))
      return roots.find((r) => !r.archivedAt) ?? roots[0]!;
    await Bun.sleep(10);
  }
  throw new Error(`${identifier} never settled`);
}

describe("container slots hold for every way boxes arrive (11.1)", () => {
  test("a B/L naming more boxes than slots are free: 402 on add, nothing created or charged", async () => {
    expect(voyage(BL).containers).toHaveLength(4);
    const { orgId, key } = await tenant("two slots", { plan: "free", containerSlots: 2 });
    expect((await add(key, "HLCU4276280", "container_id")).status).toBe(201);
    expect((await add(key, "HLCU5226534", "container_id")).status).toBe(201);
    const res = await add(key, BL, "bill_of_lading");
    expect(res.status).toBe(402);
    expect(errorCode(res.body)).toBe("CONTAINER_QUOTA_EXCEEDED");
    const error = res.body.error as Json;
    expect(error.plan_needed).toBe("starter");
    expect(error.message).not.toMatch(/free plan has room/);
    expect((await rowsOf(orgId)).map((r) => r.identifier).sort()).toEqual(["HLCU4276280", "HLCU5226534"]);
    expect(await usageOf(orgId, BL)).toEqual([]);
    expect(await slotsInUse(orgId)).toBe(2);

    // The compat registration of the same B/L: the spent allowance (429), nothing kept either.
    const compat = await compatGet({ ...w, key }, { number: BL });
    expect(compat.status).toBe(429);
    expect(await rowsOf(orgId)).toHaveLength(2);
    expect(await usageOf(orgId, BL)).toEqual([]);
  });

  test("a B/L that fits takes its boxes' slots; a box tracked alone takes no second slot", async () => {
    const boxes = voyage(BL).containers.map((c) => c.number);
    const { orgId, key } = await tenant("five slots", { plan: "free", containerSlots: 5 });
    expect((await add(key, boxes[0]!, "container_id")).status).toBe(201);
    expect((await add(key, "HLCU4276280", "container_id")).status).toBe(201);
    // 2 in use, 3 new boxes (the fourth is tracked already): fits exactly.
    expect((await add(key, BL, "bill_of_lading")).status).toBe(201);
    expect(await slotsInUse(orgId)).toBe(5);
    const full = await add(key, "HLCU5226534", "container_id");
    expect(full.status).toBe(402);
    expect((full.body.error as Json).plan_needed).toBe("starter");
  });

  test("one slot free, a four-box B/L: add and lookup both refuse it whole (402), nothing tracked or charged", async () => {
    const BL4 = "ONEY200000002"; // the ONE demo B/L: four boxes in transit
    expect(voyage(BL4).containers).toHaveLength(4);
    const { orgId, key } = await tenant("one free", { plan: "free", containerSlots: 2 });
    const held = await add(key, "HLCU4276280", "container_id");
    expect(held.status).toBe(201);
    const refused = (res: { status: number; body: Json }) => {
      expect(res.status).toBe(402);
      expect(errorCode(res.body)).toBe("CONTAINER_QUOTA_EXCEEDED");
      expect((res.body.error as Json).plan_needed).toBe("starter");
      expect((res.body.error as Json).message).toContain("4 boxes");
    };
    refused(await add(key, BL4, "bill_of_lading"));
    expect(await rowsOf(orgId)).toHaveLength(1);

    // The lookup registers (202) and the carrier's answer refuses the registration the same way:
    // no box takes the free slot, none is parked, the charge is refunded.
    expect((await call(key, `/v1/containers/lookup/${BL4}`)).status).toBe(202);
    // Compat polling it meanwhile (waiting on the lookup's registration, or after it): its 429.
    expect((await compatGet({ ...w, key }, { number: BL4 })).status).toBe(429);
    const root = await settled(orgId, BL4);
    expect(root).toMatchObject({ archivedReason: NO_SLOTS_REASON, status: "unknown" });
    expect((await rowsOf(orgId)).filter((r) => r.parentId === root.id)).toEqual([]);
    expect(await slotsInUse(orgId)).toBe(1);
    expect(await usageOf(orgId, BL4)).toEqual([]);
    // Its next lookup answers the refusal (not another 202), asking the carrier nothing.
    const asked = w.proxy.asked(BL4);
    refused(await call(key, `/v1/containers/lookup/${BL4}`));
    expect(w.proxy.asked(BL4)).toBe(asked);
    expect(await rowsOf(orgId)).toHaveLength(2);
    // The refused record shows none of the untracked boxes' whereabouts.
    const read = await call(key, `/v1/containers/${root.id}`);
    expect((read.body.data as Json).events).toEqual([]);

    // Room for all four (the held box deleted, a higher cap): the lookup registers it again.
    await call(key, `/v1/containers/${(held.body.data as Json).id}`, { method: "DELETE" });
    refused(await call(key, `/v1/containers/lookup/${BL4}`)); // 4 boxes, 2 slots free
    await w.p.accounts.setPlan(orgId, { containerSlots: 4 });
    expect((await call(key, `/v1/containers/lookup/${BL4}`)).status).toBe(202);
    await settled(orgId, BL4);
    const lookup = await call(key, `/v1/containers/lookup/${BL4}`);
    expect(lookup.status).toBe(200);
    const children = (lookup.body.data as Json).child_containers as Record<string, Json>;
    expect(Object.values(children).map((c) => c.archived_reason)).toEqual([null, null, null, null]);
    expect(await slotsInUse(orgId)).toBe(4);
    expect(await usageOf(orgId, BL4)).toHaveLength(1);
  });

  test("boxes a later poll discovers take free slots only; the rest are parked", async () => {
    // A four-box B/L confirmed well before its first empty pick-up: added with no boxes yet.
    const found = Array.from({ length: 200 }, (_, i) => voyage(`MEDU${200000000 + i}`)).find((v) => {
      const conf = v.events.find((e) => e.eventType === "SHIPMENT" && e.shipmentEventTypeCode === "CONF");
      const firstPick = Math.min(...v.containers.map((c) => Date.parse(c.milestones.emptyPickup)));
      return (
        v.containers.length === 4 &&
        conf !== undefined &&
        Date.parse(conf.eventCreatedDateTime) > w.clock.t &&
        firstPick - Date.parse(conf.eventCreatedDateTime) > 6 * H
      );
    })!;
    const conf = found.events.find((e) => e.eventType === "SHIPMENT" && e.shipmentEventTypeCode === "CONF")!;
    await w.at(Date.parse(conf.eventCreatedDateTime) + H);
    const { orgId, key } = await tenant("later boxes", { plan: "free", containerSlots: 2 });
    expect((await add(key, found.billOfLading, "bill_of_lading")).status).toBe(201);
    expect((await rowsOf(orgId)).filter((r) => r.parentId !== null)).toHaveLength(0);

    const lastPick = Math.max(...found.containers.map((c) => Date.parse(c.milestones.emptyPickup)));
    await w.at(lastPick + 13 * H); // past the pre-departure cadence: the B/L is due
    await w.p.tracking.ocean.pollDue();
    const kids = (await rowsOf(orgId)).filter((r) => r.parentId !== null);
    expect(kids).toHaveLength(4);
    expect(kids.filter((k) => k.archivedAt === null)).toHaveLength(2);
    expect(kids.filter((k) => k.archivedReason === PARKED_REASON)).toHaveLength(2);
    expect(await slotsInUse(orgId)).toBe(2);
  });
});

describe("CONTAINER_QUOTA_EXCEEDED names a plan with room (11.2)", () => {
  const org = (plan: string, containerSlots: number | null) => ({ plan, containerSlots }) as Org;
  test("the cheapest plan above the current one with enough slots", () => {
    expect(planNeeded(org("free", 2), 3).plan).toBe("starter");
    expect(planNeeded(org("free", 10), 11).plan).toBe("starter");
    expect(planNeeded(org("free", 150), 151).plan).toBe("pro"); // an arranged cap above starter's
    expect(planNeeded(org("starter", 100), 101).plan).toBe("pro");
    expect(planNeeded(org("starter", 2), 40).plan).toBe("pro"); // never the plan already held
    expect(planNeeded(org("pro", 1_000), 1_001).plan).toBe("enterprise");
    expect(planNeeded(org("legacy", 5), 6).plan).toBe("free");
  });
  test("the message never says the current plan has room", () => {
    for (const [plan, slots] of [
      ["free", 2],
      ["starter", 100],
      ["pro", 1_000],
      ["enterprise", 5_000],
    ] as const) {
      const err = containerQuotaError(org(plan, slots), slots, 1);
      expect(err.message).not.toContain(`The ${plan} plan has room`);
      expect(err.extra?.plan_needed).toBeDefined();
    }
    expect(containerQuotaError(org("enterprise", 5_000), 5_000, 1).message).toMatch(/arranged cap/);
  });
});

describe("a malformed reference costs nothing (11.4)", () => {
  test("compat: MAEU49889 answers WRONG_NUMBER, is not registered and takes no unique shipment", async () => {
    const { orgId, key } = await tenant("one shipment", { plan: "free", shipmentQuota: 1 });
    const res = await compatGet({ ...w, key }, { number: "MAEU49889" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "error", message: "WRONG_NUMBER", data: {} });
    expect(await rowsOf(orgId)).toEqual([]);
    expect(await usageOf(orgId, "MAEU49889")).toEqual([]);
    expect(res.body.detail).toContain("MAEU + 9 digits"); // the carrier's own words
    // The one unique shipment of the month is still free.
    expect((await add(key, "HLCU4276280", "container_id")).status).toBe(201);
  });

  test("add: the carrier's 400 at the first fetch is a 400, nothing kept or charged", async () => {
    const { orgId, key } = await tenant("typo add", { plan: "free" });
    const res = await add(key, "MAEU49889", "bill_of_lading");
    expect(res.status).toBe(400);
    expect(errorCode(res.body)).toBe("VALIDATION_ERROR");
    expect(await rowsOf(orgId)).toEqual([]);
    expect(await usageOf(orgId, "MAEU49889")).toEqual([]);
  });

  test("lookup: 202, then archived as rejected and refunded; the next lookup says so instead of registering", async () => {
    const { orgId, key } = await tenant("typo lookup", { plan: "free" });
    expect((await call(key, "/v1/containers/lookup/MAEU49889")).status).toBe(202);
    const row = await settled(orgId, "MAEU49889");
    expect(row).toMatchObject({ archivedReason: REJECTED_REASON, unresolvedReason: "invalid_number" });
    expect(await usageOf(orgId, "MAEU49889")).toEqual([]);
    const again = await call(key, "/v1/containers/lookup/MAEU49889");
    expect(again.status).toBe(404);
    expect(errorCode(again.body)).toBe("REFERENCE_NOT_RESOLVABLE");
    expect(await rowsOf(orgId)).toHaveLength(1);
  });

  test("a rejection after the add answered (carrier down at the first fetch): archived, slot and charge released", async () => {
    const { orgId, key } = await tenant("typo later", { plan: "free" });
    w.proxy.fail = { status: 503 };
    let res: Awaited<ReturnType<typeof add>>;
    try {
      res = await add(key, "MAEU12345", "bill_of_lading");
    } finally {
      w.proxy.fail = null;
    }
    expect(res.status).toBe(201);
    expect(await usageOf(orgId, "MAEU12345")).toHaveLength(1);
    await w.at(w.clock.t + 2 * 60_000); // past the first back-off
    await w.p.tracking.ocean.pollDue();
    const [row] = await rowsOf(orgId);
    expect(row).toMatchObject({ archivedReason: REJECTED_REASON, unresolvedReason: "invalid_number" });
    expect(await usageOf(orgId, "MAEU12345")).toEqual([]);
  });
});

describe("the list's order follows what users see change (11.6)", () => {
  test("a recheck that brings a new event moves the record up; one that brings nothing does not", async () => {
    // A: a box whose only news in a two-hour window is its empty pick-up (status, ETA and vessel
    // stay as they were). B: a box with no news at all around that window.
    const shipments = Array.from({ length: 200 }, (_, i) => voyage(`MEDU${200000000 + i}`));
    const seen = (v: SimulatedVoyage, box: string, at: number) => visibleEvents(v, at, box).length;
    let a: { v: SimulatedVoyage; box: string; pick: number } | undefined;
    for (const v of shipments) {
      for (const c of v.containers) {
        const pick = Date.parse(c.milestones.emptyPickup);
        if (
          !a &&
          pick - 2 * H > w.clock.t &&
          seen(v, c.number, pick - 2 * H) > 0 &&
          seen(v, c.number, pick + H) === seen(v, c.number, pick - 2 * H) + 1
        ) {
          a = { v, box: c.number, pick };
        }
      }
    }
    expect(a).toBeDefined();
    const t0 = a!.pick - 2 * H;
    const t1 = a!.pick + H;
    const b = shipments
      .filter((v) => v !== a!.v)
      .flatMap((v) => v.containers.map((c) => ({ v, c })))
      .find(
        ({ v, c }) =>
          seen(v, c.number, t0 - H) > 0 &&
          seen(v, c.number, t0 - H) === seen(v, c.number, t1 + H) &&
          Date.parse(c.milestones.emptyReturn) > t1 + 24 * H,
      )!;
    expect(b).toBeDefined();

    const { key } = await tenant("order", { paid: true, plan: "pro" });
    await w.at(t0);
    const idA = ((await add(key, a!.box, "container_id")).body.data as Json).id as string;
    await w.at(t0 + 60_000);
    const idB = ((await add(key, b.c.number, "container_id")).body.data as Json).id as string;
    const order = async () =>
      (((await call(key, "/v1/containers")).body.data as Json).items as Json[]).map((i) => i.id);
    expect(await order()).toEqual([idB, idA]);

    await w.at(t1);
    const eventsBefore = ((await call(key, `/v1/containers/${idA}`)).body.data as Json).events as Json[];
    expect((await call(key, `/v1/containers/${idA}/recheck`, { method: "POST" })).status).toBe(200);
    const eventsAfter = ((await call(key, `/v1/containers/${idA}`)).body.data as Json).events as Json[];
    expect(eventsAfter.length).toBeGreaterThan(eventsBefore.length);
    expect(await order()).toEqual([idA, idB]);

    // Nothing new for B: its recheck leaves the order alone.
    await w.at(t1 + 11 * 60_000);
    expect((await call(key, `/v1/containers/${idB}/recheck`, { method: "POST" })).status).toBe(200);
    expect(await order()).toEqual([idA, idB]);
  });
});
