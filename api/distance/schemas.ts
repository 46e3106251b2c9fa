/**
 * The distance routes' query schemas (TypeBox): the parameters as text, each described; the engine
 * parses them (engine/distance/requests.ts). Numbers, enumerations and dates are documented as
 * such, with the engine's own bounds and lists. `portolan route`, `multimodal` and `locations` take
 * the same parameters as flags, listed from these schemas (api/cli/distance.ts).
 */
import { t } from "elysia";
import { MATRIX_LIMITS } from "../../engine/distance/matrix.ts";
import { CARGO_TONNES } from "../../engine/emissions.ts";
import { GEOMETRY_FORMATS } from "../../engine/geojson.ts";
import { LOCATION_LIMIT } from "../../engine/locations/index.ts";
import { MODE_NAMES } from "../../engine/modes/index.ts";
import { OPTIMIZE } from "../../engine/multimodal/options.ts";
import { ROUTING_MODES, SPEED_KNOTS } from "../../engine/sea/policy.ts";
import {
  booleanQuery,
  dateQuery,
  enumQuery,
  integerQuery,
  numberQuery,
} from "../shared/openapi/parameters.ts";

const described = (description: string) => t.Optional(t.String({ description }));

const SPEED = { minimum: SPEED_KNOTS.min, maximum: SPEED_KNOTS.max, default: SPEED_KNOTS.default };
const speedKnots = (description: string) => numberQuery(SPEED, description);
const cargoTonnes = numberQuery(CARGO_TONNES, "cargo mass for emissions, default 1 t");
const geometry = (description: string) => enumQuery(GEOMETRY_FORMATS, description);
const routingMode = (description: string) => enumQuery(ROUTING_MODES, description, "short");

export const ROUTE_QUERY = t.Object({
  from: t.String({
    minLength: 1,
    description: "lat,lng, UN/LOCODE, IATA, ICAO, ISO country or free text",
  }),
  to: t.String({ minLength: 1, description: "the other end, in any form from takes" }),
  mode: enumQuery(
    MODE_NAMES,
    "ROAD, RAIL, AIR or RIVER (or an alias such as TRUCK; any case); omitted: a sea route",
  ),
  speed_knots: speedKnots(
    `SEA: speed, ${SPEED.minimum} to ${SPEED.maximum} knots (default ${SPEED.default})`,
  ),
  path: booleanQuery("true: each route's geometry", false),
  geometry: geometry(
    "geojson: each route's geometry as a GeoJSON FeatureCollection, one feature per section",
  ),
  alternatives: booleanQuery("alternative routes (default false for SEA and RIVER, else true)"),
  handling: booleanQuery("RAIL, AIR, RIVER: false drops terminal handling", true),
  date: dateQuery("YYYY-MM-DD: departure date for seasonal river rules (RIVER)"),
  seasonal: booleanQuery("RIVER: false turns the seasonal rules off", true),
  routing_mode: routingMode("SEA: short (default) or safe"),
  avoid: described("comma-separated passage ids"),
  cargo_tonnes: cargoTonnes,
});

export const MULTIMODAL_QUERY = t.Object({
  from: t.String({ minLength: 1, description: "any location form, usually an address" }),
  to: t.String({ minLength: 1, description: "the other end, in any form from takes" }),
  modes: described("comma-separated SEA, ROAD, RAIL, AIR, RIVER (default all)"),
  optimize: enumQuery(OPTIMIZE, "cost (default), time, distance or emissions", "cost"),
  pol: described("UN/LOCODE of the port of loading (a sea port)"),
  pod: described("UN/LOCODE of the port of discharge (a sea port)"),
  speed_knots: speedKnots(
    `speed on the sea legs, ${SPEED.minimum} to ${SPEED.maximum} knots (default ${SPEED.default})`,
  ),
  routing_mode: routingMode("sea legs: short (default) or safe"),
  avoid: described("comma-separated passage ids closed on the sea legs"),
  alternatives: booleanQuery("the other chains", true),
  handling: booleanQuery("false drops terminal handling", true),
  path: booleanQuery("true: each section's geometry", false),
  geometry: geometry(
    "geojson: each chain's geometry as a GeoJSON FeatureCollection, one feature per section",
  ),
  date: dateQuery("YYYY-MM-DD: departure date for seasonal river rules"),
  seasonal: booleanQuery("false turns the seasonal river rules off", true),
  cargo_tonnes: cargoTonnes,
});

export const LOCATIONS_QUERY = t.Object({
  q: t.String({ description: "the text to match, at least 2 characters" }),
  types: described("comma-separated port, airport, country, address (default all)"),
  geocode: booleanQuery("false: no geocoder for free text", true),
  limit: integerQuery(
    LOCATION_LIMIT,
    `results, ${LOCATION_LIMIT.minimum} to ${LOCATION_LIMIT.maximum} (default ${LOCATION_LIMIT.default})`,
  ),
});

/** The route options a matrix's cells take: a route's and a door-to-door route's, without geometry. */
const MATRIX_OPTIONS = (() => {
  const { from: _f, to: _t, path: _p, geometry: _g, alternatives: _a, ...route } = ROUTE_QUERY.properties;
  const { optimize, pol, pod } = MULTIMODAL_QUERY.properties;
  return {
    ...route,
    modes: t.Optional(
      t.String({
        description: "comma-separated SEA, ROAD, RAIL, AIR, RIVER: door to door (empty: all modes)",
      }),
    ),
    ...{ optimize, pol, pod },
  };
})();
const DOOR_TO_DOOR_NOTE = `at most ${MATRIX_LIMITS.single} (${MATRIX_LIMITS.doorToDoor} door to door)`;

export const MATRIX_QUERY = t.Object({
  sources: t.String({
    minLength: 1,
    description: `places separated by |, any form from takes; ${DOOR_TO_DOOR_NOTE}`,
  }),
  destinations: t.String({ minLength: 1, description: "places separated by |, as sources" }),
  ...MATRIX_OPTIONS,
});

const places = (description: string) =>
  t.Array(t.String({ minLength: 1 }), { minItems: 1, maxItems: MATRIX_LIMITS.single, description });
/** A body option: the query parameter's value, as text, a number or a boolean. */
const bodyOption = (description: string | undefined) =>
  t.Optional(t.Union([t.String(), t.Number(), t.Boolean()], { description }));

export const MATRIX_BODY = t.Object({
  sources: places(`any location forms from takes; ${DOOR_TO_DOOR_NOTE}`),
  destinations: places("as sources"),
  ...Object.fromEntries(
    Object.entries(MATRIX_OPTIONS).map(([name, schema]) => [name, bodyOption(schema.description)]),
  ),
});
