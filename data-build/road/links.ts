/**
 * The road network's links (docs/road-network.md): every node joined to its k nearest neighbours
 * over land, then to the nearest land-valid neighbour of each compass sector where water took some
 * of them, the listed ferries and fixed links, and repair links that join small clusters cut off on
 * the same landmass. A road never crosses water: the land mask and the strait test refuse it.
 */
import { haversineM } from "../../common/geo.ts";
import { UnionFind } from "../../common/union-find.ts";
import { segmentOnLand, type WaterTest } from "./mask.ts";
import type { FerryRow, NetworkOptions, NodeGrid, RoadLink, RoadNode } from "./network.ts";
import type { StraitTest } from "./straits.ts";

export class LinkBuilder {
  readonly links: RoadLink[] = [];
  private readonly pairs = new Set<number>();
  private readonly forbidden: Set<string>;
  landRejected = 0;
  straitRejected = 0;
  forbiddenCount = 0;
  sectorLinks = 0;

  constructor(
    private readonly nodes: RoadNode[],
    private readonly grid: NodeGrid,
    private readonly water: WaterTest,
    private readonly straits: StraitTest | null,
    private readonly opts: NetworkOptions,
  ) {
    this.forbidden = new Set(opts.forbiddenPairs);
  }

  private pairKey(a: number, b: number): number {
    const n = this.nodes.length;
    return a < b ? a * n + b : b * n + a;
  }

  private isForbidden(a: number, b: number): boolean {
    const ca = this.nodes[a]!.country;
    const cb = this.nodes[b]!.country;
    return ca !== cb && this.forbidden.has(ca < cb ? `${ca}-${cb}` : `${cb}-${ca}`);
  }

  private addRoad(a: number, b: number, gcM: number): void {
    this.pairs.add(this.pairKey(a, b));
    this.links.push({
      a,
      b,
      kind: "road",
      gcM,
      factor: 1,
      lengthM: gcM,
      country: this.nodes[a]!.country,
      countryB: this.nodes[b]!.country,
      speedKmh: 0,
      crossingHours: null,
      carriesTruck: true,
      name: "",
    });
  }

  private tryRoad(a: number, b: number, gcM: number): boolean {
    if (a === b || this.pairs.has(this.pairKey(a, b))) return false;
    if (this.isForbidden(a, b)) {
      this.forbiddenCount++;
      return false;
    }
    if (!this.overLand(a, b)) return false;
    this.addRoad(a, b, gcM);
    return true;
  }

  /** The 2 km land mask, then the finer strait test: a road crosses a strait only on a listed link. */
  private overLand(a: number, b: number): boolean {
    const na = this.nodes[a]!;
    const nb = this.nodes[b]!;
    if (!segmentOnLand(this.water, na.lat, na.lng, nb.lat, nb.lng, this.opts.segment)) {
      this.landRejected++;
      return false;
    }
    if (this.straits?.strait(na.lat, na.lng, nb.lat, nb.lng)) {
      this.straitRejected++;
      return false;
    }
    return true;
  }

  /** k nearest neighbours over land, then the nearest land-valid neighbour per compass sector. */
  linkNeighbours(): void {
    const { nodes, grid, opts } = this;
    const tries = new Int32Array(Math.max(1, opts.sectors));
    const covered = new Uint8Array(Math.max(1, opts.sectors));
    for (let a = 0; a < nodes.length; a++) {
      const n = nodes[a]!;
      const near = grid.nearest(n.lat, n.lng, opts.k + 1, opts.maxLinkM, (j) => j !== a);
      const rejectedBefore = this.landRejected + this.straitRejected;
      for (const [b, d] of near) this.tryRoad(a, b, d);
      // Only where water took some of the k nearest (shores, coasts): elsewhere the k-NN graph and
      // its calibrated zig-zag stay as they are.
      if (
        opts.sectors <= 0 ||
        near.length === 0 ||
        this.landRejected + this.straitRejected === rejectedBefore
      )
        continue;
      const reach = Math.min(
        opts.maxLinkM,
        Math.max(opts.sectorMinReachM, opts.sectorReach * near.at(-1)![1]),
      );
      tries.fill(0);
      covered.fill(0);
      const cosLat = Math.cos((n.lat * Math.PI) / 180);
      for (const [b, d] of grid.within(n.lat, n.lng, reach)) {
        if (b === a) continue;
        const m = nodes[b]!;
        const dLng = ((((m.lng - n.lng) % 360) + 540) % 360) - 180;
        const angle = Math.atan2(m.lat - n.lat, dLng * cosLat);
        const s = Math.floor(((angle + Math.PI) / (2 * Math.PI)) * opts.sectors) % opts.sectors;
        if (covered[s]) continue;
        // A link already in this sector (k-NN or another node's) covers it.
        if (this.pairs.has(this.pairKey(a, b))) {
          covered[s] = 1;
          continue;
        }
        if (tries[s]! >= opts.sectorTries) continue;
        tries[s]!++;
        if (this.tryRoad(a, b, d)) {
          covered[s] = 1;
          this.sectorLinks++;
        }
      }
    }
  }

  /** The listed ferries and fixed links between their terminal nodes, timed by their hours. */
  addFerries(ferries: FerryRow[], ends: ReadonlyArray<readonly [number, number]>): void {
    ferries.forEach((f, i) => {
      const [a, b] = ends[i]!;
      const gcM = haversineM(f.from.lat, f.from.lng, f.to.lat, f.to.lng);
      this.pairs.add(this.pairKey(a, b));
      this.links.push({
        a,
        b,
        kind: f.kind,
        gcM,
        factor: 1,
        lengthM: gcM,
        country: this.nodes[a]!.country,
        countryB: this.nodes[b]!.country,
        speedKmh: gcM / 1000 / f.hours,
        crossingHours: f.hours,
        carriesTruck: f.carriesTruck,
        name: f.name,
      });
    });
  }

  /**
   * A k-NN graph leaves small clusters cut off on the same landmass: joins each to its nearest
   * outside node over land (Boruvka rounds), never across water. Returns the links added.
   */
  repair(): number {
    const { nodes, grid, opts } = this;
    let added = 0;
    for (let round = 0; round < 6; round++) {
      const uf = new UnionFind(nodes.length);
      for (const l of this.links) uf.union(l.a, l.b);
      const members = new Map<number, number[]>();
      for (let i = 0; i < nodes.length; i++) {
        const r = uf.find(i);
        const list = members.get(r);
        if (list) list.push(i);
        else members.set(r, [i]);
      }
      let roundAdded = 0;
      for (const [root, list] of members) {
        if (list.length >= opts.repairBelow) continue;
        let best: [number, number, number] | null = null;
        const candidates: Array<[number, number, number]> = [];
        for (const a of list) {
          const n = nodes[a]!;
          for (const [b, d] of grid.nearest(n.lat, n.lng, 12, opts.repairMaxM, (j) => uf.find(j) !== root)) {
            candidates.push([a, b, d]);
          }
        }
        candidates.sort((x, y) => x[2] - y[2]);
        // Bounded: beyond a few thousand failed tries the cluster is an island.
        for (const c of candidates.slice(0, 3000)) {
          if (this.isForbidden(c[0], c[1]) || this.pairs.has(this.pairKey(c[0], c[1]))) continue;
          if (this.overLand(c[0], c[1])) {
            best = c;
            break;
          }
        }
        if (best && uf.find(best[0]) !== uf.find(best[1])) {
          this.addRoad(best[0], best[1], best[2]);
          uf.union(best[0], best[1]);
          roundAdded++;
        }
      }
      added += roundAdded;
      if (roundAdded === 0) break;
    }
    return added;
  }
}
