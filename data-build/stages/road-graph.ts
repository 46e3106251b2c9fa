/**
 * Pipeline stage: data/build/road-network.bin -> data/build/road.graph (docs/road.md "Road graph").
 *
 * The pipeline knows only source inputs, not stage outputs, so this stage declares the
 * road-network stage's inputs as its own and imports that stage's module: any change to the
 * network's sources or code changes this stage's fingerprint too, and the registry runs it after
 * road-network. Declaring the same inputs also credits the same sources in ATTRIBUTION.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROAD_GRAPH_OUTPUT } from "../../formats/road-graph.ts";
import { encodeGraph } from "../graph/encode.ts";
import type { BuildContext, Stage } from "../pipeline.ts";
import { decodeRoadNetwork, ROAD_NETWORK_OUTPUT } from "../road/encode.ts";
import { buildRoadGraph } from "../road/graph.ts";
import { roadNetworkStage } from "./road-network.ts";

const COUNTRIES = "countries/countries.json";

export const roadGraphStage: Stage = {
  name: "road-graph",
  inputs: [...roadNetworkStage.inputs],
  outputs: [ROAD_GRAPH_OUTPUT],
  async run(ctx: BuildContext): Promise<void> {
    const netPath = join(ctx.outDir, ROAD_NETWORK_OUTPUT);
    let bytes: Buffer;
    try {
      bytes = readFileSync(netPath);
    } catch {
      throw new Error(`${netPath} missing: run the road-network stage first (\`npm run build\`)`);
    }
    const net = decodeRoadNetwork(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), netPath);
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
