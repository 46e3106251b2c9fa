/**
 * The sandbox carrier's HTTP surface: DCSA TNT 2.2 GET /{scac}/v2/events per played carrier, plus
 * /_sandbox/* controls (clock, carriers, demo references). A plain fetch handler: main.ts serves it.
 */
import { Lru } from "../../common/lru.ts";
import type { DcsaErrorBody, DcsaEvent } from "../carriers/dcsa.ts";
import { visibleEvents } from "./box-view.ts";
import { DEMO_REFERENCES } from "./demo.ts";
import { lessorUnit } from "./lessor.ts";
import { CS_ENDPOINTS, type CsEndpoint, csError, csResponse } from "./network/cs-api.ts";
import { serviceNetwork } from "./network/network.ts";
import { isSandboxScac, lookupReference, type SandboxRefKind } from "./references.ts";
import {
  DEFAULT_EPOCH,
  resolveSandboxReference,
  type SimulatedVoyage,
  simulateShipment,
} from "./simulate.ts";
import type { SandboxWorld } from "./world.ts";

export const API_VERSION = "2.2.0";
const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 1000;
const CACHE_SIZE = 256;

/** The sandbox's notion of now: real time (optionally sped up) or set by hand. */
export class SandboxClock {
  private manualNow: number;
  private readonly startedAt = Date.now();
  private readonly origin: number;
  private readonly scale: number;

  constructor(
    readonly mode: "real" | "manual",
    opts: { start?: number; timeScale?: number } = {},
  ) {
    this.origin = opts.start ?? this.startedAt;
    this.manualNow = this.origin;
    this.scale = opts.timeScale ?? 1;
  }

  now(): number {
    return this.mode === "manual" ? this.manualNow : this.origin + (Date.now() - this.startedAt) * this.scale;
  }

  set(ms: number) {
    this.manualNow = ms;
  }
}

export interface SandboxOptions {
  world: SandboxWorld;
  clock: SandboxClock;
  epoch?: number;
  /** When set, /v2/events wants it in API-Key, X-API-Key or Authorization: Bearer. */
  apiKey?: string | null;
  /** Told when a manual clock moves. */
  onClock?: () => void;
}

const QUERY: Record<string, SandboxRefKind> = {
  equipmentReference: "container",
  transportDocumentReference: "bill_of_lading",
  carrierBookingReference: "booking",
  bookingReference: "booking",
};
const STATUS_TEXT: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  404: "Not Found",
  405: "Method Not Allowed",
  409: "Conflict",
};
const CODE_FILTERS: Array<[string, (e: DcsaEvent) => string | undefined]> = [
  ["eventType", (e) => e.eventType],
  ["equipmentEventTypeCode", (e) => (e.eventType === "EQUIPMENT" ? e.equipmentEventTypeCode : undefined)],
  ["transportEventTypeCode", (e) => (e.eventType === "TRANSPORT" ? e.transportEventTypeCode : undefined)],
  ["shipmentEventTypeCode", (e) => (e.eventType === "SHIPMENT" ? e.shipmentEventTypeCode : undefined)],
  ["documentTypeCode", (e) => (e.eventType === "SHIPMENT" ? e.documentTypeCode : undefined)],
];
const COMPARE: Record<string, (a: number, b: number) => boolean> = {
  gte: (a, b) => a >= b,
  gt: (a, b) => a > b,
  lte: (a, b) => a <= b,
  lt: (a, b) => a < b,
  eq: (a, b) => a === b,
};

function dcsaError(req: Request, status: number, reason: string, message: string): Response {
  const body: DcsaErrorBody = {
    httpMethod: req.method,
    requestUri: new URL(req.url).pathname,
    errors: [{ reason, message }],
    statusCode: status,
    statusCodeText: STATUS_TEXT[status] ?? "Error",
    errorDateTime: new Date().toISOString(),
  };
  return Response.json(body, { status, headers: { "API-Version": API_VERSION } });
}

/** Cursor: offset plus the clock reading of the first page, so later pages stay consistent. */
interface Cursor {
  offset: number;
  asOf: number;
}
const encodeCursor = (c: Cursor) => Buffer.from(JSON.stringify(c)).toString("base64url");
function decodeCursor(s: string): Cursor | null {
  try {
    const c = JSON.parse(Buffer.from(s, "base64url").toString("utf8")) as Partial<Cursor>;
    return Number.isInteger(c.offset) && c.offset! >= 0 && Number.isFinite(c.asOf) ? (c as Cursor) : null;
  } catch {
    return null;
  }
}

/** The page size and cursor of an events query (a fresh cursor reads the clock at `now`). */
function pagingOf(
  req: Request,
  q: URLSearchParams,
  now: number,
): { limit: number; cursor: Cursor } | Response {
  const limitRaw = q.get("limit");
  const limit = limitRaw === null ? DEFAULT_LIMIT : Number(limitRaw);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT)
    return dcsaError(req, 400, "invalidParameter", `limit must be an integer from 1 to ${MAX_LIMIT}`);
  const cursorRaw = q.get("cursor");
  const cursor = cursorRaw === null ? { offset: 0, asOf: now } : decodeCursor(cursorRaw);
  if (!cursor) return dcsaError(req, 400, "invalidCursor", "cursor is not one this server issued");
  return { limit, cursor };
}

/** The events a query's code filters and eventCreatedDateTime bounds keep. */
function filterEvents(req: Request, events: DcsaEvent[], q: URLSearchParams): DcsaEvent[] | Response {
  let list = events;
  for (const [name, field] of CODE_FILTERS) {
    const wanted = q.get(name)?.split(",").filter(Boolean);
    if (wanted?.length) list = list.filter((e) => wanted.includes(field(e) ?? ""));
  }
  for (const [k, raw] of q) {
    const m = /^eventCreatedDateTime(?::(gte|gt|lte|lt|eq))?$/.exec(k);
    if (!m) continue;
    const bound = Date.parse(raw);
    if (Number.isNaN(bound)) return dcsaError(req, 400, "invalidParameter", `${k} is not a date-time`);
    const cmp = COMPARE[m[1] ?? "eq"]!;
    list = list.filter((e) => cmp(Date.parse(e.eventCreatedDateTime), bound));
  }
  return list;
}

/** One page of events with the DCSA paging headers (links keep the first page's clock reading). */
function pageResponse(url: URL, list: unknown[], cursor: Cursor, limit: number): Response {
  const page = list.slice(cursor.offset, cursor.offset + limit);
  const link = (offset: number) => {
    const u = new URL(url);
    u.searchParams.set("cursor", encodeCursor({ offset, asOf: cursor.asOf }));
    return u.toString();
  };
  const headers = new Headers({ "API-Version": API_VERSION, "Current-Page": link(cursor.offset) });
  if (cursor.offset > 0) {
    headers.set("First-Page", link(0));
    headers.set("Prev-Page", link(Math.max(0, cursor.offset - limit)));
  }
  if (cursor.offset + limit < list.length) {
    const next = encodeCursor({ offset: cursor.offset + limit, asOf: cursor.asOf });
    headers.set("Next-Page", link(cursor.offset + limit));
    headers.set("Next-Page-Cursor", next);
  }
  return Response.json(page, { headers });
}

/** The carriers the sandbox plays, with their paths and reference prefixes. */
function carriersListing(world: SandboxOptions["world"]): Response {
  return Response.json(
    [...world.carriers.values()].map((c) => ({
      scac: c.scac,
      name: c.name,
      base_path: `/${c.scac}`,
      schedules_base_path: `/${c.scac}/cs/v1`,
      container_prefixes: c.containerPrefixes,
      bl_prefixes: c.blPrefixes,
    })),
  );
}

/** Sets the manual clock to a time or moves it on by hours. */
async function setClock(req: Request, clock: SandboxClock, onClock?: () => void): Promise<Response> {
  if (clock.mode !== "manual")
    return dcsaError(
      req,
      409,
      "clockNotManual",
      "start the sandbox with SANDBOX_CLOCK=manual to set its clock",
    );
  const body = (await req.json().catch(() => null)) as { now?: unknown; advance_hours?: unknown } | null;
  if (typeof body?.now === "string" && !Number.isNaN(Date.parse(body.now))) clock.set(Date.parse(body.now));
  else if (typeof body?.advance_hours === "number" && Number.isFinite(body.advance_hours))
    clock.set(clock.now() + body.advance_hours * 3600_000);
  else return dcsaError(req, 400, "invalidBody", 'send {"now": "<ISO 8601>"} or {"advance_hours": <number>}');
  onClock?.();
  return clockState(clock);
}

const clockState = (clock: SandboxClock) =>
  Response.json({ now: new Date(clock.now()).toISOString(), mode: clock.mode });

export function createSandbox(opts: SandboxOptions): (req: Request) => Promise<Response> {
  const { world, clock } = opts;
  const epoch = opts.epoch ?? DEFAULT_EPOCH;
  const cache = new Lru<string, SimulatedVoyage>(CACHE_SIZE);

  const voyage = (key: Parameters<typeof simulateShipment>[0], documentNumber: string) => {
    const id = `${key.scac}|${key.index}|${documentNumber}`;
    let v = cache.get(id);
    if (!v) {
      v = simulateShipment(key, documentNumber, { world, epoch });
      cache.set(id, v);
    }
    return v;
  };

  const authorized = (req: Request) => {
    if (!opts.apiKey) return true;
    const h = req.headers;
    const bearer = h.get("Authorization")?.replace(/^Bearer\s+/i, "");
    return [h.get("API-Key"), h.get("X-API-Key"), bearer].includes(opts.apiKey);
  };

  function events(req: Request, scac: string): Response {
    if (!isSandboxScac(scac))
      return dcsaError(req, 404, "notFound", `the sandbox does not play carrier ${scac}`);
    if (!authorized(req)) return dcsaError(req, 401, "unauthorized", "missing or wrong API key");
    const url = new URL(req.url);
    const q = url.searchParams;
    const refs = Object.keys(QUERY).filter((k) => q.get(k));
    if (refs.length !== 1) {
      return dcsaError(
        req,
        400,
        "invalidQuery",
        "give exactly one of equipmentReference, transportDocumentReference, carrierBookingReference",
      );
    }
    const param = refs[0]!;
    const paging = pagingOf(req, q, clock.now());
    if (paging instanceof Response) return paging;
    const { limit, cursor } = paging;

    const found = lookupReference(world, scac, QUERY[param]!, q.get(param)!);
    if (!found.ok)
      return dcsaError(
        req,
        found.status,
        found.status === 404 ? "notFound" : "invalidParameter",
        found.message,
      );
    const v = voyage(found.ref.shipment, found.ref.documentNumber);
    const list = filterEvents(req, visibleEvents(v, cursor.asOf, found.ref.container), q);
    return list instanceof Response ? list : pageResponse(url, list, cursor, limit);
  }

  return async (req: Request): Promise<Response> => {
    const path = new URL(req.url).pathname;
    const m = /^\/([A-Za-z]{4})\/v2\/events\/?$/.exec(path);
    if (m)
      return req.method === "GET"
        ? events(req, m[1]!.toUpperCase())
        : dcsaError(req, 405, "methodNotAllowed", "GET only");
    const cs = /^\/([A-Za-z]{4})\/cs\/v1\/([a-z-]+)\/?$/.exec(path);
    if (cs && CS_ENDPOINTS.includes(cs[2] as CsEndpoint)) {
      const scac = cs[1]!.toUpperCase();
      if (req.method !== "GET") return csError(req, 405, "methodNotAllowed", "GET only");
      if (!isSandboxScac(scac))
        return csError(req, 404, "notFound", `the sandbox does not play carrier ${scac}`);
      if (!authorized(req)) return csError(req, 401, "unauthorized", "missing or wrong API key");
      return csResponse(req, serviceNetwork(world), epoch, clock.now(), scac, cs[2] as CsEndpoint);
    }
    if (path === "/_sandbox/clock")
      return req.method === "POST" ? setClock(req, clock, opts.onClock) : clockState(clock);
    if (path === "/_sandbox/carriers") return carriersListing(world);
    if (path === "/_sandbox/demo") return Response.json(DEMO_REFERENCES);
    const unit = /^\/lessor\/v1\/units\/([^/]+)$/.exec(path);
    if (unit) {
      if (!authorized(req)) return dcsaError(req, 401, "unauthorized", "missing or wrong API key");
      const found = lessorUnit(world, decodeURIComponent(unit[1]!), clock.now(), (n) => {
        const ref = resolveSandboxReference(world, n);
        return ref && voyage(ref.shipment, ref.documentNumber);
      });
      return found
        ? Response.json(found)
        : dcsaError(req, 404, "notFound", `${unit[1]} is not a leased unit of the sandbox lessor`);
    }
    if (path === "/healthz") return Response.json({ ok: true });
    return dcsaError(req, 404, "notFound", `no route ${path}`);
  };
}
