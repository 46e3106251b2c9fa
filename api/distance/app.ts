/**
 * Distance and multimodal routing ({distance_url}): GET /v1/distance/route (one mode),
 * GET /v1/distance/multimodal (door to door across the allowed modes), GET and POST
 * /v1/distance/matrix (every source to every destination) and GET /v1/distance/locations. Each handler parses its query, calls the distance engine
 * (engine/distance/engine.ts, the one the batch CLI and the rates search call) and renders.
 */
import { watchCaches } from "../../common/metrics.ts";
import { DistanceEngine } from "../../engine/distance/engine.ts";
import { type MatrixQuery, parseMatrixQuery, planMatrix } from "../../engine/distance/matrix.ts";
import {
  parseLocationsQuery,
  parseMultimodalQuery,
  parseRouteQuery,
} from "../../engine/distance/requests.ts";
import { Overloaded, type SeaPlanner } from "../../engine/sea/pool.ts";
import { jsonResponse, RenderedJson } from "../shared/envelopes.ts";
import type { Platform } from "../shared/platform.ts";
import { createProductApp } from "../shared/product-app.ts";
import { product } from "../shared/products.ts";
import { routeMapPage } from "./pages/site.ts";
import { LOCATIONS_DOC, MATRIX_DOC, MULTIMODAL_DOC, ROUTE_DOC } from "./responses.ts";
import { LOCATIONS_QUERY, MATRIX_BODY, MATRIX_QUERY, MULTIMODAL_QUERY, ROUTE_QUERY } from "./schemas.ts";

export interface DistanceAppOptions {
  /**
   * Plans the sea routes; default: the process's planner for the build (services.ts routePlanner).
   * A RoutePool given here plans the road, rail, air and river routes too.
   */
  routes?: SeaPlanner;
}

/** A shed request's Retry-After, from the pool's estimate. */
const shed = (set: { headers: Record<string, unknown> }) => (err: unknown) => {
  if (err instanceof Overloaded) set.headers["retry-after"] = String(err.retryAfterSeconds);
  throw err;
};

/** A POST body's options as the query spells them (text); the places stay lists. */
function bodyAsQuery(body: Record<string, unknown>): MatrixQuery {
  const { sources, destinations, ...options } = body as Record<string, unknown> & {
    sources: string[];
    destinations: string[];
  };
  const text = Object.fromEntries(Object.entries(options).map(([name, value]) => [name, String(value)]));
  return { ...text, sources, destinations };
}

const MATRIX_SUMMARY = "Distance, duration, cost index and emissions from every source to every destination";

export function distanceApp(platform: Platform, opts: DistanceAppOptions = {}) {
  // One engine per app: its route cache and geocoder serve this app's requests.
  const engine = new DistanceEngine(platform.config, opts);
  // One distance surface per process: the latest one built is the one counted.
  watchCaches({ routes: engine.routeCache });
  const page = routeMapPage(platform.config);
  return createProductApp({ def: product("distance"), platform, access: page.access })
    .use(page.routes)
    .get(
      "/v1/distance/route",
      async ({ query, set }) => new RenderedJson(await engine.route(parseRouteQuery(query)).catch(shed(set))),
      {
        query: ROUTE_QUERY,
        keyed: true,
        detail: {
          ...ROUTE_DOC,
          summary: "Port-to-port (or point-to-point) sea route with ECA split, passages and alternatives",
        },
      },
    )
    .get(
      "/v1/distance/multimodal",
      async ({ query, set }) =>
        new RenderedJson(await engine.multimodal(parseMultimodalQuery(query)).catch(shed(set))),
      {
        query: MULTIMODAL_QUERY,
        keyed: true,
        detail: {
          ...MULTIMODAL_DOC,
          summary: "Door-to-door route across sea, road, rail, air and river legs, with alternatives",
        },
      },
    )
    .get(
      "/v1/distance/matrix",
      async ({ query, set }) =>
        new RenderedJson(await planMatrix(engine, parseMatrixQuery(query)).catch(shed(set))),
      { query: MATRIX_QUERY, keyed: true, detail: { ...MATRIX_DOC, summary: MATRIX_SUMMARY } },
    )
    .post(
      "/v1/distance/matrix",
      async ({ body, set }) =>
        new RenderedJson(await planMatrix(engine, parseMatrixQuery(bodyAsQuery(body))).catch(shed(set))),
      {
        body: MATRIX_BODY,
        keyed: true,
        detail: { ...MATRIX_DOC, summary: `${MATRIX_SUMMARY} (places in a JSON body)` },
      },
    )
    .get(
      "/v1/distance/locations",
      // The spec's locations body is {data: []} without meta.
      async ({ query }) => jsonResponse({ data: await engine.locations(parseLocationsQuery(query)) }),
      {
        query: LOCATIONS_QUERY,
        keyed: true,
        detail: { ...LOCATIONS_DOC, summary: "Search ports, airports, countries and places" },
      },
    );
}
