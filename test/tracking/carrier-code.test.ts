/**
 * carrier_code and carrier_hint_code on every surface, against the sandbox carrier (its own
 * process, manual clock) behind the counting proxy: a bill of lading or booking prefix names its
 * line, so a B/L still awaiting its carrier already carries carrier_code (add answer, list item,
 * lookup record, compat metadata, webhook payloads of its boxes). The lessor's hint is
 * voyages.test.ts's ("a leased box").
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { simulateVoyage } from "../../ingest/sandbox/simulate.ts";
import { loadWorld, type SandboxWorld } from "../../ingest/sandbox/world.ts";
import {
  type CompatWorld,
  compatGet,
  compatWorld,
  type Json,
  oceanCall,
  oceanTenant,
} from "../compat/setup.ts";

const H = 3_600_000;
const BL = "ONEY200000002"; // the ONE demo B/L: four boxes in transit
let w: CompatWorld;
let world: SandboxWorld;

beforeAll(async () => {
  w = await compatWorld();
  world = await loadWorld();
});
afterAll(() => w.close());

const add = (key: string, identifier: string, identifier_type: string) =>
  oceanCall(w, key, "/v1/containers", {
    method: "POST",
    body: JSON.stringify({ identifier, identifier_type }),
  });
const listItems = async (key: string) =>
  ((await oceanCall(w, key, "/v1/containers?limit=500")).body.data as Json).items as Json[];
const metadata = (body: Json) => (body.data as Json).metadata as Json;

describe("a B/L or booking prefix names the line", () => {
  test("a B/L whose carrier has not answered yet: carrier_code from its prefix on every surface", async () => {
    const { key } = await oceanTenant(w, "awaiting", { plan: "pro", paid: true });
    w.proxy.fail = { status: 503 };
    let added: Awaited<ReturnType<typeof add>>;
    try {
      added = await add(key, BL, "bill_of_lading");
    } finally {
      w.proxy.fail = null;
    }
    expect(added.status).toBe(201);
    expect(added.body.warning).toMatch(/did not answer/);
    expect(added.body.data).toMatchObject({ identifier: BL, status: "unknown", carrier_code: "ONEY" });
    const id = (added.body.data as Json).id as string;
    const item = (await listItems(key)).find((i) => i.id === id)!;
    expect(item).toMatchObject({
      carrier_code: "ONEY",
      carrier_name: "Ocean Network Express",
      carrier_hint_code: null,
    });
    const lookup = await oceanCall(w, key, `/v1/containers/lookup/${BL}`);
    expect(lookup.status).toBe(200);
    expect((lookup.body.data as Json).carrier).toBe("Ocean Network Express");

    // The carrier answers: the boxes inherit the line, and their webhook payloads name it.
    const v = simulateVoyage(BL, { world })!;
    const next = v.events.find(
      (e) => e.eventType === "TRANSPORT" && Date.parse(e.eventCreatedDateTime) > w.clock.t,
    )!;
    expect((await oceanCall(w, key, `/v1/containers/${id}/recheck`, { method: "POST" })).status).toBe(200);
    await w.at(Date.parse(next.eventCreatedDateTime) + H);
    expect((await oceanCall(w, key, `/v1/containers/${id}/recheck`, { method: "POST" })).status).toBe(200);
    const boxes = (await listItems(key)).filter((i) => i.identifier !== BL);
    expect(boxes).toHaveLength(4);
    for (const b of boxes) expect(b).toMatchObject({ carrier_code: "ONEY", carrier_hint_code: null });
    const { outbox } = w.p.storage.t;
    const numbers = new Set(boxes.map((b) => b.identifier));
    const payloads = (await w.p.storage.db.select().from(outbox))
      .map((o) => o.data as Json)
      .filter((d) => numbers.has(d.container_number as string));
    expect(payloads.length).toBeGreaterThan(0);
    for (const d of payloads) expect(d.carrier_code).toBe("ONEY");
  });

  test("a line without a connector: the add, the list and compat name it", async () => {
    const { key } = await oceanTenant(w, "cosco", { plan: "pro", paid: true });
    const added = await add(key, "COSU6100000001", "bill_of_lading");
    expect(added.status).toBe(201);
    expect(added.body.data).toMatchObject({ carrier_code: "COSU" });
    const item = (await listItems(key)).find((i) => i.identifier === "COSU6100000001")!;
    expect(item).toMatchObject({
      carrier_code: "COSU",
      carrier_hint_code: null,
      connector_status: "not_connected",
    });
    // Tracked already, and registered by compat itself: sealine is the line, not auto.
    for (const number of ["COSU6100000001", "COSU6100000002"]) {
      const res = await compatGet({ ...w, key }, { number, type: "BL" });
      expect(res.body.status).toBe("success");
      expect(metadata(res.body)).toMatchObject({ sealine: "COSU", sealine_name: "COSCO Shipping Lines" });
    }
    const booking = await add(key, "COSU6100000003", "booking");
    expect(booking.body.data).toMatchObject({ carrier_code: "COSU" });
  });
});
