/**
 * River stage inputs: Natural Earth river and lake-centre lines, GSHHG WDB II rivers and canals,
 * the hand-digitised canals, Natural Earth lakes and the curated tables (waterways.csv,
 * gateways.csv, seasonal-rules.json). Lines come out as flat [lat, lng, ...] with a tag saying
 * what they are; the tag is what the network keeps per edge until the curated attributes land.
 */
import { csvRecords } from "../../formats/csv.ts";

export type WaterKind = "river" | "canal" | "lake";
/** ne: Natural Earth; wdb: GSHHG WDB II; canal: missing_canals.geojson; lake: a lake crossing; link: a curated gap link. */
export type LineSource = "ne" | "wdb" | "canal" | "lake" | "link";

export interface LineTag {
  /** Display name ("" for WDB II lines, which carry none). */
  name: string;
  /** Every name the line answers to (NE name, name_en, name_alt), for matching curated aliases. */
  names: string[];
  kind: WaterKind;
  source: LineSource;
  /** waterways.csv id of a hand-digitised canal. */
  curatedId?: string;
}

/** Lines with equal keys are one water (merged where they meet end to end). */
export const tagKey = (t: LineTag) => `${t.source}|${t.kind}|${t.name}|${t.curatedId ?? ""}`;

export interface SourceLine {
  /** Flat [lat, lng, ...], consecutive repeats removed, at least two points. */
  coords: number[];
  tag: LineTag;
}

interface LineFeature {
  properties: Record<string, unknown> | null;
  geometry:
    | { type: "LineString"; coordinates: number[][] }
    | { type: "MultiLineString"; coordinates: number[][][] }
    | null;
}

export interface FeatureCollection<F> {
  features: F[];
}

function partsOf(f: LineFeature): number[][][] {
  const g = f.geometry;
  if (!g) return [];
  return g.type === "LineString" ? [g.coordinates] : g.type === "MultiLineString" ? g.coordinates : [];
}

/** GeoJSON [lng, lat] positions -> flat [lat, lng], repeats dropped; null when fewer than 2 points. */
export function flatLine(part: number[][]): number[] | null {
  const out: number[] = [];
  for (const [lng, lat] of part) {
    if (!Number.isFinite(lat) || !Number.isFinite(lng)) continue;
    const n = out.length;
    if (n > 0 && out[n - 2] === lat && out[n - 1] === lng) continue;
    out.push(lat!, lng!);
  }
  return out.length >= 4 ? out : null;
}

const text = (v: unknown): string => (typeof v === "string" ? v.trim() : "");

/**
 * Natural Earth river / lake-centre lines. Intermittent ones are left out (wadis and seasonal
 * creeks carry no barge in any season).
 */
export function naturalEarthLines(fc: FeatureCollection<LineFeature>): SourceLine[] {
  const out: SourceLine[] = [];
  for (const f of fc.features) {
    const p = f.properties ?? {};
    const cla = text(p.featurecla);
    if (/intermittent/i.test(cla)) continue;
    const name = text(p.name);
    const en = text(p.name_en);
    const names = [...new Set([name, en, text(p.name_alt)].filter((n) => n !== ""))];
    const tag: LineTag = {
      name: en || name,
      names,
      kind: /lake/i.test(cla) ? "lake" : "river",
      source: "ne",
    };
    for (const part of partsOf(f)) {
      const coords = flatLine(part);
      if (coords) out.push({ coords, tag });
    }
  }
  return out;
}

/** WDB II lines of one level: 1-2 are rivers, 8-10 canals. They carry no names. */
export function wdbLines(fc: FeatureCollection<LineFeature>, level: number): SourceLine[] {
  const tag: LineTag = { name: "", names: [], kind: level >= 8 ? "canal" : "river", source: "wdb" };
  const out: SourceLine[] = [];
  for (const f of fc.features) {
    for (const part of partsOf(f)) {
      const coords = flatLine(part);
      if (coords) out.push({ coords, tag });
    }
  }
  return out;
}

/** missing_canals.geojson: one line per feature, tagged with its waterways.csv id. */
export function missingCanalLines(fc: FeatureCollection<LineFeature>): SourceLine[] {
  const out: SourceLine[] = [];
  for (const f of fc.features) {
    const p = f.properties ?? {};
    const id = text(p.id);
    const name = text(p.name);
    for (const part of partsOf(f)) {
      const coords = flatLine(part);
      if (coords)
        out.push({ coords, tag: { name, names: [name], kind: "canal", source: "canal", curatedId: id } });
    }
  }
  return out;
}

type Ring = Array<[number, number]>;
export interface LakeFeature {
  properties: Record<string, unknown> | null;
  geometry: { type: "Polygon"; coordinates: Ring[] } | { type: "MultiPolygon"; coordinates: Ring[][] } | null;
}

export interface Lake {
  name: string;
  /** Polygons, each outer ring then holes, rings as flat [lat, lng, ...]. */
  polygons: number[][][];
  /** [minLat, minLng, maxLat, maxLng]. */
  bbox: [number, number, number, number];
}

export function lakePolygons(fc: FeatureCollection<LakeFeature>): Lake[] {
  const out: Lake[] = [];
  for (const f of fc.features) {
    const g = f.geometry;
    if (!g) continue;
    const polys = g.type === "Polygon" ? [g.coordinates] : g.coordinates;
    const bbox: [number, number, number, number] = [90, 180, -90, -180];
    const polygons = polys.map((rings) =>
      rings.map((ring) => {
        const flat: number[] = [];
        for (const [lng, lat] of ring) {
          flat.push(lat, lng);
          bbox[0] = Math.min(bbox[0], lat);
          bbox[1] = Math.min(bbox[1], lng);
          bbox[2] = Math.max(bbox[2], lat);
          bbox[3] = Math.max(bbox[3], lng);
        }
        return flat;
      }),
    );
    out.push({ name: text(f.properties?.name), polygons, bbox });
  }
  return out;
}

/** One row of waterways.csv (the curated navigable stretches), parsed. */
export interface Stretch {
  id: string;
  waterway: string;
  aliases: string[];
  kind: "river" | "canal" | "lake" | "estuary";
  from: { place: string; lat: number; lng: number };
  to: { place: string; lat: number; lng: number };
  cemtClass: string;
  usDepthFt: number | null;
  maxDraftM: number | null;
  /** Lock sites on the stretch; null = not verified. */
  locks: number | null;
  currentKmh: number;
  flowHint: string;
  ruleIds: string[];
  region: string;
  straightKm: number;
  /** Length of the table's own route along the alias lines, when it found one. */
  neRouteKm: number | null;
  geometrySource: string;
}

const numOrNull = (s: string | undefined): number | null => {
  const t = (s ?? "").trim();
  if (t === "") return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : null;
};
const split = (s: string | undefined): string[] =>
  (s ?? "")
    .split("|")
    .map((x) => x.trim())
    .filter((x) => x !== "");

export function parseWaterways(csv: string): Stretch[] {
  return csvRecords(csv).map((r) => ({
    id: r.id!,
    waterway: r.waterway!,
    aliases: split(r.ne_aliases),
    kind: r.kind as Stretch["kind"],
    from: { place: r.from_place!, lat: Number(r.from_lat), lng: Number(r.from_lng) },
    to: { place: r.to_place!, lat: Number(r.to_lat), lng: Number(r.to_lng) },
    cemtClass: (r.cemt_class ?? "").trim(),
    usDepthFt: numOrNull(r.us_channel_depth_ft),
    maxDraftM: numOrNull(r.max_draft_m),
    locks: numOrNull(r.locks),
    currentKmh: numOrNull(r.typical_current_kmh) ?? 0,
    flowHint: (r.flow_direction_hint ?? "").trim(),
    ruleIds: split(r.season_rule_ids),
    region: r.region ?? "",
    straightKm: numOrNull(r.straight_km) ?? 0,
    neRouteKm: numOrNull(r.ne_route_km),
    geometrySource: r.geometry_source ?? "",
  }));
}

export interface CuratedGateway {
  name: string;
  locode: string;
  lat: number;
  lng: number;
  waterwayId: string;
}

export function parseGateways(csv: string): CuratedGateway[] {
  return csvRecords(csv).map((r) => ({
    name: r.name!,
    locode: (r.unlocode ?? "").trim(),
    lat: Number(r.lat),
    lng: Number(r.lng),
    waterwayId: r.waterway_id!,
  }));
}
