/**
 * The typed client (clients/typescript) against the real server process, as an integrator uses
 * it: one call per product reading typed fields, the list and event-feed paging helpers over real
 * pages, and the webhook check over a real delivery the server signed, sent to a local HTTPS
 * receiver. One server for the whole file; the tenant is made on its database before it starts.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ProductId } from "../../api/shared/products.ts";
import {
  allEvents,
  allItems,
  createAirClient,
  createDistanceClient,
  createLoadPlanClient,
  createOceanClient,
  createRatesClient,
  createSchedulesClient,
  type loadPlans,
  unwrap,
  verifyWebhook,
  WebhookVerificationError,
} from "../../clients/typescript/src/index.ts";
import { DEMO_AWBS } from "../../ingest/sandbox/airline-demo.ts";
import { DEMO_REFERENCES } from "../../ingest/sandbox/demo.ts";
import { sharedTestDatabase } from "../helpers/database.ts";
import { recordingFetch } from "../helpers/issued-secrets.ts";
import { makePlatform } from "../helpers/platform.ts";
import { type ServerProcess, startServerProcess } from "../helpers/server-process.ts";
import { type Receiver, startReceiver } from "../webhooks/receiver.ts";

const root = join(import.meta.dir, "../..");
const dir = mkdtempSync(join(tmpdir(), "portolan-client-"));
let server: ServerProcess;
let rx: Receiver;
let keys: Record<ProductId, string>;

beforeAll(async () => {
  const database = sharedTestDatabase(join(dir, "portolan.sqlite"));
  const platform = await makePlatform({ database });
  keys = (await platform.tenant({ name: "Client Freight" })).keys;
  await platform.close();
  rx = await startReceiver();
  server = await startServerProcess({
    ...process.env,
    PORTOLAN_DB: database,
    PORTOLAN_QUEUE_WAIT_MS: "8000",
    // Deliveries go to the receiver on loopback, trusted through its own CA.
    PORTOLAN_WEBHOOK_ALLOW_PRIVATE: "1",
    PORTOLAN_WEBHOOK_CA_FILE: rx.caFile,
    PORTOLAN_WEBHOOK_RESOLVE: "hooks.test=127.0.0.1",
  });
}, 120_000);
afterAll(async () => {
  await server?.stop();
  await rx?.close();
  rmSync(dir, { recursive: true, force: true });
});

const options = (product: ProductId) => ({
  baseUrl: server.base[product],
  apiKey: keys[product],
  fetch: (request: Request) => recordingFetch(request),
});
const demo = (scenario: string) =>
  DEMO_REFERENCES.filter((d) => d.kind === "container" && d.scenario === scenario).map((d) => d.reference);

test("ocean: track sandbox containers, read one, page the list and the DCSA event feed", async () => {
  const ocean = createOceanClient(options("ocean"));
  const [first, second] = demo("in_transit");
  const ids: string[] = [];
  for (const identifier of [first!, second!]) {
    const added = unwrap(
      await ocean.POST("/v1/containers", { body: { identifier, identifier_type: "container_id" } }),
    );
    expect(added.data.identifier).toBe(identifier);
    ids.push(added.data.id);
  }
  const read = unwrap(await ocean.GET("/v1/containers/{id}", { params: { path: { id: ids[0]! } } }));
  expect(read.data.container_number).toBe(first!);
  expect(read.data.status).toBe("in_transit");
  expect(read.data.events.length).toBeGreaterThan(0);

  const listed: string[] = [];
  for await (const box of allItems((cursor) =>
    ocean.GET("/v1/containers", { params: { query: { limit: 1, cursor } } }),
  )) {
    listed.push(box.id);
  }
  expect(listed.sort()).toEqual([...ids].sort());

  const events = [];
  for await (const event of allEvents(ocean, { limit: 2, equipmentReference: first! })) events.push(event);
  const whole = unwrap(
    await ocean.GET("/v2/events", { params: { query: { limit: 1000, equipmentReference: first! } } }),
  );
  expect(events.length).toBeGreaterThan(2);
  expect(events).toEqual(whole);
}, 60_000);

test("ocean's compat surface: the key in api_key, the vendor's envelope", async () => {
  const ocean = createOceanClient({ baseUrl: server.base.ocean });
  const [reference] = demo("in_transit");
  const answer = unwrap(
    await ocean.GET("/compat/vendor/tracking", {
      params: { query: { api_key: keys.ocean, number: reference! } },
    }),
  );
  expect(answer.status).toBe("success");
  expect(JSON.stringify(answer.data)).toContain(reference!);
}, 60_000);

test("air: resolve an AWB prefix on the open route, track a sandbox waybill", async () => {
  const air = createAirClient(options("air"));
  const { awb } = DEMO_AWBS.find((d) => d.scenario === "in_transit")!;
  const prefix = unwrap(
    await air.GET("/public/v1/awb-prefixes/{reference}", { params: { path: { reference: awb } } }),
  );
  expect(prefix.data.valid).toBe(true);
  expect(prefix.data.airline?.iata).toBe("CX");
  const tracked = unwrap(await air.POST("/v1/awbs", { body: { awb } }));
  expect(tracked.data.awb).toBe(`${awb.slice(0, 3)}-${awb.slice(3)}`);
  expect(tracked.data.airline_iata).toBe("CX");
}, 60_000);

test("schedules: a point-to-point search over the sandbox carriers' sailings", async () => {
  const schedules = createSchedulesClient(options("schedules"));
  const search = () =>
    schedules.GET("/v1/point-to-point", { params: { query: { origin: "CNSHA", destination: "NLRTM" } } });
  // The server fetches the sandbox schedules once it has started: wait for them (bounded).
  let answer = unwrap(await search());
  for (let tries = 0; answer.data.total === 0 && tries < 600; tries++) {
    await Bun.sleep(100);
    answer = unwrap(await search());
  }
  expect(answer.data.total).toBeGreaterThan(0);
  const [routing] = answer.data.routes;
  expect(routing!.legs.length).toBeGreaterThan(0);
  expect(routing!.transit_days).toBeGreaterThan(0);
}, 120_000);

test("load plans: a plan of the example cargo list", async () => {
  const plans = createLoadPlanClient(options("loading"));
  type PlanRequest = loadPlans.paths["/v1/load-plans"]["post"]["requestBody"]["content"]["application/json"];
  const cargo = (await Bun.file(join(root, "examples/cargo-list.json")).json()) as PlanRequest;
  const plan = unwrap(await plans.POST("/v1/load-plans", { body: cargo }));
  expect(plan.data.reference).toBe("ACME-2026-4711");
  expect(plan.data.version).toBe(1);
  const again = unwrap(await plans.GET("/v1/load-plans/{id}", { params: { path: { id: plan.data.id } } }));
  expect(again.data.result).toEqual(plan.data.result);
}, 60_000);

test("rates: a search answers the indicative offer", async () => {
  const rates = createRatesClient(options("rates"));
  const answer = unwrap(
    await rates.GET("/v1/rates/search", {
      params: { query: { origin: "CNSHA", destination: "NLRTM", mode: "OCEAN_FCL", equipment: "40HC" } },
    }),
  );
  expect(answer.data.total).toBeGreaterThan(0);
  const offer = answer.data.offers[0]!;
  expect(offer.indicative).toBe(true);
  expect(offer.total).toBeGreaterThan(0);
}, 60_000);

test("distance: a sea route", async () => {
  const distance = createDistanceClient(options("distance"));
  const answer = unwrap(
    await distance.GET("/v1/distance/route", { params: { query: { from: "NLRTM", to: "SGSIN" } } }),
  );
  expect(answer.meta.took_ms).toBeGreaterThanOrEqual(0);
  expect(answer.data.from).toMatchObject({ locode: "NLRTM" });
  // The document types the answer's top level only (api/distance/responses.ts): the route is read as sent.
  const { route } = answer.data as { route?: { distance: { km: number } } };
  expect(route!.distance.km).toBeGreaterThan(15_000);
}, 60_000);

test("webhooks: endpoints listed page by page; a real delivery verifies, a tampered or stale one does not", async () => {
  const plans = createLoadPlanClient(options("loading"));
  const made: Array<{ id: string; secret: string }> = [];
  for (const n of [1, 2, 3]) {
    const url = rx.url(`/ok/client-${n}`);
    made.push(
      unwrap(await plans.POST("/v1/webhooks", { body: { url, event_types: ["plan_updated"] } })).data,
    );
  }
  const listed: string[] = [];
  for await (const endpoint of allItems((cursor) =>
    plans.GET("/v1/webhooks", { params: { query: { limit: 2, cursor } } }),
  )) {
    listed.push(endpoint.id);
  }
  expect(listed.sort()).toEqual(made.map((m) => m.id).sort());

  const { id, secret } = made[0]!;
  unwrap(await plans.POST("/v1/webhooks/{id}/test", { params: { path: { id } } }));
  const [got] = await rx.waitFor(1, (r) => r.path === "/ok/client-1", 30_000);
  const raw = new Uint8Array(got!.raw);
  const delivery = await verifyWebhook(raw, got!.headers, { product: "loading", secret });
  expect(delivery).toMatchObject({ type: "ping", data: { endpoint_id: id } });
  expect(delivery.id).toBe(got!.headers["x-portolan-loadplan-delivery"]!);

  const refused = (body: Uint8Array | string, opts: { secret?: string; now?: () => number } = {}) =>
    verifyWebhook(body, got!.headers, { product: "loading", secret, toleranceMs: 60_000, ...opts }).then(
      () => "accepted",
      (err: Error) => (err instanceof WebhookVerificationError ? "refused" : err.message),
    );
  const occurred = Date.parse(delivery.occurred_at);
  expect(await refused(raw)).toBe("accepted");
  expect(await refused(new TextDecoder().decode(raw).replace('"ping"', '"pong"'))).toBe("refused");
  expect(await refused(raw, { secret: made[1]!.secret })).toBe("refused");
  expect(await refused(raw, { now: () => occurred + 61_000 })).toBe("refused");
  expect(await refused(raw, { now: () => occurred - 61_000 })).toBe("refused");
  // Another product's header name is not this delivery's signature.
  await expect(verifyWebhook(raw, got!.headers, { product: "ocean", secret })).rejects.toThrow(
    WebhookVerificationError,
  );
}, 60_000);
