/**
 * Pipeline stage: MARNET 20 km lanes + passage gates + ECA zones -> data/build/sea.graph, with the
 * lanes on non-seagoing inland water gated "inland" (sea/inland.ts: Natural Earth river lines, the
 * hand-digitised canals and the curated waterway classes), and sea.summary.json (what was gated).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Topology } from "topojson-specification";
import type { BuildContext, Stage } from "../pipeline.ts";
import { missingCanalLines, naturalEarthLines, parseWaterways } from "../river/inputs.ts";
import { CoastTest } from "../river/sea.ts";
import { parseEcaZones } from "../sea/eca.ts";
import { readMarnet, readPassageIds } from "../sea/gpkg.ts";
import { buildSeaGraph, encodeSeaGraph, MARNET_PASSAGES } from "../sea/graph.ts";
import { END_M, InlandWater, JOIN_M, LINE_M, MIN_RUN_M, OPEN_SEA_M, SAMPLE_M } from "../sea/inland.ts";

const LANES = "sea/marnet_plus_20km.gpkg";
const GATES = "sea/passages.gpkg";
const ECA = "sea/eca_zones.geojson";
/** River and lake-centre lines, canals and curated classes: what tells inland water apart. */
const RIVERS = [
  "inland/ne_10m_rivers_lake_centerlines.json",
  "inland/ne_10m_rivers_europe.json",
  "inland/ne_10m_rivers_north_america.json",
] as const;
const CANALS = "inland/missing_canals.geojson";
const WATERWAYS = "inland/waterways.csv";

export const SEA_SUMMARY_OUTPUT = "sea.summary.json";

export const seaGraphStage: Stage = {
  name: "sea-graph",
  inputs: [LANES, GATES, ECA, ...RIVERS, CANALS, WATERWAYS, "npm:world-atlas"],
  outputs: ["sea.graph", SEA_SUMMARY_OUTPUT],
  async run(ctx: BuildContext): Promise<void> {
    // The gate table must match the ids the router's closed-mask bits are defined for.
    const gateIds = readPassageIds(ctx.source(GATES)).map((p) => p.id);
    const known = new Set(MARNET_PASSAGES.map((p) => p.id));
    if (gateIds.length !== known.size || gateIds.some((id) => !known.has(id))) {
      throw new Error(`${GATES} lists passages [${gateIds.join(", ")}], expected [${[...known].join(", ")}]`);
    }
    const text = (key: string) => readFileSync(ctx.source(key), "utf8");
    const atlas = (file: string) =>
      JSON.parse(readFileSync(join(ctx.source("npm:world-atlas"), file), "utf8")) as Topology;
    const zones = parseEcaZones(JSON.parse(text(ECA)));
    const inland = new InlandWater(
      // 10m land, where lakes are land: the test for "no open sea nearby".
      new CoastTest(atlas("land-10m.json")),
      [
        ...RIVERS.flatMap((k) => naturalEarthLines(JSON.parse(text(k)))),
        ...missingCanalLines(JSON.parse(text(CANALS))),
      ],
      parseWaterways(text(WATERWAYS)),
    );
    const graph = buildSeaGraph(readMarnet(ctx.source(LANES)), zones, atlas("land-50m.json"), inland);
    const { stats } = graph;
    ctx.log(
      `sea-graph: ${stats.lanes} lanes + ${stats.shortcuts} open-ocean shortcuts -> ${graph.nodes.length / 2} nodes, ${graph.edges.length} edges ` +
        `(giant component of ${stats.nodesBeforePrune} nodes; next components ${stats.components.slice(1).join(", ")}; ` +
        `${stats.droppedEdges} edges dropped)`,
    );
    const gated = stats.inland!;
    const top = <T>(list: T[], n: number, f: (x: T) => string) =>
      list.slice(0, n).map(f).join(", ") + (list.length > n ? `, ... (${list.length - n} more)` : "");
    ctx.log(
      `sea-graph: inland gate on ${gated.edges} edges, ${gated.km} km (${gated.lanesCut} lanes cut); by region: ` +
        gated.byRegion.map((r) => `${r.region} ${r.km} km`).join(", "),
    );
    ctx.log(
      `sea-graph: inland gate by waterway: ${top(gated.byStretch, 40, (s) => `${s.waterway} [${s.cemt_class}] ${s.km} km`)}`,
    );
    ctx.log(
      `sea-graph: inland water left as sea: seagoing ${top(gated.seagoingKm, 25, (s) => `${s.waterway} ${s.km} km`)}; ` +
        `uncurated ${top(gated.uncuratedKm, 25, (s) => `${s.line} ${s.km} km`)}`,
    );
    writeFileSync(join(ctx.outDir, "sea.graph"), encodeSeaGraph(graph, ctx.buildId));
    const summary = {
      nodes: graph.nodes.length / 2,
      edges: graph.edges.length,
      lanes: stats.lanes,
      shortcuts: stats.shortcuts,
      inland_gate: {
        edges: gated.edges,
        km: gated.km,
        lanes_cut: gated.lanesCut,
        by_region: gated.byRegion,
        by_waterway: gated.byStretch,
        left_as_sea_seagoing_km: gated.seagoingKm,
        left_as_sea_uncurated_km: gated.uncuratedKm,
        options: {
          sample_m: SAMPLE_M,
          open_sea_m: OPEN_SEA_M,
          line_m: LINE_M,
          end_m: END_M,
          min_run_m: MIN_RUN_M,
          join_m: JOIN_M,
        },
      },
    };
    writeFileSync(join(ctx.outDir, SEA_SUMMARY_OUTPUT), `${JSON.stringify(summary, null, 2)}\n`);
  },
};
