/**
 * The DCSA CS client over a real local HTTP server: the OpenAPI's own examples parse and map, broken
 * bodies are refused with the field named, pagination, retries and the typed failures.
 */
import { afterAll, expect, test } from "bun:test";
import { CsClient, type CsClientConfig } from "../../ingest/schedules/cs-client.ts";
import { CS_QUERIES, CS_SCHEMAS, CS_VERSION } from "../../ingest/schedules/cs-schema.ts";
import { csSchemasFromYaml } from "../../ingest/schedules/gen-cs-schema.ts";
import { failure, json } from "../helpers/carrier-answers.ts";
import { clone, errorExamples, exampleOf, TRANSPORT_ALTERNATIVES } from "./fixtures.ts";

type Handler = (url: URL) => Response | Promise<Response>;
let handler: Handler = () => json([]);
const requests: URL[] = [];
const server = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  fetch(req) {
    const url = new URL(req.url);
    requests.push(url);
    return handler(url);
  },
});
afterAll(() => server.stop(true));

const base = `http://127.0.0.1:${server.port}/TEST`;
const client = (extra: Partial<CsClientConfig> = {}) =>
  new CsClient({ scac: "TEST", baseUrl: base, retryDelayMs: 5, ...extra });

const P2P = { placeOfReceipt: "NLAMS", placeOfDelivery: "SGSIN" };
const PORT = { UNLocationCode: "NLAMS", date: "2025-01-14" };
const VESSEL = { vesselIMONumber: "9321483" };

/** Each endpoint, its query, its response item schema and a call. */
const ENDPOINTS = [
  {
    path: "/v1/point-to-point-routes",
    item: "PointToPoint",
    call: (c: CsClient) => c.pointToPointRoutes(P2P),
  },
  { path: "/v1/port-schedules", item: "PortSchedule", call: (c: CsClient) => c.portSchedules(PORT) },
  { path: "/v1/vessel-schedules", item: "ServiceSchedule", call: (c: CsClient) => c.vesselSchedules(VESSEL) },
] as const;

test("the generated schemas are the OpenAPI's, keyword for keyword", () => {
  const fresh = csSchemasFromYaml();
  expect(CS_VERSION).toBe(fresh.version);
  expect(CS_SCHEMAS).toEqual(fresh.schemas as typeof CS_SCHEMAS);
  expect(CS_QUERIES).toEqual(fresh.queries as typeof CS_QUERIES);
});

test("the OpenAPI's point-to-point examples parse and map, for each transport alternative", async () => {
  const bodies = Array.from({ length: TRANSPORT_ALTERNATIVES }, (_, i) => exampleOf("PointToPoint", i));
  handler = () => json(bodies);
  requests.length = 0;
  const routes = await client({ pageLimit: 10 }).pointToPointRoutes({ ...P2P, maxTranshipment: 1 });
  expect(requests[0]!.pathname).toBe("/TEST/v1/point-to-point-routes");
  expect(Object.fromEntries(requests[0]!.searchParams)).toEqual({
    placeOfReceipt: "NLAMS",
    placeOfDelivery: "SGSIN",
    maxTranshipment: "1",
    limit: "10",
  });
  expect(routes.map((r) => r.legs[0]!.mode)).toEqual(["VESSEL", "BARGE", "RAIL"]);
  const [vessel, barge, rail] = routes;
  expect(vessel!.legs[0]!.vessel).toMatchObject({ imo: "9321483", name: "King of the Seas" });
  expect(vessel!.legs[0]!.services).toEqual([
    { serviceCode: "FE1", importVoyage: "2103S", exportVoyage: "2103N" },
  ]);
  expect(vessel!.legs[0]!.departure).toMatchObject({
    place: { unlocode: "NLAMS" },
    at: "2025-01-14T09:21:00+01:00",
  });
  expect(vessel!.cutOffs).toEqual([{ code: "DCO", at: "2019-11-12T07:41:00-08:30" }]);
  expect(vessel).toMatchObject({
    solutionNumber: 1,
    routingReference: "Route123",
    transitTimeDays: 10,
    transshipments: 0,
  });
  expect(barge!.legs[0]!.vessel?.imo).toBe("9321483");
  expect(rail!.legs[0]!.vessel).toBeNull();
});

test("the OpenAPI's port and vessel schedule examples parse and map", async () => {
  handler = (url) =>
    json([exampleOf(url.pathname.endsWith("port-schedules") ? "PortSchedule" : "ServiceSchedule")]);
  const [port] = await client().portSchedules(PORT);
  expect(port!.port).toEqual({ unlocode: "NLAMS", facility: "ACT", name: "Port of Amsterdam" });
  expect(port!.calls[0]).toMatchObject({
    services: [
      { serviceCode: "FE1", serviceName: "Great Lion Service", importVoyage: "2103S", exportVoyage: "2103N" },
    ],
    vessel: { imo: "9321483" },
    dummyVessel: false,
  });
  const [sailing] = await client().vesselSchedules({ carrierServiceCode: "FE1", startDate: "2025-01-01" });
  expect(sailing).toMatchObject({ serviceCode: "FE1", vessel: { imo: "9321483", name: "King of the Seas" } });
  expect(sailing!.calls[0]).toEqual({
    place: { unlocode: "NLAMS", facility: "ACT", name: "Port of Amsterdam" },
    transportCallReference: "SR11111X-9321483-2107W-NLRTM-HPD2-1-1",
    importVoyage: "2103N",
    exportVoyage: "2103S",
    arrival: { planned: "2025-01-14T09:21:00+01:00" },
    departure: {},
    cutOffs: [{ code: "DCO", at: "2019-11-12T07:41:00-08:30" }],
  });
});

test("planned, estimated and actual times land on arrival and departure; a dummy vessel is no vessel", async () => {
  const s = clone(exampleOf("ServiceSchedule")) as {
    vesselSchedules: Array<{ isDummyVessel: boolean; transportCalls: Array<{ timestamps: unknown[] }> }>;
  };
  s.vesselSchedules[0]!.transportCalls[0]!.timestamps = [
    { eventTypeCode: "ARRI", eventClassifierCode: "PLN", eventDateTime: "2025-01-14T06:00:00+01:00" },
    { eventTypeCode: "ARRI", eventClassifierCode: "EST", eventDateTime: "2025-01-14T09:00:00+01:00" },
    { eventTypeCode: "ARRI", eventClassifierCode: "ACT", eventDateTime: "2025-01-14T09:30:00+01:00" },
    { eventTypeCode: "DEPA", eventClassifierCode: "PLN", eventDateTime: "2025-01-15T18:00:00+01:00" },
    { eventTypeCode: "DEPA", eventClassifierCode: "EST", eventDateTime: "2025-01-15T22:00:00+01:00" },
  ];
  s.vesselSchedules[0]!.isDummyVessel = true;
  handler = () => json([s]);
  const [sailing] = await client().vesselSchedules(VESSEL);
  expect(sailing!.calls[0]!.arrival).toEqual({
    planned: "2025-01-14T06:00:00+01:00",
    estimated: "2025-01-14T09:00:00+01:00",
    actual: "2025-01-14T09:30:00+01:00",
  });
  expect(sailing!.calls[0]!.departure).toEqual({
    planned: "2025-01-15T18:00:00+01:00",
    estimated: "2025-01-15T22:00:00+01:00",
  });
  expect(sailing!.vessel).toBeNull();
  expect(sailing!.dummyVessel).toBe(true);
});

type Obj = Record<string, unknown>;
const at = (o: unknown, ...path: Array<string | number>): Obj =>
  path.reduce<Obj>((cur, k) => cur[k] as Obj, o as Obj);

/** Broken bodies: [what, endpoint index, body from the example, the field the first issue must name]. */
const BROKEN: Array<[string, number, () => unknown, string]> = [
  [
    "missing required placeOfReceipt",
    0,
    () => {
      const r = clone(exampleOf("PointToPoint")) as Obj;
      delete r.placeOfReceipt;
      return [r];
    },
    "$[0].placeOfReceipt: required",
  ],
  [
    "empty legs",
    0,
    () => [{ ...(exampleOf("PointToPoint") as Obj), legs: [] }],
    "$[0].legs: needs at least 1",
  ],
  [
    "wrong enum receiptTypeAtOrigin",
    0,
    () => [{ ...(exampleOf("PointToPoint") as Obj), receiptTypeAtOrigin: "DOOR" }],
    '$[0].receiptTypeAtOrigin: "DOOR" is not one of CY, SD, CFS',
  ],
  [
    "transport matching no alternative",
    0,
    () => {
      const r = clone(exampleOf("PointToPoint"));
      at(r, "legs", 0, "transport").modeOfTransport = "SHIP";
      return [r];
    },
    "$[0].legs[0].transport.modeOfTransport",
  ],
  [
    "date-time without offset",
    0,
    () => {
      const r = clone(exampleOf("PointToPoint"));
      at(r, "legs", 0, "departure").dateTime = "2025-01-14T09:21:00";
      return [r];
    },
    "$[0].legs[0].departure.dateTime",
  ],
  [
    "transitTime as a string",
    0,
    () => [{ ...(exampleOf("PointToPoint") as Obj), transitTime: "10" }],
    "$[0].transitTime: must be a number, got string",
  ],
  [
    "isDummyVessel as a string",
    1,
    () => {
      const p = clone(exampleOf("PortSchedule"));
      at(p, "vesselSchedules", 0).isDummyVessel = "no";
      return [p];
    },
    "$[0].vesselSchedules[0].isDummyVessel: must be a boolean",
  ],
  [
    "cut-off on 30 February",
    1,
    () => {
      const p = clone(exampleOf("PortSchedule"));
      at(p, "vesselSchedules", 0, "cutOffTimes", 0).cutOffDateTime = "2025-02-30T12:00:00Z";
      return [p];
    },
    '$[0].vesselSchedules[0].cutOffTimes[0].cutOffDateTime: "2025-02-30T12:00:00Z" is not a real instant',
  ],
  [
    "wrong enum eventClassifierCode",
    2,
    () => {
      const s = clone(exampleOf("ServiceSchedule"));
      at(s, "vesselSchedules", 0, "transportCalls", 0, "timestamps", 0).eventClassifierCode = "GUESS";
      return [s];
    },
    "$[0].vesselSchedules[0].transportCalls[0].timestamps[0].eventClassifierCode",
  ],
  [
    "IMO number of 6 digits",
    2,
    () => {
      const s = clone(exampleOf("ServiceSchedule"));
      at(s, "vesselSchedules", 0, "vessel").vesselIMONumber = "932148";
      return [s];
    },
    "$[0].vesselSchedules[0].vessel.vesselIMONumber",
  ],
  [
    "missing carrierServiceCode",
    2,
    () => {
      const s = clone(exampleOf("ServiceSchedule")) as Obj;
      delete s.carrierServiceCode;
      return [s];
    },
    "$[0].carrierServiceCode: required",
  ],
  [
    "an object instead of the array",
    2,
    () => exampleOf("ServiceSchedule"),
    "$: must be an array, got object",
  ],
  [
    "null for a vessel",
    2,
    () => {
      const s = clone(exampleOf("ServiceSchedule"));
      at(s, "vesselSchedules", 0).vessel = null;
      return [s];
    },
    "$[0].vesselSchedules[0].vessel: must be an object, got null",
  ],
];

test("broken bodies are refused as invalid_payload naming the field", async () => {
  for (const [what, endpoint, body, field] of BROKEN) {
    handler = () => json(body());
    const err = await failure(ENDPOINTS[endpoint]!.call(client()));
    expect(err.kind, what).toBe("invalid_payload");
    expect(err.details.issues?.[0], what).toContain(field);
  }
});

test("non-JSON and oversized bodies are refused as invalid_payload", async () => {
  handler = () => new Response("<html>maintenance</html>", { headers: { "Content-Type": "text/html" } });
  const notJson = await failure(client().vesselSchedules(VESSEL));
  expect([notJson.kind, notJson.details.issues]).toEqual(["invalid_payload", ["$: not JSON"]]);

  // Streamed without a Content-Length: the cap is enforced while reading.
  const chunk = new TextEncoder().encode(`${JSON.stringify(exampleOf("ServiceSchedule"))},`);
  handler = () =>
    new Response(
      new ReadableStream({
        start(ctl) {
          ctl.enqueue(new TextEncoder().encode("["));
          for (let i = 0; i < 200; i++) ctl.enqueue(chunk);
          ctl.close();
        },
      }),
    );
  const huge = await failure(client({ maxBodyBytes: 64 * 1024 }).vesselSchedules(VESSEL));
  expect(huge.kind).toBe("invalid_payload");
  expect(huge.details.issues).toEqual(["$: body larger than 65536 bytes"]);
  handler = () => json(Array(200).fill(exampleOf("ServiceSchedule")));
  const declared = await failure(client({ maxBodyBytes: 64 * 1024 }).vesselSchedules(VESSEL));
  expect(declared.details.issues).toEqual(["$: body larger than 65536 bytes"]);
});

/** `n` valid vessel schedules told apart by service code, served `size` a page behind Next-Page-Cursor. */
function pagedSchedules(n: number, size: number, breakPage?: number) {
  const all = Array.from({ length: n }, (_, i) => ({
    ...(exampleOf("ServiceSchedule") as Obj),
    carrierServiceCode: `S${i}`,
  }));
  return (url: URL) => {
    const offset = Number(url.searchParams.get("cursor")?.replace("c", "") ?? 0);
    const page: unknown[] = all.slice(offset, offset + size);
    if (breakPage !== undefined && offset / size === breakPage)
      page[0] = { ...(page[0] as Obj), vesselSchedules: "none" };
    const next = offset + size < all.length ? { "Next-Page-Cursor": `c${offset + size}` } : undefined;
    return json(page, { headers: next });
  };
}

test("pagination follows Next-Page-Cursor to the end, keeping every filter and the limit", async () => {
  handler = pagedSchedules(7, 3);
  requests.length = 0;
  const sailings = await client({ pageLimit: 3 }).vesselSchedules({
    carrierServiceCode: "FE1",
    startDate: "2025-01-01",
  });
  expect(sailings.map((s) => s.serviceCode)).toEqual(["S0", "S1", "S2", "S3", "S4", "S5", "S6"]);
  expect(requests.map((u) => u.searchParams.get("cursor"))).toEqual([null, "c3", "c6"]);
  for (const u of requests) {
    expect(u.searchParams.get("carrierServiceCode")).toBe("FE1");
    expect(u.searchParams.get("startDate")).toBe("2025-01-01");
    expect(u.searchParams.get("limit")).toBe("3");
  }
});

test("a malformed later page fails the whole call: no partial result", async () => {
  handler = pagedSchedules(7, 3, 1);
  const err = await failure(client({ pageLimit: 3 }).vesselSchedules(VESSEL));
  expect(err.kind).toBe("invalid_payload");
  expect(err.message).toContain("page 2");
  expect(err.details.issues?.[0]).toContain("$[0].vesselSchedules: must be an array");
});

test("a cursor chain that never ends stops at maxPages; a repeated cursor at once", async () => {
  handler = (url) =>
    json([], {
      headers: { "Next-Page-Cursor": `x${Number(url.searchParams.get("cursor")?.slice(1) ?? 0) + 1}` },
    });
  requests.length = 0;
  const endless = await failure(client({ maxPages: 4 }).vesselSchedules(VESSEL));
  expect(endless.kind).toBe("invalid_payload");
  expect(requests.length).toBe(4);
  handler = () => json([], { headers: { "Next-Page-Cursor": "same" } });
  requests.length = 0;
  const loop = await failure(client().vesselSchedules(VESSEL));
  expect(loop.message).toContain("cursor repeats");
  expect(requests.length).toBe(2);
});

test("a 5xx then recovery: the page is retried with doubling back-off and the call succeeds", async () => {
  let calls = 0;
  handler = () =>
    ++calls <= 2
      ? json(errorExamples("/v1/vessel-schedules", "500")[0], { status: 503 })
      : json([exampleOf("ServiceSchedule")]);
  const waits: number[] = [];
  const sailings = await client({
    retries: 2,
    retryDelayMs: 200,
    sleep: async (ms) => void waits.push(ms),
  }).vesselSchedules(VESSEL);
  expect(sailings.length).toBe(1);
  expect(calls).toBe(3);
  expect(waits).toEqual([200, 400]);

  // With the real timer too, and a network failure counted like a 5xx.
  calls = 0;
  handler = () => (++calls === 1 ? json({}, { status: 502 }) : json([exampleOf("ServiceSchedule")]));
  expect((await client({ retries: 1, retryDelayMs: 20 }).vesselSchedules(VESSEL)).length).toBe(1);
});

test("a 5xx that persists is unavailable after the retries; the OpenAPI's 500 example is kept in the message", async () => {
  let calls = 0;
  handler = () => {
    calls++;
    return json(errorExamples("/v1/port-schedules", "500")[0], { status: 500 });
  };
  const err = await failure(client({ retries: 2 }).portSchedules(PORT));
  expect([err.kind, err.status, calls]).toEqual(["unavailable", 500, 3]);
  expect(err.message).toContain("Internal Server Error");
});

test("429 waits the carrier's Retry-After when short, and is rate_limited when long", async () => {
  let calls = 0;
  handler = () => (++calls === 1 ? json({}, { status: 429, headers: { "Retry-After": "2" } }) : json([]));
  const waits: number[] = [];
  await client({ sleep: async (ms) => void waits.push(ms) }).portSchedules(PORT);
  expect(waits).toEqual([2000]);

  handler = () => json({}, { status: 429, headers: { "Retry-After": "3600" } });
  requests.length = 0;
  const err = await failure(client().portSchedules(PORT));
  expect([err.kind, err.details.retryAfterSeconds, requests.length]).toEqual(["rate_limited", 3600, 1]);
});

test("404 is rejected (not found) and 400 is rejected with the DCSA error's property, neither retried", async () => {
  handler = () => new Response("no such carrier", { status: 404 });
  requests.length = 0;
  const notFound = await failure(client().pointToPointRoutes(P2P));
  expect([notFound.kind, notFound.status, requests.length]).toEqual(["rejected", 404, 1]);

  handler = () => json(errorExamples("/v1/point-to-point-routes", "400")[0], { status: 400 });
  const bad = await failure(client().pointToPointRoutes(P2P));
  expect([bad.kind, bad.status]).toEqual(["rejected", 400]);
  expect(bad.details.issues).toEqual(["placeOfDelivery: PlaceOfDelivery does not exist"]);
});

test("a network failure or a timeout is unavailable", async () => {
  const dead = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const url = `http://127.0.0.1:${dead.port}`;
  dead.stop(true);
  const refused = await failure(new CsClient({ scac: "X", baseUrl: url, retries: 0 }).portSchedules(PORT));
  expect([refused.kind, refused.details.timeout]).toEqual(["unavailable", false]);

  handler = () => new Promise((r) => setTimeout(() => r(json([])), 500));
  const slow = await failure(client({ timeoutMs: 50, retries: 0 }).portSchedules(PORT));
  expect([slow.kind, slow.details.timeout]).toEqual(["unavailable", true]);
});

test("queries that break the OpenAPI's parameters are refused before any request", async () => {
  requests.length = 0;
  const cases: Array<[() => Promise<unknown>, string]> = [
    [
      () => client().pointToPointRoutes({ placeOfReceipt: "nlams", placeOfDelivery: "SGSIN" }),
      "query.placeOfReceipt",
    ],
    [
      () => client().pointToPointRoutes({ ...P2P, departureStartDate: "2025-13-01" }),
      "query.departureStartDate",
    ],
    [() => client().pointToPointRoutes({ ...P2P, maxTranshipment: -1 }), "query.maxTranshipment"],
    [() => client().portSchedules({ UNLocationCode: "NLAMS", date: "14/01/2025" }), "query.date"],
    [() => client().vesselSchedules({ vesselIMONumber: "93214" }), "query.vesselIMONumber"],
    [() => client({ pageLimit: 0 }).portSchedules(PORT), "query.limit"],
    [() => client().vesselSchedules({ startDate: "2025-01-01" }), "need a filter"],
  ];
  for (const [call, field] of cases) {
    const err = await call().then(
      () => null,
      (e: unknown) => e as Error,
    );
    expect(err).toBeInstanceOf(RangeError);
    expect(err!.message).toContain(field);
  }
  expect(requests.length).toBe(0);
});

test("a base URL ending in /v1 is not doubled", async () => {
  handler = () => json([]);
  requests.length = 0;
  await client({ baseUrl: `${base}/v1/` }).portSchedules(PORT);
  expect(requests[0]!.pathname).toBe("/TEST/v1/port-schedules");
});
