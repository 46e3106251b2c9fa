/**
 * Distance and multimodal routing ({distance_url}): GET /v1/distance/route (one mode),
 * GET /v1/distance/multimodal (door to door across the allowed modes) and
 * GET /v1/distance/locations. Handlers only parse, resolve and render; routing lives in engine/
 * and location resolution in engine/locations/.
 */
import { t } from "elysia";
import { planWithCargoTonnes, withCargoTonnes } from "../../engine/chain.ts";
import { checkCargoTonnes } from "../../engine/emissions.ts";
import { createGeocoder } from "../../engine/locations/geocoders.ts";
import type { Geocoder, LocationIndex, PlaceKind, ResolvedPoint } from "../../engine/locations/index.ts";
import { MODES } from "../../engine/multimodal/options.ts";
import { parseRiverDate, todayUtc } from "../../engine/river/seasonal.ts";
import { renderRoadChain } from "../../engine/road/planner.ts";
import { Overloaded, RoutePool, type SeaPlanner } from "../../engine/sea/pool.ts";
import { distanceServices, modePlanners, pooledModes, routePlanner } from "../../engine/services.ts";
import { jsonResponse, RenderedJson } from "../shared/envelopes.ts";
import { ApiError } from "../shared/errors.ts";
import { flag } from "../shared/flag.ts";
import type { Platform } from "../shared/platform.ts";
import { createProductApp } from "../shared/product-app.ts";
import { product } from "../shared/products.ts";
import { routeMapPage } from "./pages/site.ts";
import { LOCATIONS_DOC, MULTIMODAL_DOC, ROUTE_DOC } from "./responses.ts";
import { RouteCache, type RouteOption, routeKey } from "./route-cache.ts";

/** Spec mode names and aliases. */
const MODE_ALIASES: Record<string, string> = {
  SEA: "SEA",
  ROAD: "ROAD",
  TRUCK: "ROAD",
  AIR: "AIR",
  FLIGHT: "AIR",
  RAIL: "RAIL",
  RIVER: "RIVER",
  INLAND: "RIVER",
  INLAND_WATERWAY: "RIVER",
  IWW: "RIVER",
  BARGE: "RIVER",
};

const csv = (value: string | undefined): string[] =>
  (value ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);

/** A resolved point as the sea-route response shows it. */
const seaPoint = (p: ResolvedPoint) => ({
  kind: p.kind,
  name: p.name,
  locode: p.locode,
  iata: p.iata,
  country: p.country,
  country_code: p.country_code,
  lat: p.lat,
  lng: p.lng,
  source: p.source,
});

const PLACE_KINDS: readonly PlaceKind[] = ["port", "airport", "country", "address"];

/**
 * Sources that list sea ports. A port known only from UN/LOCODE (Basel, Mannheim: inland river
 * ports) is planned as a place, so the sea router's non-port snap limit applies: an inland place
 * answers no_route with its distance from the nearest sea lane instead of a route that sails up a
 * river lane and stops far short of it (issue 12).
 */
const SEA_PORT_SOURCES: ReadonlySet<string> = new Set(["main_ports", "wpi"]);
const seaEnd = (p: ResolvedPoint): ResolvedPoint =>
  p.kind === "port" && !SEA_PORT_SOURCES.has(p.source) ? { ...p, kind: "address" } : p;

/** speed_knots as a number; the engine checks its range (3 to 40). */
function speedOf(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (raw.trim() === "" || !Number.isFinite(n))
    throw new ApiError("validation", `speed_knots must be a number from 3 to 40, got "${raw}".`);
  return n;
}

export interface DistanceAppOptions {
  /**
   * Plans the sea routes; default: the process's planner for the build (services.ts routePlanner).
   * A RoutePool given here plans the road, rail and air routes too (services.ts pooledModes).
   */
  routes?: SeaPlanner;
}

export function distanceApp(platform: Platform, opts: DistanceAppOptions = {}) {
  const services = () => distanceServices(platform.config.buildDir);
  const planner = async () => opts.routes ?? routePlanner(platform.config.buildDir, platform.config.routes);
  const modes = () =>
    opts.routes instanceof RoutePool
      ? pooledModes(opts.routes, platform.config.buildDir, platform.config.road)
      : modePlanners(platform.config.buildDir, platform.config.routes, platform.config.road);
  const shed = (set: { headers: Record<string, unknown> }) => (err: unknown) => {
    if (err instanceof Overloaded) set.headers["retry-after"] = String(err.retryAfterSeconds);
    throw err;
  };
  // Free text goes to the configured geocoder (offline GeoNames by default; Nominatim or Photon).
  let geocoder: Geocoder | null = null;
  const geocoderOf = (locations: LocationIndex) =>
    (geocoder ??= createGeocoder(locations, platform.config.geocoder));
  // Resolution stays on this thread: microseconds of index lookups, and an external geocoder is I/O.
  const ends = async (from: string, to: string) => {
    const { locations } = await services();
    const geocoder = geocoderOf(locations);
    return [await locations.resolveWith(from, geocoder), await locations.resolveWith(to, geocoder)] as const;
  };
  /** pol / pod: the UN/LOCODE of a sea port (main container port or World Port Index harbour). */
  const seaPort = async (name: "pol" | "pod", code: string | undefined): Promise<ResolvedPoint | null> => {
    if (code === undefined || code.trim() === "") return null;
    const { locations } = await services();
    const port = locations.port(code);
    if (port?.kind !== "port" || !SEA_PORT_SOURCES.has(port.source))
      throw new ApiError(
        "validation",
        `${name} must be the UN/LOCODE of a sea port; "${code}" is ${port ? `${port.name}, not a sea port` : "not a known port"}.`,
      );
    return port;
  };
  // Repeated routes skip the planner and the worker hop (route-cache.ts); one cache per app.
  const routeCache = new RouteCache(platform.config.routeCacheEntries);
  /** ends, kept with the route answers while resolution is offline (a pure function of the text). */
  const routeEnds = async (from: string, to: string) => {
    const { locations } = await services();
    const geocoder = geocoderOf(locations);
    if (!routeCache.enabled || geocoder !== locations.offline) return ends(from, to);
    const resolve = (text: string) => locations.resolveWith(text, geocoder);
    return [await routeCache.resolved(from, resolve), await routeCache.resolved(to, resolve)] as const;
  };
  /** The cache key of a route query, or null with the cache off. */
  const keyOf = async (mode: string, from: ResolvedPoint, to: ResolvedPoint, options: RouteOption[]) =>
    routeCache.enabled ? routeKey({ build: (await services()).sea.buildId, mode, from, to, options }) : null;
  /**
   * keyOf for the modes whose legs the road planner plans: null (not cached) with an external road
   * engine, whose answers move with its data and turn into estimates while it is down.
   */
  const roadKey = (mode: string, from: ResolvedPoint, to: ResolvedPoint, options: RouteOption[]) =>
    platform.config.road.engine ? null : keyOf(mode, from, to, options);
  /** The answer kept under `key`, else `render`'s (JSON.stringify of the data), kept for the next. */
  const cachedRoute = async (key: string | null, render: () => Promise<string>) => {
    const hit = key === null ? undefined : routeCache.get(key);
    if (hit !== undefined) return new RenderedJson(hit);
    const json = await render();
    if (key !== null) routeCache.set(key, json);
    return new RenderedJson(json);
  };
  const optional = t.Optional(t.String());
  const page = routeMapPage(platform.config);
  return createProductApp({ def: product("distance"), platform, access: page.access })
    .use(page.routes)
    .get(
      "/v1/distance/route",
      async ({ query, set }) => {
        const modeRaw = query.mode?.trim().toUpperCase();
        let mode = "SEA";
        if (modeRaw) {
          const named = MODE_ALIASES[modeRaw];
          if (!named)
            throw new ApiError(
              "validation",
              `Unknown mode "${query.mode}": use ROAD, RAIL, AIR, RIVER or omit it for sea.`,
            );
          mode = named;
        }
        // Beyond the spec: emissions are stated for this cargo mass (default 1 t; docs/emissions.md).
        const cargo = checkCargoTonnes(query.cargo_tonnes);
        if (mode === "ROAD") {
          const withPath = flag("path", query.path, false);
          // The spec defaults alternatives to true for ROAD.
          const alternatives = flag("alternatives", query.alternatives, true);
          const [from, to] = await routeEnds(query.from, query.to);
          return cachedRoute(await roadKey(mode, from, to, [withPath, alternatives, cargo]), async () => {
            const { road } = await modes();
            const planned = await road.plan({ from, to, path: withPath, alternatives }).catch(shed(set));
            const [a, b] = [seaPoint(from), seaPoint(to)];
            return JSON.stringify({
              from: a,
              to: b,
              route: withCargoTonnes(renderRoadChain(planned.route, a, b), cargo),
              alternatives: planned.alternatives.map((leg) =>
                withCargoTonnes(renderRoadChain(leg, a, b), cargo),
              ),
            });
          });
        }
        if (mode === "RAIL" || mode === "AIR") {
          const withPath = flag("path", query.path, false);
          // The spec defaults alternatives to true for ROAD, RAIL and AIR; handling defaults to true.
          const alternatives = flag("alternatives", query.alternatives, true);
          const handling = flag("handling", query.handling, true);
          const [from, to] = await routeEnds(query.from, query.to);
          const options = [withPath, alternatives, handling, cargo];
          return cachedRoute(await roadKey(mode, from, to, options), async () => {
            const planners = await modes();
            const [a, b] = [seaPoint(from), seaPoint(to)];
            const request = { from: a, to: b, path: withPath, alternatives, handling };
            const planned =
              mode === "RAIL"
                ? await planners.rail(request).catch(shed(set))
                : await planners.air(request).catch(shed(set));
            return JSON.stringify({ from: a, to: b, ...planWithCargoTonnes(planned, cargo) });
          });
        }
        if (mode === "RIVER") {
          // The spec defaults alternatives to true for ROAD, RAIL, AIR and multimodal: not for RIVER.
          const request = {
            path: flag("path", query.path, false),
            alternatives: flag("alternatives", query.alternatives, false),
            handling: flag("handling", query.handling, true),
            date: query.date === undefined ? todayUtc() : parseRiverDate(query.date),
            seasonal: flag("seasonal", query.seasonal, true),
          };
          const [from, to] = await routeEnds(query.from, query.to);
          const options = [...Object.values(request), cargo];
          return cachedRoute(await roadKey(mode, from, to, options), async () => {
            const [a, b] = [seaPoint(from), seaPoint(to)];
            const planned = await (await modes()).river({ from: a, to: b, ...request }).catch(shed(set));
            return JSON.stringify({ from: a, to: b, ...planWithCargoTonnes(planned, cargo) });
          });
        }
        const speedKnots = speedOf(query.speed_knots);
        const withPath = flag("path", query.path, false);
        // The spec defaults alternatives to true for ROAD, RAIL, AIR and multimodal, not for sea.
        const alternatives = flag("alternatives", query.alternatives, false);
        const [from, to] = await routeEnds(query.from, query.to);
        // Everything the answer depends on besides the ends: the cache key and the plan share it.
        const options = {
          speedKnots,
          routingMode: query.routing_mode,
          avoid: csv(query.avoid),
          cargoTonnes: cargo,
          path: withPath,
          alternatives,
        };
        return cachedRoute(await keyOf("SEA", from, to, Object.values(options)), async () => {
          const sea = await planner();
          const planned = await sea
            .planJson({ from: seaEnd(from), to: seaEnd(to), ...options })
            .catch(shed(set));
          // JSON.stringify({ from, to, ...planned }): the planned text is an object with neither key.
          return `{"from":${JSON.stringify(seaPoint(from))},"to":${JSON.stringify(seaPoint(to))},${planned.slice(1)}`;
        });
      },
      {
        query: t.Object({
          from: t.String({
            minLength: 1,
            description: "lat,lng, UN/LOCODE, IATA, ICAO, ISO country or free text",
          }),
          to: t.String({ minLength: 1 }),
          mode: optional,
          speed_knots: optional,
          path: optional,
          alternatives: optional,
          handling: optional,
          date: t.Optional(
            t.String({ description: "YYYY-MM-DD: departure date for seasonal river rules (RIVER)" }),
          ),
          seasonal: optional,
          routing_mode: optional,
          avoid: t.Optional(t.String({ description: "comma-separated passage ids" })),
          cargo_tonnes: t.Optional(t.String({ description: "cargo mass for emissions, default 1 t" })),
        }),
        keyed: true,
        detail: {
          ...ROUTE_DOC,
          summary: "Port-to-port (or point-to-point) sea route with ECA split, passages and alternatives",
        },
      },
    )
    .get(
      "/v1/distance/multimodal",
      async ({ query, set }) => {
        const allowed = csv(query.modes).map((raw) => {
          const named = MODE_ALIASES[raw.toUpperCase()];
          if (!named)
            throw new ApiError("validation", `Unknown mode "${raw}" in modes: use ${MODES.join(", ")}.`);
          return named as (typeof MODES)[number];
        });
        const options = {
          modes: [...new Set(allowed)],
          optimize: query.optimize,
          speedKnots: speedOf(query.speed_knots),
          routingMode: query.routing_mode,
          avoid: csv(query.avoid),
          alternatives: flag("alternatives", query.alternatives, true),
          handling: flag("handling", query.handling, true),
          path: flag("path", query.path, false),
          // Today's when not given, as the planner would take it: named here, it is part of the key.
          date: query.date === undefined ? todayUtc() : parseRiverDate(query.date),
          seasonal: flag("seasonal", query.seasonal, true),
          cargoTonnes: query.cargo_tonnes === undefined ? undefined : checkCargoTonnes(query.cargo_tonnes),
        };
        const [from, to] = await routeEnds(query.from, query.to);
        const [pol, pod] = await Promise.all([seaPort("pol", query.pol), seaPort("pod", query.pod)]);
        const key = await roadKey("MULTIMODAL", from, to, [...Object.values(options), pol, pod]);
        return cachedRoute(key, async () => {
          const [a, b] = [seaPoint(from), seaPoint(to)];
          const planned = await (await modes())
            .multimodal({ from: a, to: b, pol, pod, ...options })
            .catch(shed(set));
          const { considered: _, ...shown } = planned;
          return JSON.stringify({ from: a, to: b, ...shown });
        });
      },
      {
        query: t.Object({
          from: t.String({ minLength: 1, description: "any location form, usually an address" }),
          to: t.String({ minLength: 1 }),
          modes: t.Optional(
            t.String({ description: "comma-separated SEA, ROAD, RAIL, AIR, RIVER (default all)" }),
          ),
          optimize: t.Optional(t.String({ description: "cost (default), time, distance or emissions" })),
          pol: t.Optional(t.String({ description: "UN/LOCODE of the port of loading (a sea port)" })),
          pod: t.Optional(t.String({ description: "UN/LOCODE of the port of discharge (a sea port)" })),
          speed_knots: optional,
          routing_mode: optional,
          avoid: t.Optional(t.String({ description: "comma-separated passage ids closed on the sea legs" })),
          alternatives: optional,
          handling: optional,
          path: optional,
          date: t.Optional(t.String({ description: "YYYY-MM-DD: departure date for seasonal river rules" })),
          seasonal: optional,
          cargo_tonnes: t.Optional(t.String({ description: "cargo mass for emissions, default 1 t" })),
        }),
        keyed: true,
        detail: {
          ...MULTIMODAL_DOC,
          summary: "Door-to-door route across sea, road, rail, air and river legs, with alternatives",
        },
      },
    )
    .get(
      "/v1/distance/locations",
      async ({ query }) => {
        const types = csv(query.types).map((ty) => {
          if (!(PLACE_KINDS as readonly string[]).includes(ty)) {
            throw new ApiError("validation", `Unknown type "${ty}": use port, airport, country or address.`);
          }
          return ty as PlaceKind;
        });
        let limit: number | undefined;
        if (query.limit !== undefined) {
          limit = Number(query.limit);
          if (!Number.isInteger(limit))
            throw new ApiError("validation", `limit must be an integer from 1 to 50.`);
        }
        const { locations } = await services();
        const found = await locations.searchWith(
          query.q,
          { types: types.length ? types : undefined, geocode: flag("geocode", query.geocode, true), limit },
          geocoderOf(locations),
        );
        // The spec's locations body is {data: []} without meta.
        return jsonResponse({ data: found });
      },
      {
        query: t.Object({ q: t.String(), types: optional, geocode: optional, limit: optional }),
        keyed: true,
        detail: { ...LOCATIONS_DOC, summary: "Search ports, airports, countries and places" },
      },
    );
}
