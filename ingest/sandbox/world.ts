/**
 * What the simulator draws from: the carriers it plays, the main container ports (with time zones)
 * and sea routes between them. Loaded once; the simulator itself stays a pure function of it.
 */

import { readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { buildDirFrom } from "../../common/build-dir.ts";
import type { PathPoint } from "../../common/geo.ts";
import { Lru } from "../../common/lru.ts";
import { sourcesDirFrom } from "../../common/sources-dir.ts";
import { LocationIndex } from "../../engine/locations/index.ts";
import { getSeaRouter } from "../../engine/sea/router.ts";
import { csvRecords } from "../../formats/csv.ts";
import { CarrierDirectory, type OceanCarrier } from "../carriers/resolve.ts";

/** Carriers the sandbox plays, each under /{scac}/v2/events. */
export const SANDBOX_SCACS = ["MAEU", "MSCU", "CMDU", "HLCU", "ONEY"] as const;
export type SandboxScac = (typeof SANDBOX_SCACS)[number];

export interface Port {
  /** The code carriers send: the legacy carrier code where one exists (CNSHA), else the current one. */
  locode: string;
  name: string;
  lat: number;
  lng: number;
  timezone: string;
  /** 2019 throughput, million TEU: busier ports are drawn more often. */
  teu: number;
}

export interface SeaLeg {
  nm: number;
  /** [lat, lng] pairs; present when the world was asked for geometry. */
  path?: PathPoint[];
}

export interface SandboxWorld {
  carriers: Map<SandboxScac, OceanCarrier>;
  /** Owner prefixes of leasing companies (prefix -> lessor name): their boxes sail for the sandbox lines. */
  leased: Map<string, string>;
  ports: Port[];
  /** Sea route between two ports, or null when the router finds none. */
  route(from: Port, to: Port): SeaLeg | null;
  /** The route's [lat, lng] geometry (AIS positions along a leg); a bounded cache keeps memory small. */
  pathOf(from: Port, to: Port): PathPoint[] | null;
}

/** The leasing companies whose boxes the sandbox plays (other non-line owners are traders or shippers). */
const LEASING_COMPANIES = /textainer|triton|\bcai\b|beacon|seaco|florens|\btal\b|cronos|touax|seacube/i;

export interface WorldOptions {
  sourcesDir?: string;
  /** data/build (PORTOLAN_BUILD_DIR): sea.graph, router.wasm, locations.idx. */
  buildDir?: string;
  /** Keep route geometry (memory: ~1k points per long leg). */
  paths?: boolean;
}

/**
 * Loads the sea router and the location index separately rather than through distanceServices:
 * the sandbox only needs coordinates, zones and distances, so it keeps running while a rebuild
 * has left artifacts of two different builds side by side.
 */
export async function loadWorld(opts: WorldOptions = {}): Promise<SandboxWorld> {
  const sources = opts.sourcesDir ?? sourcesDirFrom();
  const buildDir = resolve(opts.buildDir ?? buildDirFrom());
  const idxPath = join(buildDir, "locations.idx");
  const [directory, portsCsv, idx, sea] = await Promise.all([
    CarrierDirectory.load(sources),
    readFile(join(sources, "ports/main-container-ports.csv"), "utf8"),
    readFile(idxPath).catch(() => {
      throw new Error(`${idxPath} missing: run \`npm run build\``);
    }),
    getSeaRouter(buildDir),
  ]);
  const locations = LocationIndex.fromBytes(
    new Uint8Array(idx.buffer, idx.byteOffset, idx.byteLength),
    idxPath,
  );

  const leased = new Map(
    directory
      .ownerPrefixes()
      .filter((o) => o.lessor && LEASING_COMPANIES.test(o.owner))
      .sort((a, b) => a.prefix.localeCompare(b.prefix))
      .map((o) => [o.prefix, o.owner] as const),
  );
  const carriers = new Map<SandboxScac, OceanCarrier>();
  for (const scac of SANDBOX_SCACS) {
    const c = directory.carrier(scac);
    if (!c) throw new Error(`${scac} missing from ocean-carriers.csv`);
    carriers.set(scac, c);
  }

  const ports: Port[] = [];
  for (const r of csvRecords(portsCsv)) {
    const current = r.unlocode_port_current ?? "";
    const place = locations.port(current);
    const lat = Number(r.lat);
    const lng = Number(r.lon);
    if (!place?.timezone || !Number.isFinite(lat) || !Number.isFinite(lng)) continue;
    ports.push({
      locode: r.legacy_or_carrier_locode || current,
      name: r.name ?? current,
      lat,
      lng,
      timezone: place.timezone,
      teu: Number(r.teu_millions_2019) || 1,
    });
  }

  const memo = new Map<string, SeaLeg | null>();
  const route = (from: Port, to: Port): SeaLeg | null => {
    const key = `${from.locode}>${to.locode}`;
    if (memo.has(key)) return memo.get(key)!;
    let leg: SeaLeg | null = null;
    try {
      const r = sea.plan({
        from: { ...from, kind: "port" },
        to: { ...to, kind: "port" },
        path: opts.paths === true,
      });
      leg = { nm: r.route.distance.nm, ...(r.route.path ? { path: r.route.path } : {}) };
    } catch {
      leg = null;
    }
    memo.set(key, leg);
    return leg;
  };
  const paths = new Lru<string, PathPoint[] | null>(500);
  const pathOf = (from: Port, to: Port): PathPoint[] | null => {
    const key = `${from.locode}>${to.locode}`;
    let path = paths.get(key);
    if (path === undefined) {
      try {
        path =
          sea.plan({
            from: { ...from, kind: "port" },
            to: { ...to, kind: "port" },
            path: true,
            alternatives: false,
          }).route.path ?? null;
      } catch {
        path = null;
      }
      paths.set(key, path);
    }
    return path;
  };
  return { carriers, leased, ports, route, pathOf };
}
