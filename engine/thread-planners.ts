/**
 * One thread's planners over a build directory, constructed once per thread: the road model (per
 * circuity and truck speed), the rail planner, the cargo airports, the river planner and the
 * door-to-door planner over the thread's sea router. Each loads on first use (a failed load is
 * forgotten so the next job retries) and is checked against the sea router's build, which its
 * owner has checked against locations.idx. A route worker (sea/worker.ts) holds one; so does the
 * serving thread when it plans in-thread (services.ts, PORTOLAN_ROUTE_WORKERS=0).
 */
import { AirPlanner } from "./air/planner.ts";
import { once, sameBuild } from "./artifacts.ts";
import { type MultimodalDeps, MultimodalPlanner } from "./multimodal/planner.ts";
import { RAIL_GRAPH_FILE, RailPlanner } from "./rail/planner.ts";
import { RIVER_GRAPH_FILE, RiverPlanner } from "./river/planner.ts";
import { type RoadModelOptions, RoadPlanner } from "./road/planner.ts";
import type { SeaRouter } from "./sea/router.ts";

export class ThreadPlanners {
  private readonly loads = new Map<string, Promise<unknown>>();
  readonly multimodal: MultimodalPlanner;

  constructor(
    private readonly buildDir: string,
    readonly sea: SeaRouter,
    ports: MultimodalDeps["ports"],
  ) {
    this.multimodal = new MultimodalPlanner({
      sea,
      ports,
      rail: () => this.rail(),
      air: () => this.air(),
      river: () => this.river(),
    });
  }

  /** The road model for a set of options (config.road's circuity and truck speed). */
  road(opts: RoadModelOptions): Promise<RoadPlanner> {
    const { circuity, truckSpeedKmh } = opts;
    return this.checked(`road\n${circuity}\n${truckSpeedKmh}`, "road.graph", async () => {
      const model = await RoadPlanner.load(this.buildDir, { circuity, truckSpeedKmh });
      return { planner: model, buildId: model.buildId };
    });
  }

  rail(): Promise<RailPlanner> {
    return this.checked("rail", RAIL_GRAPH_FILE, async () => {
      const rail = await RailPlanner.load(this.buildDir);
      return { planner: rail, buildId: rail.buildId };
    });
  }

  air(): Promise<AirPlanner> {
    return this.checked("air", "cargo-airports.bin", () => AirPlanner.load(this.buildDir));
  }

  river(): Promise<RiverPlanner> {
    return this.checked("river", RIVER_GRAPH_FILE, async () => {
      const river = await RiverPlanner.load(this.buildDir);
      return { planner: river, buildId: river.buildId };
    });
  }

  /** Loads once by key; the artifact's build must be the sea router's (that is, locations.idx's). */
  private checked<T>(key: string, file: string, load: () => Promise<{ planner: T; buildId: string }>) {
    return once(this.loads as Map<string, Promise<T>>, key, async () => {
      const { planner, buildId } = await load();
      sameBuild(this.buildDir, { file, buildId }, { file: "locations.idx", buildId: this.sea.buildId });
      return planner;
    });
  }
}
