/**
 * Pipeline stage: data/build/road-network.bin -> data/build/road.graph (docs/road.md "Road graph").
 * It reads the road-network stage's artifact (declared in `reads`), so a changed network reruns it,
 * and the registry runs it after road-network.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROAD_GRAPH_OUTPUT } from "../../formats/road-graph.ts";
import { encodeGraph } from "../graph/encode.ts";
import type { BuildContext, Stage } from "../pipeline.ts";
import { decodeRoadNetwork, ROAD_NETWORK_OUTPUT } from "../road/encode.ts";
import { buildRoadGraph } from "../road/graph.ts";

const COUNTRIES = "countries/countries.json";

export const roadGraphStage: Stage = {
  name: "road-graph",
  inputs: [COUNTRIES],
  reads: [ROAD_NETWORK_OUTPUT],
  outputs: [ROAD_GRAPH_OUTPUT],
  async run(ctx: BuildContext): Promise<void> {
    const net = decodeRoadNetwork(ctx.artifact(ROAD_NETWORK_OUTPUT), join(ctx.outDir, ROAD_NETWORK_OUTPUT));
    const countries = JSON.parse(readFileSync(ctx.source(COUNTRIES), "utf8")) as Array<{
      cca2: string;
      name: { common: string };
    }>;
    const { spec, stats } = buildRoadGraph({
      nodes: net.nodes,
      links: net.links,
      countryNames: new Map(countries.map((c) => [c.cca2, c.name.common])),
    });
    const out = encodeGraph(spec, ctx.buildId);
    writeFileSync(join(ctx.outDir, ROAD_GRAPH_OUTPUT), out);
    const big = stats.componentSizes.filter((s) => s > 1);
    ctx.log(
      `road-graph: ${stats.nodes} nodes, ${stats.edges} edges (${stats.roadEdges} road, ${stats.bridges} bridges, ` +
        `${stats.ferries} ferries, ${stats.tunnels} tunnels; ${stats.droppedNonTruck} non-truck links dropped), ` +
        `${stats.roadKm} road km, car speeds up to ${stats.maxCarKmh.toFixed(1)} km/h, ${(out.length / 1e6).toFixed(1)} MB`,
    );
    ctx.log(
      `road-graph: ${big.length} linked components (largest ${big.slice(0, 5).join(", ")}), ` +
        `${stats.componentSizes.length - big.length} unlinked nodes`,
    );
  },
};
