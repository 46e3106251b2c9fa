/**
 * Artifact `river-ports` (data/build/river-ports.bin, payload version 2; docs/river-network.md):
 * the river ports and sea gateways of river.graph, with the graph node each stands on. Sections:
 * `meta` (JSON), `ports` and `gateways` (row tables: formats/row-table.ts).
 */
import { decodeArtifact, encodeArtifact } from "./container.ts";
import type { RailPlace } from "./railheads.ts";
import { fromRows, jsonSection, readJson, toRows } from "./row-table.ts";

export const RIVER_PORTS_KIND = "river-ports";
export const RIVER_PORTS_VERSION = 2;
export const RIVER_PORTS_OUTPUT = "river-ports.bin";

/** What a river port is made from: a UN/LOCODE place, a WPI harbour or a curated quay. */
export interface PortPlace extends RailPlace {
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

export interface SeaGateway {
  id: string;
  name: string;
  locode: string;
  source: "curated" | "mouth";
  /** waterways.csv id for a curated gateway ("" for a mouth). */
  waterwayId: string;
  lat: number;
  lng: number;
  riverNode: number;
  riverSnapKm: number;
  /** River node joined to the sea node: riverNode, or where its water meets the sea lanes. */
  joinNode: number;
  /** km along the water from riverNode to joinNode. */
  joinRiverKm: number;
  /** Sea-graph node a sea route to the gateway ends at (the sea point, or its edge's nearer end). */
  seaNode: number;
  /** The sea-graph point joined (a node or a point of a sea edge). */
  seaLat: number;
  seaLng: number;
  /** km from joinNode to the sea point. */
  seaKm: number;
}

const PORT_FIELDS = [
  "locode",
  "name",
  "country",
  "lat",
  "lng",
  "node",
  "snapKm",
  "source",
  "harbour",
  "geocoded",
] as const satisfies ReadonlyArray<keyof RiverPort>;

const GATEWAY_FIELDS = [
  "id",
  "name",
  "locode",
  "source",
  "waterwayId",
  "lat",
  "lng",
  "riverNode",
  "riverSnapKm",
  "joinNode",
  "joinRiverKm",
  "seaNode",
  "seaLat",
  "seaLng",
  "seaKm",
] as const satisfies ReadonlyArray<keyof SeaGateway>;

export function encodeRiverPorts(
  ports: RiverPort[],
  gateways: SeaGateway[],
  meta: Record<string, unknown>,
  buildId: string,
): Uint8Array {
  return encodeArtifact(RIVER_PORTS_KIND, RIVER_PORTS_VERSION, buildId, [
    jsonSection("meta", meta),
    jsonSection("ports", toRows(PORT_FIELDS, ports)),
    jsonSection("gateways", toRows(GATEWAY_FIELDS, gateways)),
  ]);
}

export interface RiverPortsArtifact {
  buildId: string;
  meta: Record<string, unknown>;
  ports: RiverPort[];
  gateways: SeaGateway[];
}

export function decodeRiverPorts(bytes: Uint8Array, path = RIVER_PORTS_OUTPUT): RiverPortsArtifact {
  const art = decodeArtifact(bytes, { kind: RIVER_PORTS_KIND, formatVersion: RIVER_PORTS_VERSION, path });
  return {
    buildId: art.buildId,
    meta: readJson(art, "meta", path),
    ports: fromRows<RiverPort>(readJson(art, "ports", path), PORT_FIELDS, path),
    gateways: fromRows<SeaGateway>(readJson(art, "gateways", path), GATEWAY_FIELDS, path),
  };
}
