/**
 * What the ONE Record client reads and refuses: the IATA examples (../shared/reference/one-record/)
 * in the forms JSON-LD allows, and broken bodies, each a typed malformed error naming the problem.
 * Then an airline server that misbehaves over HTTP (not JSON, huge, wrong type, off-server links,
 * a bad second page, errors, silence): a typed error every time and never a snapshot.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { referenceDirFrom } from "../../common/sources-dir.ts";
import { AirlineError } from "../../ingest/airlines/connector.ts";
import {
  OneRecordConnector,
  parseDateTime,
  parseEventCollection,
  parseLogisticsEvent,
  parseWaybill,
} from "../../ingest/airlines/one-record.ts";
import { CARGO, PORTOLAN } from "../../ingest/airlines/one-record-vocab.ts";

const REF = join(referenceDirFrom(), "one-record");
const EXAMPLE_HOST = "https://1r.example.com";
const SHIPMENT = `${EXAMPLE_HOST}/logistics-objects/1a8ded38-1804-467c-a369-81a411416b3c`;
/** A reference example, parsed afresh (tests change their copies), its host optionally replaced. */
const example = (file: string, host = EXAMPLE_HOST) =>
  JSON.parse(readFileSync(join(REF, file), "utf8").replaceAll(EXAMPLE_HOST, host));

function malformed(read: () => unknown): string {
  try {
    read();
  } catch (err) {
    if (err instanceof AirlineError && err.kind === "malformed") return err.message;
    throw err;
  }
  throw new Error("read without complaint");
}

/** The compacted example in JSON-LD expanded form: full IRIs, every value in an array. */
function expand(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(expand);
  if (typeof node !== "object" || node === null) return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === "@context") continue;
    const key = k.startsWith("cargo:") ? `${CARGO}${k.slice(6)}` : k;
    const value = typeof v === "string" && v.startsWith("cargo:") ? `${CARGO}${v.slice(6)}` : expand(v);
    out[key] = k.startsWith("@") ? value : Array.isArray(value) ? value : [value];
  }
  return out;
}

describe("the IATA examples", () => {
  test("LogisticsEvent.json: a lone event without @id gets a stable digest id", () => {
    const a = parseLogisticsEvent(example("LogisticsEvent.json"), SHIPMENT);
    expect(a.event).toEqual({
      id: expect.stringMatching(/^sha256-[0-9a-f]{32}$/),
      code: "DEP",
      timeType: "ACTUAL",
      at: "2023-04-01T10:38:01.000Z",
      airport: null,
      flight: null,
      toAirport: null,
      pieces: null,
      partial: false,
    });
    expect(a.created).toBe(Date.parse("2023-04-01T10:38:01Z"));
    expect(parseLogisticsEvent(example("LogisticsEvent.json")).event.id).toBe(a.event.id);
  });

  test("LogisticsEvent_with_id.json: the id is the last segment of @id", () => {
    const { event } = parseLogisticsEvent(example("LogisticsEvent_with_id.json"), SHIPMENT);
    expect([event.id, event.code, event.timeType]).toEqual([
      "afb4b8cf-288a-459c-97fd-ccd538ec527f",
      "DEP",
      "ACTUAL",
    ]);
  });

  test("LogisticsEvents_list.json: plain and object eventTimeType, eventFor and linkedObject", () => {
    const page = parseEventCollection(example("LogisticsEvents_list.json"), SHIPMENT);
    expect(page.total).toBe(2);
    expect(page.events.map((e) => [e.event.id, e.event.code, e.event.timeType])).toEqual([
      ["afb4b8cf-288a-459c-97fd-ccd538ec527f", "DEP", "ACTUAL"],
      ["afb4b8cf-288a-459c-97fd-ccd538ec528f", "MAN", "ACTUAL"],
    ]);
  });

  test("the same events in expanded form, and with an @vocab context, read the same", () => {
    const compact = parseEventCollection(example("LogisticsEvents_list.json"), SHIPMENT);
    const expanded = expand(example("LogisticsEvents_list.json")) as Record<string, unknown>;
    // The collection's own terms are api: ones; expand() only rewrote cargo:.
    expanded["@context"] = { api: "https://onerecord.iata.org/ns/api#" };
    expect(parseEventCollection(expanded, SHIPMENT)).toEqual(compact);
    const vocab = JSON.parse(
      JSON.stringify(example("LogisticsEvent_with_id.json")).replaceAll('"cargo:event', '"event'),
    );
    vocab["@context"] = { cargo: CARGO, "@vocab": CARGO };
    expect(parseLogisticsEvent(vocab, SHIPMENT)).toEqual(
      parseLogisticsEvent(example("LogisticsEvent_with_id.json"), SHIPMENT),
    );
  });

  test("an empty collection has no hasItem; a collection of one has the object itself", () => {
    const list = example("LogisticsEvents_list.json");
    expect(
      parseEventCollection({ ...list, "api:hasItem": undefined, "api:hasTotalItems": 0 }).events,
    ).toEqual([]);
    const one = parseEventCollection({
      ...list,
      "api:hasItem": list["api:hasItem"][1],
      "api:hasTotalItems": 1,
    });
    expect(one.events.map((e) => e.event.code)).toEqual(["MAN"]);
  });
});

test.each([
  ["2023-04-01T10:38:01.000Z", "2023-04-01T10:38:01.000Z"],
  ["2023-04-01T12:38:01+02:00", "2023-04-01T10:38:01.000Z"],
  ["2023-04-01T10:38Z", "2023-04-01T10:38:00.000Z"],
  ["2024-02-29T00:00:00Z", "2024-02-29T00:00:00.000Z"],
  ["2023-02-29T00:00:00Z", null],
  ["2023-02-30T00:00:00Z", null],
  ["2023-13-01T00:00:00Z", null],
  ["2023-04-01T24:00:00Z", null],
  ["2023-04-01T10:38:01", null],
  ["2023-04-01", null],
  ["01/04/2023 10:38", null],
])("xsd:dateTime %s reads as %s", (text, iso) => {
  const ms = parseDateTime(text);
  expect(ms === null ? null : new Date(ms).toISOString()).toBe(iso);
});

/** The list example with its second event changed by `edit`. */
function brokenList(edit: (event: Record<string, unknown>) => void): unknown {
  const list = example("LogisticsEvents_list.json");
  list["@context"].portolan = PORTOLAN;
  edit(list["api:hasItem"][1]);
  return list;
}

test.each<[string, () => unknown, string]>([
  ["no eventCode", () => brokenList((e) => delete e["cargo:eventCode"]), "no cargo:eventCode"],
  [
    "an eventCode from another list",
    () => brokenList((e) => (e["cargo:eventCode"] = { "@id": "https://example.com/codes#DEP" })),
    "is not a StatusCode",
  ],
  [
    "a code of the wrong shape",
    () =>
      brokenList(
        (e) => (e["cargo:eventCode"] = { "@id": "https://onerecord.iata.org/ns/code-lists/StatusCode#dep" }),
      ),
    "is not a StatusCode",
  ],
  ["no eventDate", () => brokenList((e) => delete e["cargo:eventDate"]), "no cargo:eventDate"],
  [
    "a month 13",
    () => brokenList((e) => (e["cargo:eventDate"] = { "@value": "2023-13-01T10:38:01Z" })),
    'hasItem[1].cargo:eventDate: "2023-13-01T10:38:01Z" is not an xsd:dateTime',
  ],
  [
    "a date without its offset",
    () => brokenList((e) => (e["cargo:eventDate"] = "2023-04-01T10:38:01")),
    "is not an xsd:dateTime",
  ],
  [
    "a number for a date",
    () => brokenList((e) => (e["cargo:eventDate"] = 1680345481000)),
    "is not an xsd:dateTime",
  ],
  [
    "two dates",
    () => brokenList((e) => (e["cargo:eventDate"] = ["2023-04-01T10:38:01Z", "2023-04-02T10:38:01Z"])),
    "expected one value, got 2",
  ],
  [
    "a bad creationDate",
    () => brokenList((e) => (e["cargo:creationDate"] = "yesterday")),
    "cargo:creationDate",
  ],
  [
    "an event typed as something else",
    () => brokenList((e) => (e["@type"] = "cargo:Shipment")),
    "@type: cargo:Shipment, expected cargo:LogisticsEvent",
  ],
  ["an event without @type", () => brokenList((e) => delete e["@type"]), "@type: missing"],
  ["an event without @id", () => brokenList((e) => delete e["@id"]), "no @id"],
  [
    "an unknown time type",
    () => brokenList((e) => (e["cargo:eventTimeType"] = "cargo:SOMETIME")),
    "is not one of ACTUAL, ESTIMATED",
  ],
  [
    "a partial indicator that is no boolean",
    () => brokenList((e) => (e["cargo:partialEventIndicator"] = "maybe")),
    "is not a boolean",
  ],
  [
    "an event of another logistics object",
    () => brokenList((e) => (e["cargo:eventFor"] = { "@id": `${EXAMPLE_HOST}/logistics-objects/other` })),
    "names https://1r.example.com/logistics-objects/other",
  ],
  [
    "a negative piece count",
    () => brokenList((e) => (e["portolan:pieceCount"] = -1)),
    "is not a non-negative integer",
  ],
  [
    "a flight that is no flight number",
    () =>
      brokenList(
        (e) =>
          (e["portolan:flight"] = {
            "@type": "cargo:TransportMovement",
            "cargo:transportIdentifier": "tomorrow",
          }),
      ),
    "is not a flight number",
  ],
  [
    "a collection typed as something else",
    () => ({ ...example("LogisticsEvents_list.json"), "@type": "cargo:Waybill" }),
    "$.@type: cargo:Waybill, expected api:Collection",
  ],
  ["a string for a body", () => "events", "expected a JSON-LD object"],
  ["an array of two for a body", () => [{}, {}], "expected a JSON-LD object"],
  ["null for a body", () => null, "expected a JSON-LD object"],
  [
    "a literal where an event goes",
    () => ({ ...example("LogisticsEvents_list.json"), "api:hasItem": [42] }),
    "api:hasItem[0]: expected an object, got 42",
  ],
])("refused: %s", (_, body, message) => {
  const list = body();
  expect(malformed(() => parseEventCollection(list, SHIPMENT))).toContain(message);
});

test.each<[string, Record<string, unknown>, string]>([
  ["a Waybill typed otherwise", { "@type": "cargo:Shipment" }, "expected cargo:Waybill"],
  [
    "another waybill's number",
    { "cargo:waybillNumber": "99999995" },
    "the lookup for 02012345675 answered waybill 02099999995",
  ],
  ["no number", { "cargo:waybillNumber": undefined }, "are not an air waybill number"],
  [
    "a weight in stones",
    {
      "cargo:shipment": {
        "@id": `${EXAMPLE_HOST}/s`,
        "cargo:totalGrossWeight": { "cargo:numericalValue": 3, "cargo:unit": { "@id": "https://x#STN" } },
      },
    },
    "is not KGM or LBR",
  ],
])("waybill refused: %s", (_, change, message) => {
  const waybill = {
    "@context": { cargo: CARGO },
    "@id": `${EXAMPLE_HOST}/logistics-objects/w`,
    "@type": "cargo:Waybill",
    "cargo:waybillPrefix": "020",
    "cargo:waybillNumber": "12345675",
    ...change,
  };
  expect(malformed(() => parseWaybill(JSON.parse(JSON.stringify(waybill)), "02012345675"))).toContain(
    message,
  );
});

test("a waybill in pounds reads in kilograms; pieces are counted", () => {
  const w = parseWaybill(
    {
      "@context": { cargo: CARGO },
      "@id": `${EXAMPLE_HOST}/logistics-objects/w`,
      "@type": "cargo:Waybill",
      "cargo:waybillPrefix": "020",
      "cargo:waybillNumber": "12345675",
      "cargo:departureLocation": { "cargo:locationCodes": [{ "cargo:code": "FRA" }] },
      "cargo:shipment": {
        "@id": `${EXAMPLE_HOST}/s`,
        "@type": "cargo:Shipment",
        "cargo:totalGrossWeight": {
          "cargo:numericalValue": { "@value": 100 },
          "cargo:unit": "https://onerecord.iata.org/ns/code-lists/MeasurementUnitCode#LBR",
        },
        "cargo:pieces": [{ "@id": `${EXAMPLE_HOST}/p1` }, { "@id": `${EXAMPLE_HOST}/p2` }],
      },
    },
    "02012345675",
  );
  expect(w).toMatchObject({
    origin: "FRA",
    destination: null,
    shipment: { pieces: 2, weightKg: 45.4, bare: false },
  });
});

describe("an airline server that misbehaves", () => {
  const AWB = "02012345675";
  /** What each path answers; tests set it. */
  let routes: Record<string, (url: URL) => Response | Promise<Response>> = {};
  let server: ReturnType<typeof Bun.serve>;
  let origin: string;
  const ld = (body: unknown, init: ResponseInit = {}) =>
    new Response(typeof body === "string" ? body : JSON.stringify(body), {
      ...init,
      headers: { "Content-Type": "application/ld+json", ...(init.headers ?? {}) },
    });

  beforeAll(() => {
    server = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: (req) => {
        const url = new URL(req.url);
        const route = routes[url.pathname];
        return route ? route(url) : new Response("no", { status: 404 });
      },
    });
    origin = `http://127.0.0.1:${server.port}`;
  });
  afterAll(() => server?.stop(true));

  const shipmentId = () => `${origin}/logistics-objects/1a8ded38-1804-467c-a369-81a411416b3c`;
  /** A well-behaved airline built from the IATA examples, served from this origin. */
  function wellBehaved() {
    routes = {
      "/waybills/020-12345675": () =>
        new Response(null, { status: 303, headers: { Location: `${origin}/logistics-objects/w` } }),
      "/logistics-objects/w": () =>
        ld({
          "@context": { cargo: CARGO },
          "@id": `${origin}/logistics-objects/w`,
          "@type": "cargo:Waybill",
          "cargo:waybillPrefix": "020",
          "cargo:waybillNumber": "12345675",
          "cargo:shipment": { "@id": shipmentId(), "@type": "cargo:Shipment" },
        }),
      "/logistics-objects/1a8ded38-1804-467c-a369-81a411416b3c": () =>
        ld({
          "@context": { cargo: CARGO },
          "@id": shipmentId(),
          "@type": "cargo:Shipment",
          "cargo:pieces": [{ "@id": "p1" }],
        }),
      "/logistics-objects/1a8ded38-1804-467c-a369-81a411416b3c/logistics-events": () =>
        ld(example("LogisticsEvents_list.json", origin)),
    };
  }
  const connector = (timeoutMs?: number) =>
    new OneRecordConnector({ iata: "LH", baseUrl: origin }, { timeoutMs, maxBodyBytes: 64 * 1024 });
  const failure = (p: Promise<unknown>) =>
    p.then(
      () => ({ kind: "ok", message: "" }),
      (err: AirlineError) => ({ kind: err.kind, message: err.message }),
    );
  const eventsPath = "/logistics-objects/1a8ded38-1804-467c-a369-81a411416b3c/logistics-events";

  test("well behaved: the referenced Shipment is fetched, the examples' events read", async () => {
    wellBehaved();
    const snap = await connector().waybill(AWB);
    expect(snap).toMatchObject({ awb: AWB, pieces: 1, weightKg: null });
    expect(snap.events.map((e) => e.code)).toEqual(["DEP", "MAN"]);
  });

  test.each<[string, () => void, string, string]>([
    [
      "a body that is not JSON",
      () => (routes[eventsPath] = () => ld("<html>oops</html>")),
      "malformed",
      "body is not JSON",
    ],
    [
      "an HTML page",
      () =>
        (routes[eventsPath] = () => new Response("<html/>", { headers: { "Content-Type": "text/html" } })),
      "malformed",
      "Content-Type text/html",
    ],
    [
      "a huge body, announced",
      () => (routes[eventsPath] = () => ld(`"${"x".repeat(100_000)}"`)),
      "malformed",
      "body larger than 65536 bytes",
    ],
    [
      "a huge body, streamed",
      () =>
        (routes[eventsPath] = () =>
          new Response(
            new ReadableStream({
              pull(c) {
                c.enqueue(new TextEncoder().encode("x".repeat(16_384)));
              },
            }),
            { headers: { "Content-Type": "application/ld+json" } },
          )),
      "malformed",
      "body larger than 65536 bytes",
    ],
    [
      "an event without a code",
      () => {
        const list = example("LogisticsEvents_list.json", origin);
        delete list["api:hasItem"][0]["cargo:eventCode"];
        routes[eventsPath] = () => ld(list);
      },
      "malformed",
      "no cargo:eventCode",
    ],
    [
      "a lookup redirecting to another server",
      () =>
        (routes["/waybills/020-12345675"] = () =>
          new Response(null, {
            status: 303,
            headers: { Location: "https://elsewhere.example/logistics-objects/w" },
          })),
      "malformed",
      "is not on the airline's server",
    ],
    [
      "a second page that is broken",
      () => {
        const list = example("LogisticsEvents_list.json", origin);
        const [first, second] = list["api:hasItem"];
        delete second["cargo:eventDate"];
        routes[eventsPath] = (url) =>
          ld({
            ...list,
            "api:hasItem": url.searchParams.get("skip") === "1" ? second : first,
            "api:hasTotalItems": 2,
          });
      },
      "malformed",
      "no cargo:eventDate",
    ],
    [
      "a total it never reaches",
      () => {
        const list = example("LogisticsEvents_list.json", origin);
        routes[eventsPath] = () => ld({ ...list, "api:hasTotalItems": 5 });
      },
      "malformed",
      "listed twice",
    ],
    [
      "a 500",
      () => (routes[eventsPath] = () => new Response("boom", { status: 500 })),
      "unavailable",
      "HTTP 500",
    ],
    [
      "a 429",
      () => (routes[eventsPath] = () => new Response("slow down", { status: 429 })),
      "unavailable",
      "HTTP 429",
    ],
    [
      "a 400",
      () => (routes[eventsPath] = () => new Response("bad", { status: 400 })),
      "malformed",
      "unexpected HTTP 400",
    ],
    ["a 404 on the lookup", () => delete routes["/waybills/020-12345675"], "not_found", "HTTP 404"],
  ])("%s: %s", async (_, breakIt, kind, message) => {
    wellBehaved();
    breakIt();
    const got = await failure(connector().waybill(AWB));
    expect(got.kind).toBe(kind);
    expect(got.message).toContain(message);
  });

  test("an airline that does not answer in time is unavailable", async () => {
    wellBehaved();
    routes[eventsPath] = async () => {
      await Bun.sleep(1000);
      return ld(example("LogisticsEvents_list.json", origin));
    };
    const got = await failure(connector(100).waybill(AWB));
    expect(got).toEqual({ kind: "unavailable", message: expect.stringContaining("no answer within 100 ms") });
  });
});
