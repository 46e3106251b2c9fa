/**
 * What the distance routes answer, for the OpenAPI document: the route and multimodal answers
 * (their ends, then the sea route or the route chains of sections.ts) and the location search.
 */
import { t } from "elysia";
import { OPTIMIZE } from "../../engine/multimodal/options.ts";
import { ROUTING_MODES } from "../../engine/sea/policy.ts";
import { Day, routeAnswers, strict, toOpenApi } from "../shared/openapi/responses.ts";
import { product } from "../shared/products.ts";
import {
  Distance,
  Duration,
  Emissions,
  Mode,
  Place,
  RouteChain,
  SeaRoute,
  SeasonalNotes,
} from "./sections.ts";

const DISTANCE = product("distance");

const RoutingMode = t.Union(ROUTING_MODES.map((m) => t.Literal(m)));

const open = (description: string) => t.Object({}, { additionalProperties: true, description });
/** An end as resolved; a sea route's ends also carry the route_point the route starts or ends at. */
const End = Place;

/** RIVER chains (route and multimodal) add the date the seasonal rules were read for, and their notes. */
const RIVER_FIELDS = { date: t.Optional(Day), seasonal_notes: t.Optional(SeasonalNotes) };

const SeaRouteAnswer = strict(
  {
    from: End,
    to: End,
    routing_mode: RoutingMode,
    avoided: t.Array(t.String()),
    route: SeaRoute,
    alternatives: t.Array(SeaRoute),
  },
  { $id: "SeaRouteAnswer", description: "The SEA route (mode omitted or SEA) and its alternatives" },
);

const ChainRouteAnswer = strict(
  { from: End, to: End, route: RouteChain, alternatives: t.Array(RouteChain), ...RIVER_FIELDS },
  { $id: "ChainRouteAnswer", description: "A ROAD, RAIL, AIR or RIVER route chain and its alternatives" },
);

export const RouteAnswer = t.Union([ChainRouteAnswer, SeaRouteAnswer], { $id: "RouteAnswer" });

export const MultimodalAnswer = strict(
  {
    from: End,
    to: End,
    transport_modes: t.Array(Mode),
    optimize: t.Union(OPTIMIZE.map((o) => t.Literal(o))),
    routing_mode: RoutingMode,
    avoided: t.Array(t.String()),
    route: RouteChain,
    alternatives: t.Array(RouteChain),
    ...RIVER_FIELDS,
  },
  {
    $id: "MultimodalAnswer",
    description: "The resolved ends, then the chosen route chain (a section per mode) and its alternatives",
  },
);

const MatrixFigures = strict(
  { distance: Distance, duration: Duration, cost_index: t.Optional(t.Number()), emissions: Emissions },
  {
    $id: "MatrixCell",
    description: "The single route's figures (cost_index for chains; a sea route's transit as duration)",
  },
);
const MatrixCellError = strict(
  { error: strict({ code: t.String(), message: t.String() }) },
  { $id: "MatrixCellError", description: "The error the single route answers for this pair (no_route, ...)" },
);

export const MatrixAnswer = strict(
  {
    sources: t.Array(Place),
    destinations: t.Array(Place),
    mode: t.Optional(Mode),
    transport_modes: t.Optional(t.Array(Mode)),
    cells: t.Array(t.Array(t.Union([MatrixFigures, MatrixCellError]))),
  },
  {
    $id: "MatrixAnswer",
    description:
      "The resolved places; cells[i][j] is sources[i] to destinations[j] (mode, or transport_modes door to door)",
  },
);

export const Location = open("A port, airport, country or place that matched");

/** 404: an end names no place; 422: no route joins the ends; 503: the route workers are busy. */
const ROUTE_ERRORS = [404, 422, 503];

export const ROUTE_DOC = routeAnswers(
  DISTANCE,
  { 200: { description: "The route", data: RouteAnswer } },
  ROUTE_ERRORS,
);
export const MULTIMODAL_DOC = routeAnswers(
  DISTANCE,
  { 200: { description: "The route chain", data: MultimodalAnswer } },
  ROUTE_ERRORS,
);
export const MATRIX_DOC = routeAnswers(
  DISTANCE,
  { 200: { description: "The matrix", data: MatrixAnswer } },
  [404, 503],
);
/** The locations body is {data: [...]} without meta (the spec's). */
export const LOCATIONS_DOC = {
  responses: toOpenApi({
    200: { description: "Matching places, best first", body: strict({ data: t.Array(Location) }) },
  }),
};
