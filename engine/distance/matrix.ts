/**
 * Distance matrices (GET and POST /v1/distance/matrix): every source to every destination in one
 * mode or door to door. Each place is resolved once; the cells go to the route workers in chunks
 * (a row of a sea or road matrix, a few cells of the other modes: matrix-chunk.ts), one chunk per
 * route worker at a time, so a large matrix waits its turn among other routes instead of filling
 * the route queue. A cell holds the single route's distance, duration, cost index and emissions,
 * computed by the same planner, or the error that route answers. docs/sea-routing.md, "Distance
 * matrix".
 */
import { EngineError } from "../errors.ts";
import type { ResolvedPoint } from "../locations/index.ts";
import { MODES } from "../modes/index.ts";
import type { TransportMode } from "../modes/profile.ts";
import type { DistanceEngine } from "./engine.ts";
import type { Cell, CellRequest } from "./matrix-chunk.ts";
import { shownPoint, withResolvedEnds } from "./places.ts";
import {
  type MultimodalParsed,
  type MultimodalQuery,
  parseMultimodalQuery,
  parseRouteQuery,
  type RouteQuery,
  type RouteRequest,
} from "./requests.ts";

/**
 * Places per side: one mode, and door to door. On two route workers of a quiet 2-core machine
 * (bench/matrix.ts) 100 x 100 by sea answers in 0.36-0.42 s and 25 x 25 door to door in 1.2-1.3 s
 * (2.7-4.2 s with the cores shared), inside the 10 s a connection may stay silent
 * (api/runtime/bun-serve.ts).
 */
export const MATRIX_LIMITS = { single: 100, doorToDoor: 25 } as const;

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

/** The request every cell is planned with; pol and pod resolved once. */
async function cellRequest(engine: DistanceEngine, req: MatrixRequest): Promise<CellRequest> {
  if (req.kind === "route") return { kind: "route", route: req.route };
  const { from: _f, to: _t, pol, pod, geometry: _g, ...options } = req.multimodal;
  const ports = await Promise.all([engine.seaPort("pol", pol), engine.seaPort("pod", pod)]);
  return { kind: "multimodal", multimodal: { ...options, pol: ports[0], pod: ports[1] } };
}

/**
 * Cells per job: a sea or road cell costs tens to hundreds of microseconds, so a row is one job;
 * a door-to-door cell up to ~15 ms, so a route waits behind a few of them at most.
 */
function cellsPerJob(req: MatrixRequest): number {
  if (req.kind === "route" && (req.route.mode === "SEA" || req.route.mode === "ROAD"))
    return MATRIX_LIMITS.single;
  return 4;
}

/**
 * A cell as the matrix answers it. An error the route answers for its pair stays in its cell,
 * naming where the places resolved; an option the route refuses (invalid_request) is the whole
 * request's fault and a busy pool the server's: both fail the matrix.
 */
function answered(cell: Cell, ends: ReadonlyArray<readonly ["from" | "to", string, ResolvedPoint]>): Cell {
  if (!("error" in cell)) return cell;
  const { code, message } = cell.error;
  if (code === "overloaded" || code === "invalid_request") throw new EngineError(code, message);
  const named = withResolvedEnds(new EngineError(code, message), ends) as EngineError;
  return { error: { code, message: named.message } };
}

/** Process-wide matrix numbers: a worker keeps one matrix's road legs at a time (matrix-chunk.ts). */
let matrices = 0;

/** The matrix answer's data as JSON text: the resolved places, and cells[i][j] from sources[i] to destinations[j]. */
export async function planMatrix(engine: DistanceEngine, req: MatrixRequest): Promise<string> {
  const sources = await resolveAll(engine, "sources", req.sources);
  const destinations = await resolveAll(engine, "destinations", req.destinations);
  const [request, planners] = await Promise.all([cellRequest(engine, req), engine.modes()]);
  const matrix = matrices++;
  const step = cellsPerJob(req);
  const cells: Cell[][] = sources.map(() => []);
  const tasks = sources.flatMap((from, i) =>
    destinations
      .filter((_, j) => j % step === 0)
      .map((_, k) => async () => {
        const start = k * step;
        const to = destinations.slice(start, start + step);
        const chunk = await planners.matrix({ matrix, request, from, to });
        chunk.forEach((cell, n) => {
          const j = start + n;
          const ends = [
            ["from", req.sources[i]!, from],
            ["to", req.destinations[j]!, destinations[j]!],
          ] as const;
          cells[i]![j] = answered(cell, ends);
        });
      }),
  );
  await bounded(tasks, matrixWidth(engine));
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
