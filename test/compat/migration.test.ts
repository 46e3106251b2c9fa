/**
 * Migration: the vendor client (vendor-client.ts), unchanged, against our surface over a real socket
 * after changing only its host and key. It also polls one reference 100 times in parallel over the
 * socket: the carrier (behind the counting proxy) is asked once per cache window.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { serveBun } from "../../api/runtime/bun-serve.ts";
import { startAisFeeds } from "../../ingest/ais/feeds.ts";
import { type CompatWorld, compatWorld } from "./setup.ts";
import { sample } from "./structure.ts";
import { readShipment, TrackingClient, TrackingError } from "./vendor-client.ts";

let w: CompatWorld;
let server: ReturnType<typeof serveBun>;
let feeds: { close(): Promise<void> };
let client: TrackingClient;

beforeAll(async () => {
  w = await compatWorld({ sandboxEnv: { SANDBOX_AIS_INTERVAL_MS: "60000" } });
  feeds = startAisFeeds([w.sandbox.aisUrl], w.p.tracking.positions, w.clock.now);
  server = serveBun(w.p.apps.ocean, "127.0.0.1", 0);
  // The only change from the vendor's configuration: host and key.
  client = new TrackingClient({ baseUrl: `http://127.0.0.1:${server.port}/compat/vendor`, apiKey: w.key });
});
afterAll(async () => {
  server.stop(true);
  await feeds.close();
  await w.close();
});

test("the client reads the vendor's own samples (it is written against the vendor, not us)", async () => {
  const bl = await sample("vendor_BL_3100124492_real.json");
  const shipment = readShipment(bl.data as Record<string, unknown>, "OK");
  expect(shipment.containers.length).toBeGreaterThan(1);
  expect(shipment.map?.legs[0]?.from.name).toBe("Jebel Ali");
});

test("a container with route and AIS, a bill of lading and a booking, unchanged client", async () => {
  const box = await client.track("MSAU2375830", { route: true, ais: true });
  expect(box).toMatchObject({ type: "CT", number: "MSAU2375830", sealine: "MAEU", status: "IN_TRANSIT" });
  expect(box.containers[0]!.events.length).toBeGreaterThan(3);
  expect(box.map!.legs.length).toBeGreaterThan(0);
  expect(box.route.pol.place?.locode).toBe("CNSHA"); // compat answers with the carriers' code;
  // Without route=true the map is there too (a route is plottable), and the client still reads it.
  const plain = await client.track("MSAU2375830");
  expect(plain.map).toMatchObject({ legs: box.map!.legs, pin: box.map!.pin, aisStatus: null });

  // Once the hull's AIS fix is in, a forced update carries the AIS block.
  const imo = box.vessels[0]!.imo!;
  await w.at(w.clock.t);
  for (let i = 0; i < 200 && !w.p.tracking.positions.byImo(imo, w.clock.t); i++) await Bun.sleep(20);
  const live = await client.track("MSAU2375830", { route: true, ais: true, forceUpdate: true });
  expect(live.map!.ais!.status).toBe("OK");
  expect(live.map!.ais!.vessel.imo).toBe(imo);

  const bl = await client.track("MEDU200142542", { type: "BL", route: true });
  expect(bl.type).toBe("BL");
  expect(bl.containers.length).toBeGreaterThan(1);
  const booking = await client.track("ONEY200000064", { type: "BK" });
  expect(booking.type).toBe("BK");
}, 15_000);

test("errors classify as the vendor's clients expect", async () => {
  const wrong = await client.track("MAEU4988976").catch((e) => e);
  expect(wrong).toBeInstanceOf(TrackingError);
  expect(wrong).toMatchObject({ kind: "not_found", code: "WRONG_NUMBER", httpStatus: 200 });
  const unknown = await client.track("MEDU123456789", { type: "BL", sealine: "MAEU" }).catch((e) => e);
  expect(unknown).toMatchObject({ kind: "no_data", code: "NO_TRACKING_INFO", httpStatus: 200 });
  const badKey = new TrackingClient({
    baseUrl: `http://127.0.0.1:${server.port}/compat/vendor`,
    apiKey: "oc_x",
  });
  const denied = await badKey.track("MSAU2375830").catch((e) => e);
  expect(denied).toBeInstanceOf(TrackingError);
  expect(denied.httpStatus).toBe(401);
});

test("100 parallel polls over the socket: the carrier is asked once per cache window", async () => {
  const ref = "HLCU5226534";
  const answers = await Promise.all(Array.from({ length: 100 }, () => client.track(ref)));
  expect(w.proxy.asked(ref)).toBe(1);
  expect(new Set(answers.map((a) => a.containers[0]!.events.length)).size).toBe(1);
  await w.at(w.clock.t + 91_000);
  await Promise.all(Array.from({ length: 100 }, () => client.track(ref)));
  expect(w.proxy.asked(ref)).toBe(2);
});
