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
import { buildRiverNetwork, type NetworkSources } from "../river/build.ts";
import { placeGateways } from "../river/gateways.ts";
import { riverGraphSpec } from "../river/graph.ts";
import {
  type CuratedGateway,
  lakePolygons,
  missingCanalLines,
  naturalEarthLines,
  parseGateways,
  parseWaterways,
  type Stretch,
  wdbLines,
} from "../river/inputs.ts";
import { applyLengthFactors, calibrateLengths, parseCalibration } from "../river/length.ts";
import type { RiverNet } from "../river/noding.ts";
import {
  collectPortPlaces,
  collectWpiHarbours,
  gatewayPorts,
  parseMainRiverPorts,
  placeRiverPorts,
} from "../river/ports.ts";
import { edgeRules, parseSegments } from "../river/rule-segments.ts";
import { ruleStretches } from "../river/rule-stretches.ts";
import { CoastTest, readSeaGraph, type SeaNodes } from "../river/sea.ts";
import { parseSeasonalRules, SEASONAL_RULES_SOURCE } from "../river/seasonal-calendar.ts";
import { citeCorrected, parseCorrections, ruleStretchIndexes } from "../river/seasonal-corrections.ts";
import { applyStretches, type EdgeAttrs } from "../river/stretches.ts";
import { kmBySource, logRiverSummary, riverSummary } from "../river/summary.ts";
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

    const { net, stats: netStats } = buildRiverNetwork(networkSources(json, stretches));
    sample();
    const coast = new CoastTest(
      JSON.parse(readFileSync(join(ctx.source("npm:world-atlas"), "land-10m.json"), "utf8")) as Topology,
    );
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
    const geometricKm = kmBySource(net);
    const lengths = calibrateLengths(parseCalibration(), matches);
    applyLengthFactors(net, lengths.factors);
    const { gateways, stats: gatewayStats } = placeSeaGateways(
      net,
      attrs,
      stretches,
      parseGateways(text(FILES.gateways)),
      sea,
      coast,
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

    const summary = riverSummary({
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
    });
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
    logRiverSummary(ctx.log, summary, lengths);
  },
};

/** The lines and lakes the network is noded from, with the curated lake stretches' end points. */
function networkSources(json: <T>(key: string) => T, stretches: Stretch[]): NetworkSources {
  return {
    naturalEarth: [FILES.neRivers, FILES.neRiversEurope, FILES.neRiversNorthAmerica].flatMap((k) =>
      naturalEarthLines(json(k)),
    ),
    canals: missingCanalLines(json(FILES.canals)),
    wdb: WDB_LEVELS.flatMap((level) => wdbLines(json(wdbFile(level)), level)),
    lakes: [FILES.lakes, FILES.lakesEurope, FILES.lakesNorthAmerica].flatMap((k) => lakePolygons(json(k))),
    lakePoints: stretches.filter((s) => s.kind === "lake").flatMap((s) => [s.from, s.to]),
  };
}

/** Sea gateways on the network: curated ones on their stretches' nodes, then river mouths. */
function placeSeaGateways(
  net: RiverNet,
  attrs: EdgeAttrs[],
  stretches: Stretch[],
  curated: CuratedGateway[],
  sea: SeaNodes,
  coast: CoastTest,
): ReturnType<typeof placeGateways> {
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
  return placeGateways(
    net,
    curated,
    sea,
    coast,
    (id) => stretchNodes.get(id) ?? [],
    (e) => attrs[e]!.stretch >= 0,
    (n) => nameOfNode.get(n) ?? "",
  );
}
