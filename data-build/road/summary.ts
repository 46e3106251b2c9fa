/** Figures of a built road network: counts per continent and kind, components, island probes, calibration. */
import { haversineM } from "../../common/geo.ts";
import type { RoadNetwork } from "./network.ts";

/** Places whose connectivity the summary reports (islands with and without a link, both Darien sides). */
export const PROBES: Array<{ label: string; lat: number; lng: number; country: string }> = [
  { label: "London (Great Britain)", lat: 51.507, lng: -0.128, country: "GB" },
  { label: "Paris (France)", lat: 48.857, lng: 2.352, country: "FR" },
  { label: "Dublin (Ireland)", lat: 53.35, lng: -6.26, country: "IE" },
  { label: "Chennai (India)", lat: 13.083, lng: 80.27, country: "IN" },
  { label: "Colombo (Sri Lanka)", lat: 6.927, lng: 79.861, country: "LK" },
  { label: "Antananarivo (Madagascar)", lat: -18.879, lng: 47.508, country: "MG" },
  { label: "Reykjavik (Iceland)", lat: 64.146, lng: -21.942, country: "IS" },
  { label: "Honolulu (Hawaii)", lat: 21.307, lng: -157.858, country: "US" },
  { label: "Taipei (Taiwan)", lat: 25.033, lng: 121.565, country: "TW" },
  { label: "Tokyo (Japan)", lat: 35.69, lng: 139.69, country: "JP" },
  { label: "Hobart (Tasmania)", lat: -42.882, lng: 147.327, country: "AU" },
  { label: "Sydney (Australia)", lat: -33.869, lng: 151.209, country: "AU" },
  { label: "Auckland (New Zealand North)", lat: -36.848, lng: 174.763, country: "NZ" },
  { label: "Christchurch (New Zealand South)", lat: -43.532, lng: 172.636, country: "NZ" },
  { label: "Panama City (Panama)", lat: 8.983, lng: -79.517, country: "PA" },
  { label: "Bogota (Colombia)", lat: 4.711, lng: -74.072, country: "CO" },
  { label: "Chicago (USA)", lat: 41.878, lng: -87.63, country: "US" },
  { label: "St. John's (Newfoundland)", lat: 47.561, lng: -52.713, country: "CA" },
  { label: "Cagliari (Sardinia)", lat: 39.223, lng: 9.122, country: "IT" },
  { label: "Zanzibar", lat: -6.165, lng: 39.199, country: "TZ" },
  { label: "Cape Town (South Africa)", lat: -33.925, lng: 18.424, country: "ZA" },
  { label: "Moscow (Russia)", lat: 55.756, lng: 37.617, country: "RU" },
];

/** The node of `country` nearest the point, within 60 km. */
export function probeNode(
  net: Pick<RoadNetwork, "nodes">,
  lat: number,
  lng: number,
  country: string,
): number {
  let best = -1;
  let bestD = 60_000;
  net.nodes.forEach((n, i) => {
    if (n.country !== country) return;
    const d = haversineM(lat, lng, n.lat, n.lng);
    if (d < bestD) {
      bestD = d;
      best = i;
    }
  });
  return best;
}

export function summarize(
  net: RoadNetwork,
  continentOf: Map<string, string>,
  extra: Record<string, unknown>,
) {
  const continent = (c: string) => continentOf.get(c) ?? "unknown";
  const nodesBy: Record<string, Record<string, number>> = {};
  for (const n of net.nodes) {
    const key = continent(n.country);
    const row = nodesBy[key] ?? {};
    nodesBy[key] = row;
    row[n.kind] = (row[n.kind] ?? 0) + 1;
  }
  const linksBy: Record<string, Record<string, number>> = {};
  let roadKm = 0;
  for (const l of net.links) {
    const key = continent(l.country);
    const row = linksBy[key] ?? {};
    linksBy[key] = row;
    row[l.kind] = (row[l.kind] ?? 0) + 1;
    if (l.kind === "road") roadKm += l.lengthM / 1000;
  }
  // The largest component of each continent, and where the biggest components sit.
  const biggest = net.componentSizes.slice(0, 15).map((size, id) => {
    let rep = -1;
    net.nodes.forEach((n, i) => {
      if (net.component[i] === id && (rep < 0 || n.population > net.nodes[rep]!.population)) rep = i;
    });
    const n = net.nodes[rep]!;
    return { id, size, largest_place: `${n.name} (${n.country})`, continent: continent(n.country) };
  });
  const probes = PROBES.map((p) => {
    const i = probeNode(net, p.lat, p.lng, p.country);
    return i < 0
      ? { label: p.label, node: null, component: null, component_size: 0 }
      : {
          label: p.label,
          node: net.nodes[i]!.name,
          component: net.component[i]!,
          component_size: net.componentSizes[net.component[i]!]!,
        };
  });
  const factors = Object.fromEntries(
    [...net.calibration.factors.entries()].sort().map(([c, f]) => [c, Math.round(f * 1000) / 1000]),
  );
  return {
    nodes: net.nodes.length,
    links: net.links.length,
    road_km: Math.round(roadKm),
    nodes_by_continent_kind: nodesBy,
    links_by_continent_kind: linksBy,
    components: {
      count: net.componentSizes.length,
      singletons: net.componentSizes.filter((s) => s === 1).length,
      largest: biggest,
    },
    probes,
    calibration: {
      global_zigzag: round3(net.calibration.globalZigzag),
      samples: net.calibration.samples,
      regions: net.calibration.regions.map((r) => ({
        region: r.region,
        zigzag: round3(r.zigzag),
        samples: r.samples,
        fallback: r.fallback,
        achieved: r.achieved === null ? null : round3(r.achieved),
        target: r.target === null ? null : round3(r.target),
      })),
      factors,
    },
    stats: net.stats,
    ...extra,
  };
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;
