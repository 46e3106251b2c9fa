/**
 * Land raster from a world-atlas topology: a bitset of cells whose centre is on land. Rings are
 * unwrapped across the antimeridian (world-atlas rings are not cut there) and filled one ring at
 * a time by toggling, so holes and rings spanning +-180 come out right.
 */
import { feature } from "topojson-client";
import type { GeometryCollection, Topology } from "topojson-specification";

export class LandRaster {
  readonly cols: number;
  readonly rows: number;
  private readonly bits: Uint32Array;

  constructor(
    topo: Topology,
    readonly res: number,
  ) {
    this.cols = Math.round(360 / res);
    this.rows = Math.round(180 / res);
    this.bits = new Uint32Array(Math.ceil((this.cols * this.rows) / 32));
    const land = feature(topo, topo.objects.land as GeometryCollection);
    for (const f of "features" in land ? land.features : [land]) {
      const g = f.geometry;
      const polys = g.type === "Polygon" ? [g.coordinates] : g.type === "MultiPolygon" ? g.coordinates : [];
      for (const ring of polys.flat()) this.fillRing(ring as Array<[number, number]>);
    }
  }

  private fillRing(ring: Array<[number, number]>): void {
    const { res, rows, cols } = this;
    const crossings = new Map<number, number[]>();
    let prevX = ring[0]![0];
    const xs = ring.map(([x]) => {
      // Keep consecutive longitudes within 180 degrees of each other.
      while (x - prevX > 180) x -= 360;
      while (x - prevX < -180) x += 360;
      prevX = x;
      return x;
    });
    for (let i = 1; i < ring.length; i++) {
      const x0 = xs[i - 1]!;
      const x1 = xs[i]!;
      const y0 = ring[i - 1]![1];
      const y1 = ring[i]![1];
      if (y0 === y1) continue;
      const lo = Math.max(0, Math.ceil((Math.min(y0, y1) + 90) / res - 0.5));
      const hi = Math.min(rows, Math.ceil((Math.max(y0, y1) + 90) / res - 0.5));
      for (let r = lo; r < hi; r++) {
        const yc = (r + 0.5) * res - 90;
        const list = crossings.get(r) ?? [];
        list.push(x0 + ((yc - y0) * (x1 - x0)) / (y1 - y0));
        crossings.set(r, list);
      }
    }
    for (const [r, list] of crossings) {
      list.sort((a, b) => a - b);
      for (let k = 0; k + 1 < list.length; k += 2) {
        const c0 = Math.ceil((list[k]! + 180) / res - 0.5);
        const c1 = Math.ceil((list[k + 1]! + 180) / res - 0.5);
        for (let c = c0; c < c1 && c < c0 + cols; c++) {
          const i = r * cols + (((c % cols) + cols) % cols);
          this.bits[i >>> 5]! ^= 1 << (i & 31);
        }
      }
    }
  }

  cellOf(lat: number, lng: number): number {
    const r = Math.min(this.rows - 1, Math.max(0, Math.floor((lat + 90) / this.res)));
    const c = ((Math.floor((lng + 180) / this.res) % this.cols) + this.cols) % this.cols;
    return r * this.cols + c;
  }

  isLandCell(i: number): boolean {
    return (this.bits[i >>> 5]! & (1 << (i & 31))) !== 0;
  }

  isLand(lat: number, lng: number): boolean {
    return this.isLandCell(this.cellOf(lat, lng));
  }
}
