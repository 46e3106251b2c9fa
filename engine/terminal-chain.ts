/**
 * Chains of the shape road -> main leg -> road (rail, air, river; spec chain rules 2-4): for each
 * pairing of an origin and a destination terminal, the road access legs (one road plan per
 * terminal and side, shared by the pairings that use it), the main section, the transfers with
 * their handling; fastest chain first. A pairing whose terminal no road reaches is dropped.
 */

import { EARTH_RADIUS_M, haversineM } from "../common/geo.ts";
import {
  type Chain,
  renderChain,
  type SectionInput,
  sideLabel,
  type TransferInput,
  type TransportMode,
} from "./chain.ts";
import { EngineError } from "./errors.ts";
import { Memo } from "./multimodal/memo.ts";
import { accessLegs, type RoadRoutePlanner, renderRoadSection } from "./road/planner.ts";

interface Point {
  lat: number;
  lng: number;
}

/** One pairing: its terminals, the key of each side's road leg (null: the terminal is the door). */
export interface TerminalPairing<T> {
  from: T;
  to: T;
  fromRoad: string | null;
  toRoad: string | null;
  /** The main-mode section between the two terminals. */
  main: SectionInput<T>;
}

export interface TerminalChains<P, T> {
  /** Fastest first. */
  chains: Chain<P | T>[];
  /** Terminals whose road leg found no road (their pairings were dropped). */
  unreachable: T[];
}

/**
 * Geocoded UN/LOCODE coordinates are sometimes far off, so a geocoded terminal ranks as if it were
 * this much farther than it is: a surveyed one nearby wins, a geocoded one still serves alone.
 */
export const GEOCODED_PENALTY_KM = 30;

/** A terminal on a mode's graph: where the main leg starts or ends, and the node it routes from. */
export interface TerminalSite<T extends Point> {
  terminal: T;
  node: number;
  geocoded: boolean;
}

/** Sites by latitude: their indices, latitudes ascending, and longitudes; built once per sites array. */
const byLatitude = new WeakMap<
  readonly TerminalSite<Point>[],
  { order: Int32Array; lats: Float64Array; lngs: Float64Array }
>();

function latitudeIndex(sites: readonly TerminalSite<Point>[]) {
  let index = byLatitude.get(sites);
  if (!index) {
    const order = Int32Array.from(sites.keys()).sort(
      (a, b) => sites[a]!.terminal.lat - sites[b]!.terminal.lat,
    );
    const lats = Float64Array.from(order, (i) => sites[i]!.terminal.lat);
    const lngs = Float64Array.from(order, (i) => sites[i]!.terminal.lng);
    index = { order, lats, lngs };
    byLatitude.set(sites, index);
  }
  return index;
}

/** The first position in ascending `lats` whose value is >= `lat`. */
function lowerBound(lats: Float64Array, lat: number): number {
  let lo = 0;
  let hi = lats.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (lats[mid]! < lat) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const RAD = Math.PI / 180;

/**
 * The indices of the sites that may lie within `maxKm` of `p`, by latitude: those of its latitude
 * band (a binary search) whose longitude is no farther than a circle of that radius reaches (a cap
 * that holds no pole), with a margin; the caller's great-circle test decides.
 */
function sitesNear(sites: readonly TerminalSite<Point>[], p: Point, maxKm: number, maxLat: number): number[] {
  const { order, lats, lngs } = latitudeIndex(sites);
  const a = (maxKm * 1000) / EARTH_RADIUS_M;
  const maxLng =
    Math.abs(p.lat) * RAD + a >= Math.PI / 2
      ? 360
      : (Math.asin(Math.min(1, Math.sin(a) / Math.cos(p.lat * RAD))) / RAD) * 1.01 + 1e-6;
  const near: number[] = [];
  const north = p.lat + maxLat + 1e-9;
  for (let k = lowerBound(lats, p.lat - maxLat - 1e-9); k < lats.length && lats[k]! <= north; k++) {
    const d = Math.abs(lngs[k]! - p.lng);
    if ((d > 180 ? 360 - d : d) <= maxLng) near.push(order[k]!);
  }
  return near;
}

/**
 * The terminals within `maxKm` (great circle) of a point, best first, a geocoded one ranked
 * GEOCODED_PENALTY_KM farther; one per graph node (so pairings reach different places), at most
 * `count`; of equal ranks the earlier site in the array comes first. Only the sites near the point
 * are measured (sitesNear).
 */
export function nearestTerminals<T extends Point, S extends TerminalSite<T>>(
  sites: readonly S[],
  p: Point,
  maxKm: number,
  count: number,
): Array<S & { km: number; rank: number }> {
  let kept = nearestKept.get(sites) as Memo<string, Array<S & { km: number; rank: number }>> | undefined;
  if (!kept) {
    kept = new Memo(NEAREST_KEPT);
    nearestKept.set(sites, kept);
  }
  return kept.get(`${p.lat},${p.lng},${maxKm},${count}`, () => nearestOf(sites, p, maxKm, count)).slice();
}

/** Places whose terminals are kept per site list: a matrix's places, and the recent routes' ends. */
const NEAREST_KEPT = 1024;
const nearestKept = new WeakMap<readonly unknown[], Memo<string, unknown>>();

/** nearestTerminals' search. */
function nearestOf<T extends Point, S extends TerminalSite<T>>(
  sites: readonly S[],
  p: Point,
  maxKm: number,
  count: number,
): Array<S & { km: number; rank: number }> {
  const maxLat = maxKm / 111;
  // Each graph node's best site (lowest rank, the earlier site on a tie), then the best `count` of
  // those: no sort of every site in reach (a dense network has hundreds within 150 km).
  const best = new Map<number, { i: number; km: number; rank: number }>();
  for (const i of sitesNear(sites, p, maxKm, maxLat)) {
    const s = sites[i]!;
    if (Math.abs(s.terminal.lat - p.lat) > maxLat) continue;
    const km = haversineM(p.lat, p.lng, s.terminal.lat, s.terminal.lng) / 1000;
    if (km > maxKm) continue;
    const rank = km + (s.geocoded ? GEOCODED_PENALTY_KM : 0);
    const seen = best.get(s.node);
    if (!seen || rank < seen.rank || (rank === seen.rank && i < seen.i)) best.set(s.node, { i, km, rank });
  }
  const kept = [...best.values()].sort((a, b) => a.rank - b.rank || a.i - b.i).slice(0, count);
  return kept.map(({ i, km, rank }) => ({ ...sites[i]!, km, rank }));
}

/** Closer than this, the door is the terminal: no road leg. */
const NO_ACCESS_LEG_KM = 0.5;

/**
 * Each end's terminals in reach, closest first; EngineError no_route for the first side with none,
 * `none(label)` saying so ("No rail route: origin Basel has no railhead within ...").
 */
export function terminalsInReach<S>(
  from: Point & { name?: string | null },
  to: Point & { name?: string | null },
  candidates: (p: Point) => S[],
  none: (label: string) => string,
): [S[], S[]] {
  const [a, b] = (["from", "to"] as const).map((side) => {
    const end = side === "from" ? from : to;
    const found = candidates(end);
    if (found.length === 0) throw new EngineError("no_route", none(sideLabel(end, side)));
    return found;
  });
  return [a!, b!];
}

/** A pairing side's road-leg key, or null when the door is at the terminal itself. */
export const roadLegKey = (door: Point, terminal: Point, key: string): string | null =>
  haversineM(door.lat, door.lng, terminal.lat, terminal.lng) / 1000 < NO_ACCESS_LEG_KM ? null : key;

export async function terminalChains<P extends Point, T extends Point>(args: {
  from: P;
  to: P;
  pairings: TerminalPairing<T>[];
  mode: TransportMode;
  label: string;
  handlingHours: number;
  road: RoadRoutePlanner;
  path: boolean;
}): Promise<TerminalChains<P, T>> {
  const { from, to, mode, handlingHours: hours } = args;
  const leg = accessLegs(args.road, args.path);
  const chains: Array<{ hours: number; chain: Chain<P | T> }> = [];
  const unreachable = new Set<T>();
  for (const p of args.pairings) {
    const [pre, post] = await Promise.all([
      p.fromRoad === null ? undefined : leg<P | T>(from, p.from, p.fromRoad),
      p.toRoad === null ? undefined : leg<P | T>(p.to, to, p.toRoad),
    ]);
    if (pre === null) unreachable.add(p.from);
    if (post === null) unreachable.add(p.to);
    if (pre === null || post === null) continue;
    const sections: SectionInput<P | T>[] = [];
    const transfers: TransferInput<P | T>[] = [];
    if (pre) sections.push(renderRoadSection<P | T>(pre, from, p.from));
    transfers.push({ at: p.from, from_mode: pre ? "ROAD" : null, to_mode: mode, hours });
    sections.push(p.main);
    transfers.push({ at: p.to, from_mode: mode, to_mode: post ? "ROAD" : null, hours });
    if (post) sections.push(renderRoadSection<P | T>(post, p.to, to));
    const chain = renderChain(args.label, sections, transfers);
    chains.push({ hours: chain.summary.duration.hours, chain });
  }
  // Fastest first (the single-mode route's ordering; the spec orders multimodal ones by optimize).
  chains.sort((x, y) => x.hours - y.hours);
  return { chains: chains.map((c) => c.chain), unreachable: [...unreachable] };
}
