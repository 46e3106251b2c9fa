/**
 * The distance product's loaded artifacts: the location index and the sea router. Loaded once per
 * process (the sea router once per thread); main.ts loads them at start so a missing or stale build
 * stops the server with the rebuild message instead of failing the first request.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { LocationIndex } from "./locations/index.ts";
import { getSeaRouter, type SeaRouter } from "./sea/router.ts";

export interface DistanceServices {
  locations: LocationIndex;
  sea: SeaRouter;
}

const cache = new Map<string, Promise<DistanceServices>>();

async function load(buildDir: string): Promise<DistanceServices> {
  const path = join(buildDir, "locations.idx");
  const bytes = await readFile(path).catch(() => {
    throw new Error(`${path} missing: run \`npm run build\` to build the artifacts`);
  });
  const locations = LocationIndex.fromBytes(
    new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength),
    path,
  );
  const sea = await getSeaRouter(buildDir);
  if (sea.buildId !== locations.buildId) {
    throw new Error(
      `artifacts in ${buildDir} come from different builds (sea.graph ${sea.buildId}, locations.idx ${locations.buildId}): run \`npm run build\``,
    );
  }
  return { locations, sea };
}

export function distanceServices(buildDir: string): Promise<DistanceServices> {
  let pending = cache.get(buildDir);
  if (!pending) {
    pending = load(buildDir);
    pending.catch(() => cache.delete(buildDir));
    cache.set(buildDir, pending);
  }
  return pending;
}
