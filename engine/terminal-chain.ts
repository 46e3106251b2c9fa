/**
 * Chains of the shape road -> main leg -> road (rail, air, river; spec chain rules 2-4): for each
 * pairing of an origin and a destination terminal, the road access legs (one road plan per
 * terminal and side, shared by the pairings that use it), the main section, the transfers with
 * their handling; fastest chain first. A pairing whose terminal no road reaches is dropped.
 */
import {
  type Chain,
  renderChain,
  type SectionInput,
  type TransferInput,
  type TransportMode,
} from "./chain.ts";
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
