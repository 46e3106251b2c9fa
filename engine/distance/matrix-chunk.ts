/**
 * A matrix's cells planned in one job (engine/distance/matrix.ts sends them, to a route worker or
 * the serving thread's planners): one source and a run of its row's destinations. Each cell keeps
 * its figures where it is planned, so no route answer is rendered and parsed back: a sea cell is
 * the router's best route without its path (SeaRouter.figures), another mode's cell the summary of
 * its planner's best chain. The road legs of a matrix are kept while its chunks run: the cells of a
 * row ask the same legs from their source to the same ports and terminals, those of a column the
 * same to their destination, and a leg is a pure function of its request.
 */
import { type Chain, withCargoTonnes } from "../chain.ts";
import { EngineError, type EngineErrorCode } from "../errors.ts";
import type { ResolvedPoint } from "../locations/index.ts";
import { Memo } from "../multimodal/memo.ts";
import type { MultimodalRequest } from "../multimodal/options.ts";
import { type RoadPlan, type RoadRoutePlanner, renderRoadChain } from "../road/planner.ts";
import type { ChainEnd } from "../sea/pool.ts";
import type { SeaRoute } from "../sea/router.ts";
import type { ThreadPlanners } from "../thread-planners.ts";
import { seaEnd, shownPoint } from "./places.ts";
import type { RouteRequest } from "./requests.ts";

/** A cell's figures: the route's distance, duration, cost index (chains) and emissions. */
export interface CellFigures {
  distance: { km: number; nm: number; meters: number };
  duration: { hours: number; days: number; seconds: number };
  cost_index?: number;
  emissions: unknown;
}

export type CellError = { error: { code: EngineErrorCode; message: string } };
export type Cell = CellFigures | CellError;

/** What every cell of a matrix is planned with: one mode's route request, or a door-to-door one. */
export type CellRequest =
  | { kind: "route"; route: RouteRequest }
  | { kind: "multimodal"; multimodal: Omit<MultimodalRequest<ChainEnd>, "from" | "to"> };

export interface MatrixChunk {
  /** The matrix's number in the process that sends it: the road legs kept are this matrix's. */
  matrix: number;
  request: CellRequest;
  from: ResolvedPoint;
  to: ResolvedPoint[];
}

/** A sea route's figures in a chain's units: the distance and transit as the route states them. */
function seaFigures(route: SeaRoute): CellFigures {
  const { distance, transit, emissions } = route;
  return {
    distance: { km: distance.km, nm: distance.nm, meters: Math.round(distance.km * 1000) },
    duration: { hours: transit.hours, days: transit.days, seconds: Math.round(transit.hours * 3600) },
    emissions,
  };
}

/** A chain's summary, its emissions restated for the cargo mass. */
function chainFigures(chain: Chain<unknown>, cargoTonnes: number | null): CellFigures {
  const { distance, duration, cost_index, emissions } = (
    cargoTonnes === null ? chain : withCargoTonnes(chain, cargoTonnes)
  ).summary;
  return { distance, duration, cost_index, emissions };
}

/** One cell's figures, planned as the engine plans the single route (engine/distance/engine.ts). */
async function figures(
  planners: ThreadPlanners,
  request: CellRequest,
  from: ResolvedPoint,
  to: ResolvedPoint,
  road: RoadRoutePlanner,
): Promise<CellFigures> {
  const [a, b] = [shownPoint(from), shownPoint(to)];
  if (request.kind === "multimodal") {
    const plan = await planners.multimodal.plan({ ...request.multimodal, from: a, to: b }, road);
    return chainFigures(plan.route, null);
  }
  const r = request.route;
  const { handling, date, seasonal } = r;
  const ends = { from: a, to: b, path: false, alternatives: false };
  switch (r.mode) {
    case "SEA": {
      const { speedKnots, routingMode, avoid = [], cargoTonnes } = r;
      const sea = { from: seaEnd(from), to: seaEnd(to), speedKnots, routingMode, avoid, cargoTonnes };
      return seaFigures(planners.sea.figures(sea));
    }
    case "ROAD": {
      const planned = await road.plan({ from, to, path: false, alternatives: false });
      return chainFigures(renderRoadChain(planned.route, a, b), r.cargoTonnes);
    }
    case "RAIL":
      return chainFigures(
        (await (await planners.rail()).plan({ ...ends, handling }, road)).route,
        r.cargoTonnes,
      );
    case "AIR":
      return chainFigures(
        (await (await planners.air()).plan({ ...ends, handling }, road)).route,
        r.cargoTonnes,
      );
    case "RIVER": {
      const river = await planners.river();
      const plan = await river.plan({ ...ends, handling, date, seasonal }, road);
      return chainFigures(plan.route, r.cargoTonnes);
    }
  }
}

/** Road legs kept per matrix: about the distinct legs of a 25 x 25 door-to-door matrix. */
const KEPT_LEGS = 8192;

/** This thread's kept road legs: the last matrix's only. */
let kept = { matrix: -1, legs: new Memo<string, Promise<RoadPlan>>(KEPT_LEGS) };

/** `road`, each distinct leg of the chunk's matrix planned once on this thread. */
function matrixRoad(matrix: number, road: RoadRoutePlanner): RoadRoutePlanner {
  if (kept.matrix !== matrix) kept = { matrix, legs: new Memo(KEPT_LEGS) };
  const { legs } = kept;
  return { plan: (req) => legs.get(JSON.stringify(req), () => road.plan(req)) };
}

/**
 * The chunk's cells in the order of its destinations: figures, or the EngineError the route
 * answers (the caller decides which fail the whole matrix). Any other error fails the chunk.
 */
export async function chunkCells(
  planners: ThreadPlanners,
  chunk: MatrixChunk,
  road: RoadRoutePlanner,
): Promise<Cell[]> {
  const legs = matrixRoad(chunk.matrix, road);
  const cells: Cell[] = [];
  for (const to of chunk.to) {
    try {
      cells.push(await figures(planners, chunk.request, chunk.from, to, legs));
    } catch (err) {
      if (!(err instanceof EngineError)) throw err;
      cells.push({ error: { code: err.code, message: err.message } });
    }
  }
  return cells;
}
