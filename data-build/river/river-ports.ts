/**
 * Artifact `river-ports` (data/build/river-ports.bin, payload version 2; docs/river-network.md):
 * the river ports and sea gateways of river.graph, with the graph node each stands on. Sections:
 * `meta` (JSON), `ports` and `gateways` (row tables: data-build/format/row-table.ts).
 */
import { decodeArtifact, encodeArtifact } from "../format/container.ts";
import { fromRows, jsonSection, readJson, toRows } from "../format/row-table.ts";
import type { SeaGateway } from "./gateways.ts";
import type { RiverPort } from "./ports.ts";

export const RIVER_PORTS_KIND = "river-ports";
export const RIVER_PORTS_VERSION = 2;
export const RIVER_PORTS_OUTPUT = "river-ports.bin";

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
