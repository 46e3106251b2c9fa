/**
 * Real events: a sandbox voyage (carrier in its own process, manual clock) raises ocean events in
 * the tracking engine's outbox; the dispatcher delivers each once to the endpoint subscribed to
 * those types, and nothing to an endpoint subscribed to others; each delivery is the webhook the
 * ocean OpenAPI document lists.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { deliveryIdFor } from "../../api/webhooks/dispatcher.ts";
import { verify } from "../../api/webhooks/verify.ts";
import { simulateVoyage } from "../../ingest/sandbox/simulate.ts";
import { loadWorld } from "../../ingest/sandbox/world.ts";
import { ManualClock, type TestPlatform } from "../helpers/platform.ts";
import type { RunningSandbox } from "../sandbox/spawn.ts";
import { deliveryChecker } from "./document-check.ts";
import { schemaProblems, storedEvents } from "./event-schemas.ts";
import type { Receiver } from "./receiver.ts";
import { apiOf, until, voyageWorld } from "./setup.ts";

const H = 3_600_000;
const clock = new ManualClock(Date.parse("2026-08-01T00:00:00Z"));
let w: Awaited<ReturnType<typeof voyageWorld>>;
let sandbox: RunningSandbox;
let rx: Receiver;
let p: TestPlatform;

beforeAll(async () => {
  w = await voyageWorld(clock);
  ({ sandbox, rx, p } = w);
});
afterAll(() => w.close());

test("a voyage's ocean events reach the subscribed endpoint once each, and only that one", async () => {
  const org = await p.accounts.createOrg("voyage-hooks", { paid: true, rateLimit: 1_000_000 });
  await p.accounts.setEntitlement(org.id, "ocean", null);
  const api = apiOf(p, (await p.accounts.createKey(org.id, "ocean")).key);
  const wanted = ["vessel_departed", "container_arrived", "container_delivered", "eta_changed"];
  const subscribed = (await api("POST", "/v1/webhooks", { url: rx.url("/ok/voyage"), event_types: wanted }))
    .body.data as { id: string; secret: string };
  const other = (
    await api("POST", "/v1/webhooks", { url: rx.url("/ok/other"), event_types: ["customs_hold"] })
  ).body.data as { id: string };

  const ref = "MAEU0000008";
  const v = simulateVoyage(ref, { world: await loadWorld() })!;
  const box = v.containers.find((c) => c.number === ref)!;
  const at = async (ms: number) => {
    clock.t = ms;
    await sandbox.setClock({ now: new Date(ms).toISOString() });
    await p.tracking.ocean.pollDue();
  };
  await at(Date.parse(v.bookedAt) + 6 * H);
  expect(
    (await api("POST", "/v1/containers", { identifier: ref, identifier_type: "container_id" })).status,
  ).toBe(201);
  for (const m of ["gateIn", "loaded", "discharged", "gateOut", "emptyReturn"] as const) {
    await at(Date.parse(box.milestones[m]) + 3 * H);
  }

  const { outbox } = p.storage.t;
  const rows = await p.storage.db.select().from(outbox).where(eq(outbox.orgId, org.id)).orderBy(outbox.seq);
  const expected = rows.filter((r) => wanted.includes(r.type));
  expect(expected.map((r) => r.type)).toEqual(
    expect.arrayContaining(["vessel_departed", "container_arrived"]),
  );
  const hits = await rx.waitFor(expected.length, (r) => r.path === "/ok/voyage");
  await until(async () => {
    const d = (await api("GET", `/v1/webhooks/${subscribed.id}`)).body.data;
    return (d.recent_deliveries as Array<{ status: string }>).every((x) => x.status === "delivered");
  });
  await Bun.sleep(200); // anything extra would have arrived by now
  const all = rx.received.filter((r) => r.path === "/ok/voyage");
  expect(all).toHaveLength(expected.length);
  expect(rx.received.filter((r) => r.path === "/ok/other")).toHaveLength(0);
  expect(other.id).toBeTruthy();

  const bodies = new Map(hits.map((h) => [h.headers["x-portolan-ocean-delivery"], h]));
  const documented = await deliveryChecker(p, "ocean");
  for (const row of expected) {
    const h = bodies.get(deliveryIdFor(row.id, subscribed.id))!;
    expect(h).toBeDefined();
    documented(h);
    expect(h.headers["x-portolan-ocean-event"]).toBe(row.type);
    expect(await verify(h.raw, h.headers["x-portolan-ocean-signature"]!, subscribed.secret)).toBe(true);
    const body = JSON.parse(h.raw.toString());
    expect(body).toEqual({
      id: deliveryIdFor(row.id, subscribed.id),
      type: row.type,
      occurred_at: new Date(row.occurredAt).toISOString(),
      data: row.data,
    });
    if (row.type !== "eta_changed") {
      expect(body.data.event_date_time).toMatch(/Z$/);
      expect(body.data.event_timezone).toEqual(expect.any(String));
      expect(typeof body.data.utc_offset_minutes).toBe("number");
    }
  }
}, 60_000);

test("every event raised above matches its schema in the event catalogue", async () => {
  const rows = await storedEvents(p.storage);
  expect(rows.length).toBeGreaterThan(0);
  expect(schemaProblems(rows)).toEqual([]);
});
