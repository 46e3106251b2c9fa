/**
 * Where a road may run: land (world-atlas raster) minus large lakes (Natural Earth lakes, rasterised
 * by the same LandRaster so there is one polygon filler). A link is tested by sampling its great
 * circle; short water runs near the endpoints are tolerated because ports and ferry terminals sit on
 * the shore, where a 2 km raster cell often reads as water, and so are runs of up to two cells
 * elsewhere (necks the raster cannot resolve, bridged creeks and lagoons).
 */
import type { GeometryCollection, Topology } from "topojson-specification";
import { densify, haversineM } from "../../common/geo.ts";
import { LandRaster } from "../sea/land.ts";

export interface WaterTest {
  isWater(lat: number, lng: number): boolean;
}

type Ring = Array<[number, number]>;
interface PolygonFeature {
  properties?: Record<string, unknown> | null;
  geometry: { type: "Polygon"; coordinates: Ring[] } | { type: "MultiPolygon"; coordinates: Ring[][] };
}

/**
 * GeoJSON polygons as an unquantised topology (one arc per ring) under `objects.land`, which is what
 * LandRaster reads: lakes and test fixtures reuse the sea stage's rasteriser instead of a copy.
 */
export function polygonsTopology(features: PolygonFeature[]): Topology {
  const arcs: Ring[] = [];
  const geometries = features.map((f) => {
    const polys = f.geometry.type === "Polygon" ? [f.geometry.coordinates] : f.geometry.coordinates;
    const arcsOf = (poly: Ring[]) => poly.map((ring) => [arcs.push(ring) - 1]);
    return f.geometry.type === "Polygon"
      ? { type: "Polygon" as const, arcs: arcsOf(polys[0]!) }
      : { type: "MultiPolygon" as const, arcs: polys.map(arcsOf) };
  });
  return {
    type: "Topology",
    arcs,
    objects: { land: { type: "GeometryCollection", geometries } as GeometryCollection },
  } as Topology;
}

/** Lakes at or below this Natural Earth scalerank are "large" (Great Lakes, Ladoga, Victoria, ...). */
export const LARGE_LAKE_SCALERANK = 4;

export function largeLakes(geojson: { features: PolygonFeature[] }, maxScalerank = LARGE_LAKE_SCALERANK) {
  return geojson.features.filter((f) => Number(f.properties?.scalerank ?? 99) <= maxScalerank);
}

export class WaterMask implements WaterTest {
  constructor(
    private readonly land: LandRaster,
    private readonly lakes: LandRaster | null,
  ) {}

  static fromTopologies(land: Topology, lakes: Topology | null, res: number): WaterMask {
    return new WaterMask(new LandRaster(land, res), lakes ? new LandRaster(lakes, res) : null);
  }

  isWater(lat: number, lng: number): boolean {
    return !this.land.isLand(lat, lng) || (this.lakes?.isLand(lat, lng) ?? false);
  }
}

export interface SegmentRules {
  /** Spacing of the samples along the great circle. */
  stepM: number;
  /** Water within this distance of either endpoint is ignored (shore positions, raster cells). */
  endSlackM: number;
  /**
   * Longest tolerated run of water away from the endpoints: two mask cells, below what the 2 km
   * raster resolves (narrow necks, river banks), and water that narrow on a road is bridged.
   */
  maxWaterRunM: number;
  /**
   * When an endpoint itself reads as water, the water run touching it is ignored up to this
   * distance: the node is a town or port known to be on land, so the mask is wrong there (islands,
   * spits and lagoon shores narrower than a cell: Lagos Island, Mombasa Island).
   */
  wetEndM: number;
}

export const DEFAULT_SEGMENT_RULES: SegmentRules = {
  stepM: 1000,
  endSlackM: 2500,
  maxWaterRunM: 4000,
  wetEndM: 6000,
};

/** True when the great circle a-b stays on land by the rules above. */
export function segmentOnLand(
  water: WaterTest,
  aLat: number,
  aLng: number,
  bLat: number,
  bLng: number,
  rules: SegmentRules = DEFAULT_SEGMENT_RULES,
): boolean {
  const total = haversineM(aLat, aLng, bLat, bLng);
  if (total <= 2 * rules.endSlackM) return true;
  const pts = densify([aLat, aLng, bLat, bLng], rules.stepM);
  const n = pts.length / 2;
  const wet = (i: number) => water.isWater(pts[2 * i]!, pts[2 * i + 1]!);
  // Slack at each end: the fixed shore slack, or the whole wet run from a node that reads as water.
  const slack = (from: number, dir: 1 | -1): number => {
    if (!wet(from)) return rules.endSlackM;
    let i = from;
    while (i + dir > 0 && i + dir < n - 1 && wet(i + dir)) i += dir;
    const run = (total * Math.abs(i - from)) / (n - 1) + rules.stepM;
    return run <= rules.wetEndM ? Math.max(rules.endSlackM, run) : rules.endSlackM;
  };
  const slackA = slack(0, 1);
  const slackB = slack(n - 1, -1);
  let runStart = -1;
  for (let i = 1; i < n - 1; i++) {
    const along = (total * i) / (n - 1);
    if (along < slackA || total - along < slackB) {
      runStart = -1;
      continue;
    }
    if (wet(i)) {
      if (runStart < 0) runStart = along;
      // A run counts from its first wet sample to the last, plus one step of unseen water.
      if (along - runStart + rules.stepM > rules.maxWaterRunM) return false;
    } else runStart = -1;
  }
  return true;
}
