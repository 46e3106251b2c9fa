/**
 * Point grid hash with a chosen cell size. The road stage's NodeGrid has fixed 1-degree cells:
 * fine for thousands of towns, far too coarse for ~850k rail vertices queried at 100 m.
 */
import { haversineM } from "../../common/geo.ts";

const M_PER_DEG = 111_195;

export class PointGrid {
  private readonly cells = new Map<number, number[]>();
  private readonly cols: number;

  constructor(
    private readonly lat: ArrayLike<number>,
    private readonly lng: ArrayLike<number>,
    private readonly cellDeg: number,
    ids?: Iterable<number>,
  ) {
    this.cols = Math.ceil(360 / cellDeg) + 1;
    for (const i of ids ?? Array.from({ length: lat.length }, (_, k) => k)) this.insert(i);
  }

  private key(r: number, c: number): number {
    return r * this.cols + c;
  }

  insert(i: number): void {
    const k = this.key(
      Math.floor((this.lat[i]! + 90) / this.cellDeg),
      Math.floor((this.lng[i]! + 180) / this.cellDeg),
    );
    const list = this.cells.get(k);
    if (list) list.push(i);
    else this.cells.set(k, [i]);
  }

  /** Calls `visit(id, metres)` for every point within radiusM (no antimeridian wrap: no line crosses it). */
  within(lat: number, lng: number, radiusM: number, visit: (i: number, m: number) => void): void {
    const dLat = radiusM / M_PER_DEG;
    const cos = Math.cos((Math.min(89, Math.abs(lat) + dLat) * Math.PI) / 180);
    const dLng = Math.min(180, dLat / Math.max(cos, 0.01));
    const r0 = Math.floor((lat - dLat + 90) / this.cellDeg);
    const r1 = Math.floor((lat + dLat + 90) / this.cellDeg);
    const c0 = Math.max(0, Math.floor((lng - dLng + 180) / this.cellDeg));
    const c1 = Math.min(this.cols - 1, Math.floor((lng + dLng + 180) / this.cellDeg));
    for (let r = r0; r <= r1; r++) {
      for (let c = c0; c <= c1; c++) {
        const list = this.cells.get(this.key(r, c));
        if (!list) continue;
        for (const i of list) {
          const m = haversineM(lat, lng, this.lat[i]!, this.lng[i]!);
          if (m <= radiusM) visit(i, m);
        }
      }
    }
  }

  /** Nearest point within maxM accepted by `accept`, searched in growing radii; null if none. */
  nearest(lat: number, lng: number, maxM: number, accept: (i: number) => boolean = () => true) {
    let best: { id: number; m: number } | null = null;
    for (let radius = Math.min(5_000, maxM); ; radius = Math.min(radius * 3, maxM)) {
      this.within(lat, lng, radius, (i, m) => {
        if ((!best || m < best.m) && accept(i)) best = { id: i, m };
      });
      if (best || radius >= maxM) return best as { id: number; m: number } | null;
    }
  }
}
