/**
 * River ports: UN/LOCODE places with the port function that lie on the network and away from the
 * sea, plus World Port Index river, canal and lake harbours on the network (coastal or not: an
 * estuary harbour such as Hamburg is still where barges load), plus the quays of the main inland
 * ports (main-river-ports.csv) no other port stands at. Each becomes a node of the graph, cut into
 * the nearest edge.
 * Curated sea gateways with a UN/LOCODE add their port where they stand (gatewayPorts): the
 * seaports at a river or canal mouth the coastal test leaves out (Constanta).
 */
import { haversineM } from "../../common/geo.ts";
import { csvRecords } from "../../formats/csv.ts";
import type { PortPlace, RiverPort, SeaGateway } from "../../formats/river-ports.ts";
import { collectUnlocodePlaces } from "../rail/railheads.ts";
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
 * The main inland ports of the main waterways at their quays, with the waterway each lies on.
 * UN/LOCODE misses many (no port function: Wien, Linz, Beograd, Stuttgart; geocoded off the water:
 * Chicago at O'Hare) or stands them at the town (Memphis 17 km from its harbours). Imported as
 * text: the build's code version covers it.
 */
export const MAIN_RIVER_PORTS_CSV: string = mainPortsCsv;
/**
 * A main port's quay already has a river port when one stands on the quay's waterway within this of
 * the quay's point on the network: closer than a town's own length of bank, so the road leg to it
 * stays a short drive.
 */
export const QUAY_COVER_M = 2_000;
/** WPI harbour types kept. */
export const WPI_TYPES = ["River (Natural)", "River (Basins)", "River (Tide Gates)", "Canal or Lake"];

/** A main-river-ports.csv row: the quay and the waterway it lies on (its names, as a pattern). */
export interface MainRiverPort extends PortPlace {
  waterway: RegExp;
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

/**
 * A waterway column ("Rhine|Rhein") as a pattern over water names: any of its names as a whole
 * word, any case ("Main" matches "Main Mainz-Bamberg" and "Main-Danube Canal", not "Maine").
 */
export function waterwayPattern(names: string): RegExp {
  const alts = names.split("|").map((n) => n.trim());
  if (!alts.every((n) => /^[A-Za-z][A-Za-z .'-]*$/.test(n)))
    throw new Error(`main-river-ports.csv: bad waterway "${names}"`);
  return new RegExp(`\\b(?:${alts.map((n) => n.replace(/[.]/g, "\\.")).join("|")})\\b`, "i");
}

/** main-river-ports.csv: the quays of the main inland ports and their waterways. */
export function parseMainRiverPorts(csv = MAIN_RIVER_PORTS_CSV): MainRiverPort[] {
  return csvRecords(csv).map((r) => {
    const locode = (r.locode ?? "").trim();
    const lat = Number(r.lat);
    const lng = Number(r.lng);
    if (
      !/^[A-Z]{2}[A-Z2-9]{3}$/.test(locode) ||
      !Number.isFinite(lat) ||
      !Number.isFinite(lng) ||
      !(r.source ?? "").trim()
    )
      throw new Error(`main-river-ports.csv: bad row ${locode} ${r.lat},${r.lng}`);
    return {
      waterway: waterwayPattern(r.waterway ?? ""),
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
  /** Main ports whose quay has a river port on its waterway already (QUAY_COVER_M). */
  mainCovered: number;
  mainAdded: number;
  /** Geocoded UN/LOCODE rows a main port of the same code replaced. */
  unlocodeReplacedByMain: number;
  /** Added by gatewayPorts (filled in by the stage). */
  gatewayPorts: number;
}

type Hit = NonNullable<ReturnType<NetIndex["nearest"]>>;
type Chosen = { place: PortPlace; source: RiverPort["source"]; hit: Hit };

/**
 * Picks the river ports and cuts each into the network (a node at its nearest network point).
 * A WPI harbour sharing a UN/LOCODE port's code is the same port: one row, source both. Then the
 * main ports' quays (`main`, mainPorts).
 */
export function placeRiverPorts(
  net: RiverNet,
  unlocode: PortPlace[],
  wpi: PortPlace[],
  coast: Pick<CoastTest, "seaWithin">,
  main: MainRiverPort[] = [],
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
    mainCovered: 0,
    mainAdded: 0,
    unlocodeReplacedByMain: 0,
    gatewayPorts: 0,
  };
  const chosen: Chosen[] = [];
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
  mainPorts(index, main, chosen, byLocode, stats);
  const nodes = cutEdges(
    net,
    chosen.map((c) => c.hit),
  );
  const ports = chosen.map(({ place, source, hit }, i) => ({
    ...place,
    source,
    node: nodes[i]!,
    snapKm: Math.round(hit.m) / 1000,
  }));
  return { ports, stats };
}

/**
 * The main ports' quays: each stands on its waterway's nearest water within PORT_SNAP_M (any
 * water when its own is not that near), with no coastal test (it is listed because barges load
 * there), unless a port of its country already stands on the same waterway within QUAY_COVER_M of
 * that point (a port across a border river, Kinshasa for Brazzaville, is not the town's port; a
 * geocoded UN/LOCODE place is a guess the planner ranks down, Worms 30 km behind Mannheim).
 * A quay replaces a geocoded UN/LOCODE row of its code (a guessed position: Chicago at O'Hare);
 * a surveyed town and a WPI harbour of its code stay (a port has several harbours: Memphis).
 */
function mainPorts(
  index: NetIndex,
  main: readonly MainRiverPort[],
  chosen: Chosen[],
  byLocode: Map<string, number>,
  stats: PortStats,
): void {
  for (const p of main) {
    const onWaterway = (edge: number) => {
      const tag = index.net.edges[edge]!.tag;
      return [tag.name, ...tag.names].some((n) => p.waterway.test(n));
    };
    const hit =
      index.nearest(p.lat, p.lng, PORT_SNAP_M, onWaterway) ?? index.nearest(p.lat, p.lng, PORT_SNAP_M);
    if (!hit) {
      stats.mainOffNetwork++;
      continue;
    }
    const covered = chosen.some(
      (c) =>
        c.place.country === p.country &&
        !c.place.geocoded &&
        onWaterway(c.hit.edge) &&
        haversineM(c.hit.lat, c.hit.lng, hit.lat, hit.lng) <= QUAY_COVER_M,
    );
    if (covered) {
      stats.mainCovered++;
      continue;
    }
    const { waterway: _, ...place } = p;
    const same = byLocode.get(p.locode);
    const entry: Chosen = { place, source: "curated", hit };
    if (same !== undefined && chosen[same]!.source === "unlocode" && chosen[same]!.place.geocoded) {
      chosen[same] = entry;
      stats.unlocodeReplacedByMain++;
    } else byLocode.set(p.locode, chosen.push(entry) - 1);
    stats.mainAdded++;
  }
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
