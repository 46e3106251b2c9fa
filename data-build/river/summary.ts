/**
 * The river-graph stage's figures (river.summary.json, docs/river-network.md): nodes, km by source,
 * ports, gateways, stretches and how each matched, edges per class, components and the options
 * the build ran with, and the lines the stage prints from them.
 */

import type { RiverPort, SeaGateway } from "../../formats/river-ports.ts";
import type { GraphSpec } from "../graph/encode.ts";
import type { StageMeter } from "../stage-meter.ts";
import type { NetworkStats } from "./build.ts";
import { CLASS } from "./classes.ts";
import {
  FAR_SEA_M,
  GATEWAY_SNAP_M,
  type GatewayStats,
  MOUTH_COAST_M,
  MOUTH_SEA_M,
  MOUTH_SPACING_M,
  SEA_GAP_WEIGHT,
} from "./gateways.ts";
import { riverComponents } from "./graph.ts";
import type { Stretch } from "./inputs.ts";
import { SHORE_M } from "./lakes.ts";
import { type LengthCalibration, MIN_SOURCE_SHARE } from "./length.ts";
import { MAX_EDGE_M } from "./network.ts";
import { JOIN_M, type RiverNet, WDB_JOIN_M } from "./noding.ts";
import {
  COASTAL_M,
  GATEWAY_PORT_M,
  GATEWAY_PORT_TOWN_M,
  PORT_SNAP_M,
  type PortStats,
  WPI_SNAP_M,
} from "./ports.ts";
import { type EdgeAttrs, LIMIT_SNAP_M, LINK_OVER_M, type StretchMatch } from "./stretches.ts";
import { DEDUPE_M } from "./wdb.ts";

export const SOURCES = ["ne", "wdb", "canal", "lake", "link"] as const;

/** Whole km of the network's edges that `pick` selects. */
export const kmOf = (net: RiverNet) => (pick: (i: number) => boolean) =>
  Math.round(net.edges.reduce((s, e, i) => (pick(i) ? s + e.metres : s), 0) / 1000);

/** km per line source, as the edges stand now. */
export const kmBySource = (net: RiverNet): Record<string, number> =>
  Object.fromEntries(SOURCES.map((src) => [src, kmOf(net)((i) => net.edges[i]!.tag.source === src)]));

export interface SummaryInput {
  net: RiverNet;
  spec: GraphSpec;
  attrs: EdgeAttrs[];
  stretches: Stretch[];
  matches: StretchMatch[];
  lengths: LengthCalibration;
  /** km per source before the length factors. */
  geometricKm: Record<string, number>;
  ports: RiverPort[];
  gateways: SeaGateway[];
  netStats: NetworkStats;
  portStats: PortStats;
  gatewayStats: GatewayStats;
  graphBytes: Uint8Array;
  meter: StageMeter;
}

export type RiverSummary = ReturnType<typeof riverSummary>;

export function riverSummary(input: SummaryInput) {
  const {
    net,
    spec,
    attrs,
    stretches,
    matches,
    lengths,
    geometricKm,
    ports,
    gateways,
    netStats,
    portStats,
    gatewayStats,
    graphBytes,
    meter,
  } = input;
  const km = kmOf(net);
  const byClass = Object.entries(CLASS).map(([label, code]) => ({
    class: code,
    label,
    edges: spec.edges.filter((e) => e.edgeClass === code).length,
    km: km((i) => spec.edges[i]!.edgeClass === code),
  }));
  const methods = { named: 0, network: 0, link: 0, unmatched: 0 };
  for (const m of matches) methods[m.method]++;
  const components = riverComponents(net);
  const seconds = meter.seconds;
  const summary = {
    nodes: net.lat.length,
    edges: net.edges.length,
    km: km(() => true),
    km_by_source: kmBySource(net),
    km_geometric: Object.values(geometricKm).reduce((a, b) => a + b, 0),
    km_geometric_by_source: geometricKm,
    length_factors: lengths.factors,
    length_calibration: lengths.rows.map((r) => ({
      id: r.id,
      source: r.source,
      published_km: Math.round(r.publishedKm * 10) / 10,
      graph_km: r.graphKm,
      ratio: r.ratio,
      used: r.used,
      basis: r.basis,
    })),
    river_ports: ports.length,
    river_ports_by_source: countBy(ports.map((p) => p.source)),
    sea_gateways: gateways.length,
    sea_gateways_by_source: countBy(gateways.map((g) => g.source)),
    curated_stretches: stretches.length,
    curated_matched: methods.named + methods.network,
    curated_unmatched: methods.link + methods.unmatched,
    curated_by_method: methods,
    curated_km: km((i) => attrs[i]!.stretch >= 0),
    edges_by_class: byClass,
    locks: attrs.reduce((s, a) => s + a.locks, 0),
    edges_with_current: spec.edges.filter((e) => (e.currentKmh ?? 0) !== 0).length,
    edges_with_rules: spec.edges.filter((e) => e.rules?.length).length,
    waterway_names: spec.waterways!.length,
    components: components.length,
    largest_components: components.slice(0, 10),
    network: netStats,
    ports: portStats,
    gateways: gatewayStats,
    stretches: matches,
    options: {
      join_m: JOIN_M,
      wdb_dedupe_m: DEDUPE_M,
      wdb_join_m: WDB_JOIN_M,
      lake_shore_m: SHORE_M,
      max_edge_m: MAX_EDGE_M,
      limit_snap_m: LIMIT_SNAP_M,
      limit_link_over_m: LINK_OVER_M,
      port_snap_m: PORT_SNAP_M,
      port_coastal_m: COASTAL_M,
      wpi_snap_m: WPI_SNAP_M,
      gateway_port_m: GATEWAY_PORT_M,
      gateway_port_town_m: GATEWAY_PORT_TOWN_M,
      length_min_source_share: MIN_SOURCE_SHARE,
      gateway_snap_m: GATEWAY_SNAP_M,
      mouth_coast_m: MOUTH_COAST_M,
      mouth_sea_m: MOUTH_SEA_M,
      mouth_spacing_m: MOUTH_SPACING_M,
      gateway_far_sea_m: FAR_SEA_M,
      gateway_sea_gap_weight: SEA_GAP_WEIGHT,
    },
    graph_mb: Math.round(graphBytes.length / 1e5) / 10,
    build_seconds: Math.round(seconds * 10) / 10,
    peak_rss_mb: meter.peakMb,
  };
  return summary;
}

/** The stage's printed lines. */
export function logRiverSummary(
  log: (msg: string) => void,
  summary: RiverSummary,
  lengths: LengthCalibration,
): void {
  log(
    `river-graph: ${summary.nodes} nodes, ${summary.edges} edges, ${summary.km} km ` +
      `(${Object.entries(summary.km_by_source)
        .map(([k, v]) => `${k} ${v}`)
        .join(", ")}); ${summary.components} components`,
  );
  log(
    `river-graph: channel length factors ${fmt(lengths.factors)} (${lengths.rows.filter((r) => r.used).length} calibration stretches); ` +
      `${summary.km_geometric} km as drawn`,
  );
  log(
    `river-graph: ${summary.river_ports} river ports (${fmt(summary.river_ports_by_source)}), ` +
      `${summary.sea_gateways} sea gateways (${fmt(summary.sea_gateways_by_source)})`,
  );
  log(
    `river-graph: curated stretches ${summary.curated_matched} matched on the network ` +
      `(${summary.curated_by_method.named} by name, ${summary.curated_by_method.network} through other lines), ${summary.curated_unmatched} unmatched ` +
      `(straight links), ${summary.curated_km} km curated, ${summary.locks} locks`,
  );
  log(
    `river-graph: edges per class ${summary.edges_by_class
      .filter((c) => c.edges > 0)
      .map((c) => `${c.class} ${c.label}: ${c.edges} (${c.km} km)`)
      .join(", ")}`,
  );
  log(`river-graph: built in ${summary.build_seconds.toFixed(1)} s, peak RSS ${summary.peak_rss_mb} MB`);
}

function countBy(values: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const v of values) out[v] = (out[v] ?? 0) + 1;
  return out;
}

const fmt = (r: Record<string, number>) =>
  Object.entries(r)
    .map(([k, v]) => `${k} ${v}`)
    .join(", ");
