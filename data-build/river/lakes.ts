/**
 * Lake crossings. Natural Earth draws most lakes as polygons only: rivers stop at the shore and the
 * Great Lakes have no line at all. On a lake with two or more network nodes on it (inside, or
 * within SHORE_M of its shore) or extra points (curated lake stretch ends), those and a lattice of
 * open-water waypoints are each joined to the nearest other one in each of eight compass sectors
 * whose straight crossing stays on the lake: a web that follows the lake's shape around headlands
 * and islands (a straight line from Gros Cap to Duluth would cross the Keweenaw peninsula).
 */
import { haversineM } from "../../common/geo.ts";
import { PointGrid } from "../rail/grid.ts";
import type { Lake, LineTag } from "./inputs.ts";
import type { RiverNet } from "./noding.ts";
import { projectOnSegment } from "./segments.ts";

/** A line end this close to a lake's shore is on the lake. */
export const SHORE_M = 1_500;
/** Curated lake stretch ends are town or lock positions (~1-5 km): on a lake within this. */
export const EXTRA_SHORE_M = 10_000;
/** Crossing samples this close to the shore still count as on the lake (shore generalisation). */
const SAMPLE_SLACK_M = 300;
const SAMPLE_M = 1_000;
const SECTORS = 8;
/** Candidates tried per node, nearest first. */
const MAX_TRIES = 40;
const BAND_DEG = 0.1;
/** Waypoint lattice spacing: an eighth of the lake's size, within these bounds. */
const LATTICE_MIN_M = 3_000;
const LATTICE_MAX_M = 25_000;

/** Point-in-polygon and shore distance for one lake, its ring edges bucketed by latitude band. */
export class LakeShape {
  private readonly bands = new Map<number, number[]>();
  /** Ring edges as [aLat, aLng, bLat, bLng] quadruples. */
  private readonly segs: number[] = [];

  constructor(readonly lake: Lake) {
    for (const poly of lake.polygons) {
      for (const ring of poly) {
        for (let i = 0; i + 3 < ring.length; i += 2) {
          const s = this.segs.length / 4;
          this.segs.push(ring[i]!, ring[i + 1]!, ring[i + 2]!, ring[i + 3]!);
          const b0 = Math.floor(Math.min(ring[i]!, ring[i + 2]!) / BAND_DEG);
          const b1 = Math.floor(Math.max(ring[i]!, ring[i + 2]!) / BAND_DEG);
          for (let b = b0; b <= b1; b++) {
            const list = this.bands.get(b);
            if (list) list.push(s);
            else this.bands.set(b, [s]);
          }
        }
      }
    }
  }

  /** Even-odd rule over every ring: holes (islands) are outside. */
  contains(lat: number, lng: number): boolean {
    const { bbox } = this.lake;
    if (lat < bbox[0] || lat > bbox[2] || lng < bbox[1] || lng > bbox[3]) return false;
    let inside = false;
    for (const s of this.bands.get(Math.floor(lat / BAND_DEG)) ?? []) {
      const aLat = this.segs[s * 4]!;
      const aLng = this.segs[s * 4 + 1]!;
      const bLat = this.segs[s * 4 + 2]!;
      const bLng = this.segs[s * 4 + 3]!;
      if (aLat > lat !== bLat > lat && lng < aLng + ((lat - aLat) * (bLng - aLng)) / (bLat - aLat)) {
        inside = !inside;
      }
    }
    return inside;
  }

  /** Metres to the nearest shore point, when within maxM (else Infinity). */
  shoreM(lat: number, lng: number, maxM: number): number {
    const d = maxM / 111_195;
    let best = Infinity;
    const seen = new Set<number>();
    for (let b = Math.floor((lat - d) / BAND_DEG); b <= Math.floor((lat + d) / BAND_DEG); b++) {
      for (const s of this.bands.get(b) ?? []) {
        if (seen.has(s)) continue;
        seen.add(s);
        const p = projectOnSegment(
          lat,
          lng,
          this.segs[s * 4]!,
          this.segs[s * 4 + 1]!,
          this.segs[s * 4 + 2]!,
          this.segs[s * 4 + 3]!,
        );
        best = Math.min(best, p.m);
      }
    }
    return best <= maxM ? best : Infinity;
  }

  /** Open-water points (at least SHORE_M from every shore) on a lattice of about `spacingM`. */
  lattice(spacingM: number): Array<[number, number]> {
    const [la0, ln0, la1, ln1] = this.lake.bbox;
    const dLat = spacingM / 111_195;
    const out: Array<[number, number]> = [];
    for (let lat = la0 + dLat / 2; lat < la1; lat += dLat) {
      const dLng = dLat / Math.max(0.05, Math.cos((lat * Math.PI) / 180));
      for (let lng = ln0 + dLng / 2; lng < ln1; lng += dLng) {
        if (this.contains(lat, lng) && this.shoreM(lat, lng, SHORE_M) === Infinity) out.push([lat, lng]);
      }
    }
    return out;
  }

  /** On the lake or its shore. */
  holds(lat: number, lng: number, slackM: number): boolean {
    return this.contains(lat, lng) || this.shoreM(lat, lng, slackM) < Infinity;
  }

  /** The straight crossing a-b stays on the lake (samples farther than each end's slack from it). */
  crossable(
    aLat: number,
    aLng: number,
    bLat: number,
    bLng: number,
    slackA = SHORE_M,
    slackB = SHORE_M,
  ): boolean {
    const total = haversineM(aLat, aLng, bLat, bLng);
    const steps = Math.ceil(total / SAMPLE_M);
    for (let i = 1; i < steps; i++) {
      const along = (total * i) / steps;
      if (along < slackA || total - along < slackB) continue;
      const f = i / steps;
      if (!this.holds(aLat + f * (bLat - aLat), aLng + f * (bLng - aLng), SAMPLE_SLACK_M)) return false;
    }
    return true;
  }
}

export interface LakeStats {
  lakesCrossed: number;
  crossings: number;
  crossingKm: number;
  extraNodes: number;
  waypoints: number;
}

/**
 * Adds lake crossing edges to `net` (straight: densified later like every long edge). `extra`
 * points on a lake become nodes of it; returns their node ids (null when on no lake).
 */
export function addLakeCrossings(
  net: RiverNet,
  lakes: Lake[],
  extra: Array<{ lat: number; lng: number }> = [],
): { stats: LakeStats; extraNodes: Array<number | null> } {
  const extraNodes: Array<number | null> = extra.map(() => null);
  // Every node, not only line ends: a lake-centre line or a river along the shore joins the web too.
  const grid = new PointGrid(net.lat, net.lng, 0.1);
  const stats: LakeStats = { lakesCrossed: 0, crossings: 0, crossingKm: 0, extraNodes: 0, waypoints: 0 };
  const made = new Set<string>();
  for (const lake of lakes) {
    const shape = new LakeShape(lake);
    const [la0, ln0, la1, ln1] = lake.bbox;
    const radius = haversineM(la0, ln0, la1, ln1) / 2 + SHORE_M;
    const members: number[] = [];
    // Unchecked water next to a member: the shore tolerance it was admitted with.
    const slack = new Map<number, number>();
    grid.within((la0 + la1) / 2, (ln0 + ln1) / 2, radius, (n) => {
      if (shape.holds(net.lat[n]!, net.lng[n]!, SHORE_M)) members.push(n);
    });
    // An extra point may sit where two lakes meet (Straits of Mackinac): it joins every lake holding it.
    extra.forEach((p, i) => {
      if (!shape.holds(p.lat, p.lng, EXTRA_SHORE_M)) return;
      if (extraNodes[i] === null) {
        extraNodes[i] = net.lat.length;
        net.lat.push(p.lat);
        net.lng.push(p.lng);
        stats.extraNodes++;
      }
      members.push(extraNodes[i]!);
      slack.set(extraNodes[i]!, EXTRA_SHORE_M);
    });
    if (members.length < 2) continue;
    const sizeM = haversineM(la0, ln0, la1, ln1);
    for (const [lat, lng] of shape.lattice(Math.min(LATTICE_MAX_M, Math.max(LATTICE_MIN_M, sizeM / 8)))) {
      members.push(net.lat.length);
      net.lat.push(lat);
      net.lng.push(lng);
      stats.waypoints++;
    }
    const tag: LineTag = {
      name: lake.name,
      names: lake.name ? [lake.name] : [],
      kind: "lake",
      source: "lake",
    };
    const added = crossLake(net, shape, members, tag, made, slack);
    if (added.length > 0) stats.lakesCrossed++;
    stats.crossings += added.length;
    for (const e of added) stats.crossingKm += e / 1000;
  }
  return { stats, extraNodes };
}

/**
 * Crossings among one lake's members: the nearest crossable one per compass sector, then the
 * shortest crossable pairs joining what is still apart (a member whose sector neighbours all lie
 * behind a headland). Returns the lengths of the edges added.
 */
function crossLake(
  net: RiverNet,
  shape: LakeShape,
  members: number[],
  tag: LineTag,
  made: Set<string>,
  slack: Map<number, number>,
): number[] {
  const added: number[] = [];
  const uf = new Map<number, number>();
  const find = (x: number): number => {
    let r = x;
    while (uf.has(r) && uf.get(r) !== r) r = uf.get(r)!;
    uf.set(x, r);
    return r;
  };
  const link = (a: number, b: number, m: number) => {
    const key = a < b ? `${a}:${b}` : `${b}:${a}`;
    uf.set(find(a), find(b));
    if (made.has(key) || m === 0) return;
    made.add(key);
    net.edges.push({ from: a, to: b, inner: [], metres: m, tag });
    added.push(m);
  };
  const crossable = (a: number, b: number) =>
    shape.crossable(net.lat[a]!, net.lng[a]!, net.lat[b]!, net.lng[b]!);
  const candidates: Array<{ a: number; b: number; m: number }> = [];
  for (const a of members) {
    const others = members
      .filter((b) => b !== a)
      .map((b) => ({ a, b, m: haversineM(net.lat[a]!, net.lng[a]!, net.lat[b]!, net.lng[b]!) }))
      .sort((x, y) => x.m - y.m)
      .slice(0, MAX_TRIES);
    candidates.push(...others);
    const done = new Uint8Array(SECTORS);
    for (const { b, m } of others) {
      const bearing = Math.atan2(net.lng[b]! - net.lng[a]!, net.lat[b]! - net.lat[a]!);
      const sector = Math.floor(((bearing + Math.PI) / (2 * Math.PI)) * SECTORS) % SECTORS;
      if (done[sector] || !crossable(a, b)) continue;
      done[sector] = 1;
      link(a, b, m);
    }
  }
  candidates.sort((x, y) => x.m - y.m);
  for (const { a, b, m } of candidates) {
    if (find(a) !== find(b) && crossable(a, b)) link(a, b, m);
  }
  // A curated point still apart (in a strait narrower than the lattice: Mackinac) joins its
  // nearest member anyway: the table says a lake route runs there.
  for (const a of slack.keys()) {
    const b = candidates.find((c) => c.a === a && find(c.b) !== find(a));
    if (b) link(a, b.b, b.m);
  }
  return added;
}
