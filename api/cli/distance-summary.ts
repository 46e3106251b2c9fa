/**
 * The short answers `portolan route`, `multimodal` and `locations` print without --json: the ends,
 * then each route's distance, duration and emissions on one line, its legs (a chain's sections, a
 * sea route's passages) indented below, then one line per alternative. Pure functions of the
 * response data, so what they print is what --json holds.
 */

interface Place {
  kind?: string;
  name?: string | null;
  locode?: string | null;
  iata?: string | null;
  country?: string | null;
  lat: number;
  lng: number;
}

interface Emissions {
  co2e_kg: number | null;
  cargo_tonnes: number;
}

interface SeaRoute {
  label: string;
  distance: { km: number; nm: number };
  transit: { speed_knots: number; hours: number; days: number };
  passages: { name: string }[];
  emissions?: Emissions;
}

interface ChainRoute {
  label: string;
  summary: {
    distance: { km: number; nm: number };
    duration: { hours: number; days: number };
    emissions?: Emissions;
  };
  sections: {
    transport_mode: string;
    from: Place;
    to: Place;
    distance: { km: number };
    duration: { hours: number };
  }[];
}

type Route = SeaRoute | ChainRoute;

/** A route or door-to-door answer's data. */
export interface RouteData {
  from: Place;
  to: Place;
  route: Route;
  alternatives?: Route[];
}

/** A place as a reader names it: its name and code, else its coordinates. */
export function placeName(p: Place): string {
  const code = p.locode ?? p.iata;
  const name = p.name ?? `${p.lat},${p.lng}`;
  return code ? `${name} (${code})` : name;
}

const co2e = (e: Emissions | undefined) =>
  e?.co2e_kg == null ? "" : `, ${e.co2e_kg} kg CO2e for ${e.cargo_tonnes} t`;

/** One route's headline and its legs. */
function routeLines(r: Route, prefix: string, legs: boolean): string[] {
  if ("transit" in r) {
    const { distance: d, transit: t } = r;
    const head = `${prefix}${r.label}: ${d.nm} nm (${d.km} km), ${t.hours} h (${t.days} days) at ${t.speed_knots} kn${co2e(r.emissions)}`;
    const via = r.passages.map((p) => p.name).join(", ");
    return legs && via ? [head, `  via ${via}`] : [head];
  }
  const { distance: d, duration: h } = r.summary;
  const head = `${prefix}${r.label}: ${d.km} km (${d.nm} nm), ${h.hours} h (${h.days} days)${co2e(r.summary.emissions)}`;
  if (!legs) return [`${head}, ${r.sections.map((s) => s.transport_mode).join(" > ")}`];
  const sections = r.sections.map(
    (s) =>
      `  ${s.transport_mode.padEnd(5)} ${placeName(s.from)} to ${placeName(s.to)}: ${s.distance.km} km, ${s.duration.hours} h`,
  );
  return [head, ...sections];
}

/** A route or door-to-door answer: the ends, the route with its legs, one line per alternative. */
export function routeSummary(data: RouteData): string[] {
  return [
    `${placeName(data.from)} to ${placeName(data.to)}`,
    ...routeLines(data.route, "", true),
    ...(data.alternatives ?? []).flatMap((a) => routeLines(a, "alternative ", false)),
  ];
}

/** The locations answer: one line per place, best match first. */
export function locationLines(places: Place[]): string[] {
  return places.map(
    (p) =>
      `${(p.kind ?? "").padEnd(8)} ${placeName(p)}${p.country ? `, ${p.country}` : ""} (${p.lat}, ${p.lng})`,
  );
}
