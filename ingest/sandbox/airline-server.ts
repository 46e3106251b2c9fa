/**
 * The sandbox airline's HTTP surface: one IATA ONE Record server per played airline under /{IATA}
 * (its {{baseURL}}), serving the Waybill and Shipment logistics objects of any well-formed AWB of the
 * airline and the Shipment's logistics-events, as the simulator publishes them by the sandbox clock.
 * Plus the waybill lookup ONE Record leaves to implementers, GET /{IATA}/waybills/{awb} (303 to the
 * Waybill), and /_sandbox/* controls. A plain fetch handler: main.ts serves it on its own port.
 */
import { Lru } from "../../common/lru.ts";
import { type AwbRefusal, parseAwb } from "../airlines/awb.ts";
import { API, CARGO, LD_JSON, PORTOLAN, STATUS_CODE, UNIT } from "../airlines/one-record-vocab.ts";
import { DEMO_AWBS } from "./airline-demo.ts";
import { type AirEvent, type SimulatedAwb, simulateAwb } from "./airline-simulate.ts";
import {
  type AirlineWorld,
  type Airport,
  type SandboxAirline,
  sandboxAirlineByIata,
} from "./airline-world.ts";
import { uuidFrom } from "./random.ts";
import type { SandboxClock } from "./server.ts";
import { DEFAULT_EPOCH } from "./simulate.ts";

export interface AirlineServerOptions {
  world: AirlineWorld;
  clock: SandboxClock;
  epoch?: number;
  /** When set, /{IATA}/* wants it as Authorization: Bearer. */
  apiKey?: string | null;
  /** Most events one response lists (api:hasTotalItems still counts them all; skip pages on). */
  pageSize?: number;
  /** Serves /_sandbox/clock (the sandbox carrier's, so one clock drives both). */
  clockControl?: (req: Request) => Promise<Response> | Response;
}

const CONTEXT = { cargo: CARGO, api: API, portolan: PORTOLAN, xsd: "http://www.w3.org/2001/XMLSchema#" };
const CACHE_SIZE = 256;
const HTTP_TITLE: Record<number, string> = {
  400: "Bad Request",
  401: "Not Authenticated",
  404: "Not Found",
  405: "Method Not Allowed",
};
/** cargo:eventName per code (short forms of the StatusCode list's descriptions). */
const EVENT_NAMES: Record<string, string> = {
  BKD: "Booked on flight",
  RCS: "Received from shipper, ready for carriage",
  MAN: "Manifested on flight",
  DEP: "Departed on flight",
  ARR: "Arrived on flight",
  RCF: "Received from flight",
  NFD: "Consignee notified of arrival",
  AWD: "Arrival documents delivered to consignee",
  DLV: "Delivered to consignee",
  DIS_OFLD: "Discrepancy: offloaded",
};

function ldJson(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": LD_JSON, "Content-Language": "en-US", ...headers },
  });
}

/** An api:Error body as the OpenAPI has it. */
function apiError(status: number, message: string, code = String(status)): Response {
  return ldJson(
    {
      "@context": CONTEXT,
      "@type": "api:Error",
      "api:hasTitle": HTTP_TITLE[status] ?? "Error",
      "api:hasErrorDetail": [{ "@type": "api:ErrorDetail", "api:hasCode": code, "api:hasMessage": message }],
    },
    status,
  );
}

const iso = (ms: number) => new Date(ms).toISOString();
const dateTime = (ms: number) => ({ "@type": "xsd:dateTime", "@value": iso(ms) });
const httpDate = (ms: number) => new Date(ms).toUTCString();

function location(a: Airport) {
  return {
    "@type": "cargo:Location",
    "cargo:locationType": "Airport",
    "cargo:locationName": a.name,
    "cargo:locationCodes": [
      { "@type": "cargo:CodeListElement", "cargo:code": a.iata, "cargo:codeListName": "IATA airport code" },
    ],
  };
}

/** Parses "awb-020-12345675" / "shipment-020-12345675" logistics object ids. */
const LO_ID = /^(awb|shipment)-(\d{3})-(\d{8})$/;

function uris(base: string, s: SimulatedAwb) {
  const number = `${s.awb.slice(0, 3)}-${s.awb.slice(3)}`;
  return {
    waybill: `${base}/logistics-objects/awb-${number}`,
    shipment: `${base}/logistics-objects/shipment-${number}`,
    piece: (i: number) => `${base}/logistics-objects/piece-${number}-${i}`,
    company: `${base}/logistics-objects/company-${s.airline.iata}`,
  };
}

function shipmentBody(base: string, s: SimulatedAwb) {
  const u = uris(base, s);
  return {
    "@id": u.shipment,
    "@type": "cargo:Shipment",
    "cargo:waybill": { "@id": u.waybill, "@type": "cargo:Waybill" },
    "cargo:totalGrossWeight": {
      "@type": "cargo:Value",
      "cargo:numericalValue": { "@type": "xsd:double", "@value": s.weightKg },
      "cargo:unit": { "@id": `${UNIT}KGM` },
    },
    "cargo:pieces": Array.from({ length: s.pieces }, (_, i) => ({
      "@id": u.piece(i + 1),
      "@type": "cargo:Piece",
    })),
  };
}

function waybillBody(base: string, s: SimulatedAwb, embedded: boolean) {
  const u = uris(base, s);
  return {
    "@context": CONTEXT,
    "@id": u.waybill,
    "@type": "cargo:Waybill",
    "cargo:waybillType": { "@id": "cargo:MASTER" },
    "cargo:waybillPrefix": s.awb.slice(0, 3),
    "cargo:waybillNumber": s.awb.slice(3),
    "cargo:departureLocation": location(s.origin),
    "cargo:arrivalLocation": location(s.destination),
    "cargo:shipment": embedded ? shipmentBody(base, s) : { "@id": u.shipment, "@type": "cargo:Shipment" },
  };
}

/**
 * One event as the IATA examples write it. The examples vary between {"@id": ...} and plain
 * "cargo:ACTUAL" for eventTimeType and between plain and {"@value"} literals: the sandbox uses
 * both (by the event id), so a client reading only one form fails here, not at a real airline.
 */
function eventBody(base: string, s: SimulatedAwb, e: AirEvent) {
  const u = uris(base, s);
  const id = uuidFrom(`${s.awb}|${e.key}`);
  const plain = Number.parseInt(id[0]!, 16) % 2 === 0;
  const body: Record<string, unknown> = {
    "@id": `${u.shipment}/logistics-events/${id}`,
    "@type": "cargo:LogisticsEvent",
    "cargo:creationDate": dateTime(e.created),
    "cargo:eventDate": dateTime(e.at),
    "cargo:eventCode": { "@id": `${STATUS_CODE}${e.code}`, "@type": "cargo:CodeListElement" },
    "cargo:eventName": EVENT_NAMES[e.code] ?? e.code,
    "cargo:eventTimeType": plain
      ? `cargo:${e.timeType}`
      : { "@id": `cargo:${e.timeType}`, "@type": "cargo:EventTimeType" },
    "cargo:partialEventIndicator": plain ? e.partial : { "@type": "xsd:boolean", "@value": e.partial },
    "cargo:eventFor": { "@id": u.shipment, "@type": "cargo:Shipment" },
    "cargo:eventLocation": location(e.airport),
    "cargo:recordingOrganization": { "@id": u.company, "@type": "cargo:Company" },
    "portolan:pieceCount": plain ? e.pieces : { "@type": "xsd:nonNegativeInteger", "@value": e.pieces },
  };
  if (e.flight) {
    body["portolan:flight"] = {
      "@type": "cargo:TransportMovement",
      "cargo:transportIdentifier": e.flight.flight,
      "cargo:departureLocation": location(e.flight.from),
      "cargo:arrivalLocation": location(e.flight.to),
    };
  }
  return body;
}

/** ONE Record's filter timestamps: 20190926T075830Z, or any ISO 8601 date-time. */
const stamp = (v: string) => {
  const basic = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(v);
  return basic
    ? Date.parse(`${basic[1]}-${basic[2]}-${basic[3]}T${basic[4]}:${basic[5]}:${basic[6]}Z`)
    : Date.parse(v);
};

/** A shipment's status updates as a collection: code and time filters, skip and limit. */
function eventsResponse(
  req: Request,
  base: string,
  s: SimulatedAwb,
  now: number,
  pageSize: number,
): Response {
  const q = new URL(req.url).searchParams;
  let list = s.events.filter((e) => e.created <= now);
  const lastModified = list.length ? list[list.length - 1]!.created : s.bookedAt;
  const codes = q
    .get("event-code")
    ?.split(",")
    .map((c) => c.trim().replace(STATUS_CODE, ""))
    .filter(Boolean);
  if (codes?.length) list = list.filter((e) => codes.includes(e.code));
  const bounds: Array<[string, (e: AirEvent) => number, (a: number, b: number) => boolean]> = [
    ["created-after", (e) => e.created, (a, b) => a > b],
    ["created-before", (e) => e.created, (a, b) => a < b],
    ["occurred-after", (e) => e.at, (a, b) => a > b],
    ["occurred-before", (e) => e.at, (a, b) => a < b],
  ];
  for (const [name, field, cmp] of bounds) {
    const raw = q.get(name);
    if (raw === null) continue;
    const t = stamp(raw);
    if (Number.isNaN(t)) return apiError(400, `${name}: "${raw}" is not a timestamp (20190926T075830Z)`);
    list = list.filter((e) => cmp(field(e), t));
  }
  const skip = Number(q.get("skip") ?? 0);
  const limit = Math.min(pageSize, Number(q.get("limit") ?? pageSize));
  if (!Number.isInteger(skip) || skip < 0 || !Number.isInteger(limit) || limit < 1)
    return apiError(400, "skip must be an integer >= 0 and limit an integer >= 1");
  const page = list.slice(skip, skip + limit).map((e) => eventBody(base, s, e));
  const body: Record<string, unknown> = {
    "@context": CONTEXT,
    "@id": `${uris(base, s).shipment}/logistics-events`,
    "@type": "api:Collection",
    "api:hasTotalItems": list.length,
  };
  // As the API chapter describes JSON-LD collections: no hasItem for none, the object for one.
  if (page.length === 1) body["api:hasItem"] = page[0];
  else if (page.length > 1) body["api:hasItem"] = page;
  return ldJson(body, 200, { "Last-Modified": httpDate(lastModified) });
}

/** The airlines the sandbox plays, with their AWB prefixes, hubs and paths. */
function airlinesListing(world: AirlineServerOptions["world"]): Response {
  return Response.json(
    [...world.airlines.values()].map((a) => ({
      iata: a.iata,
      icao: a.icao,
      name: a.name,
      awb_prefix: a.prefix,
      hub: a.hub.iata,
      base_path: `/${a.iata}`,
    })),
  );
}

export function createAirlineSandbox(opts: AirlineServerOptions): (req: Request) => Promise<Response> {
  const { world, clock } = opts;
  const epoch = opts.epoch ?? DEFAULT_EPOCH;
  const pageSize = opts.pageSize ?? 1000;
  const cache = new Lru<string, SimulatedAwb>(CACHE_SIZE);

  const simulated = (awb: string): SimulatedAwb | null => {
    const kept = cache.get(awb);
    if (kept) return kept;
    const made = simulateAwb(awb, { world, epoch });
    if (made) cache.set(awb, made);
    return made;
  };

  const authorized = (req: Request) =>
    !opts.apiKey || req.headers.get("Authorization")?.replace(/^Bearer\s+/i, "") === opts.apiKey;

  /** The waybill behind an AWB at this airline as of now, or the error to answer. */
  function waybillOf(airline: SandboxAirline, text: string): SimulatedAwb | Response {
    const parsed = parseAwb(text);
    if (!parsed.ok) {
      const refusal = parsed as AwbRefusal;
      // A number that fails its check digit was never issued: 404, with the hint in the message.
      return refusal.reason === "format"
        ? apiError(400, `"${text}": ${refusal.message}`, "INVALID_AWB")
        : apiError(404, `${refusal.awb}: ${refusal.message}`, "CHECK_DIGIT");
    }
    if (parsed.prefix !== airline.prefix)
      return apiError(
        404,
        `${parsed.awb} is not an air waybill of ${airline.name} (prefix ${airline.prefix})`,
      );
    const s = simulated(parsed.awb)!;
    if (s.bookedAt > clock.now()) return apiError(404, `${parsed.awb} has not been issued yet`, "NOT_ISSUED");
    return s;
  }

  function airlineRoute(req: Request, airline: SandboxAirline, rest: string, base: string): Response {
    if (req.method !== "GET" && req.method !== "HEAD")
      return apiError(405, "the sandbox airline is read-only");
    if (!authorized(req)) return apiError(401, "missing or wrong bearer token");
    const lookup = /^\/waybills\/([^/]+)$/.exec(rest);
    if (lookup) {
      const s = waybillOf(airline, decodeURIComponent(lookup[1]!));
      if (s instanceof Response) return s;
      return new Response(null, { status: 303, headers: { Location: uris(base, s).waybill } });
    }
    const lo = /^\/logistics-objects\/([^/]+)(\/logistics-events(?:\/([^/]+))?)?\/?$/.exec(rest);
    const id = lo && LO_ID.exec(lo[1]!);
    if (!lo || !id) return apiError(404, `no logistics object at ${rest}`);
    const s = waybillOf(airline, `${id[2]}${id[3]}`);
    if (s instanceof Response) return s;
    const isShipment = id[1] === "shipment";
    if (lo[2]) {
      if (!isShipment) return apiError(404, "status updates are recorded on the Shipment (cargo:shipment)");
      if (!lo[3]) return eventsResponse(req, base, s, clock.now(), pageSize);
      const e = s.events.find((x) => x.created <= clock.now() && uuidFrom(`${s.awb}|${x.key}`) === lo[3]);
      return e
        ? ldJson({ "@context": CONTEXT, ...eventBody(base, s, e) }, 200, {
            "Last-Modified": httpDate(e.created),
          })
        : apiError(404, `no logistics event ${lo[3]}`);
    }
    const embedded = new URL(req.url).searchParams.get("embedded") === "true";
    const body = isShipment
      ? { "@context": CONTEXT, ...shipmentBody(base, s) }
      : waybillBody(base, s, embedded);
    return ldJson(body, 200, {
      Type: `${CARGO}${isShipment ? "Shipment" : "Waybill"}`,
      Revision: "1",
      "Latest-Revision": "1",
      "Last-Modified": httpDate(s.bookedAt),
    });
  }

  return async (req: Request): Promise<Response> => {
    const url = new URL(req.url);
    const path = url.pathname;
    if (path === "/_sandbox/clock")
      return opts.clockControl
        ? opts.clockControl(req)
        : Response.json({ now: iso(clock.now()), mode: clock.mode });
    if (path === "/_sandbox/airlines") return airlinesListing(world);
    if (path === "/_sandbox/demo") return Response.json(DEMO_AWBS);
    if (path === "/healthz") return Response.json({ ok: true });
    const m = /^\/([A-Z0-9]{2})(\/.*)?$/i.exec(path);
    const airline = m && sandboxAirlineByIata(world, m[1]!);
    if (!m || !airline)
      return apiError(
        404,
        `no route ${path}: the sandbox plays ${[...world.airlines.values()].map((a) => a.iata).join(", ")}`,
      );
    return airlineRoute(req, airline, m[2] ?? "/", `${url.origin}/${airline.iata}`);
  };
}
