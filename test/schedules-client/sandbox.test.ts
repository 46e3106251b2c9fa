/**
 * The CS client against the real sandbox process over HTTP: every page it serves passes the client's
 * OpenAPI validation, and small pages give exactly what one big page gives.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { CsClient } from "../../ingest/schedules/cs-client.ts";
import { type RunningSandbox, startSandbox } from "../sandbox/spawn.ts";

const KEY = "cs-client-test-key";
let sandbox: RunningSandbox;
let bases: Array<{ scac: string; schedules_base_path: string }>;

beforeAll(async () => {
  sandbox = await startSandbox({ SANDBOX_API_KEY: KEY });
  await sandbox.setClock({ now: "2025-03-01T00:00:00Z" });
  bases = (await (await fetch(`${sandbox.url}/_sandbox/carriers`)).json()) as typeof bases;
});
afterAll(() => sandbox?.stop());

const client = (scac: string, pageLimit = 100) => {
  const base = bases.find((b) => b.scac === scac)!;
  return new CsClient({ scac, baseUrl: `${sandbox.url}${base.schedules_base_path}`, apiKey: KEY, pageLimit });
};

test("every sandbox carrier's vessel, port and point-to-point schedules pass validation and map", async () => {
  expect(bases.length).toBeGreaterThan(0);
  for (const { scac } of bases) {
    const c = client(scac);
    const window = { startDate: "2025-03-01", endDate: "2025-03-21" };
    const sailings = await c.vesselSchedules({ UNLocationCode: "SGSIN", ...window });
    expect(sailings.length, scac).toBeGreaterThan(0);
    const sailing = sailings.find((s) => s.calls.length >= 2)!;
    expect(sailing.vessel?.imo, scac).toMatch(/^\d{7}$/);
    for (const call of sailing.calls) {
      expect(call.place.unlocode, scac).toMatch(/^[A-Z]{2}[A-Z2-9]{3}$/);
      expect(call.arrival.planned ?? call.departure.planned, scac).toBeDefined();
    }
    const from = sailing.calls[0]!.place.unlocode!;
    const to = sailing.calls.find((k) => k.place.unlocode !== from)!.place.unlocode!;
    const ports = await c.portSchedules({ UNLocationCode: from, date: "2025-03-01" });
    expect(ports[0]?.port.unlocode, scac).toBe(from);
    const routes = await c.pointToPointRoutes({
      placeOfReceipt: from,
      placeOfDelivery: to,
      departureStartDate: "2025-03-01",
      departureEndDate: "2025-04-15",
    });
    expect(routes.length, `${scac} ${from}→${to}`).toBeGreaterThan(0);
    for (const r of routes) {
      expect(r.receipt.place.unlocode).toBe(from);
      expect(r.delivery.place.unlocode).toBe(to);
    }
  }
});

/** The raw first page at limit=1: the sandbox must really split, or the comparison proves nothing. */
async function splits(scac: string, endpoint: string, query: Record<string, string>) {
  const base = bases.find((b) => b.scac === scac)!.schedules_base_path;
  const qs = new URLSearchParams({ ...query, limit: "1" });
  const res = await fetch(`${sandbox.url}${base}/${endpoint}?${qs}`, { headers: { "API-Key": KEY } });
  await res.body?.cancel();
  return res.headers.get("Next-Page-Cursor") !== null;
}

test("pages of one item give what one page of a hundred gives, on the paginating endpoints", async () => {
  const scac = bases[0]!.scac;
  const big = client(scac, 100);
  const small = client(scac, 1);
  const vq = { vesselOperatorCarrierCode: scac, startDate: "2025-03-01", endDate: "2025-03-21" };
  expect(await splits(scac, "vessel-schedules", vq)).toBe(true);
  const sailings = await big.vesselSchedules(vq);
  expect(new Set(sailings.map((s) => s.serviceCode)).size).toBeGreaterThan(1);
  expect(await small.vesselSchedules(vq)).toEqual(sailings);

  const port = sailings[0]!.calls[0]!.place.unlocode!;
  const ports = await big.portSchedules({ UNLocationCode: port, date: "2025-03-01" });
  expect(await small.portSchedules({ UNLocationCode: port, date: "2025-03-01" })).toEqual(ports);

  const to = sailings[0]!.calls.find((k) => k.place.unlocode !== port)!.place.unlocode!;
  const pq = {
    placeOfReceipt: port,
    placeOfDelivery: to,
    departureStartDate: "2025-03-01",
    departureEndDate: "2025-04-30",
  };
  expect(await splits(scac, "point-to-point-routes", pq)).toBe(true);
  const routes = await big.pointToPointRoutes(pq);
  expect(await small.pointToPointRoutes(pq)).toEqual(routes);
});

test("the sandbox's unknown carrier is rejected with 404", async () => {
  const c = new CsClient({ scac: "ZZZZ", baseUrl: `${sandbox.url}/ZZZZ/cs/v1`, apiKey: KEY });
  const err = await c.portSchedules({ UNLocationCode: "NLRTM", date: "2025-03-01" }).catch((e: unknown) => e);
  expect(err).toMatchObject({ kind: "rejected", status: 404 });
});
