/** Shared setup for the sea router tests: artifacts (built on demand) and reference data. */
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { buildDirFrom } from "../../common/build-dir.ts";
import { sourcesDirFrom } from "../../common/sources-dir.ts";
import { buildSeaGraphLocally } from "../../data-build/sea/build-local.ts";
import { SeaRouter } from "../../engine/sea/router.ts";
import { csvRecords } from "../../formats/csv.ts";

export const ROOT = resolve(import.meta.dir, "../..");
export const BUILD_DIR = buildDirFrom();
export const SOURCES = sourcesDirFrom();

let router: Promise<SeaRouter> | null = null;

/** The router over data/build, building sea.graph and router.wasm first when they are missing. */
export function seaRouter(): Promise<SeaRouter> {
  router ??= (async () => {
    if (!existsSync(join(BUILD_DIR, "sea.graph"))) await buildSeaGraphLocally(BUILD_DIR);
    if (!existsSync(join(BUILD_DIR, "router.wasm"))) {
      const p = Bun.spawnSync(["bash", join(ROOT, "router-wasm/build.sh")], { stderr: "inherit" });
      if (p.exitCode !== 0) throw new Error("router-wasm/build.sh failed");
    }
    return SeaRouter.load(BUILD_DIR);
  })();
  return router;
}

export interface RefPair {
  from: string;
  to: string;
  nm: number;
  flag: string;
  note: string;
  a: { lat: number; lng: number; name: string };
  b: { lat: number; lng: number; name: string };
}

export function pub151(): RefPair[] {
  return csvRecords(readFileSync(join(SOURCES, "sea/reference-distances-pub151.csv"), "utf8")).map((r) => ({
    from: r.from_port!,
    to: r.to_port!,
    nm: Number(r.nm_pub151),
    flag: r.quality_flag!,
    note: r.route_note!,
    a: { lat: Number(r.from_lat), lng: Number(r.from_lon), name: r.from_port! },
    b: { lat: Number(r.to_lat), lng: Number(r.to_lon), name: r.to_port! },
  }));
}

export interface Port {
  name: string;
  locode: string;
  lat: number;
  lng: number;
  kind: "port";
}

export function mainPorts(): Port[] {
  return csvRecords(readFileSync(join(SOURCES, "ports/main-container-ports.csv"), "utf8")).map((r) => ({
    name: r.name!,
    locode: r.unlocode_port_current!,
    lat: Number(r.lat),
    lng: Number(r.lon),
    kind: "port",
  }));
}
