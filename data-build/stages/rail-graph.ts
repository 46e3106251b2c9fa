/**
 * Pipeline stage: Natural Earth railways -> data/build/rail.graph (graph payload v2, mode rail)
 * + railheads.bin (UN/LOCODE rail terminals snapped within 150 km) + rail.summary.json.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { encodeRailheads, RAILHEAD_MAX_M, RAILHEADS_OUTPUT } from "../../formats/railheads.ts";
import { encodeGraph } from "../graph/encode.ts";
import { expandInputs, loadManifest } from "../manifest.ts";
import type { BuildContext, Stage } from "../pipeline.ts";
import {
  buildRailGraph,
  dropRepeatedDuplicates,
  FERRY_KMH,
  JOIN_M,
  NA_DUPLICATE_PART,
  type RailFeature,
  railComponents,
  railGraphSpec,
  railLines,
} from "../rail/network.ts";
import { collectRailPlaces, snapRailheads } from "../rail/railheads.ts";
import { StageMeter } from "../stage-meter.ts";

const RAILROADS = "rail/ne_10m_railroads.geojson.gz";
const UNLOCODE = "ports/unlocode/*.csv";
export const RAIL_GRAPH_OUTPUT = "rail.graph";
export const RAIL_SUMMARY_OUTPUT = "rail.summary.json";

export const railGraphStage: Stage = {
  name: "rail-graph",
  inputs: [RAILROADS, UNLOCODE],
  outputs: [RAIL_GRAPH_OUTPUT, RAILHEADS_OUTPUT, RAIL_SUMMARY_OUTPUT],
  async run(ctx: BuildContext): Promise<void> {
    const meter = new StageMeter();
    const sample = () => meter.sample();
    const { features } = JSON.parse(gunzipSync(readFileSync(ctx.source(RAILROADS))).toString("utf8")) as {
      features: RailFeature[];
    };
    sample();
    const all = railLines(features);
    const { kept, dropped } = dropRepeatedDuplicates(all);
    const graph = buildRailGraph(kept);
    sample();
    const { components } = railComponents(graph);
    const places = collectRailPlaces(
      expandInputs(loadManifest(), [UNLOCODE]).map((k) => readFileSync(ctx.source(k), "utf8")),
    );
    const railheads = snapRailheads(places, graph);
    sample();
    const ferries = graph.edges.filter((e) => e.speedKmh !== undefined).length;
    const km = Math.round(graph.edges.reduce((s, e) => s + e.metres, 0) / 1000);
    writeFileSync(join(ctx.outDir, RAIL_GRAPH_OUTPUT), encodeGraph(railGraphSpec(graph), ctx.buildId));
    sample();
    const seconds = meter.seconds;
    const summary = {
      nodes: graph.nodes.length / 2,
      edges: graph.edges.length,
      km,
      ferry_edges: ferries,
      lines: all.length,
      na_duplicate_lines: all.filter((l) => l.naDuplicate).length,
      na_duplicate_lines_dropped: dropped,
      components: components.length,
      largest_components: components.slice(0, 12),
      rail_places: places.length,
      railheads: railheads.length,
      railheads_geocoded: railheads.filter((r) => r.geocoded).length,
      options: { join_m: JOIN_M, ferry_kmh: FERRY_KMH, railhead_max_km: RAILHEAD_MAX_M / 1000 },
      build_seconds: Math.round(seconds * 10) / 10,
      peak_rss_mb: meter.peakMb,
    };
    writeFileSync(
      join(ctx.outDir, RAILHEADS_OUTPUT),
      encodeRailheads(
        railheads,
        { railheads: railheads.length, max_snap_km: RAILHEAD_MAX_M / 1000, graph: RAIL_GRAPH_OUTPUT },
        ctx.buildId,
      ),
    );
    writeFileSync(join(ctx.outDir, RAIL_SUMMARY_OUTPUT), `${JSON.stringify(summary, null, 2)}\n`);
    ctx.log(
      `rail-graph: ${summary.nodes} nodes, ${summary.edges} edges (${ferries} ferry), ${km} km; ` +
        `${summary.na_duplicate_lines} ${NA_DUPLICATE_PART} lines, ${dropped} dropped as repeats; ${components.length} components`,
    );
    for (const c of components.slice(0, 6)) {
      ctx.log(`  component ${c.km} km, ${c.nodes} nodes: ${c.regions.slice(0, 3).join(", ")}`);
    }
    ctx.log(
      `rail-graph: ${railheads.length} railheads of ${places.length} UN/LOCODE rail places within ${RAILHEAD_MAX_M / 1000} km; ` +
        `built in ${seconds.toFixed(1)} s, peak RSS ${meter.peakMb} MB`,
    );
  },
};
