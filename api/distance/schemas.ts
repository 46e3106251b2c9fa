/**
 * The distance routes' query schemas (TypeBox): the parameters as text, each described; the engine
 * parses them (engine/distance/requests.ts). `portolan route`, `multimodal` and `locations` take
 * the same parameters as flags, listed from these schemas (api/cli/distance.ts).
 */
import { t } from "elysia";

const described = (description: string) => t.Optional(t.String({ description }));

export const ROUTE_QUERY = t.Object({
  from: t.String({
    minLength: 1,
    description: "lat,lng, UN/LOCODE, IATA, ICAO, ISO country or free text",
  }),
  to: t.String({ minLength: 1, description: "the other end, in any form from takes" }),
  mode: described("ROAD, RAIL, AIR or RIVER (or an alias such as TRUCK); omitted: a sea route"),
  speed_knots: described("SEA: speed, 3 to 40 knots (default 14)"),
  path: described("true: each route's geometry (default false)"),
  geometry: described(
    "geojson: each route's geometry as a GeoJSON FeatureCollection, one feature per section",
  ),
  alternatives: described("true or false: alternative routes (default false for SEA and RIVER)"),
  handling: described("RAIL, AIR, RIVER: false drops terminal handling (default true)"),
  date: described("YYYY-MM-DD: departure date for seasonal river rules (RIVER)"),
  seasonal: described("RIVER: false turns the seasonal rules off (default true)"),
  routing_mode: described("SEA: short (default) or safe"),
  avoid: described("comma-separated passage ids"),
  cargo_tonnes: described("cargo mass for emissions, default 1 t"),
});

export const MULTIMODAL_QUERY = t.Object({
  from: t.String({ minLength: 1, description: "any location form, usually an address" }),
  to: t.String({ minLength: 1, description: "the other end, in any form from takes" }),
  modes: described("comma-separated SEA, ROAD, RAIL, AIR, RIVER (default all)"),
  optimize: described("cost (default), time, distance or emissions"),
  pol: described("UN/LOCODE of the port of loading (a sea port)"),
  pod: described("UN/LOCODE of the port of discharge (a sea port)"),
  speed_knots: described("speed on the sea legs, 3 to 40 knots (default 14)"),
  routing_mode: described("sea legs: short (default) or safe"),
  avoid: described("comma-separated passage ids closed on the sea legs"),
  alternatives: described("true or false: the other chains (default true)"),
  handling: described("false drops terminal handling (default true)"),
  path: described("true: each section's geometry (default false)"),
  geometry: described(
    "geojson: each chain's geometry as a GeoJSON FeatureCollection, one feature per section",
  ),
  date: described("YYYY-MM-DD: departure date for seasonal river rules"),
  seasonal: described("false turns the seasonal river rules off (default true)"),
  cargo_tonnes: described("cargo mass for emissions, default 1 t"),
});

export const LOCATIONS_QUERY = t.Object({
  q: t.String({ description: "the text to match, at least 2 characters" }),
  types: described("comma-separated port, airport, country, address (default all)"),
  geocode: described("false: no geocoder for free text (default true)"),
  limit: described("results, 1 to 50 (default 10)"),
});
