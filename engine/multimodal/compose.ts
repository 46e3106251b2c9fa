/**
 * Door-to-door chains from pieces: a road leg, a rail chain as pre-carriage, a sea or barge
 * section. Pieces join at terminals (a port, a gateway, a river port) where one transfer records
 * the mode change with that terminal's handling; renderChain then computes the summary once for
 * the whole chain (engine/chain.ts).
 */

import type { PathPoint } from "../../common/geo.ts";
import {
  type Chain,
  renderChain,
  type SectionInput,
  type TransferInput,
  type TransportMode,
} from "../chain.ts";
import { type RoadLegPlan, renderRoadSection } from "../road/planner.ts";

/** Sections with the transfers between them (a chain before rendering). */
export interface Part<S> {
  sections: SectionInput<S>[];
  transfers: TransferInput<S>[];
}

/** A joint between two parts: the terminal and its handling hours. */
export interface Joint<S> {
  at: S;
  hours: number;
}

/** No leg at all: the door is the terminal. */
export const emptyPart = <S>(): Part<S> => ({ sections: [], transfers: [] });

export const sectionPart = <S>(section: SectionInput<S>): Part<S> => ({ sections: [section], transfers: [] });

export const roadPart = <S>(leg: RoadLegPlan, from: S, to: S): Part<S> =>
  sectionPart(renderRoadSection(leg, from, to));

/** Fields renderChain computes from the inputs: a rendered chain's other fields are the extras. */
const COMPUTED = new Set([
  "transport_mode",
  "from",
  "to",
  "distance",
  "duration",
  "path",
  "estimated",
  "emissions",
]);

/**
 * A rendered chain (a rail chain used as pre-carriage) back as its inputs. Metres and seconds are
 * whole numbers in the rendered chain, so rendering the result again gives the same figures.
 */
export function partOf<S>(chain: Chain<S>): Part<S> {
  return {
    sections: chain.sections.map((s) => {
      const extra: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(s)) if (!COMPUTED.has(k)) extra[k] = v;
      return {
        transport_mode: s.transport_mode,
        from: s.from,
        to: s.to,
        distance_m: s.distance.meters,
        hours: s.duration.seconds / 3600,
        path: s.path as PathPoint[] | undefined,
        estimated: s.estimated === true,
        extra,
      };
    }),
    transfers: chain.transfers.map((t) => ({ ...t })),
  };
}

const lastMode = <S>(sections: readonly SectionInput<S>[]): TransportMode | null =>
  sections[sections.length - 1]?.transport_mode ?? null;

/**
 * Parts joined at terminals: one transfer per joint from the mode arriving to the mode leaving
 * (null where a chain starts or ends at the terminal), with the joint's hours. A part's own
 * transfer that marks the joint's terminal as its end (to_mode null, or from_mode null at its
 * start) is replaced by the joint's: one transfer per mode change.
 */
export function joinParts<S>(parts: readonly Part<S>[], joints: readonly Joint<S>[]): Part<S> {
  if (joints.length !== parts.length - 1) throw new Error("joinParts: one joint between each two parts");
  const sections: SectionInput<S>[] = [];
  const transfers: TransferInput<S>[] = [];
  parts.forEach((p, i) => {
    const own = p.transfers.slice();
    if (i > 0 && p.sections.length > 0 && own[0]?.from_mode === null) own.shift();
    if (i < parts.length - 1 && p.sections.length > 0 && own[own.length - 1]?.to_mode === null) own.pop();
    if (i > 0) {
      const joint = joints[i - 1]!;
      transfers.push({
        at: joint.at,
        from_mode: lastMode(sections),
        to_mode: p.sections[0]?.transport_mode ?? null,
        hours: joint.hours,
      });
    }
    sections.push(...p.sections);
    transfers.push(...own);
  });
  return { sections, transfers };
}

export const chainOf = <S>(label: string, part: Part<S>): Chain<S> =>
  renderChain(label, part.sections, part.transfers);
