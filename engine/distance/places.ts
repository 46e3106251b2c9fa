/**
 * The distance engine's policy for resolved places: which count as sea ports (for a sea route's
 * ends and a chain's pol / pod), and how an end is shown in an answer.
 */
import { round } from "../../common/round.ts";
import { EngineError } from "../errors.ts";
import type { LocationIndex, ResolvedPoint } from "../locations/index.ts";

/**
 * Sources that list sea ports. A port known only from UN/LOCODE (Basel, Mannheim: inland river
 * ports) is planned as a place, so the sea router's non-port snap limit applies: an inland place
 * answers no_route with its distance from the nearest sea lane instead of a route that sails up a
 * river lane and stops far short of it.
 */
const SEA_PORT_SOURCES: ReadonlySet<string> = new Set(["main_ports", "wpi"]);

/** A sea route's end: a port that is no sea port is planned as a place. */
export const seaEnd = (p: ResolvedPoint): ResolvedPoint =>
  p.kind === "port" && !SEA_PORT_SOURCES.has(p.source) ? { ...p, kind: "address" } : p;

/** pol / pod: the UN/LOCODE of a sea port (main container port or World Port Index harbour). */
export function seaPortOf(locations: LocationIndex, name: "pol" | "pod", code: string): ResolvedPoint {
  const port = locations.port(code);
  if (port?.kind !== "port" || !SEA_PORT_SOURCES.has(port.source))
    throw new EngineError(
      "invalid_request",
      `${name} must be the UN/LOCODE of a sea port; "${code}" is ${port ? `${port.name}, not a sea port` : "not a known port"}.`,
    );
  return port;
}

/** A resolved end as the answers show it (its kind as resolved, even where seaEnd plans it as a place). */
export const shownPoint = (p: ResolvedPoint) => ({
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

/** A sea route's ends as the engine plans and shows them (the batch's chunks take the same). */
export const SEA_ENDS = { plan: seaEnd, show: shownPoint };

/** 'to "Denver" resolved to Denver, US (39.74, -104.98)'; null for an end asked by coordinates or its own code. */
function resolvedAs(side: "from" | "to", input: string, p: ResolvedPoint): string | null {
  const asked = input.replace(/\s/g, "").toUpperCase();
  if (p.kind === "coordinates" || asked === p.locode || asked === p.iata) return null;
  const where = [p.name, p.country_code].filter(Boolean).join(", ");
  return `${side} "${input.trim()}" resolved to ${where} (${round(p.lat, 2)}, ${round(p.lng, 2)})`;
}

/**
 * A no_route about resolved ends names where each end's text resolved, so an answer about a
 * namesake (Paris, FR for Paris, Texas) says so; other failures pass unchanged.
 */
export function withResolvedEnds(
  err: unknown,
  ends: ReadonlyArray<readonly ["from" | "to", string, ResolvedPoint]>,
): unknown {
  if (!(err instanceof EngineError) || err.code !== "no_route") return err;
  const named = ends.map(([side, input, p]) => resolvedAs(side, input, p)).filter((s) => s !== null);
  if (named.length === 0) return err;
  return new EngineError(err.code, `${err.message}; ${named.join("; ")}`, err.extra);
}
