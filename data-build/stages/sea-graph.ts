/** Pipeline stage: MARNET 20 km lanes + passage gates + ECA zones -> data/build/sea.graph. */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { BuildContext, Stage } from "../pipeline.ts";
import { parseEcaZones } from "../sea/eca.ts";
import { readMarnet, readPassageIds } from "../sea/gpkg.ts";
import { buildSeaGraph, encodeSeaGraph, PASSAGES } from "../sea/graph.ts";

const LANES = "sea/marnet_plus_20km.gpkg";
const GATES = "sea/passages.gpkg";
const ECA = "sea/eca_zones.geojson";

export const seaGraphStage: Stage = {
  name: "sea-graph",
  inputs: [LANES, GATES, ECA, "npm:world-atlas"],
  outputs: ["sea.graph"],
  async run(ctx: BuildContext): Promise<void> {
    // The gate table must match the ids the router's closed-mask bits are defined for.
    const gateIds = readPassageIds(ctx.source(GATES)).map((p) => p.id);
    const known = new Set(PASSAGES.map((p) => p.id));
    if (gateIds.length !== known.size || gateIds.some((id) => !known.has(id))) {
      throw new Error(`${GATES} lists passages [${gateIds.join(", ")}], expected [${[...known].join(", ")}]`);
    }
    const zones = parseEcaZones(JSON.parse(readFileSync(ctx.source(ECA), "utf8")));
    const land = JSON.parse(readFileSync(join(ctx.source("npm:world-atlas"), "land-50m.json"), "utf8"));
    const graph = buildSeaGraph(readMarnet(ctx.source(LANES)), zones, land);
    const { stats } = graph;
    ctx.log(
      `sea-graph: ${stats.lanes} lanes + ${stats.shortcuts} open-ocean shortcuts -> ${graph.nodes.length / 2} nodes, ${graph.edges.length} edges ` +
        `(giant component of ${stats.nodesBeforePrune} nodes; next components ${stats.components.slice(1).join(", ")}; ` +
        `${stats.droppedEdges} edges dropped)`,
    );
    writeFileSync(join(ctx.outDir, "sea.graph"), encodeSeaGraph(graph, ctx.buildId));
  },
};
