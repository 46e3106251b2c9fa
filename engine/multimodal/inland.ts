/**
 * Inland legs between a door and a terminal (a sea port, a river port): spec chain rule 1 sends
 * them by rail when rail is allowed and the port is more than 250 km away, otherwise by road. A
 * rail leg is the rail chain itself (road to a railhead, rail, road to the port); where no rail
 * chain joins the two (no railhead in reach, or one railhead for both) the leg goes by road. Legs
 * are planned once per door and terminal and shared by every candidate chain that uses them.
 */
import { haversineM } from "../../common/geo.ts";
import { EngineError } from "../errors.ts";
import type { RailPlanner } from "../rail/planner.ts";
import type { RoadRoutePlanner } from "../road/planner.ts";
import { emptyPart, type Part, partOf, roadPart } from "./compose.ts";
import { type Figures, NO_FIGURES, railEstimate, roadEstimate } from "./estimate.ts";
import type { Place, Settings } from "./options.ts";

/** Spec, Limits: inland legs above 250 km from a port go by rail when allowed. */
export const RAIL_INLAND_MIN_KM = 250;
/** Closer than this the door is the terminal: no leg (the single-mode planners' rule). */
export const NO_ACCESS_LEG_KM = 0.5;

export const greatCircleKm = (a: Place, b: Place) => haversineM(a.lat, a.lng, b.lat, b.lng) / 1000;

export type InlandMode = "ROAD" | "RAIL" | null;

export class InlandLegs {
  private readonly legs = new Map<string, Promise<Part<Place> | null>>();

  constructor(
    private readonly settings: Settings,
    private readonly road: RoadRoutePlanner,
    private readonly rail: () => Promise<RailPlanner>,
  ) {}

  /** How a door reaches a sea port (null: it is the port). */
  seaPortMode(door: Place, port: Place): InlandMode {
    const km = greatCircleKm(door, port);
    if (km < NO_ACCESS_LEG_KM) return null;
    return this.settings.modes.has("RAIL") && km > RAIL_INLAND_MIN_KM ? "RAIL" : "ROAD";
  }

  /** Ranking figures of a door's leg to a sea port, or to a river port (road only). */
  estimate(door: Place, terminal: Place, mode: InlandMode): Figures {
    const km = greatCircleKm(door, terminal);
    if (mode === null) return NO_FIGURES;
    return mode === "RAIL" ? railEstimate(km, this.settings.handling) : roadEstimate(km);
  }

  /**
   * The leg between a door and a terminal, door first on the origin side ("from") and terminal
   * first on the destination side ("to"); null when nothing reaches the terminal.
   */
  leg(door: Place, terminal: Place, side: "from" | "to", mode: InlandMode): Promise<Part<Place> | null> {
    const key = `${side}\n${mode}\n${terminal.lat},${terminal.lng}`;
    let leg = this.legs.get(key);
    if (!leg) {
      const [a, b] = side === "from" ? [door, terminal] : [terminal, door];
      leg = this.plan(a, b, mode);
      this.legs.set(key, leg);
    }
    return leg;
  }

  private async plan(a: Place, b: Place, mode: InlandMode): Promise<Part<Place> | null> {
    if (mode === null) return emptyPart();
    const s = this.settings;
    if (mode === "RAIL") {
      const rail = await this.rail();
      const planned = await rail
        .plan({ from: a, to: b, path: s.path, alternatives: false, handling: s.handling }, this.road)
        .catch(noRoute);
      if (planned) return partOf(planned.route);
    }
    const road = await this.road.plan({ from: a, to: b, path: s.path }).catch(noRoute);
    return road ? roadPart<Place>(road.route, a, b) : null;
  }
}

/** A planner's no_route is an answer here (the candidate is dropped); anything else is a failure. */
export function noRoute(err: unknown): null {
  if (err instanceof EngineError && err.code === "no_route") return null;
  throw err;
}
