/**
 * Artifact `river-ports` (data/build/river-ports.bin, payload version 1; docs/river-network.md):
 * the river ports and sea gateways of river.graph, with the graph node each stands on. Sections:
 * `meta` (JSON), `ports` and `gateways` (JSON: `fields` plus one array per row).
 */
import { decodeArtifact, encodeArtifact } from "../format/container.ts";
import type { SeaGateway } from "./gateways.ts";
import type { RiverPort } from "./ports.ts";

export const RIVER_PORTS_KIND = "river-ports";
export const RIVER_PORTS_VERSION = 1;
export const RIVER_PORTS_OUTPUT = "river-ports.bin";

const PORT_FIELDS = [
  "locode",
  "name",
  "country",
  "lat",
  "lng",
  "node",
  "snap_km",
  "source",
  "harbour",
  "geocoded",
] as const;

const GATEWAY_FIELDS = [
  "id",
  "name",
  "locode",
  "source",
  "waterway_id",
  "lat",
  "lng",
  "river_node",
  "river_snap_km",
  "join_node",
  "join_river_km",
  "sea_node",
  "sea_lat",
  "sea_lng",
  "sea_km",
] as const;

const portRow = (p: RiverPort) => [
  p.locode,
  p.name,
  p.country,
  p.lat,
  p.lng,
  p.node,
  p.snapKm,
  p.source,
  p.harbour,
  p.geocoded,
];

const gatewayRow = (g: SeaGateway) => [
  g.id,
  g.name,
  g.locode,
  g.source,
  g.waterwayId,
  g.lat,
  g.lng,
  g.riverNode,
  g.riverSnapKm,
  g.joinNode,
  g.joinRiverKm,
  g.seaNode,
  g.seaLat,
  g.seaLng,
  g.seaKm,
];

export function encodeRiverPorts(
  ports: RiverPort[],
  gateways: SeaGateway[],
  meta: Record<string, unknown>,
  buildId: string,
): Uint8Array {
  const enc = new TextEncoder();
  const json = (v: unknown) => enc.encode(JSON.stringify(v));
  return encodeArtifact(RIVER_PORTS_KIND, RIVER_PORTS_VERSION, buildId, [
    { name: "meta", bytes: json(meta) },
    { name: "ports", bytes: json({ fields: PORT_FIELDS, rows: ports.map(portRow) }) },
    { name: "gateways", bytes: json({ fields: GATEWAY_FIELDS, rows: gateways.map(gatewayRow) }) },
  ]);
}

export interface RiverPortsArtifact {
  buildId: string;
  meta: Record<string, unknown>;
  ports: RiverPort[];
  gateways: SeaGateway[];
}

export function decodeRiverPorts(bytes: Uint8Array, path?: string): RiverPortsArtifact {
  const art = decodeArtifact(bytes, { kind: RIVER_PORTS_KIND, formatVersion: RIVER_PORTS_VERSION, path });
  const dec = new TextDecoder();
  const json = <T>(name: string): T => JSON.parse(dec.decode(art.sections.get(name))) as T;
  const ports = json<{ rows: unknown[][] }>("ports").rows.map((r): RiverPort => {
    const [locode, name, country, lat, lng, node, snapKm, source, harbour, geocoded] = r as [
      string,
      string,
      string,
      number,
      number,
      number,
      number,
      RiverPort["source"],
      string,
      boolean,
    ];
    return { locode, name, country, lat, lng, node, snapKm, source, harbour, geocoded };
  });
  const gateways = json<{ rows: unknown[][] }>("gateways").rows.map((r): SeaGateway => {
    const [
      id,
      name,
      locode,
      source,
      waterwayId,
      lat,
      lng,
      riverNode,
      riverSnapKm,
      joinNode,
      joinRiverKm,
      seaNode,
      seaLat,
      seaLng,
      seaKm,
    ] = r as [
      string,
      string,
      string,
      SeaGateway["source"],
      string,
      number,
      number,
      number,
      number,
      number,
      number,
      number,
      number,
      number,
      number,
    ];
    return {
      id,
      name,
      locode,
      source,
      waterwayId,
      lat,
      lng,
      riverNode,
      riverSnapKm,
      joinNode,
      joinRiverKm,
      seaNode,
      seaLat,
      seaLng,
      seaKm,
    };
  });
  return { buildId: art.buildId, meta: json("meta"), ports, gateways };
}
