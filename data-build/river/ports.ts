/**
 * River ports: UN/LOCODE places with the port function that lie on the network and away from the
 * sea, plus World Port Index river, canal and lake harbours on the network (coastal or not: an
 * estuary harbour such as Hamburg is still where barges load). Each becomes a node of the graph,
 * cut into the nearest edge.
 */
import { csvRecords } from "../locations/csv.ts";
import { collectUnlocodePlaces } from "../rail/railheads.ts";
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
  source: "unlocode" | "wpi";
}

export interface RiverPort extends Omit<PortPlace, "source"> {
  source: "unlocode" | "wpi" | "unlocode+wpi";
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

export interface PortStats {
  unlocodePorts: number;
  unlocodeCoastal: number;
  unlocodeOffNetwork: number;
  unlocodeKept: number;
  wpiHarbours: number;
  wpiOffNetwork: number;
  wpiKept: number;
  wpiMergedWithUnlocode: number;
}

/**
 * Picks the river ports and cuts each into the network (a node at its nearest network point).
 * A WPI harbour sharing a UN/LOCODE port's code is the same port: one row, source both.
 */
export function placeRiverPorts(
  net: RiverNet,
  unlocode: PortPlace[],
  wpi: PortPlace[],
  coast: Pick<CoastTest, "seaWithin">,
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
  };
  const chosen: Array<{
    place: PortPlace;
    source: RiverPort["source"];
    hit: ReturnType<NetIndex["nearest"]>;
  }> = [];
  const byLocode = new Map<string, number>();
  for (const p of unlocode) {
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
