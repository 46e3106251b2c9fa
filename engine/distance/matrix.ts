/**
 * Distance matrices (GET and POST /v1/distance/matrix): every source to every destination in one
 * mode or door to door. Each place is resolved once; each cell is the single route's answer
 * (DistanceEngine.routeBetween / multimodalBetween, on the route workers' lane like any route),
 * reduced to its distance, duration, cost index and emissions, or the error that route answers.
 * One cell per route worker runs at once, so a large matrix waits its turn among other routes
 * instead of filling the route queue. docs/sea-routing.md, "Distance matrix".
 */
import { EngineError, type EngineErrorCode } from "../errors.ts";
import type { ResolvedPoint } from "../locations/index.ts";
import { MODES } from "../modes/index.ts";
import type { TransportMode } from "../modes/profile.ts";
import type { DistanceEngine } from "./engine.ts";
import { shownPoint } from "./places.ts";
import {
  type MultimodalParsed,
  type MultimodalQuery,
  parseMultimodalQuery,
  parseRouteQuery,
  type RouteQuery,
  type RouteRequest,
} from "./requests.ts";

/**
 * Places per side: one mode, and door to door. A door-to-door cell costs 11-22 ms on two route
 * workers (bench/matrix.ts): 15 x 15 answers in 2.5-5 s, inside the 10 s a connection may stay
 * silent (api/runtime/bun-serve.ts), where 25 x 25 took 6.7-8 s.
 */
export const MATRIX_LIMITS = { single: 100, doorToDoor: 15 } as const;

/** The options a matrix takes besides its places: a route's or a door-to-door route's, without geometry. */
type Options = Omit<RouteQuery & MultimodalQuery, "from" | "to" | "path" | "geometry" | "alternatives">;

/** A matrix as its query or body spells it: places as a list, or one text separated by `|`. */
export interface MatrixQuery extends Options {
  sources: string | readonly string[];
  destinations: string | readonly string[];
}

/** A parsed matrix: the places' texts and the request each cell's route is planned with. */
export type MatrixRequest = { sources: string[]; destinations: string[] } & (
  | { kind: "route"; route: RouteRequest }
  | { kind: "multimodal"; multimodal: MultimodalParsed }
);

/** The options only a door-to-door route reads; with one of them, modes is asked for too. */
const DOOR_TO_DOOR_ONLY = ["modes", "optimize", "pol", "pod"] as const;

function placesOf(
  name: "sources" | "destinations",
  raw: string | readonly string[],
  limit: number,
): string[] {
  const places = (typeof raw === "string" ? raw.split("|") : [...raw]).map((s) => s.trim());
  if (places.length === 0 || places.some((s) => s === ""))
    throw new EngineError("invalid_request", `${name} must list places separated by "|", none empty.`);
  if (places.length > limit)
    throw new EngineError(
      "invalid_request",
      `${name} lists ${places.length} places; a matrix takes at most ${limit} per side in this mode.`,
    );
  return places;
}

/** The matrix's places and its cells' route request; refuses what a cell's route would refuse. */
export function parseMatrixQuery(q: MatrixQuery): MatrixRequest {
  const { sources, destinations, ...options } = q;
  const doorToDoor = DOOR_TO_DOOR_ONLY.some((name) => options[name] !== undefined);
  if (doorToDoor && options.mode !== undefined)
    throw new EngineError(
      "invalid_request",
      "mode plans one mode and modes door to door: give one of them, not both.",
    );
  const limit = doorToDoor ? MATRIX_LIMITS.doorToDoor : MATRIX_LIMITS.single;
  const places = {
    sources: placesOf("sources", sources, limit),
    destinations: placesOf("destinations", destinations, limit),
  };
  // The cells show no geometry and no alternatives: a cell is the best route's figures.
  const ends = { from: "", to: "", path: "false", alternatives: "false" };
  if (doorToDoor)
    return { ...places, kind: "multimodal", multimodal: parseMultimodalQuery({ ...options, ...ends }) };
  const { modes: _m, optimize: _o, pol: _pl, pod: _pd, ...routeOptions } = options;
  return { ...places, kind: "route", route: parseRouteQuery({ ...routeOptions, ...ends }) };
}

interface CellFigures {
  distance: { km: number; nm: number; meters: number };
  duration: { hours: number; days: number; seconds: number };
  cost_index?: number;
  emissions: unknown;
}
type Cell = CellFigures | { error: { code: EngineErrorCode; message: string } };

interface SeaAnswer {
  route: {
    distance: { km: number; nm: number };
    transit: { hours: number; days: number };
    emissions: unknown;
  };
}
interface ChainAnswer {
  route: {
    summary: {
      distance: CellFigures["distance"];
      duration: CellFigures["duration"];
      cost_index: number;
      emissions: unknown;
    };
  };
}

/** A route answer's figures: a chain's summary as it is; a sea route's distance and transit in the same units. */
function figuresOf(json: string): CellFigures {
  const answer = JSON.parse(json) as SeaAnswer | ChainAnswer;
  if ("summary" in answer.route) {
    const { distance, duration, cost_index, emissions } = answer.route.summary;
    return { distance, duration, cost_index, emissions };
  }
  const { distance, transit, emissions } = answer.route;
  return {
    distance: { km: distance.km, nm: distance.nm, meters: Math.round(distance.km * 1000) },
    duration: { hours: transit.hours, days: transit.days, seconds: Math.round(transit.hours * 3600) },
    emissions,
  };
}

/**
 * A cell: the route's figures, or the engine's error for this pair. An option the route refuses
 * (invalid_request) is the whole request's fault and a busy pool the server's: both fail the matrix.
 */
async function cellOf(plan: () => Promise<string>): Promise<Cell> {
  try {
    return figuresOf(await plan());
  } catch (err) {
    if (!(err instanceof EngineError) || err.code === "overloaded" || err.code === "invalid_request")
      throw err;
    return { error: { code: err.code, message: err.message } };
  }
}

/** Runs `tasks` with at most `width` at once, answers in order; after a failure no task starts. */
async function bounded<T>(tasks: ReadonlyArray<() => Promise<T>>, width: number): Promise<T[]> {
  const out = new Array<T>(tasks.length);
  let next = 0;
  let failed = false;
  const lane = async () => {
    while (!failed && next < tasks.length) {
      const at = next++;
      out[at] = await tasks[at]!().catch((err) => {
        failed = true;
        throw err;
      });
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(width, tasks.length)) }, lane));
  return out;
}

/** Each place resolved once; an unresolvable one answers its error naming the list and position. */
async function resolveAll(
  engine: DistanceEngine,
  name: "sources" | "destinations",
  texts: string[],
): Promise<ResolvedPoint[]> {
  const points: ResolvedPoint[] = [];
  for (const [i, text] of texts.entries()) {
    try {
      points.push(await engine.resolveEnd(text));
    } catch (err) {
      if (!(err instanceof EngineError)) throw err;
      throw new EngineError(err.code, `${name}[${i}]: ${err.message}`, err.extra);
    }
  }
  return points;
}

/** The matrix answer's data as JSON text: the resolved places, and cells[i][j] from sources[i] to destinations[j]. */
export async function planMatrix(engine: DistanceEngine, req: MatrixRequest): Promise<string> {
  const sources = await resolveAll(engine, "sources", req.sources);
  const destinations = await resolveAll(engine, "destinations", req.destinations);
  // A cell's request names its places' texts, for a no_route that says where they resolved.
  const plan = (i: number, j: number) => {
    const texts = { from: req.sources[i]!, to: req.destinations[j]! };
    return req.kind === "route"
      ? engine.routeBetween({ ...req.route, ...texts }, sources[i]!, destinations[j]!, false)
      : engine.multimodalBetween({ ...req.multimodal, ...texts }, sources[i]!, destinations[j]!, false);
  };
  const tasks = sources.flatMap((_, i) => destinations.map((_, j) => () => cellOf(() => plan(i, j))));
  const flat = await bounded(tasks, matrixWidth(engine));
  const cells = sources.map((_, i) => flat.slice(i * destinations.length, (i + 1) * destinations.length));
  const head: { mode: TransportMode } | { transport_modes: TransportMode[] } =
    req.kind === "route"
      ? { mode: req.route.mode }
      : {
          transport_modes: MODES.filter(
            (m) => !req.multimodal.modes.length || req.multimodal.modes.includes(m),
          ),
        };
  return JSON.stringify({
    sources: sources.map(shownPoint),
    destinations: destinations.map(shownPoint),
    ...head,
    cells,
  });
}

/** Cells in flight per matrix: one per route worker, so another route waits behind at most that many. */
const matrixWidth = (engine: DistanceEngine): number => Math.max(1, engine.config.routes.workers);
