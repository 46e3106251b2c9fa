/**
 * River ports: UN/LOCODE places with the port function that lie on the network and away from the
 * sea, plus World Port Index river, canal and lake harbours on the network (coastal or not: an
 * estuary harbour such as Hamburg is still where barges load), plus the main river ports UN/LOCODE
 * misses (main-river-ports.csv). Each becomes a node of the graph, cut into the nearest edge.
 * Curated sea gateways with a UN/LOCODE add their port where they stand (gatewayPorts): the
 * seaports at a river or canal mouth the coastal test leaves out (Constanta).
 */
import { haversineM } from "../../common/geo.ts";
import { csvRecords } from "../locations/csv.ts";
import { collectUnlocodePlaces } from "../rail/railheads.ts";
import type { SeaGateway } from "./gateways.ts";
import mainPortsCsv from "./main-river-ports.csv" with { type: "text" };
import { cutEdges, NetIndex } from "./network.ts";
import type { RiverNet } from "./noding.ts";
import type { CoastTest } from "./sea.ts";

/**
 * A UN/LOCODE port this close to the network is on it: its coordinates are the town's, to the
 * minute (~1.9 km), and a river town stretches a few km along its bank. Geocoded rows get the same
 * tolerance (their flag is kept in the artifact for consumers that prefer surveyed positions).
 */
export const PORT_SNAP_M = 5_000;
/** A UN/LOCODE port with open sea within this distance is a seaport, not a river port. */
export const COASTAL_M = 5_000;
/** WPI positions are the harbour itself (~1 nautical mile): within this of the network. */
export const WPI_SNAP_M = 10_000;
/**
 * A curated gateway's port stands on the gateway's river node when the gateway is this close to
 * it: gateways.csv positions are harbours, like the WPI's.
 */
export const GATEWAY_PORT_M = WPI_SNAP_M;
/**
 * ... and, when UN/LOCODE places its code as a port, within this of that place: a gateway named
 * after a port it only approaches (Vung Tau for the Mekong's Cua Tieu mouth) is not that port.
 */
export const GATEWAY_PORT_TOWN_M = 25_000;
/**
 * Main river ports UN/LOCODE misses: rows without the port function (Wien, Linz, Beograd) or
 * geocoded off the water (Chicago at O'Hare). Imported as text: the build's code version covers it.
 */
export const MAIN_RIVER_PORTS_CSV: string = mainPortsCsv;
/** WPI harbour types kept. */
export const WPI_TYPES = ["River (Natural)", "River (Basins)", "River (Tide Gates)", "Canal or Lake"];

export interface PortPlace {
  locode: string;
  name: string;
  country: string;
  lat: number;
  lng: number;
  geocoded: boolean;
  /** WPI harbour type ("" for UN/LOCODE rows). */
  harbour: string;
  source: "unlocode" | "wpi" | "curated";
}

export interface RiverPort extends Omit<PortPlace, "source"> {
  /** curated: main-river-ports.csv; gateway: a curated sea gateway's port (gatewayPorts). */
  source: "unlocode" | "wpi" | "unlocode+wpi" | "curated" | "gateway";
  node: number;
  snapKm: number;
}

/** UN/LOCODE rows with the port function (position 1) and usable coordinates, first row per code. */
export const collectPortPlaces = (unlocodeCsvs: string[]): PortPlace[] =>
  collectUnlocodePlaces(unlocodeCsvs, 0, "1").map((p) => ({ ...p, harbour: "", source: "unlocode" }));

/** World Port Index harbours of the river, canal and lake types. */
export function collectWpiHarbours(csv: string): PortPlace[] {
  const out: PortPlace[] = [];
  for (const r of csvRecords(csv)) {
    const harbour = (r["Harbor Type"] ?? "").trim();
    if (!WPI_TYPES.includes(harbour)) continue;
    const lat = Number(r.Latitude);
    const lng = Number(r.Longitude);
    if (!Number.isFinite(lat) || !Number.isFinite(lng)) continue;
    const locode = (r["UN/LOCODE"] ?? "").replace(/\s+/g, "").toUpperCase();
    out.push({
      locode,
      name: (r["Main Port Name"] ?? "").trim(),
      country: locode.slice(0, 2),
      lat,
      lng,
      geocoded: false,
      harbour,
      source: "wpi",
    });
  }
  return out;
}

/** main-river-ports.csv: harbour positions of main river ports UN/LOCODE misses. */
export function parseMainRiverPorts(csv = MAIN_RIVER_PORTS_CSV): PortPlace[] {
  return csvRecords(csv).map((r) => {
    const locode = (r.locode ?? "").trim();
    const lat = Number(r.lat);
    const lng = Number(r.lng);
    if (!/^[A-Z]{2}[A-Z2-9]{3}$/.test(locode) || !Number.isFinite(lat) || !Number.isFinite(lng))
      throw new Error(`main-river-ports.csv: bad row ${locode} ${r.lat},${r.lng}`);
    return {
      locode,
      name: (r.name ?? "").trim(),
      country: locode.slice(0, 2),
      lat,
      lng,
      geocoded: false,
      harbour: "",
      source: "curated",
    };
  });
}

export interface PortStats {
  unlocodePorts: number;
  unlocodeCoastal: number;
  unlocodeOffNetwork: number;
  unlocodeKept: number;
  wpiHarbours: number;
  wpiOffNetwork: number;
  wpiKept: number;
  wpiMergedWithUnlocode: number;
  mainPorts: number;
  mainOffNetwork: number;
  /** UN/LOCODE rows a main-river-ports.csv row of the same code replaced. */
  unlocodeReplacedByMain: number;
  /** Added by gatewayPorts (filled in by the stage). */
  gatewayPorts: number;
}

/**
 * Picks the river ports and cuts each into the network (a node at its nearest network point).
 * A WPI harbour sharing a UN/LOCODE port's code is the same port: one row, source both. A main
 * river port (`main`) stands where the table puts it, in place of a UN/LOCODE row of its code,
 * with no coastal test (it is listed because it is a river port).
 */
export function placeRiverPorts(
  net: RiverNet,
  unlocode: PortPlace[],
  wpi: PortPlace[],
  coast: Pick<CoastTest, "seaWithin">,
  main: PortPlace[] = [],
): { ports: RiverPort[]; stats: PortStats } {
  const index = new NetIndex(net);
  const stats: PortStats = {
    unlocodePorts: unlocode.length,
    unlocodeCoastal: 0,
    unlocodeOffNetwork: 0,
    unlocodeKept: 0,
    wpiHarbours: wpi.length,
    wpiOffNetwork: 0,
    wpiKept: 0,
    wpiMergedWithUnlocode: 0,
    mainPorts: main.length,
    mainOffNetwork: 0,
    unlocodeReplacedByMain: 0,
    gatewayPorts: 0,
  };
  const chosen: Array<{
    place: PortPlace;
    source: RiverPort["source"];
    hit: ReturnType<NetIndex["nearest"]>;
  }> = [];
  const byLocode = new Map<string, number>();
  for (const p of main) {
    const hit = index.nearest(p.lat, p.lng, PORT_SNAP_M);
    if (!hit) {
      stats.mainOffNetwork++;
      continue;
    }
    byLocode.set(p.locode, chosen.push({ place: p, source: "curated", hit }) - 1);
  }
  for (const p of unlocode) {
    if (byLocode.has(p.locode)) {
      stats.unlocodeReplacedByMain++;
      continue;
    }
    const hit = index.nearest(p.lat, p.lng, PORT_SNAP_M);
    if (!hit) {
      stats.unlocodeOffNetwork++;
      continue;
    }
    if (coast.seaWithin(p.lat, p.lng, COASTAL_M)) {
      stats.unlocodeCoastal++;
      continue;
    }
    byLocode.set(p.locode, chosen.push({ place: p, source: "unlocode", hit }) - 1);
    stats.unlocodeKept++;
  }
  for (const p of wpi) {
    const hit = index.nearest(p.lat, p.lng, WPI_SNAP_M);
    if (!hit) {
      stats.wpiOffNetwork++;
      continue;
    }
    const same = p.locode ? byLocode.get(p.locode) : undefined;
    if (same !== undefined && chosen[same]!.source !== "unlocode") continue;
    if (same !== undefined) {
      // The harbour's own position is better than the town's: it replaces position and snap.
      const town = chosen[same]!.place;
      chosen[same] = {
        place: { ...town, lat: p.lat, lng: p.lng, harbour: p.harbour },
        source: "unlocode+wpi",
        hit,
      };
      stats.wpiMergedWithUnlocode++;
      continue;
    }
    if (p.locode) byLocode.set(p.locode, chosen.length);
    chosen.push({ place: p, source: "wpi", hit });
    stats.wpiKept++;
  }
  const nodes = cutEdges(
    net,
    chosen.map((c) => c.hit!),
  );
  const ports = chosen.map(({ place, source, hit }, i) => ({
    ...place,
    source,
    node: nodes[i]!,
    snapKm: Math.round(hit!.m) / 1000,
  }));
  return { ports, stats };
}

/**
 * The ports of curated sea gateways (gateways.csv) with a UN/LOCODE no river port carries yet,
 * each on its gateway's river node: a seaport at a river or canal mouth (Constanta at the
 * Danube-Black Sea Canal) is where barges load, though the coastal test drops its UN/LOCODE row.
 */
export function gatewayPorts(
  gateways: readonly SeaGateway[],
  ports: readonly RiverPort[],
  unlocode: readonly PortPlace[],
): RiverPort[] {
  const have = new Set(ports.map((p) => p.locode));
  const town = new Map(unlocode.map((p) => [p.locode, p]));
  const out: RiverPort[] = [];
  for (const g of gateways) {
    if (g.source !== "curated" || !g.locode || have.has(g.locode)) continue;
    if (g.riverSnapKm * 1000 > GATEWAY_PORT_M) continue;
    const t = town.get(g.locode);
    if (t && haversineM(t.lat, t.lng, g.lat, g.lng) > GATEWAY_PORT_TOWN_M) continue;
    have.add(g.locode);
    out.push({
      locode: g.locode,
      name: t?.name ?? g.name,
      country: g.locode.slice(0, 2),
      lat: g.lat,
      lng: g.lng,
      geocoded: false,
      harbour: "",
      source: "gateway",
      node: g.riverNode,
      snapKm: g.riverSnapKm,
    });
  }
  return out;
}
