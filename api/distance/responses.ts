/**
 * What the distance routes answer, for the OpenAPI document: the route and multimodal answers
 * (their ends, then the planner's fields) and the location search. The chains' sections per mode
 * are described at the top level only; their fields are the planners' (docs/multimodal.md).
 */
import { t } from "elysia";
import { routeAnswers, strict, toOpenApi } from "../shared/openapi/responses.ts";
import { product } from "../shared/products.ts";

const DISTANCE = product("distance");

const open = (description: string) => t.Object({}, { additionalProperties: true, description });
const End = open("An end as resolved: its name, code and coordinates");

export const RouteAnswer = t.Object(
  { from: End, to: End },
  {
    $id: "RouteAnswer",
    additionalProperties: true,
    description:
      "The resolved ends, then the route (distance, time, emissions, legs or sections) and its alternatives",
  },
);

export const MultimodalAnswer = t.Object(
  { from: End, to: End },
  {
    $id: "MultimodalAnswer",
    additionalProperties: true,
    description: "The resolved ends, then the chosen route chain (a section per mode) and its alternatives",
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
/** The locations body is {data: [...]} without meta (the spec's). */
export const LOCATIONS_DOC = {
  responses: toOpenApi({
    200: { description: "Matching places, best first", body: strict({ data: t.Array(Location) }) },
  }),
};
