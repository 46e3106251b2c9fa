/**
 * The river network from its geometry sources, before any curated attribute: WDB II merged and
 * clipped against Natural Earth, all lines noded, lakes crossed, pieces of one water merged,
 * long edges densified.
 */
import type { Lake, SourceLine } from "./inputs.ts";
import { addLakeCrossings, type LakeStats } from "./lakes.ts";
import { contractDegreeTwo, densifyNet, MAX_EDGE_M } from "./network.ts";
import { compactNodes, type NodingStats, nodeLines, type RiverNet } from "./noding.ts";
import { clipRepeats, mergeAtSharedEnds } from "./wdb.ts";

export interface NetworkSources {
  /** Natural Earth lines (all three files). */
  naturalEarth: SourceLine[];
  /** Hand-digitised canals (missing_canals.geojson). */
  canals: SourceLine[];
  /** WDB II lines as read (bin-split). */
  wdb: SourceLine[];
  lakes: Lake[];
  /** Points to place on lakes as crossing nodes (curated lake stretch ends). */
  lakePoints: Array<{ lat: number; lng: number }>;
}

export interface NetworkStats {
  wdbPieces: number;
  wdbMerged: number;
  wdbRunsKept: number;
  wdbKmDropped: number;
  noding: NodingStats;
  lakes: LakeStats;
  nodesBeforeDensify: number;
  densifyNodes: number;
}

export function buildRiverNetwork(
  src: NetworkSources,
  maxEdgeM = MAX_EDGE_M,
): { net: RiverNet; stats: NetworkStats } {
  const merged = mergeAtSharedEnds(src.wdb);
  const { kept, droppedKm } = clipRepeats(merged, [...src.naturalEarth, ...src.canals]);
  const noded = nodeLines([...src.naturalEarth, ...src.canals, ...kept]);
  const lakes = addLakeCrossings(noded.net, src.lakes, src.lakePoints);
  const net = contractDegreeTwo(noded.net);
  const nodesBeforeDensify = net.lat.length;
  const densifyNodes = densifyNet(net, maxEdgeM);
  return {
    // Lake points on no lake are left without an edge: dropped here, before any node id is handed out.
    net: compactNodes(net),
    stats: {
      wdbPieces: src.wdb.length,
      wdbMerged: merged.length,
      wdbRunsKept: kept.length,
      wdbKmDropped: Math.round(droppedKm),
      noding: noded.stats,
      lakes: lakes.stats,
      nodesBeforeDensify,
      densifyNodes,
    },
  };
}
