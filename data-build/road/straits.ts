/**
 * Straits: water a road link may not cross. The 2 km land mask (mask.ts) tolerates short water
 * runs, so on its own it joins landmasses across straits a few kilometres wide (the Øresund at
 * Helsingør, Messina, the Bosporus). This second look samples every road link against the same
 * land-10m polygons and large lakes rasterised four times finer (0.005 degrees, about 500 m) and
 * refuses a link whose water run is a strait:
 *
 * - a run whose two shores are joined by land nearby (inside a box `localFactor` x the run around
 *   it) is a bay, a cove or a coast the straight line cuts: the road goes round it, and the link's
 *   circuity carries the detour;
 * - otherwise the run is a strait unless it is narrow (a river or sound a road bridges, up to
 *   `narrowM`) and no listed ferry or fixed link lies within `listedNearM`: where a listed crossing
 *   is near, the water is crossed on it, so a route names it.
 *
 * A water run touching an end node up to `shoreSlackM` is the node's shore position, not water;
 * from an end that reads as water farther out (a quay, an islet) the run's shore is the nearest
 * land within `wetEndSearchM`, none meaning the node stands on an islet.
 */
import type { Topology } from "topojson-specification";
import { densify, haversineM } from "../../common/geo.ts";
import { LandRaster } from "../sea/land.ts";

export interface StraitRules {
  stepM: number;
  shoreSlackM: number;
  narrowM: number;
  localFactor: number;
  wetEndSearchM: number;
  listedNearM: number;
}

export const DEFAULT_STRAIT_RULES: StraitRules = {
  stepM: 200,
  shoreSlackM: 1500,
  narrowM: 1500,
  localFactor: 3,
  wetEndSearchM: 3000,
  listedNearM: 15_000,
};

/** 0.005 degrees: four times the road mask's resolution, still a bitset of 324 MB per raster. */
export const STRAIT_RES = 0.005;

/** A listed crossing's two ends (ferries.csv rows, or the artifact's ferry/tunnel/bridge links). */
export type CrossingLine = readonly [number, number, number, number];

export interface Strait {
  /** The run's middle. */
  lat: number;
  lng: number;
  lengthM: number;
}

export class StraitTest {
  private readonly listed: Float64Array;

  constructor(
    private readonly land: LandRaster,
    private readonly lakes: LandRaster | null,
    crossings: readonly CrossingLine[],
    private readonly rules: StraitRules = DEFAULT_STRAIT_RULES,
  ) {
    // Points every 2 km along each listed crossing: "near" is measured to the nearest of them.
    this.listed = Float64Array.from(crossings.flatMap((c) => [...densify(c, 2000)]));
  }

  static fromTopologies(
    land: Topology,
    lakes: Topology | null,
    crossings: readonly CrossingLine[],
    res = STRAIT_RES,
  ): StraitTest {
    return new StraitTest(new LandRaster(land, res), lakes ? new LandRaster(lakes, res) : null, crossings);
  }

  private wetCell(i: number): boolean {
    return !this.land.isLandCell(i) || (this.lakes?.isLandCell(i) ?? false);
  }

  private wet(lat: number, lng: number): boolean {
    return this.wetCell(this.land.cellOf(lat, lng));
  }

  /** The first water run of the great circle a-b that is a strait, or null. */
  strait(aLat: number, aLng: number, bLat: number, bLng: number): Strait | null {
    const total = haversineM(aLat, aLng, bLat, bLng);
    const pts = densify([aLat, aLng, bLat, bLng], this.rules.stepM);
    const n = pts.length / 2;
    const step = total / Math.max(1, n - 1);
    const wetAt = (k: number) => this.wet(pts[2 * k]!, pts[2 * k + 1]!);
    for (let i = 0; i < n; i++) {
      if (!wetAt(i)) continue;
      let j = i;
      while (j + 1 < n && wetAt(j + 1)) j++;
      const mid = (i + j) >> 1;
      const run: Strait = { lat: pts[2 * mid]!, lng: pts[2 * mid + 1]!, lengthM: (j - i + 1) * step };
      if (this.isStrait(pts, i, j, n, run)) return run;
      i = j;
    }
    return null;
  }

  private isStrait(pts: Float64Array, i: number, j: number, n: number, run: Strait): boolean {
    const touchA = i === 0;
    const touchB = j === n - 1;
    if (touchA !== touchB && run.lengthM <= this.rules.shoreSlackM) return false;
    const shore = (k: number, end: boolean) =>
      end ? this.nearestLand(pts[2 * k]!, pts[2 * k + 1]!) : this.land.cellOf(pts[2 * k]!, pts[2 * k + 1]!);
    const from = shore(touchA ? 0 : i - 1, touchA);
    const to = shore(touchB ? n - 1 : j + 1, touchB);
    if (from < 0 || to < 0) return true;
    if (this.joinedNearby(from, to, run.lengthM)) return false;
    return run.lengthM > this.rules.narrowM || this.nearListed(run);
  }

  /** Nearest land cell within wetEndSearchM, -1 when none (an islet the raster cannot see). */
  private nearestLand(lat: number, lng: number): number {
    const { cols, res } = this.land;
    const c0 = this.land.cellOf(lat, lng);
    const r0 = Math.floor(c0 / cols);
    const q0 = c0 % cols;
    const reach = Math.ceil(this.rules.wetEndSearchM / 111_000 / res);
    const cos = Math.cos((lat * Math.PI) / 180);
    let best = -1;
    let bestD = Number.POSITIVE_INFINITY;
    for (let dr = -reach; dr <= reach; dr++) {
      for (let dq = -2 * reach; dq <= 2 * reach; dq++) {
        const r = r0 + dr;
        if (r < 0 || r >= this.land.rows) continue;
        const cell = r * cols + ((((q0 + dq) % cols) + cols) % cols);
        const d = dr * dr + (dq * cos) ** 2;
        if (d < bestD && d <= reach * reach && !this.wetCell(cell)) {
          best = cell;
          bestD = d;
        }
      }
    }
    return best;
  }

  /** Are two land cells joined by land (4-neighbour steps) inside a box around them? */
  private joinedNearby(a: number, b: number, runM: number): boolean {
    const { cols, rows, res } = this.land;
    const margin = Math.ceil((this.rules.localFactor * runM) / 111_000 / res) + 2;
    const [ra, qa, rb, qb] = [Math.floor(a / cols), a % cols, Math.floor(b / cols), b % cols];
    // The box's columns run west to east without wrapping: a run across the antimeridian is refused.
    const r0 = Math.max(0, Math.min(ra, rb) - margin);
    const r1 = Math.min(rows - 1, Math.max(ra, rb) + margin);
    const q0 = Math.max(0, Math.min(qa, qb) - 2 * margin);
    const q1 = Math.min(cols - 1, Math.max(qa, qb) + 2 * margin);
    const w = q1 - q0 + 1;
    const box = new Uint8Array((r1 - r0 + 1) * w);
    const stack = [a];
    box[(ra - r0) * w + (qa - q0)] = 1;
    while (stack.length > 0) {
      const u = stack.pop()!;
      if (u === b) return true;
      const r = Math.floor(u / cols);
      const q = u % cols;
      for (const [rr, qq] of [
        [r + 1, q],
        [r - 1, q],
        [r, q + 1],
        [r, q - 1],
      ] as const) {
        if (rr < r0 || rr > r1 || qq < q0 || qq > q1) continue;
        const k = (rr - r0) * w + (qq - q0);
        const v = rr * cols + qq;
        if (box[k] || this.wetCell(v)) continue;
        box[k] = 1;
        stack.push(v);
      }
    }
    return false;
  }

  private nearListed(run: Strait): boolean {
    const l = this.listed;
    for (let k = 0; k < l.length; k += 2) {
      if (haversineM(run.lat, run.lng, l[k]!, l[k + 1]!) <= this.rules.listedNearM) return true;
    }
    return false;
  }
}
