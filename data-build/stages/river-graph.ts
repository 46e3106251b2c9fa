/**
 * Pipeline stage: Natural Earth rivers and lakes, GSHHG WDB II rivers and canals, the hand-digitised
 * canals and the curated waterway tables -> data/build/river.graph (graph payload v2, mode river),
 * river-ports.bin (river ports and sea gateways) and river.summary.json (docs/river-network.md).
 *
 * Gateways join the sea graph: the stage reads sea.graph (declared in `reads`), so a changed sea
 * graph reruns it, and it runs after sea-graph.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Topology } from "topojson-specification";
import { encodeRiverPorts, RIVER_PORTS_OUTPUT } from "../../formats/river-ports.ts";
import { encodeRiverRules, RIVER_RULES_OUTPUT } from "../../formats/river-rules.ts";
import { encodeRuleStretches, RIVER_STRETCHES_OUTPUT } from "../../formats/river-stretches.ts";
import { encodeGraph } from "../graph/encode.ts";
import { expandInputs, loadManifest } from "../manifest.ts";
import type { BuildContext, Stage } from "../pipeline.ts";
import { buildRiverNetwork } from "../river/build.ts";
import { CLASS } from "../river/classes.ts";
import {
  FAR_SEA_M,
  GATEWAY_SNAP_M,
  MOUTH_COAST_M,
  MOUTH_SEA_M,
  MOUTH_SPACING_M,
  placeGateways,
  SEA_GAP_WEIGHT,
} from "../river/gateways.ts";
import { riverComponents, riverGraphSpec } from "../river/graph.ts";
import {
  lakePolygons,
  missingCanalLines,
  naturalEarthLines,
  parseGateways,
  parseWaterways,
  wdbLines,
} from "../river/inputs.ts";
import { SHORE_M } from "../river/lakes.ts";
import { applyLengthFactors, calibrateLengths, MIN_SOURCE_SHARE, parseCalibration } from "../river/length.ts";
import { MAX_EDGE_M } from "../river/network.ts";
import { JOIN_M, WDB_JOIN_M } from "../river/noding.ts";
import {
  COASTAL_M,
  collectPortPlaces,
  collectWpiHarbours,
  GATEWAY_PORT_M,
  GATEWAY_PORT_TOWN_M,
  gatewayPorts,
  PORT_SNAP_M,
  parseMainRiverPorts,
  placeRiverPorts,
  WPI_SNAP_M,
} from "../river/ports.ts";
import { edgeRules, parseSegments } from "../river/rule-segments.ts";
import { ruleStretches } from "../river/rule-stretches.ts";
import { CoastTest, readSeaGraph } from "../river/sea.ts";
import { parseSeasonalRules, SEASONAL_RULES_SOURCE } from "../river/seasonal-calendar.ts";
import { citeCorrected, parseCorrections, ruleStretchIndexes } from "../river/seasonal-corrections.ts";
import { applyStretches, LIMIT_SNAP_M, LINK_OVER_M } from "../river/stretches.ts";
import { DEDUPE_M } from "../river/wdb.ts";
import { StageMeter } from "../stage-meter.ts";

const FILES = {
  neRivers: "inland/ne_10m_rivers_lake_centerlines.json",
  neRiversEurope: "inland/ne_10m_rivers_europe.json",
  neRiversNorthAmerica: "inland/ne_10m_rivers_north_america.json",
  lakes: "inland/ne_10m_lakes.json",
  lakesEurope: "inland/ne_10m_lakes_europe.json",
  lakesNorthAmerica: "inland/ne_10m_lakes_north_america.json",
  canals: "inland/missing_canals.geojson",
  waterways: "inland/waterways.csv",
  gateways: "inland/gateways.csv",
  rules: SEASONAL_RULES_SOURCE,
  wpi: "ports/world-port-index-pub150.csv",
  unlocode: "ports/unlocode/*.csv",
} as const;
/** WDB II levels read: 1-2 permanent and additional major rivers, 8-9 canals (10, irrigation, left out). */
const WDB_LEVELS = [1, 2, 8, 9] as const;
const wdbFile = (level: number) => `inland/wdbii_river_level${level}.geojson`;
const SOURCES = ["ne", "wdb", "canal", "lake", "link"] as const;

export const RIVER_GRAPH_OUTPUT = "river.graph";
export const RIVER_SUMMARY_OUTPUT = "river.summary.json";
const SEA_GRAPH = "sea.graph";

export const riverGraphStage: Stage = {
  name: "river-graph",
  inputs: [...Object.values(FILES), ...WDB_LEVELS.map(wdbFile), "npm:world-atlas"],
  reads: [SEA_GRAPH],
  outputs: [
    RIVER_GRAPH_OUTPUT,
    RIVER_PORTS_OUTPUT,
    RIVER_RULES_OUTPUT,
    RIVER_STRETCHES_OUTPUT,
    RIVER_SUMMARY_OUTPUT,
  ],
  async run(ctx: BuildContext): Promise<void> {
    const meter = new StageMeter();
    const sample = () => meter.sample();
    const text = (key: string) => readFileSync(ctx.source(key), "utf8");
    const json = <T>(key: string): T => JSON.parse(text(key)) as T;
    const sea = readSeaGraph(ctx.artifact(SEA_GRAPH), join(ctx.outDir, SEA_GRAPH));
    const stretches = parseWaterways(text(FILES.waterways));
    const parsed = parseSeasonalRules(text(FILES.rules));
    const corrections = parseCorrections(parsed);
    const rules = citeCorrected(parsed, corrections);

    const { net, stats: netStats } = buildRiverNetwork({
      naturalEarth: [FILES.neRivers, FILES.neRiversEurope, FILES.neRiversNorthAmerica].flatMap((k) =>
        naturalEarthLines(json(k)),
      ),
      canals: missingCanalLines(json(FILES.canals)),
      wdb: WDB_LEVELS.flatMap((level) => wdbLines(json(wdbFile(level)), level)),
      lakes: [FILES.lakes, FILES.lakesEurope, FILES.lakesNorthAmerica].flatMap((k) => lakePolygons(json(k))),
      lakePoints: stretches.filter((s) => s.kind === "lake").flatMap((s) => [s.from, s.to]),
    });
    sample();
    const land = JSON.parse(
      readFileSync(join(ctx.source("npm:world-atlas"), "land-10m.json"), "utf8"),
    ) as Topology;
    const coast = new CoastTest(land);
    const unlocodePorts = collectPortPlaces(expandInputs(loadManifest(), [FILES.unlocode]).map(text));
    const { ports, stats: portStats } = placeRiverPorts(
      net,
      unlocodePorts,
      collectWpiHarbours(text(FILES.wpi)),
      coast,
      parseMainRiverPorts(),
    );
    sample();
    const { attrs, matches } = applyStretches(net, stretches);
    sample();
    // Channel length: every edge is cut by now (cut pieces keep their source), so the factors
    // land once; the stretches' km above stay as drawn, which is what calibrates them.
    const km = (pick: (i: number) => boolean) =>
      Math.round(net.edges.reduce((s, e, i) => (pick(i) ? s + e.metres : s), 0) / 1000);
    const geometricKm = Object.fromEntries(
      SOURCES.map((src) => [src, km((i) => net.edges[i]!.tag.source === src)]),
    );
    const lengths = calibrateLengths(parseCalibration(), matches);
    applyLengthFactors(net, lengths.factors);
    const stretchNodes = new Map<string, number[]>();
    net.edges.forEach((e, i) => {
      const s = attrs[i]!.stretch;
      if (s < 0) return;
      const list = stretchNodes.get(stretches[s]!.id) ?? [];
      list.push(e.from, e.to);
      stretchNodes.set(stretches[s]!.id, list);
    });
    const nameOfNode = new Map<number, string>();
    net.edges.forEach((e, i) => {
      const s = attrs[i]!.stretch;
      const name = s >= 0 ? stretches[s]!.waterway : e.tag.name;
      for (const n of [e.from, e.to]) if (name && !nameOfNode.has(n)) nameOfNode.set(n, name);
    });
    const { gateways, stats: gatewayStats } = placeGateways(
      net,
      parseGateways(text(FILES.gateways)),
      sea,
      coast,
      (id) => stretchNodes.get(id) ?? [],
      (e) => attrs[e]!.stretch >= 0,
      (n) => nameOfNode.get(n) ?? "",
    );
    const seaportsAtMouths = gatewayPorts(gateways, ports, unlocodePorts);
    ports.push(...seaportsAtMouths);
    portStats.gatewayPorts = seaportsAtMouths.length;
    sample();

    // Rules go on their segments' reaches of their stretches, once every edge is cut.
    const onEdges = edgeRules(
      net,
      attrs,
      rules,
      ruleStretchIndexes(stretches, rules, corrections),
      parseSegments(rules),
    );
    const spec = riverGraphSpec(net, attrs, stretches, rules, onEdges);
    const graphBytes = encodeGraph(spec, ctx.buildId);
    writeFileSync(join(ctx.outDir, RIVER_GRAPH_OUTPUT), graphBytes);
    writeFileSync(join(ctx.outDir, RIVER_RULES_OUTPUT), encodeRiverRules(rules, ctx.buildId));
    // The map page draws each seasonal note's stretch from this; the API never reads the graph for it.
    writeFileSync(
      join(ctx.outDir, RIVER_STRETCHES_OUTPUT),
      encodeRuleStretches(ruleStretches(graphBytes, rules), ctx.buildId),
    );
    sample();

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
      km_by_source: Object.fromEntries(
        SOURCES.map((src) => [src, km((i) => net.edges[i]!.tag.source === src)]),
      ),
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
    writeFileSync(
      join(ctx.outDir, RIVER_PORTS_OUTPUT),
      encodeRiverPorts(
        ports,
        gateways,
        { ports: ports.length, gateways: gateways.length, graph: RIVER_GRAPH_OUTPUT, sea_graph: SEA_GRAPH },
        ctx.buildId,
      ),
    );
    writeFileSync(join(ctx.outDir, RIVER_SUMMARY_OUTPUT), `${JSON.stringify(summary, null, 2)}\n`);
    ctx.log(
      `river-graph: ${summary.nodes} nodes, ${summary.edges} edges, ${summary.km} km ` +
        `(${Object.entries(summary.km_by_source)
          .map(([k, v]) => `${k} ${v}`)
          .join(", ")}); ${components.length} components`,
    );
    ctx.log(
      `river-graph: channel length factors ${fmt(lengths.factors)} (${lengths.rows.filter((r) => r.used).length} calibration stretches); ` +
        `${summary.km_geometric} km as drawn`,
    );
    ctx.log(
      `river-graph: ${ports.length} river ports (${fmt(summary.river_ports_by_source)}), ` +
        `${gateways.length} sea gateways (${fmt(summary.sea_gateways_by_source)})`,
    );
    ctx.log(
      `river-graph: curated stretches ${summary.curated_matched} matched on the network ` +
        `(${methods.named} by name, ${methods.network} through other lines), ${summary.curated_unmatched} unmatched ` +
        `(straight links), ${summary.curated_km} km curated, ${summary.locks} locks`,
    );
    ctx.log(
      `river-graph: edges per class ${byClass
        .filter((c) => c.edges > 0)
        .map((c) => `${c.class} ${c.label}: ${c.edges} (${c.km} km)`)
        .join(", ")}`,
    );
    ctx.log(`river-graph: built in ${seconds.toFixed(1)} s, peak RSS ${meter.peakMb} MB`);
  },
};

function countBy(values: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const v of values) out[v] = (out[v] ?? 0) + 1;
  return out;
}

const fmt = (r: Record<string, number>) =>
  Object.entries(r)
    .map(([k, v]) => `${k} ${v}`)
    .join(", ");
