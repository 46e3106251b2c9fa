/**
 * The distance engine's requests: each as its query spells it (text under the spec's parameter
 * names, the way GET /v1/distance/... and a batch row both give it) and as the engine takes it,
 * parsed, with the spec's defaults filled in. Every check raises EngineError invalid_request naming
 * the parameter, so the API and the batch CLI refuse alike. A mode's own defaults come from its
 * profile (engine/modes/).
 */
import { booleanText, notBoolean } from "../../common/boolean-text.ts";
import { checkCargoTonnes } from "../emissions.ts";
import { EngineError } from "../errors.ts";
import { GEOMETRY_FORMATS, type GeometryFormat } from "../geojson.ts";
import { LOCATION_LIMIT, type PlaceKind } from "../locations/index.ts";
import { MODE_PROFILES, MODES, modeNamed } from "../modes/index.ts";
import type { TransportMode } from "../modes/profile.ts";
import { parseRiverDate, todayUtc } from "../river/seasonal.ts";
import { SPEED_KNOTS } from "../sea/policy.ts";

/** GET /v1/distance/route's parameters. */
export interface RouteQuery {
  from: string;
  to: string;
  mode?: string;
  speed_knots?: string;
  path?: string;
  geometry?: string;
  alternatives?: string;
  handling?: string;
  date?: string;
  seasonal?: string;
  routing_mode?: string;
  avoid?: string;
  cargo_tonnes?: string;
}

/** GET /v1/distance/multimodal's parameters (a batch row's with --multimodal). */
export interface MultimodalQuery {
  from: string;
  to: string;
  modes?: string;
  optimize?: string;
  pol?: string;
  pod?: string;
  speed_knots?: string;
  routing_mode?: string;
  avoid?: string;
  alternatives?: string;
  handling?: string;
  path?: string;
  geometry?: string;
  date?: string;
  seasonal?: string;
  cargo_tonnes?: string;
}

/** GET /v1/distance/locations's parameters. */
export interface LocationsQuery {
  q: string;
  types?: string;
  geocode?: string;
  limit?: string;
}

/** One mode's route, every option its planner reads settled; the fields a mode does not read are absent. */
export interface RouteRequest {
  mode: TransportMode;
  from: string;
  to: string;
  /** Beyond the spec: emissions are stated for this cargo mass (default 1 t; docs/emissions.md). */
  cargoTonnes: number;
  /** The path shown ([lat, lng] pairs); the planner draws it for `geometry` too. */
  path: boolean;
  /** Beyond the spec: each chain's geometry in this format too (engine/geojson.ts). */
  geometry: GeometryFormat | undefined;
  alternatives: boolean;
  /** RAIL, AIR, RIVER: terminal handling at each transfer. */
  handling?: boolean;
  /** RIVER: departure date for the seasonal rules, and whether they apply. */
  date?: string;
  seasonal?: boolean;
  /** SEA: the router checks these (sea/policy.ts). */
  speedKnots?: number;
  routingMode?: string;
  avoid?: string[];
}

/** A door-to-door request; pol and pod are still the codes given (the engine resolves them). */
export interface MultimodalParsed {
  from: string;
  to: string;
  modes: TransportMode[];
  optimize: string | undefined;
  pol: string | undefined;
  pod: string | undefined;
  speedKnots: number | undefined;
  routingMode: string | undefined;
  avoid: string[];
  alternatives: boolean;
  handling: boolean;
  path: boolean;
  geometry: GeometryFormat | undefined;
  date: string;
  seasonal: boolean;
  cargoTonnes: number | undefined;
}

export interface LocationsRequest {
  q: string;
  types: PlaceKind[] | undefined;
  geocode: boolean;
  limit: number | undefined;
}

export const csv = (value: string | undefined): string[] =>
  (value ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);

/** The parameters read as true or false (common/boolean-text.ts): the CLI gives them as switches. */
export const BOOLEAN_PARAMETERS = ["path", "alternatives", "handling", "seasonal", "geocode"] as const;

function flag(
  name: (typeof BOOLEAN_PARAMETERS)[number],
  raw: string | undefined,
  fallback: boolean,
): boolean {
  const value = booleanText(raw, fallback);
  if (value === null) throw new EngineError("invalid_request", notBoolean(name, raw));
  return value;
}

/** geometry: a format of GEOMETRY_FORMATS (any case); absent or empty asks for none. */
function geometryOf(raw: string | undefined): GeometryFormat | undefined {
  if (raw === undefined || raw.trim() === "") return undefined;
  const format = GEOMETRY_FORMATS.find((f) => f === raw.trim().toLowerCase());
  if (!format)
    throw new EngineError(
      "invalid_request",
      `geometry must be ${GEOMETRY_FORMATS.join(" or ")}; got "${raw}".`,
    );
  return format;
}

/** speed_knots as a number; the router checks its range (SPEED_KNOTS). */
function speedOf(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (raw.trim() === "" || !Number.isFinite(n))
    throw new EngineError(
      "invalid_request",
      `speed_knots must be a number from ${SPEED_KNOTS.min} to ${SPEED_KNOTS.max}, got "${raw}".`,
    );
  return n;
}

/** The river date: today's (UTC) when not given, named here so it is part of the request. */
const dateOf = (raw: string | undefined): string => (raw === undefined ? todayUtc() : parseRiverDate(raw));

function routeMode(raw: string | undefined): TransportMode {
  if (!raw?.trim()) return "SEA";
  const mode = modeNamed(raw);
  if (!mode)
    throw new EngineError(
      "invalid_request",
      `Unknown mode "${raw}": use ROAD, RAIL, AIR, RIVER or omit it for sea.`,
    );
  return mode;
}

/**
 * The route query for its mode. Every value given is checked, also one the mode does not read (a
 * sea route's `handling`, a road route's `speed_knots`): a bad value never passes silently.
 */
export function parseRouteQuery(q: RouteQuery): RouteRequest {
  const mode = routeMode(q.mode);
  const base = {
    mode,
    from: q.from,
    to: q.to,
    cargoTonnes: checkCargoTonnes(q.cargo_tonnes),
    geometry: geometryOf(q.geometry),
  };
  const speedKnots = speedOf(q.speed_knots);
  const path = flag("path", q.path, false);
  const alternatives = flag("alternatives", q.alternatives, MODE_PROFILES[mode].alternatives);
  const handling = flag("handling", q.handling, true);
  const seasonal = flag("seasonal", q.seasonal, true);
  const date = dateOf(q.date);
  if (mode === "SEA")
    return { ...base, path, alternatives, speedKnots, routingMode: q.routing_mode, avoid: csv(q.avoid) };
  if (mode === "ROAD") return { ...base, path, alternatives };
  if (mode !== "RIVER") return { ...base, path, alternatives, handling };
  return { ...base, path, alternatives, handling, date, seasonal };
}

/** The allowed modes by any of their names, each once, in the order given. */
function modesOf(raw: string | undefined): TransportMode[] {
  const named = csv(raw).map((text) => {
    const mode = modeNamed(text);
    if (!mode)
      throw new EngineError("invalid_request", `Unknown mode "${text}" in modes: use ${MODES.join(", ")}.`);
    return mode;
  });
  return [...new Set(named)];
}

/** The door-to-door query; optimize, routing_mode and avoid are checked by the planner (multimodal/options.ts). */
export function parseMultimodalQuery(q: MultimodalQuery): MultimodalParsed {
  return {
    from: q.from,
    to: q.to,
    modes: modesOf(q.modes),
    optimize: q.optimize,
    pol: q.pol,
    pod: q.pod,
    speedKnots: speedOf(q.speed_knots),
    routingMode: q.routing_mode,
    avoid: csv(q.avoid),
    alternatives: flag("alternatives", q.alternatives, true),
    handling: flag("handling", q.handling, true),
    path: flag("path", q.path, false),
    geometry: geometryOf(q.geometry),
    date: dateOf(q.date),
    seasonal: flag("seasonal", q.seasonal, true),
    cargoTonnes: q.cargo_tonnes === undefined ? undefined : checkCargoTonnes(q.cargo_tonnes),
  };
}

const PLACE_KINDS: readonly PlaceKind[] = ["port", "airport", "country", "address"];

export function parseLocationsQuery(query: LocationsQuery): LocationsRequest {
  const types = csv(query.types).map((ty) => {
    if (!(PLACE_KINDS as readonly string[]).includes(ty))
      throw new EngineError(
        "invalid_request",
        `Unknown type "${ty}": use port, airport, country or address.`,
      );
    return ty as PlaceKind;
  });
  let limit: number | undefined;
  if (query.limit !== undefined) {
    limit = Number(query.limit);
    if (!Number.isInteger(limit))
      throw new EngineError(
        "invalid_request",
        `limit must be an integer from ${LOCATION_LIMIT.minimum} to ${LOCATION_LIMIT.maximum}.`,
      );
  }
  return {
    q: query.q,
    types: types.length ? types : undefined,
    geocode: flag("geocode", query.geocode, true),
    limit,
  };
}
