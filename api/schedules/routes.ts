/**
 * The schedules product's read routes, mounted twice: keyed under /v1 and open under /public/v1
 * (no key, limited per IP by the product app). Handlers parse, read stored sailings through the
 * repository and render; search.ts and ingest/schedules/reliability.ts do the work. docs/schedules.md, "The
 * schedules product".
 */
import { Elysia, type Static, type TSchema, t } from "elysia";
import {
  ON_TIME_MS,
  RELIABILITY_WINDOW_DAYS,
  reliability,
  windowSailings,
} from "../../ingest/schedules/reliability.ts";
import { best, callKey, callsOf, HOUR_MS } from "../../ingest/schedules/stored.ts";
import type { Sailings } from "../../storage/sailings.ts";
import { ApiError } from "../shared/errors.ts";
import { flag } from "../shared/flag.ts";
import { booleanQuery, dateQuery, enumQuery, integerQuery } from "../shared/openapi/parameters.ts";
import { neverAnswers, routeAnswers } from "../shared/openapi/responses.ts";
import { limitQuery, PAGE_LIMIT } from "../shared/paging.ts";
import { product } from "../shared/products.ts";
import { callView, sailingHeader, sailingView } from "./calls.ts";
import * as p from "./params.ts";
import { PointToPoint, PortCalls, ReliabilityAnswer, ServiceSchedule, VesselSchedule } from "./schemas.ts";
import {
  MAX_CONNECTION_WAIT_MS,
  MAX_TRANSIT_MS,
  MAX_TRANSSHIPMENTS,
  MIN_CONNECTION_MS,
  routeView,
  SLACK_MS,
  searchReading,
} from "./search.ts";

const DAY_MS = 24 * HOUR_MS;
const SCHEDULES = product("schedules");
/** Windows in days: default and maximum per route (docs/schedules.md). */
export const WINDOWS = {
  pointToPoint: { default: 28, max: 56 },
  port: { default: 14, max: 56 },
  vessel: { default: 28, max: 120 },
  reliability: { default: RELIABILITY_WINDOW_DAYS, max: 56 },
} as const;

const iso = (ms: number) => new Date(ms).toISOString();
const optional = t.Optional(t.String());
/** The bounded integer parameters: the readings and the query schemas take them from here. */
const TRANSSHIPMENTS: p.IntRange = { minimum: 0, maximum: MAX_TRANSSHIPMENTS, default: 1 };
const RELIABILITY_DAYS: p.IntRange = {
  minimum: 1,
  maximum: WINDOWS.reliability.max,
  default: WINDOWS.reliability.default,
};
const SORTS = ["departure", "transit_time"] as const;

const windowQuery = {
  from: dateQuery("UTC date YYYY-MM-DD (default: the current day)"),
  to: dateQuery("UTC date YYYY-MM-DD, inclusive"),
};
const carrierQuery = t.Optional(
  t.String({ description: "Carrier code(s) (SCAC), comma-separated; default every carrier" }),
);

export interface SchedulesDeps {
  sailings: Sailings;
  now: () => number;
}

const PointToPointQuery = t.Object({
  origin: t.String({ description: "UN/LOCODE of the port of loading" }),
  destination: t.String({ description: "UN/LOCODE of the port of discharge" }),
  ...windowQuery,
  carrier: carrierQuery,
  direct_only: booleanQuery("true: no transshipment (as max_transshipments=0)", false),
  max_transshipments: integerQuery(TRANSSHIPMENTS, `0 to ${MAX_TRANSSHIPMENTS} (default 1)`),
  sort: enumQuery(SORTS, "departure (default) or transit_time", "departure"),
  limit: limitQuery("routes returned"),
});
const CarrierWindowQuery = t.Object({ ...windowQuery, carrier: carrierQuery });
const WindowQuery = t.Object(windowQuery);
const ReliabilityQuery = t.Object({
  carrier: carrierQuery,
  origin: t.Optional(t.String({ description: "UN/LOCODE; with destination, the lane" })),
  destination: optional,
  window_days: integerQuery(
    RELIABILITY_DAYS,
    `rolling window ending now, 1 to ${WINDOWS.reliability.max} days (default ${WINDOWS.reliability.default})`,
  ),
});
const PortParams = t.Object({ unlocode: t.String() });
const VesselParams = t.Object({ imo: t.String() });
const ServiceParams = t.Object({ code: t.String() });

/** Each route's answer schema, summary and description, for `doc`. */
const DOCS = {
  pointToPoint: [
    PointToPoint,
    "Point-to-point routings between two ports",
    `Departures from origin (best-known time) within from..to (default ${WINDOWS.pointToPoint.default} days, at most ${WINDOWS.pointToPoint.max}). A transshipment connects two sailings of one carrier at a hub, ${MIN_CONNECTION_MS / HOUR_MS} h to ${MAX_CONNECTION_WAIT_MS / DAY_MS} days apart; a hull continuing through its turn into its next voyage is one vessel leg (no transshipment). Transits up to ${MAX_TRANSIT_MS / DAY_MS} days.`,
  ],
  portCalls: [
    PortCalls,
    "Vessel calls at a port",
    `Calls whose best-known arrival or departure lies within from..to (default ${WINDOWS.port.default} days, at most ${WINDOWS.port.max}), earliest first.`,
  ],
  vessel: [
    VesselSchedule,
    "A vessel's sailings",
    `Sailings whose planned span meets from..to (default ${WINDOWS.vessel.default} days, at most ${WINDOWS.vessel.max}).`,
  ],
  service: [
    ServiceSchedule,
    "A service's sailings",
    `Sailings of the service code (every carrier using it unless carrier is given) whose planned span meets from..to (default ${WINDOWS.vessel.default} days, at most ${WINDOWS.vessel.max}).`,
  ],
  reliability: [
    ReliabilityAnswer,
    "Schedule reliability per carrier, optionally on a lane",
    "Share of calls whose actual arrival is within one day of the planned arrival, over calls reached in the rolling window.",
  ],
} satisfies Record<string, [TSchema, string, string]>;

async function pointToPoint(
  { sailings, now }: SchedulesDeps,
  { query }: { query: Static<typeof PointToPointQuery> },
) {
  const origin = p.unlocode("origin", query.origin);
  const destination = p.unlocode("destination", query.destination);
  if (origin === destination) throw new ApiError("validation", "origin and destination must differ.");
  const win = p.dateWindow(query, now(), WINDOWS.pointToPoint.default, WINDOWS.pointToPoint.max);
  const limitTs = p.intParam("max_transshipments", query.max_transshipments, TRANSSHIPMENTS);
  const maxTransshipments = flag("direct_only", query.direct_only) ? 0 : (limitTs as 0 | 1 | 2);
  const sort = p.oneOf("sort", query.sort, SORTS, "departure");
  const limit = p.intParam("limit", query.limit, PAGE_LIMIT);
  const carriers = p.carriers(query.carrier);
  const { routes: found } = await searchReading(
    (from, to, only) => sailings.overlapping({ from: iso(from), to: iso(to), carriers: only ?? carriers }),
    { origin, destination, fromMs: win.fromMs, toMs: win.toMs, maxTransshipments, sort },
  );
  return {
    origin,
    destination,
    from: win.from,
    to: win.to,
    max_transshipments: maxTransshipments,
    min_connection_hours: MIN_CONNECTION_MS / HOUR_MS,
    sort,
    total: found.length,
    routes: found.slice(0, limit).map(routeView),
  };
}

async function portCalls(
  { sailings, now }: SchedulesDeps,
  { params, query }: { params: Static<typeof PortParams>; query: Static<typeof CarrierWindowQuery> },
) {
  const port = p.unlocode("unlocode", params.unlocode);
  const win = p.dateWindow(query, now(), WINDOWS.port.default, WINDOWS.port.max);
  const rows = await sailings.overlapping({
    from: iso(win.fromMs - SLACK_MS),
    to: iso(win.toMs + SLACK_MS),
    carriers: p.carriers(query.carrier),
  });
  const seen = new Set<string>();
  const calls = [];
  for (const s of rows) {
    for (const c of callsOf(s)) {
      if (c.place.unlocode !== port) continue;
      const at = [best(c.arrival), best(c.departure)].filter((x) => x !== undefined);
      if (!at.some((x) => x >= win.fromMs && x < win.toMs)) continue;
      const key = callKey(s, c);
      if (seen.has(key)) continue;
      seen.add(key);
      calls.push({ at: Math.min(...at), view: { ...sailingHeader(s), ...callView(c) } });
    }
  }
  calls.sort((a, b) => a.at - b.at || a.view.sailing_id.localeCompare(b.view.sailing_id));
  return { unlocode: port, from: win.from, to: win.to, calls: calls.map((c) => c.view) };
}

async function vesselSchedule(
  { sailings, now }: SchedulesDeps,
  { params, query }: { params: Static<typeof VesselParams>; query: Static<typeof WindowQuery> },
) {
  const vesselImo = p.imo(params.imo);
  const win = p.dateWindow(query, now(), WINDOWS.vessel.default, WINDOWS.vessel.max);
  const rows = await sailings.overlapping({ from: iso(win.fromMs), to: iso(win.toMs), vesselImo });
  return { imo: vesselImo, from: win.from, to: win.to, sailings: rows.map(sailingView) };
}

async function serviceSchedule(
  { sailings, now }: SchedulesDeps,
  { params, query }: { params: Static<typeof ServiceParams>; query: Static<typeof CarrierWindowQuery> },
) {
  const serviceCode = p.serviceCode(params.code);
  const win = p.dateWindow(query, now(), WINDOWS.vessel.default, WINDOWS.vessel.max);
  const rows = await sailings.overlapping({
    from: iso(win.fromMs),
    to: iso(win.toMs),
    serviceCode,
    carriers: p.carriers(query.carrier),
  });
  return { service_code: serviceCode, from: win.from, to: win.to, sailings: rows.map(sailingView) };
}

async function carrierReliability(
  { sailings, now }: SchedulesDeps,
  { query }: { query: Static<typeof ReliabilityQuery> },
) {
  const origin = p.optionalUnlocode("origin", query.origin);
  const destination = p.optionalUnlocode("destination", query.destination);
  if ((origin === undefined) !== (destination === undefined)) {
    throw new ApiError("validation", "origin and destination go together: a lane needs both.");
  }
  if (origin !== undefined && origin === destination) {
    throw new ApiError("validation", "origin and destination must differ.");
  }
  const days = p.intParam("window_days", query.window_days, RELIABILITY_DAYS);
  const { window, rows } = await windowSailings(sailings, now(), days, p.carriers(query.carrier));
  const lane = origin && destination ? { origin, destination } : undefined;
  return {
    window: { from: iso(window.fromMs), to: iso(window.toMs), days },
    tolerance_hours: ON_TIME_MS / HOUR_MS,
    lane: lane ?? null,
    ...reliability(rows, window, lane),
  };
}

/** A port, vessel or service nothing is known of answers its window with an empty list, never 404. */
const EVERY_VALUE_ANSWERS = neverAnswers(404);

/** The read routes under `prefix` ("/v1" keyed, "/public/v1" open). */
export function scheduleRoutes(prefix: string, deps: SchedulesDeps) {
  const open = prefix.startsWith("/public");
  const tags = [open ? "public (no key, limited per IP)" : "keyed"];
  const security = open ? [] : undefined;
  const doc = ([data, summary, description]: [TSchema, string, string]) => ({
    ...routeAnswers(SCHEDULES, { 200: { description: summary, data } }),
    summary,
    description,
    tags,
    security,
  });

  return new Elysia()
    .get(`${prefix}/point-to-point`, ({ query }) => pointToPoint(deps, { query }), {
      query: PointToPointQuery,
      detail: doc(DOCS.pointToPoint),
    })
    .get(`${prefix}/ports/:unlocode/calls`, ({ params, query }) => portCalls(deps, { params, query }), {
      params: PortParams,
      query: CarrierWindowQuery,
      detail: { ...doc(DOCS.portCalls), ...EVERY_VALUE_ANSWERS },
    })
    .get(`${prefix}/vessels/:imo/schedule`, ({ params, query }) => vesselSchedule(deps, { params, query }), {
      params: VesselParams,
      query: WindowQuery,
      detail: { ...doc(DOCS.vessel), ...EVERY_VALUE_ANSWERS },
    })
    .get(
      `${prefix}/services/:code/schedule`,
      ({ params, query }) => serviceSchedule(deps, { params, query }),
      {
        params: ServiceParams,
        query: CarrierWindowQuery,
        detail: { ...doc(DOCS.service), ...EVERY_VALUE_ANSWERS },
      },
    )
    .get(`${prefix}/reliability`, ({ query }) => carrierReliability(deps, { query }), {
      query: ReliabilityQuery,
      detail: doc(DOCS.reliability),
    });
}
