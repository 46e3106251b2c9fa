/**
 * Sea legs of door-to-door chains: the main container ports a door may sail from (the five closest,
 * or the pol/pod the caller fixed) and a planned sea route as the chain's SEA section (speed_knots,
 * via, eca, passages). Sea metres and routes come from sea-distances.ts.
 */
import { haversineM, type PathPoint } from "../../common/geo.ts";
import { round } from "../../common/round.ts";
import type { SectionInput } from "../chain.ts";
import type { SeaRoute } from "../sea/router.ts";
import { type Figures, legFigures } from "./estimate.ts";
import type { InlandLegs, InlandMode } from "./inland.ts";
import type { Place, Settings } from "./options.ts";

/** Spec, chain rule 1: the five closest main container ports on each side. */
export const SEA_PORTS_PER_SIDE = 5;

/** A port a door may use, with how its inland leg goes and what that leg is estimated at. */
export interface PortOption {
  stop: Place;
  mode: InlandMode;
  est: Figures;
}

/** A main container port as chains show it. */
export const portStop = (p: Place): Place => ({
  kind: "port",
  name: p.name ?? null,
  locode: p.locode ?? null,
  iata: null,
  country_code: p.country_code ?? null,
  lat: p.lat,
  lng: p.lng,
});

/** The closest main container ports to a door (or the fixed pol/pod), with their inland legs. */
export function portOptions(
  ports: readonly Place[],
  door: Place,
  fixed: Place | null | undefined,
  legs: InlandLegs,
): PortOption[] {
  const chosen = fixed
    ? [portStop(fixed)]
    : ports
        .map((p) => ({ p, km: haversineM(door.lat, door.lng, p.lat, p.lng) }))
        .sort((a, b) => a.km - b.km)
        .slice(0, SEA_PORTS_PER_SIDE)
        .map((x) => portStop(x.p));
  return chosen.map((stop) => {
    const mode = legs.seaPortMode(door, stop);
    return { stop, mode, est: legs.estimate(door, stop, mode) };
  });
}

/** Ranking figures of a sea leg. */
export const seaFigures = (metres: number, settings: Settings): Figures =>
  legFigures("SEA", metres / 1000, metres / 1852 / settings.speedKnots);

/**
 * Beyond the sea lanes: where a sea gateway lies off them (the gap to the lanes, and the river km
 * a seagoing ship sails up to a port such as Wuhan), counted in the SEA section at sea speed, at
 * the section's start or end. Its line is not drawn when river km are part of it (spec: an inland
 * sea-route leg that cannot be verified shows an empty path).
 */
export interface Beyond {
  metres: number;
  at: "start" | "end";
  /** Drawn straight between the lanes and the gateway. */
  drawn: boolean;
}

/** A planned sea route as the chain's SEA section. */
export function seaSection(
  route: SeaRoute,
  from: Place,
  to: Place,
  settings: Settings,
  beyond: Beyond = { metres: 0, at: "end", drawn: true },
): SectionInput<Place> {
  // Whole tenths of a mile, as the sea route counts them, so eca.nm + non_eca_nm = distance.nm.
  const beyondTenths = Math.round((beyond.metres / 1852) * 10);
  const tenths = Math.round(route.distance.nm * 10) + beyondTenths;
  const metres = (tenths / 10) * 1852;
  // Beyond the lanes is outside every ECA zone the sea graph knows.
  const eca = { ...route.eca, non_eca_nm: (Math.round(route.eca.non_eca_nm * 10) + beyondTenths) / 10 };
  eca.share = tenths > 0 ? round(Math.round(eca.nm * 10) / tenths, 3) : 0;
  let path: PathPoint[] | undefined;
  if (route.path) {
    if (!beyond.drawn) path = [];
    else if (beyond.metres === 0) path = route.path;
    else
      path = beyond.at === "end" ? [...route.path, [to.lat, to.lng]] : [[from.lat, from.lng], ...route.path];
  }
  return {
    transport_mode: "SEA",
    from,
    to,
    distance_m: metres,
    // Spec, Limits: sea time is the distance at speed_knots.
    hours: metres / 1852 / settings.speedKnots,
    path,
    estimated: false,
    extra: {
      speed_knots: settings.speedKnots,
      via: route.passages.length ? route.passages.map((p) => p.name).join(", ") : null,
      eca,
      passages: route.passages,
    },
  };
}
