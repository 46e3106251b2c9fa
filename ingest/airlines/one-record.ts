/**
 * IATA ONE Record client: an airline's view of one air waybill (AirlineConnector).
 *
 * ONE Record addresses logistics objects by opaque URI only, so a waybill number is first resolved
 * by the airline's lookup, GET {baseUrl}/waybills/{prefix}-{serial}, which answers a redirect to the
 * Waybill logistics object (the sandbox airline serves it; docs/air-cargo.md). Then, as the OpenAPI
 * (2024-12) has it: GET the Waybill (?embedded=true, for its Shipment's pieces and weight) and GET
 * the Shipment's logistics-events collection (XFSU-style status updates live on the Shipment; on the
 * Waybill when it links none), following skip while api:hasTotalItems says more exist.
 *
 * Every body is read whole and checked before anything is returned: a body this client cannot read
 * is an AirlineError("malformed") naming the JSON path, never a snapshot missing what it could not
 * read. 404 is not_found; network failures, timeouts, 401/403, 429 and 5xx are unavailable.
 */
import { createHash } from "node:crypto";
import { calendarDayMs } from "../../common/calendar-date.ts";
import { readCapped } from "../../common/capped-body.ts";
import { countingErrors } from "../connector-errors.ts";
import { type AirlineConnector, AirlineError, type AwbEvent, type AwbSnapshot } from "./connector.ts";
import { LdError, LdNode } from "./json-ld.ts";
import {
  API,
  api,
  cargo,
  EVENT_TIME_TYPES,
  type EventTimeType,
  LD_JSON,
  PORTOLAN,
  STATUS_CODE,
  STATUS_CODE_PATTERN,
} from "./one-record-vocab.ts";

/** One airline's ONE Record server (PORTOLAN_AIRLINES entries). */
export interface OneRecordAirlineConfig {
  /** IATA airline code, e.g. "LH". */
  iata: string;
  /** The server's {{baseURL}}: logistics objects are {baseUrl}/logistics-objects/{id}. */
  baseUrl: string;
  /** Sent as Authorization: Bearer. */
  token?: string;
}

export interface OneRecordOptions {
  /** Per HTTP request, body included. Default 15 s. */
  timeoutMs?: number;
  /** A body larger than this is refused as malformed without being parsed. Default 4 MiB. */
  maxBodyBytes?: number;
  /** Pages of one events collection (a server that never reaches hasTotalItems). Default 20. */
  maxPages?: number;
}

const DEFAULTS: Required<OneRecordOptions> = {
  timeoutMs: 15_000,
  maxBodyBytes: 4 * 1024 * 1024,
  maxPages: 20,
};

/** Codes whose events name a flight (contract: AwbEvent.flight), and those that name where it flies to. */
const FLIGHT_CODES = new Set(["BKD", "MAN", "DEP", "ARR", "RCF"]);
const TO_AIRPORT_CODES = new Set(["BKD", "MAN", "DEP"]);
/** ONE Record's five time types onto the contract's three: an expectation is an estimate, a request a plan. */
const TIME_TYPE: Record<EventTimeType, AwbEvent["timeType"]> = {
  ACTUAL: "ACTUAL",
  ESTIMATED: "ESTIMATED",
  EXPECTED: "ESTIMATED",
  PLANNED: "PLANNED",
  REQUESTED: "PLANNED",
};

const malformed = (message: string, cause?: unknown) =>
  new AirlineError("malformed", message, cause === undefined ? undefined : { cause });

/** Runs a reader, turning JSON-LD shape errors into the contract's malformed error. */
function reading<T>(read: () => T): T {
  try {
    return read();
  } catch (err) {
    if (err instanceof LdError) throw malformed(err.message, err);
    throw err;
  }
}

// ---------------------------------------------------------------------------------------------
// Values

const DATE_TIME = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|([+-])(\d{2}):(\d{2}))$/i;

/** An xsd:dateTime with its offset (RFC 3339), as epoch ms; null when it is not one. */
export function parseDateTime(text: string): number | null {
  const m = DATE_TIME.exec(text);
  const day = m ? calendarDayMs(m[1]!) : null;
  if (!m || day === null) return null;
  const [h, mi, s] = [m[2], m[3], m[4] ?? "0"].map(Number) as [number, number, number];
  const ms = m[5] ? Math.floor(Number(`0${m[5]}`) * 1000) : 0;
  const offset =
    m[6]!.toUpperCase() === "Z" ? 0 : (m[7] === "-" ? -1 : 1) * (Number(m[8]) * 60 + Number(m[9]));
  if (h > 23 || mi > 59 || s > 59 || Math.abs(offset) > 14 * 60 || Number(m[9] ?? 0) > 59) return null;
  return day + ((h * 60 + mi) * 60 + s) * 1000 + ms - offset * 60_000;
}

function dateTime(node: LdNode, iri: string, required: true): number;
function dateTime(node: LdNode, iri: string, required: false): number | null;
function dateTime(node: LdNode, iri: string, required: boolean): number | null {
  const v = node.literal(iri);
  if (v === null) {
    if (required) throw new LdError(`${node.path}: no ${short(iri)}`);
    return null;
  }
  const ms = typeof v === "string" ? parseDateTime(v) : null;
  if (ms === null) {
    throw new LdError(
      `${node.where(iri)}: ${JSON.stringify(v)} is not an xsd:dateTime with a UTC offset (2023-04-01T10:38:01Z)`,
    );
  }
  return ms;
}

function bool(node: LdNode, iri: string): boolean | null {
  const v = node.literal(iri);
  if (v === null) return null;
  // The OpenAPI types xsd:boolean properties as strings: both spellings are read.
  if (v === true || v === "true") return true;
  if (v === false || v === "false") return false;
  throw new LdError(`${node.where(iri)}: ${JSON.stringify(v)} is not a boolean`);
}

function count(node: LdNode, iri: string): number | null {
  const v = node.literal(iri);
  if (v === null) return null;
  const n = typeof v === "string" && /^\d+$/.test(v) ? Number(v) : v;
  if (typeof n !== "number" || !Number.isSafeInteger(n) || n < 0)
    throw new LdError(`${node.where(iri)}: ${JSON.stringify(v)} is not a non-negative integer`);
  return n;
}

/** "cargo:eventDate" for messages. */
function short(iri: string): string {
  for (const [prefix, ns] of [
    ["cargo", cargo("")],
    ["api", API],
    ["portolan", PORTOLAN],
  ] as const) {
    if (iri.startsWith(ns)) return `${prefix}:${iri.slice(ns.length)}`;
  }
  return iri;
}

function requireType(node: LdNode, iri: string) {
  const types = node.types;
  if (!types.includes(iri)) {
    const got = types.length ? types.map(short).join(", ") : "missing";
    throw new LdError(`${node.path}.@type: ${got}, expected ${short(iri)}`);
  }
}

/** The IATA airport code of a Location (its cargo:locationCodes), or null when it names none. */
function airportOf(location: LdNode | null): string | null {
  if (!location) return null;
  for (const code of location.nodes(cargo("locationCodes"))) {
    const v = code.literal(cargo("code"));
    if (typeof v === "string" && /^[A-Z]{3}$/.test(v)) return v;
  }
  return null;
}

function statusCode(event: LdNode): string {
  const el = event.node(cargo("eventCode"));
  if (!el) throw new LdError(`${event.path}: no cargo:eventCode`);
  const id = el.id;
  const code = id?.startsWith(STATUS_CODE)
    ? id.slice(STATUS_CODE.length)
    : el.hasProperties
      ? el.literal(cargo("code"))
      : id; // a bare code, as the API's event-code filter accepts ("DEP")
  if (typeof code !== "string" || !STATUS_CODE_PATTERN.test(code)) {
    throw new LdError(
      `${event.where(cargo("eventCode"))}: ${JSON.stringify(id ?? code)} is not a StatusCode (${STATUS_CODE}DEP)`,
    );
  }
  return code;
}

function timeType(event: LdNode): AwbEvent["timeType"] {
  const iri = event.iri(cargo("eventTimeType"));
  if (iri === null) return "ACTUAL"; // a status update without one reports what happened
  const name = iri.startsWith(cargo("")) ? iri.slice(cargo("").length) : iri;
  if (!(EVENT_TIME_TYPES as readonly string[]).includes(name)) {
    throw new LdError(
      `${event.where(cargo("eventTimeType"))}: ${JSON.stringify(iri)} is not one of ${EVENT_TIME_TYPES.join(", ")}`,
    );
  }
  return TIME_TYPE[name as EventTimeType];
}

// ---------------------------------------------------------------------------------------------
// Logistics events

/** A status update and when the airline published it (ordering), as read from a body. */
export interface ReadEvent {
  event: AwbEvent;
  /** cargo:creationDate, epoch ms; null when the event does not say. */
  created: number | null;
}

interface EventContext {
  /** The logistics object whose event log this is: cargo:eventFor / cargo:linkedObject must name it. */
  owner: string | null;
  /** Events of an event log have URIs; a lone event body (a POST, a notification) may be blank. */
  requireId: boolean;
  /** For a blank event: its id is a digest of the body, stable across reads. */
  body?: unknown;
}

function readEvent(node: LdNode, ctx: EventContext): ReadEvent {
  requireType(node, cargo("LogisticsEvent"));
  const uri = node.id;
  if (!uri && ctx.requireId)
    throw new LdError(`${node.path}: no @id (events of a logistics-events list have URIs)`);
  const id = uri
    ? (uri.replace(/\/+$/, "").split("/").pop() ?? uri)
    : `sha256-${createHash("sha256")
        .update(JSON.stringify(ctx.body ?? null))
        .digest("hex")
        .slice(0, 32)}`;
  const code = statusCode(node);
  const at = dateTime(node, cargo("eventDate"), true);
  const created = dateTime(node, cargo("creationDate"), false);
  for (const link of [cargo("eventFor"), cargo("linkedObject")]) {
    const target = node.node(link)?.id ?? null;
    if (ctx.owner && target && target !== ctx.owner)
      throw new LdError(`${node.where(link)}: names ${target}, not ${ctx.owner}`);
  }
  const movement = node.node(`${PORTOLAN}flight`);
  let flight: string | null = null;
  if (movement) {
    const v = movement.literal(cargo("transportIdentifier"));
    if (typeof v !== "string" || !/^[A-Z0-9]{2}\d{1,4}[A-Z]?$/.test(v))
      throw new LdError(
        `${movement.where(cargo("transportIdentifier"))}: ${JSON.stringify(v)} is not a flight number`,
      );
    flight = v;
  }
  return {
    event: {
      id,
      code,
      timeType: timeType(node),
      at: new Date(at).toISOString(),
      airport: airportOf(node.node(cargo("eventLocation"))),
      flight: FLIGHT_CODES.has(code) ? flight : null,
      toAirport: TO_AIRPORT_CODES.has(code)
        ? airportOf(movement?.node(cargo("arrivalLocation")) ?? null)
        : null,
      pieces: count(node, `${PORTOLAN}pieceCount`),
      partial: bool(node, cargo("partialEventIndicator")) ?? false,
    },
    created,
  };
}

/**
 * One LogisticsEvent body (LogisticsEvent.json, LogisticsEvent_with_id.json): a lone event may have
 * no @id (a POST body); it then gets a digest of the body as its id.
 */
export function parseLogisticsEvent(body: unknown, owner: string | null = null): ReadEvent {
  return reading(() =>
    readEvent(LdNode.document(body, "logistics event"), { owner, requireId: false, body }),
  );
}

/** One page of an api:Collection of events (LogisticsEvents_list.json). */
export interface EventPage {
  events: ReadEvent[];
  /** api:hasTotalItems: every event the filter matches, across pages; null when not stated. */
  total: number | null;
}

/** A logistics-events collection: hasItem may be absent (none), one object, or an array. */
export function parseEventCollection(body: unknown, owner: string | null = null): EventPage {
  return reading(() => {
    const doc = LdNode.document(body, "logistics events");
    requireType(doc, api("Collection"));
    const events = doc.nodes(api("hasItem")).map((n) => readEvent(n, { owner, requireId: true }));
    return { events, total: count(doc, api("hasTotalItems")) };
  });
}

// ---------------------------------------------------------------------------------------------
// Waybill and shipment

export interface ReadShipment {
  id: string | null;
  /** Only @id (and @type): its pieces and weight need a GET of their own. */
  bare: boolean;
  pieces: number | null;
  weightKg: number | null;
}

export interface ReadWaybill {
  id: string;
  awb: string;
  origin: string | null;
  destination: string | null;
  shipment: ReadShipment | null;
}

const KG_PER_LB = 0.45359237;

function readShipment(node: LdNode): ReadShipment {
  if (!node.hasProperties) return { id: node.id, bare: true, pieces: null, weightKg: null };
  if (node.types.length) requireType(node, cargo("Shipment"));
  let weightKg: number | null = null;
  const weight = node.node(cargo("totalGrossWeight"));
  if (weight) {
    const raw = weight.literal(cargo("numericalValue"));
    const value = typeof raw === "string" ? Number(raw) : raw;
    if (typeof value !== "number" || !Number.isFinite(value) || value < 0)
      throw new LdError(`${weight.where(cargo("numericalValue"))}: ${JSON.stringify(raw)} is not a weight`);
    const unit = weight.iri(cargo("unit"));
    const code = unit?.split(/[#_/:]/).pop();
    if (code === "KGM") weightKg = value;
    else if (code === "LBR") weightKg = Math.round(value * KG_PER_LB * 10) / 10;
    else throw new LdError(`${weight.where(cargo("unit"))}: ${JSON.stringify(unit)} is not KGM or LBR`);
  }
  const pieces = node.nodes(cargo("pieces"));
  return {
    id: node.id,
    bare: false,
    pieces: pieces.length ? pieces.length : null,
    weightKg,
  };
}

/** A Waybill logistics object; `awb` is the number it must carry (11 digits). */
export function parseWaybill(body: unknown, awb: string): ReadWaybill {
  return reading(() => {
    const doc = LdNode.document(body, "waybill");
    requireType(doc, cargo("Waybill"));
    const id = doc.id;
    if (!id) throw new LdError("$: no @id (a logistics object has a URI)");
    const prefix = doc.literal(cargo("waybillPrefix"));
    const number = doc.literal(cargo("waybillNumber"));
    const found = `${typeof prefix === "number" ? String(prefix).padStart(3, "0") : prefix}${number}`;
    if (!/^\d{11}$/.test(found))
      throw new LdError(
        `$: cargo:waybillPrefix ${JSON.stringify(prefix)} and cargo:waybillNumber ${JSON.stringify(number)} are not an air waybill number`,
      );
    if (found !== awb) throw new LdError(`$: the lookup for ${awb} answered waybill ${found}`);
    const shipment = doc.node(cargo("shipment"));
    return {
      id,
      awb,
      origin: airportOf(doc.node(cargo("departureLocation"))),
      destination: airportOf(doc.node(cargo("arrivalLocation"))),
      shipment: shipment && readShipment(shipment),
    };
  });
}

/** A Shipment logistics object fetched on its own (the Waybill only referenced it). */
export function parseShipment(body: unknown): ReadShipment {
  return reading(() => readShipment(LdNode.document(body, "shipment")));
}

/** Publication order: creationDate (the eventDate when absent), then as listed. */
export function inPublicationOrder(events: ReadEvent[]): AwbEvent[] {
  const key = (e: ReadEvent) => e.created ?? Date.parse(e.event.at);
  return events
    .map((e, i) => ({ e, i }))
    .sort((a, b) => key(a.e) - key(b.e) || a.i - b.i)
    .map(({ e }) => e.event);
}

// ---------------------------------------------------------------------------------------------
// HTTP

interface Answer {
  status: number;
  location: string | null;
  body: unknown;
}

export class OneRecordConnector implements AirlineConnector {
  readonly iata: string;
  private readonly base: URL;
  private readonly opts: Required<OneRecordOptions>;

  constructor(
    private readonly config: OneRecordAirlineConfig,
    opts: OneRecordOptions = {},
  ) {
    this.iata = config.iata.toUpperCase();
    try {
      this.base = new URL(config.baseUrl.replace(/\/*$/, "/"));
    } catch {
      throw new Error(`airline ${this.iata}: baseUrl "${config.baseUrl}" is not a URL`);
    }
    // An option given as undefined keeps its default.
    this.opts = {
      timeoutMs: opts.timeoutMs ?? DEFAULTS.timeoutMs,
      maxBodyBytes: opts.maxBodyBytes ?? DEFAULTS.maxBodyBytes,
      maxPages: opts.maxPages ?? DEFAULTS.maxPages,
    };
  }

  async waybill(awb: string): Promise<AwbSnapshot> {
    if (!/^\d{11}$/.test(awb)) throw new RangeError(`an AWB is 11 digits, got "${awb}"`);
    const lookup = new URL(`waybills/${awb.slice(0, 3)}-${awb.slice(3)}`, this.base);
    const found = await this.get(lookup, true);
    let waybill: ReadWaybill;
    if (found.location) {
      const url = this.sameServer(found.location, lookup);
      url.searchParams.set("embedded", "true");
      const { body } = await this.get(url, false);
      waybill = this.context(url, () => parseWaybill(body, awb));
    } else {
      // A lookup may answer the Waybill itself rather than redirect to it.
      waybill = this.context(lookup, () => parseWaybill(found.body, awb));
    }
    return this.snapshot(waybill);
  }

  private async snapshot(first: ReadWaybill): Promise<AwbSnapshot> {
    let shipment = first.shipment;
    if (shipment?.bare && shipment.id) {
      const url = this.sameServer(shipment.id, this.base);
      const { body } = await this.get(url, false);
      shipment = this.context(url, () => parseShipment(body));
    }
    const owner = shipment?.id ?? first.id;
    const events = inPublicationOrder(await this.events(owner));
    return {
      awb: first.awb,
      origin: first.origin,
      destination: first.destination,
      pieces: shipment?.pieces ?? null,
      weightKg: shipment?.weightKg ?? null,
      events,
    };
  }

  /** Every page of the owner's event log, until hasTotalItems is reached. */
  private async events(owner: string): Promise<ReadEvent[]> {
    const url = this.sameServer(`${owner.replace(/\/+$/, "")}/logistics-events`, this.base);
    const all: ReadEvent[] = [];
    const ids = new Set<string>();
    for (let page = 0; ; page++) {
      if (page >= this.opts.maxPages)
        throw malformed(`${this.iata} ${url}: more than ${page} pages and still short of api:hasTotalItems`);
      const pageUrl = new URL(url);
      if (all.length) pageUrl.searchParams.set("skip", String(all.length));
      const { body } = await this.get(pageUrl, false);
      const { events, total } = this.context(pageUrl, () => parseEventCollection(body, owner));
      for (const e of events) {
        if (ids.has(e.event.id)) throw malformed(`${this.iata} ${pageUrl}: event ${e.event.id} listed twice`);
        ids.add(e.event.id);
        all.push(e);
      }
      if (total === null || all.length === total) return all;
      if (all.length > total || events.length === 0) {
        throw malformed(
          `${this.iata} ${pageUrl}: api:hasTotalItems is ${total} but ${all.length} events were listed`,
        );
      }
    }
  }

  /** Adds the airline and URL to a malformed error's message. */
  private context<T>(url: URL, read: () => T): T {
    try {
      return read();
    } catch (err) {
      if (err instanceof AirlineError)
        throw new AirlineError(err.kind, `${this.iata} ${url}: ${err.message}`, { cause: err });
      throw err;
    }
  }

  /** The token goes to the configured server only: a URI elsewhere is refused, not followed. */
  private sameServer(uri: string, relativeTo: URL): URL {
    let url: URL;
    try {
      url = new URL(uri, relativeTo);
    } catch (cause) {
      throw malformed(`${this.iata}: ${JSON.stringify(uri)} is not a URL`, cause);
    }
    if (url.origin !== this.base.origin)
      throw malformed(`${this.iata}: ${url} is not on the airline's server ${this.base.origin}`);
    return url;
  }

  private headers(): Headers {
    const h = new Headers({ Accept: LD_JSON });
    if (this.config.token) h.set("Authorization", `Bearer ${this.config.token}`);
    return h;
  }

  /** One GET, body read whole within the timeout and the size limit; statuses onto error kinds. */
  private async get(url: URL, lookup: boolean): Promise<Answer> {
    const timeout = AbortSignal.timeout(this.opts.timeoutMs);
    let res: Response;
    let bytes: Uint8Array;
    try {
      res = await fetch(url, { headers: this.headers(), signal: timeout, redirect: "manual" });
      bytes = await this.read(res, url);
    } catch (cause) {
      if (cause instanceof AirlineError) throw cause;
      const why = timeout.aborted
        ? `no answer within ${this.opts.timeoutMs} ms`
        : `network error: ${String(cause)}`;
      throw new AirlineError("unavailable", `${this.iata} ${url}: ${why}`, { cause });
    }
    const text = new TextDecoder().decode(bytes);
    const where = `${this.iata} ${url}`;
    if (res.status >= 300 && res.status < 400) {
      const location = res.headers.get("Location");
      if (lookup && location) return { status: res.status, location, body: null };
      throw malformed(
        `${where}: HTTP ${res.status} redirect${location ? ` to ${location}` : " without a Location"}`,
      );
    }
    if (res.status === 404 || res.status === 410)
      throw new AirlineError("not_found", `${where}: HTTP ${res.status}${errorTitle(text)}`);
    if ([401, 403, 408, 429].includes(res.status) || res.status >= 500)
      throw new AirlineError("unavailable", `${where}: HTTP ${res.status}${errorTitle(text)}`);
    if (res.status !== 200) throw malformed(`${where}: unexpected HTTP ${res.status}${errorTitle(text)}`);
    const type = (res.headers.get("Content-Type") ?? "").split(";")[0]!.trim().toLowerCase();
    if (type !== LD_JSON && type !== "application/json")
      throw malformed(`${where}: Content-Type ${type || "missing"}, expected ${LD_JSON}`);
    try {
      return { status: res.status, location: null, body: JSON.parse(text) };
    } catch (cause) {
      throw malformed(`${where}: body is not JSON (${(cause as Error).message})`, cause);
    }
  }

  /** The body, refused once it passes maxBodyBytes (announced or streamed). */
  private async read(res: Response, url: URL): Promise<Uint8Array> {
    const limit = this.opts.maxBodyBytes;
    const tooBig = () => malformed(`${this.iata} ${url}: body larger than ${limit} bytes`);
    const announced = Number(res.headers.get("Content-Length"));
    if (announced > limit) {
      await res.body?.cancel();
      throw tooBig();
    }
    return readCapped(res.body, limit, tooBig);
  }
}

/** ": <api:hasTitle>: <api:hasMessage>..." of an api:Error body, for messages; "" when there is none. */
function errorTitle(text: string): string {
  try {
    const error = LdNode.document(JSON.parse(text), "error");
    const parts = [error.literal(api("hasTitle"))];
    for (const d of error.nodes(api("hasErrorDetail"))) parts.push(d.literal(api("hasMessage")));
    const said = parts.filter((p): p is string => typeof p === "string" && p !== "");
    return said.length ? `: ${said.join(": ").slice(0, 300)}` : "";
  } catch {
    return "";
  }
}

/** One connector per configured airline, by IATA code. */
export function oneRecordConnectors(
  airlines: readonly OneRecordAirlineConfig[],
  opts: OneRecordOptions = {},
): Map<string, OneRecordConnector> {
  return new Map(
    airlines.map((a) => {
      const line = a.iata.toUpperCase();
      return [line, countingErrors(new OneRecordConnector(a, opts), "waybill", { kind: "airline", line })];
    }),
  );
}
