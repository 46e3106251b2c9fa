/**
 * DCSA Commercial Schedules 1.0.3 (../shared/reference/dcsa/cs_v1.0.3.yaml) for each sandbox
 * carrier, from its service network, under {sandbox}/{SCAC}/cs/v1: GET point-to-point-routes,
 * port-schedules and vessel-schedules. Pagination as the OpenAPI says: `limit` caps the root array,
 * a `Next-Page-Cursor` header carries the cursor for the next page, sent back as `cursor` with the
 * same filters. The cursor holds the offset, the clock reading of the first page (so later pages
 * see the same schedule) and a digest of the filters (so altered filters are refused).
 */
import { createHash } from "node:crypto";
import { isCalendarDate } from "../../../common/calendar-date.ts";
import { localIso } from "../dcsa-events.ts";
import type { Port } from "../world.ts";
import { D, type Network, type Service } from "./network.ts";
import type { PublishedCall, PublishedTime } from "./noise.ts";
import { MAX_TRANSSHIPMENTS, type PointToPointRoute, pointToPoint, publishedSailings } from "./routes.ts";

export const CS_API_VERSION = "1.0.3";
const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 1000;
/** Departures searched when the query gives no end to its window. */
const DEFAULT_DEPARTURE_DAYS = 28;
const MAX_WINDOW_DAYS = 366;
/** Port schedules cover the calls from `date` for this many days. */
const PORT_SCHEDULE_DAYS = 28;
const MAX_TRANSIT_DAYS = 90;
const LOCODE = /^[A-Z]{2}[A-Z2-9]{3}$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

export type CsEndpoint = "point-to-point-routes" | "port-schedules" | "vessel-schedules";
export const CS_ENDPOINTS: readonly CsEndpoint[] = [
  "point-to-point-routes",
  "port-schedules",
  "vessel-schedules",
];

class QueryError extends Error {
  constructor(
    readonly property: string,
    readonly value: string,
    message: string,
  ) {
    super(message);
  }
}

const STATUS_TEXT: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  404: "Not Found",
  405: "Method Not Allowed",
};

/** A CS ErrorResponse (errorCode 7000-9999 as the OpenAPI bounds it). */
export function csError(
  req: Request,
  status: number,
  errorCodeText: string,
  errorCodeMessage: string,
  detail: { property?: string; value?: string } = {},
): Response {
  return Response.json(
    {
      httpMethod: req.method,
      requestUri: new URL(req.url).pathname,
      statusCode: status,
      statusCodeText: STATUS_TEXT[status] ?? "Error",
      errorDateTime: new Date().toISOString(),
      errors: [{ errorCode: status === 400 ? 7005 : 7000, ...detail, errorCodeText, errorCodeMessage }],
    },
    { status, headers: { "API-Version": CS_API_VERSION } },
  );
}

const localDate = (ms: number, port: Port) => localIso(ms, port.timezone).slice(0, 10);
const dayMs = (date: string) => Date.parse(`${date}T00:00:00Z`);

function param(q: URLSearchParams, name: string, pattern: RegExp, required: boolean): string | undefined {
  const v = q.get(name);
  if (v === null || v === "") {
    if (required) throw new QueryError(name, "", `${name} is required`);
    return undefined;
  }
  if (!pattern.test(v) || (pattern === DATE && !isCalendarDate(v)))
    throw new QueryError(name, v, `${name} is not valid (${pattern.source})`);
  return v;
}

function intParam(q: URLSearchParams, name: string, min: number, fallback: number): number {
  const v = q.get(name);
  if (v === null) return fallback;
  const n = Number(v);
  if (!/^\d+$/.test(v) || n < min)
    throw new QueryError(name, v, `${name} must be an integer of at least ${min}`);
  return n;
}

// --- bodies -----------------------------------------------------------------------------------

const location = (p: Port) => ({ locationName: p.name, UNLocationCode: p.locode });

const vessel = (c: PublishedCall) => ({
  vesselIMONumber: c.sailing.vessel.imo,
  name: c.sailing.vessel.name,
  flag: c.sailing.vessel.flag,
  callSign: c.sailing.vessel.callSign,
  operatorCarrierCode: c.sailing.service.scac,
  operatorCarrierCodeListProvider: "NMFTA",
});

const callReference = (c: PublishedCall) => `${c.sailing.id}-${c.call.port.locode}-${c.call.index + 1}`;

function timestamps(c: PublishedCall) {
  const at = (t: PublishedTime) => localIso(t.time, c.call.port.timezone);
  const pln = (ms: number) => localIso(ms, c.call.port.timezone);
  return [
    { eventTypeCode: "ARRI", eventClassifierCode: "PLN", eventDateTime: pln(c.arrival.planned) },
    { eventTypeCode: "ARRI", eventClassifierCode: c.arrival.classifier, eventDateTime: at(c.arrival) },
    { eventTypeCode: "DEPA", eventClassifierCode: "PLN", eventDateTime: pln(c.departure.planned) },
    { eventTypeCode: "DEPA", eventClassifierCode: c.departure.classifier, eventDateTime: at(c.departure) },
  ];
}

const cutOffTimes = (c: PublishedCall) =>
  c.cutOffs.map((k) => ({
    cutOffDateTimeCode: k.code,
    cutOffDateTime: localIso(k.at, c.call.port.timezone),
  }));

function servicePartner(c: PublishedCall) {
  const s = c.sailing.service;
  return {
    carrierCode: s.scac,
    carrierCodeListProvider: "NMFTA",
    carrierServiceName: s.name,
    carrierServiceCode: s.code,
    carrierImportVoyageNumber: c.call.importVoyage,
    carrierExportVoyageNumber: c.call.exportVoyage,
  };
}

function transportCall(c: PublishedCall) {
  return {
    transportCallReference: callReference(c),
    carrierImportVoyageNumber: c.call.importVoyage,
    carrierExportVoyageNumber: c.call.exportVoyage,
    universalImportVoyageReference: c.call.importVoyage,
    universalExportVoyageReference: c.call.exportVoyage,
    location: location(c.call.port),
    timestamps: timestamps(c),
    cutOffTimes: cutOffTimes(c),
  };
}

function pointToPointBody(r: PointToPointRoute, solutionNumber: number) {
  const first = r.legs[0]!.calls[0]!;
  const last = r.legs.at(-1)!.calls.at(-1)!;
  return {
    placeOfReceipt: {
      facilityTypeCode: "POTE",
      location: location(first.call.port),
      dateTime: localIso(r.departure, first.call.port.timezone),
    },
    placeOfDelivery: {
      facilityTypeCode: "POTE",
      location: location(last.call.port),
      dateTime: localIso(r.arrival, last.call.port.timezone),
    },
    receiptTypeAtOrigin: "CY",
    deliveryTypeAtDestination: "CY",
    cutOffTimes: cutOffTimes(first),
    solutionNumber,
    routingReference: r.legs.map((l) => l.calls[0]!.sailing.id).join("+"),
    transitTime: Math.ceil((r.arrival - r.departure) / D),
    legs: r.legs.map((leg, i) => {
      const dep = leg.calls[0]!;
      const arr = leg.calls.at(-1)!;
      return {
        sequenceNumber: i + 1,
        transport: {
          modeOfTransport: "VESSEL",
          servicePartners: [servicePartner(dep)],
          universalExportVoyageReference: dep.call.exportVoyage,
          universalImportVoyageReference: arr.call.importVoyage,
          vessel: vessel(dep),
        },
        departure: {
          transportCallReference: callReference(dep),
          facilityTypeCode: "POTE",
          location: location(dep.call.port),
          dateTime: localIso(dep.departure.time, dep.call.port.timezone),
        },
        intermediateCalls: leg.calls.slice(1, -1).map((c) => ({
          transportCallReference: callReference(c),
          facilityTypeCode: "POTE",
          location: location(c.call.port),
          arrivalDateTime: localIso(c.arrival.time, c.call.port.timezone),
          departureDateTime: localIso(c.departure.time, c.call.port.timezone),
        })),
        arrival: {
          transportCallReference: callReference(arr),
          facilityTypeCode: "POTE",
          location: location(arr.call.port),
          dateTime: localIso(arr.arrival.time, arr.call.port.timezone),
        },
        ...(i > 0 ? {} : { cutOffTimes: cutOffTimes(dep) }),
      };
    }),
  };
}

// --- endpoints --------------------------------------------------------------------------------

export interface CsContext {
  network: Network;
  epoch: number;
  /** The clock reading the (first page of the) answer is computed at. */
  asOf: number;
}

/** The local dates of a call's published and planned times. */
const callDates = (c: PublishedCall) =>
  [c.arrival.planned, c.arrival.time, c.departure.planned, c.departure.time].map((t) =>
    localDate(t, c.call.port),
  );

function pointToPointRoutes(ctx: CsContext, scac: string, q: URLSearchParams): unknown[] {
  const origin = param(q, "placeOfReceipt", LOCODE, true)!;
  const destination = param(q, "placeOfDelivery", LOCODE, true)!;
  const depStart = param(q, "departureStartDate", DATE, false);
  const depEnd = param(q, "departureEndDate", DATE, false);
  const arrStart = param(q, "arrivalStartDate", DATE, false);
  const arrEnd = param(q, "arrivalEndDate", DATE, false);
  const maxTs = Math.min(intParam(q, "maxTranshipment", 0, MAX_TRANSSHIPMENTS), MAX_TRANSSHIPMENTS);
  for (const name of ["receiptTypeAtOrigin", "deliveryTypeAtDestination"]) {
    const v = q.get(name);
    if (v !== null && !["CY", "SD", "CFS"].includes(v))
      throw new QueryError(name, v, `${name} is CY, SD or CFS`);
    // The sandbox offers port-to-port (CY) routings only.
    if (v !== null && v !== "CY") return [];
  }
  const cargo = q.get("cargoType");
  if (cargo !== null && !["DRY", "REEFER"].includes(cargo))
    throw new QueryError("cargoType", cargo, "cargoType is DRY or REEFER");
  if (!ctx.network.ports.has(origin)) return [];
  // Dates are local at the port; the window in instants is widened by a day and filtered exactly.
  const today = new Date(ctx.asOf).toISOString().slice(0, 10);
  const from = depStart ?? (arrStart ? shiftDate(arrStart, -MAX_TRANSIT_DAYS) : today);
  const to = depEnd ?? arrEnd ?? shiftDate(from, DEFAULT_DEPARTURE_DAYS);
  if (dayMs(to) - dayMs(from) > MAX_WINDOW_DAYS * D)
    throw new QueryError("departureEndDate", to, `the departure window is at most ${MAX_WINDOW_DAYS} days`);
  const routes = pointToPoint(ctx.network, scac, {
    origin,
    destination,
    departFrom: dayMs(from) - D,
    departTo: dayMs(to) + 2 * D,
    maxTransshipments: maxTs,
    epoch: ctx.epoch,
    now: ctx.asOf,
  }).filter((r) => {
    const depDate = localDate(r.departure, r.legs[0]!.calls[0]!.call.port);
    const arrDate = localDate(r.arrival, r.legs.at(-1)!.calls.at(-1)!.call.port);
    return (
      depDate >= from && depDate <= to && (!arrStart || arrDate >= arrStart) && (!arrEnd || arrDate <= arrEnd)
    );
  });
  return routes.map((r, i) => pointToPointBody(r, i + 1));
}

const shiftDate = (date: string, days: number) => new Date(dayMs(date) + days * D).toISOString().slice(0, 10);

function portSchedules(ctx: CsContext, scac: string, q: URLSearchParams): unknown[] {
  const code = param(q, "UNLocationCode", LOCODE, true)!;
  const date = param(q, "date", DATE, true)!;
  const port = ctx.network.ports.get(code);
  if (!port) return [];
  const end = shiftDate(date, PORT_SCHEDULE_DAYS - 1);
  const from = dayMs(date) - D;
  const to = dayMs(end) + 2 * D;
  const calls = ctx.network
    .byScac(scac)
    .flatMap((s) => publishedSailings(s, ctx.epoch, ctx.asOf, from, to))
    .flatMap((p) => p.calls.filter((c) => c.call.port.locode === code))
    .filter((c) => callDates(c).some((d) => d >= date && d <= end))
    .sort((a, b) => a.arrival.time - b.arrival.time || callReference(a).localeCompare(callReference(b)));
  if (!calls.length) return [];
  // One terminal per port in the sandbox: one PortSchedule.
  return [
    {
      location: location(port),
      vesselSchedules: calls.map((c) => ({
        servicePartners: [servicePartner(c)],
        vessel: vessel(c),
        isDummyVessel: false,
        universalImportVoyageReference: c.call.importVoyage,
        universalExportVoyageReference: c.call.exportVoyage,
        timestamps: timestamps(c),
        cutOffTimes: cutOffTimes(c),
      })),
    },
  ];
}

const VESSEL_FILTERS = [
  "vesselIMONumber",
  "vesselName",
  "carrierServiceCode",
  "universalServiceReference",
  "carrierVoyageNumber",
  "universalVoyageReference",
  "UNLocationCode",
  "facilitySMDGCode",
  "vesselOperatorCarrierCode",
];

function vesselSchedules(ctx: CsContext, scac: string, q: URLSearchParams): unknown[] {
  const imo = param(q, "vesselIMONumber", /^\d{7,8}$/, false);
  const name = param(q, "vesselName", /^\S(?:.*\S)?$/, false);
  const serviceCode = param(q, "carrierServiceCode", /^.{1,11}$/, false);
  const usr = param(q, "universalServiceReference", /^SR\d{5}[A-Z]$/, false);
  const voyage = param(q, "carrierVoyageNumber", /^.{1,50}$/, false);
  const uvr = param(q, "universalVoyageReference", /^\d{2}[0-9A-Z]{2}[NEWSR]$/, false);
  const code = param(q, "UNLocationCode", LOCODE, false);
  const facility = param(q, "facilitySMDGCode", /^.{1,6}$/, false);
  const operator = param(q, "vesselOperatorCarrierCode", /^.{1,10}$/, false);
  if (!VESSEL_FILTERS.some((f) => q.get(f)))
    throw new QueryError("vesselIMONumber", "", `give at least one of ${VESSEL_FILTERS.join(", ")}`);
  const scope = q.get("responseScope") ?? "FULL_VOYAGE";
  if (scope !== "FULL_VOYAGE" && scope !== "MATCHED_CALLS")
    throw new QueryError("responseScope", scope, "responseScope is FULL_VOYAGE or MATCHED_CALLS");
  const now = ctx.asOf;
  const startDate = param(q, "startDate", DATE, false) ?? new Date(now - 91 * D).toISOString().slice(0, 10);
  const endDate = param(q, "endDate", DATE, false) ?? new Date(now + 183 * D).toISOString().slice(0, 10);
  if (dayMs(endDate) - dayMs(startDate) > 2 * MAX_WINDOW_DAYS * D)
    throw new QueryError("endDate", endDate, `the window is at most ${2 * MAX_WINDOW_DAYS} days`);
  // The sandbox publishes no universal service references and no terminal codes.
  if (usr || facility || (operator && operator !== scac)) return [];

  const callMatches = (c: PublishedCall) =>
    (!code || c.call.port.locode === code) &&
    (!voyage || c.call.importVoyage === voyage || c.call.exportVoyage === voyage) &&
    (!uvr || c.call.importVoyage === uvr || c.call.exportVoyage === uvr) &&
    callDates(c).some((d) => d >= startDate && d <= endDate);
  const out: unknown[] = [];
  for (const s of ctx.network.byScac(scac)) {
    if (serviceCode && s.code !== serviceCode) continue;
    const byHull = new Map<string, PublishedCall[]>();
    for (const p of publishedSailings(s, ctx.epoch, now, dayMs(startDate) - D, dayMs(endDate) + 2 * D)) {
      const v = p.sailing.vessel;
      if ((imo && v.imo !== imo) || (name && v.name !== name)) continue;
      const matched = p.calls.filter(callMatches);
      if (!matched.length) continue;
      const list = byHull.get(v.imo) ?? [];
      list.push(...(scope === "FULL_VOYAGE" ? p.calls : matched));
      byHull.set(v.imo, list);
    }
    if (!byHull.size) continue;
    out.push(serviceSchedule(s, [...byHull.values()]));
  }
  return out;
}

function serviceSchedule(s: Service, hulls: PublishedCall[][]) {
  return {
    carrierServiceName: s.name,
    carrierServiceCode: s.code,
    vesselSchedules: hulls.map((calls) => ({
      vessel: vessel(calls[0]!),
      isDummyVessel: false,
      transportCalls: calls.sort((a, b) => a.arrival.time - b.arrival.time).map(transportCall),
    })),
  };
}

// --- HTTP -------------------------------------------------------------------------------------

interface Cursor {
  offset: number;
  asOf: number;
  /** Digest of the filters: a cursor only continues the query that issued it. */
  filters: string;
}
const encode = (c: Cursor) => Buffer.from(JSON.stringify(c)).toString("base64url");
function decode(s: string): Cursor | null {
  try {
    const c = JSON.parse(Buffer.from(s, "base64url").toString("utf8")) as Partial<Cursor>;
    return Number.isInteger(c.offset) &&
      c.offset! >= 0 &&
      Number.isFinite(c.asOf) &&
      typeof c.filters === "string"
      ? (c as Cursor)
      : null;
  } catch {
    return null;
  }
}
function filtersDigest(q: URLSearchParams): string {
  const kept = [...q].filter(([k]) => k !== "cursor" && k !== "limit").sort(([a], [b]) => a.localeCompare(b));
  return createHash("sha256").update(JSON.stringify(kept)).digest("base64url").slice(0, 16);
}

/** Answers GET {base}/{endpoint} for a carrier the sandbox plays (auth is the caller's business). */
export function csResponse(
  req: Request,
  network: Network,
  epoch: number,
  now: number,
  scac: string,
  endpoint: CsEndpoint,
): Response {
  const url = new URL(req.url);
  const q = url.searchParams;
  try {
    const limit = intParam(q, "limit", 1, DEFAULT_LIMIT);
    if (limit > MAX_LIMIT) throw new QueryError("limit", String(limit), `limit is at most ${MAX_LIMIT}`);
    const digest = filtersDigest(q);
    const raw = q.get("cursor");
    const cursor = raw === null ? { offset: 0, asOf: now, filters: digest } : decode(raw);
    if (!cursor || (raw?.length ?? 0) > 1024)
      throw new QueryError("cursor", raw ?? "", "cursor is not one this server issued");
    if (cursor.filters !== digest)
      throw new QueryError("cursor", raw ?? "", "the filters differ from those of the first page");
    const ctx: CsContext = { network, epoch, asOf: cursor.asOf };
    const all =
      endpoint === "point-to-point-routes"
        ? pointToPointRoutes(ctx, scac, q)
        : endpoint === "port-schedules"
          ? portSchedules(ctx, scac, q)
          : vesselSchedules(ctx, scac, q);
    const headers = new Headers({ "API-Version": CS_API_VERSION });
    if (cursor.offset + limit < all.length)
      headers.set("Next-Page-Cursor", encode({ ...cursor, offset: cursor.offset + limit }));
    return Response.json(all.slice(cursor.offset, cursor.offset + limit), { headers });
  } catch (e) {
    if (e instanceof QueryError)
      return csError(req, 400, "invalidQuery", e.message, { property: e.property, value: e.value });
    throw e;
  }
}
