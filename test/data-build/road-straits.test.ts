/**
 * The built road network, worldwide: no road link crosses a strait (data-build/road/straits.ts:
 * land-10m and large lakes at 0.005 degrees; the listed crossings are the artifact's own ferry,
 * tunnel and bridge links), and no road link's truck speed exceeds the lane average its countries'
 * heavy-goods speed limits allow (truck-speed-limits.csv). Runs against data/build.
 */
import { expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Topology } from "topojson-specification";
import { defaultDirs } from "../../data-build/pipeline.ts";
import { decodeRoadNetwork, ROAD_NETWORK_OUTPUT } from "../../data-build/road/encode.ts";
import { largeLakes, polygonsTopology } from "../../data-build/road/mask.ts";
import { laneLimitKmh, parseTruckSpeedLimits } from "../../data-build/road/speed-limits.ts";
import { StraitTest } from "../../data-build/road/straits.ts";

const { outDir, sourcesDir } = defaultDirs();
const path = join(outDir, ROAD_NETWORK_OUTPUT);
if (!existsSync(path)) throw new Error(`${path} missing: run \`bash scripts/build.sh\` before the tests`);
const net = decodeRoadNetwork(new Uint8Array(readFileSync(path)), path);
const roads = net.links.filter((l) => l.kind === "road");

test("no road link crosses water except through a listed ferry or fixed link", () => {
  const land = JSON.parse(
    readFileSync(join(import.meta.dir, "../../node_modules/world-atlas/land-10m.json"), "utf8"),
  ) as Topology;
  const lakes = largeLakes(JSON.parse(readFileSync(join(sourcesDir, "inland/ne_10m_lakes.json"), "utf8")));
  const listed = net.links
    .filter((l) => l.kind !== "road")
    .map((l) => {
      const [a, b] = [net.nodes[l.a]!, net.nodes[l.b]!];
      return [a.lat, a.lng, b.lat, b.lng] as const;
    });
  const straits = StraitTest.fromTopologies(land, polygonsTopology(lakes), listed);
  const crossing: string[] = [];
  for (const l of roads) {
    const [a, b] = [net.nodes[l.a]!, net.nodes[l.b]!];
    const s = straits.strait(a.lat, a.lng, b.lat, b.lng);
    if (s)
      crossing.push(
        `${a.name} (${a.country}) - ${b.name} (${b.country}): ${(s.lengthM / 1000).toFixed(1)} km of water at ${s.lat.toFixed(3)}, ${s.lng.toFixed(3)}`,
      );
  }
  expect(roads.length).toBeGreaterThan(100_000);
  expect(crossing.slice(0, 20), `${crossing.length} road links cross water`).toEqual([]);
}, 600_000);

test("no road link runs faster than its countries' heavy-goods speed limits allow over a lane", () => {
  const limits = parseTruckSpeedLimits();
  const cap = (c: string) => {
    const l = limits.get(c);
    return l ? laneLimitKmh(l) : Number.POSITIVE_INFINITY;
  };
  const over = roads.filter((l) => l.speedKmh > Math.max(cap(l.country), cap(l.countryB)) + 0.01);
  const sample = over.slice(0, 5).map((l) => `${l.country}-${l.countryB} ${l.speedKmh.toFixed(1)} km/h`);
  expect(over.length, sample.join("; ")).toBe(0);
  // The German lane cap: 80 km/h on motorways, 60 elsewhere, 80 % motorway.
  expect(laneLimitKmh(limits.get("DE")!)).toBeCloseTo(75, 5);
});
