/** The distance routes' query schemas (TypeBox): the parameters as text; the engine parses them (engine/distance/requests.ts). */
import { t } from "elysia";

const optional = t.Optional(t.String());
const geometry = t.Optional(
  t.String({ description: "geojson: each chain's geometry as a GeoJSON FeatureCollection" }),
);

export const ROUTE_QUERY = t.Object({
  from: t.String({
    minLength: 1,
    description: "lat,lng, UN/LOCODE, IATA, ICAO, ISO country or free text",
  }),
  to: t.String({ minLength: 1 }),
  mode: optional,
  speed_knots: optional,
  path: optional,
  geometry,
  alternatives: optional,
  handling: optional,
  date: t.Optional(t.String({ description: "YYYY-MM-DD: departure date for seasonal river rules (RIVER)" })),
  seasonal: optional,
  routing_mode: optional,
  avoid: t.Optional(t.String({ description: "comma-separated passage ids" })),
  cargo_tonnes: t.Optional(t.String({ description: "cargo mass for emissions, default 1 t" })),
});

export const MULTIMODAL_QUERY = t.Object({
  from: t.String({ minLength: 1, description: "any location form, usually an address" }),
  to: t.String({ minLength: 1 }),
  modes: t.Optional(t.String({ description: "comma-separated SEA, ROAD, RAIL, AIR, RIVER (default all)" })),
  optimize: t.Optional(t.String({ description: "cost (default), time, distance or emissions" })),
  pol: t.Optional(t.String({ description: "UN/LOCODE of the port of loading (a sea port)" })),
  pod: t.Optional(t.String({ description: "UN/LOCODE of the port of discharge (a sea port)" })),
  speed_knots: optional,
  routing_mode: optional,
  avoid: t.Optional(t.String({ description: "comma-separated passage ids closed on the sea legs" })),
  alternatives: optional,
  handling: optional,
  path: optional,
  geometry,
  date: t.Optional(t.String({ description: "YYYY-MM-DD: departure date for seasonal river rules" })),
  seasonal: optional,
  cargo_tonnes: t.Optional(t.String({ description: "cargo mass for emissions, default 1 t" })),
});

export const LOCATIONS_QUERY = t.Object({
  q: t.String(),
  types: optional,
  geocode: optional,
  limit: optional,
});
