/**
 * Sea gateways: where a barge route meets the sea network. The 159 curated ones (gateways.csv)
 * stand on the nearest node of their waterway (else any node); the river mouths found are line ends
 * (degree-1 nodes) at the coast (open sea within MOUTH_COAST_M) with a sea-graph point (node or
 * edge point) within MOUTH_SEA_M, one per MOUTH_SPACING_M, none within that of a curated gateway.
 *
 * Each gateway names the sea-graph point it joins and the river node where it joins it: the node
 * minimising km along the water from the gateway (uncurated water x UNCURATED_JOIN_PENALTY) +
 * SEA_GAP_WEIGHT x km from that node to its nearest sea point (within FAR_SEA_M). Wuhan or Rosario are seaports up a river the sea graph
 * does not run: ships reach them on the river graph's seagoing edges from where their water meets
 * the sea lanes (`joinRiverKm` along the river); at the Columbia bar or the Hooghly, MARNET stops
 * 95-105 km off the coast and the gateway joins across that gap (`seaKm`).
 */
import { haversineM } from "../../common/geo.ts";
import type { SeaGateway } from "../../formats/river-ports.ts";
import { PointGrid } from "../rail/grid.ts";
import type { CuratedGateway } from "./inputs.ts";
import type { RiverNet } from "./noding.ts";
import { adjacency, nearestSource } from "./path.ts";
import type { CoastTest, SeaNodes } from "./sea.ts";

/** A curated gateway joins its waterway's nearest node within this distance. */
export const GATEWAY_SNAP_M = 50_000;
/** A line end with open sea this close is at the coast (the raster's cells are ~2 km). */
export const MOUTH_COAST_M = 3_000;
/** Farthest sea-graph point a mouth may join: MARNET lanes keep 10-50 km off most coasts. */
export const MOUTH_SEA_M = 60_000;
/** Farthest sea point a gateway may join: where MARNET stops short of the coast (Niger delta 177 km). */
export const FAR_SEA_M = 250_000;
/** A km of straight gap to the sea lanes counts as this many km along the water. */
export const SEA_GAP_WEIGHT = 3;
/** ... and a km of uncurated water as this many km of curated water. */
export const UNCURATED_JOIN_PENALTY = 10;
/** One mouth gateway per this distance (a delta's many line ends are one way out). */
export const MOUTH_SPACING_M = 10_000;

export interface GatewayStats {
  curated: number;
  curatedOnOwnWaterway: number;
  /** Curated gateways with no network node within GATEWAY_SNAP_M (left out). */
  curatedOffNetwork: number;
  /** Curated gateways joined to the sea lanes along the water, not where they stand. */
  curatedJoinedAlongWater: number;
  /** Curated gateways whose water comes nowhere near the sea lanes (left out). */
  curatedNoSeaJoin: number;
  mouthCandidates: number;
  mouths: number;
}

/**
 * Where the networks meet: every river node near the sea lanes starts at its weighted gap; every
 * node learns the best of them along the water. Uncurated water costs UNCURATED_JOIN_PENALTY times
 * its length: a ship leaves Iquitos down the Amazon, not up an Andean stream that ends nearer some
 * Pacific lane.
 */
function seaJoins(
  net: RiverNet,
  nearestSea: (lat: number, lng: number, maxM: number) => { id: number; m: number } | null,
  curatedEdge: (edge: number) => boolean,
) {
  const seaOf = new Map<number, { id: number; m: number }>();
  const sources: Array<{ node: number; offset: number }> = [];
  for (let n = 0; n < net.lat.length; n++) {
    const s = nearestSea(net.lat[n]!, net.lng[n]!, FAR_SEA_M);
    if (!s) continue;
    seaOf.set(n, s);
    sources.push({ node: n, offset: SEA_GAP_WEIGHT * s.m });
  }
  const meet = nearestSource(net, adjacency(net), sources, (e) =>
    curatedEdge(e) ? net.edges[e]!.metres : UNCURATED_JOIN_PENALTY * net.edges[e]!.metres,
  );
  return { seaOf, meet };
}

/** A curated gateway's river node: the nearest on its own waterway, else any within GATEWAY_SNAP_M. */
function snapCurated(
  net: RiverNet,
  g: CuratedGateway,
  own: number[],
  all: PointGrid,
): { n: number; m: number; own: boolean } | null {
  let best: { n: number; m: number; own: boolean } | null = null;
  for (const n of own) {
    const m = haversineM(g.lat, g.lng, net.lat[n]!, net.lng[n]!);
    if (m <= GATEWAY_SNAP_M && (!best || m < best.m)) best = { n, m, own: true };
  }
  if (best) return best;
  const hit = all.nearest(g.lat, g.lng, GATEWAY_SNAP_M);
  return hit ? { n: hit.id, m: hit.m, own: false } : null;
}

/**
 * River ends (degree 1) on the coast with sea lanes near: the mouths a gateway may stand at,
 * nearest to the sea lanes first, so a delta keeps its most seaward end.
 */
function mouthCandidates(
  net: RiverNet,
  coast: Pick<CoastTest, "seaWithin">,
  nearestSea: (lat: number, lng: number, maxM: number) => { id: number; m: number } | null,
): Array<{ n: number; s: { id: number; m: number } }> {
  const degree = new Int32Array(net.lat.length);
  for (const e of net.edges) {
    degree[e.from]!++;
    degree[e.to]!++;
  }
  const candidates: Array<{ n: number; s: { id: number; m: number } }> = [];
  for (let n = 0; n < degree.length; n++) {
    if (degree[n] !== 1) continue;
    const lat = net.lat[n]!;
    const lng = net.lng[n]!;
    if (!coast.seaWithin(lat, lng, MOUTH_COAST_M)) continue;
    const s = nearestSea(lat, lng, MOUTH_SEA_M);
    if (s) candidates.push({ n, s });
  }
  return candidates.sort((a, b) => a.s.m - b.s.m);
}

/**
 * `ownNodes(waterwayId)`: nodes on that waterway's edges (the curated stretch's path).
 * `curatedEdge(edge)`: the edge carries a curated stretch.
 * `nameAt(node)`: the water a mouth belongs to, for its name.
 */
export function placeGateways(
  net: RiverNet,
  curated: CuratedGateway[],
  sea: SeaNodes,
  coast: Pick<CoastTest, "seaWithin">,
  ownNodes: (waterwayId: string) => number[],
  curatedEdge: (edge: number) => boolean,
  nameAt: (node: number) => string,
): { gateways: SeaGateway[]; stats: GatewayStats } {
  const all = new PointGrid(net.lat, net.lng, 0.25);
  const nearestSea = (lat: number, lng: number, maxM: number) => sea.grid.nearest(lat, lng, maxM);
  const stats: GatewayStats = {
    curated: curated.length,
    curatedOnOwnWaterway: 0,
    curatedOffNetwork: 0,
    curatedJoinedAlongWater: 0,
    curatedNoSeaJoin: 0,
    mouthCandidates: 0,
    mouths: 0,
  };
  const { seaOf, meet } = seaJoins(net, nearestSea, curatedEdge);
  const gateways: SeaGateway[] = [];
  const ids = new Set<string>();
  const uniqueId = (base: string) => {
    let id = base;
    for (let k = 2; ids.has(id); k++) id = `${base}-${k}`;
    ids.add(id);
    return id;
  };
  for (const g of curated) {
    const best = snapCurated(net, g, ownNodes(g.waterwayId), all);
    if (best?.own) stats.curatedOnOwnWaterway++;
    if (!best) {
      stats.curatedOffNetwork++;
      continue;
    }
    const join = meet.origin[best.n]!;
    if (join < 0) {
      stats.curatedNoSeaJoin++;
      continue;
    }
    if (join !== best.n) stats.curatedJoinedAlongWater++;
    const joinSea = seaOf.get(join)!;
    const id = uniqueId(`gw:${g.locode || g.waterwayId}`);
    gateways.push(
      gateway(net, sea, id, g.name, g.locode, "curated", g.waterwayId, g, best, {
        node: join,
        riverM: meet.metres[best.n]!,
        sea: joinSea,
      }),
    );
  }
  const taken = new PointGrid(
    gateways.map((g) => net.lat[g.riverNode]!),
    gateways.map((g) => net.lng[g.riverNode]!),
    0.25,
  );
  const candidates = mouthCandidates(net, coast, nearestSea);
  stats.mouthCandidates = candidates.length;
  const kept: number[] = [];
  const keptLat: number[] = [];
  const keptLng: number[] = [];
  for (const { n, s } of candidates) {
    const lat = net.lat[n]!;
    const lng = net.lng[n]!;
    let near = false;
    taken.within(lat, lng, MOUTH_SPACING_M, () => {
      near = true;
    });
    for (let k = 0; k < kept.length && !near; k++) {
      if (haversineM(lat, lng, keptLat[k]!, keptLng[k]!) < MOUTH_SPACING_M) near = true;
    }
    if (near) continue;
    kept.push(n);
    keptLat.push(lat);
    keptLng.push(lng);
    const name = nameAt(n);
    const id = uniqueId(`mouth:${lat.toFixed(2)},${lng.toFixed(2)}`);
    const label = name ? `${name} mouth` : "River mouth";
    gateways.push(
      gateway(
        net,
        sea,
        id,
        label,
        "",
        "mouth",
        "",
        { lat, lng },
        { n, m: 0 },
        { node: n, riverM: 0, sea: s },
      ),
    );
    stats.mouths++;
  }
  return { gateways, stats };
}

/** A gateway record: where it stands, the river node it snaps to, and where its water joins the sea lanes. */
function gateway(
  net: RiverNet,
  sea: SeaNodes,
  id: string,
  name: string,
  locode: string,
  source: SeaGateway["source"],
  waterwayId: string,
  at: { lat: number; lng: number },
  river: { n: number; m: number },
  join: { node: number; riverM: number; sea: { id: number; m: number } },
): SeaGateway {
  const s = join.sea;
  return {
    id,
    name,
    locode,
    source,
    waterwayId,
    lat: at.lat,
    lng: at.lng,
    riverNode: river.n,
    riverSnapKm: Math.round(river.m) / 1000,
    joinNode: join.node,
    joinRiverKm: Math.round(join.riverM) / 1000,
    seaNode: sea.pointNode[s.id]!,
    seaLat: sea.pointLat[s.id]!,
    seaLng: sea.pointLng[s.id]!,
    seaKm:
      Math.round(
        haversineM(net.lat[join.node]!, net.lng[join.node]!, sea.pointLat[s.id]!, sea.pointLng[s.id]!),
      ) / 1000,
  };
}
