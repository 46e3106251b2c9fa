/**
 * Artifact `railheads` (data/build/railheads.bin, docs/rail.md): UN/LOCODE rail terminals snapped
 * onto rail.graph, written by the rail-graph stage (data-build/rail/railheads.ts), read by the rail
 * planner.
 */
import { decodeArtifact, encodeArtifact } from "./container.ts";
import { fromRows, jsonSection, readJson, toRows } from "./row-table.ts";

export const RAILHEADS_KIND = "railheads";
export const RAILHEADS_VERSION = 2;
export const RAILHEADS_OUTPUT = "railheads.bin";
/** Spec: railhead access up to 150 km. */
export const RAILHEAD_MAX_M = 150_000;

export interface RailPlace {
  locode: string;
  name: string;
  country: string;
  lat: number;
  lng: number;
  /** Coordinates added by geocoding (sometimes far off) rather than surveyed. */
  geocoded: boolean;
}

export interface Railhead extends RailPlace {
  /** Rail graph node to route from. */
  node: number;
  /** The nearest point of the graph (a node or an edge's intermediate point). */
  snapLat: number;
  snapLng: number;
  /** Great-circle km from the place to the snapped point. */
  snapKm: number;
}

const ROW_FIELDS = [
  "locode",
  "name",
  "country",
  "lat",
  "lng",
  "node",
  "snapKm",
  "snapLat",
  "snapLng",
  "geocoded",
] as const satisfies ReadonlyArray<keyof Railhead>;

/** Container kind `railheads`: `meta` (JSON) and `rows` (a row table, one row per railhead). */
export function encodeRailheads(
  rows: Railhead[],
  meta: Record<string, unknown>,
  buildId: string,
): Uint8Array {
  return encodeArtifact(RAILHEADS_KIND, RAILHEADS_VERSION, buildId, [
    jsonSection("meta", meta),
    jsonSection("rows", toRows(ROW_FIELDS, rows)),
  ]);
}

export function decodeRailheads(
  bytes: Uint8Array,
  path = RAILHEADS_OUTPUT,
): { buildId: string; meta: Record<string, unknown>; railheads: Railhead[] } {
  const art = decodeArtifact(bytes, { kind: RAILHEADS_KIND, formatVersion: RAILHEADS_VERSION, path });
  return {
    buildId: art.buildId,
    meta: readJson(art, "meta", path),
    railheads: fromRows<Railhead>(readJson(art, "rows", path), ROW_FIELDS, path),
  };
}
