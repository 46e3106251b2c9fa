/**
 * Ordering chains by the request's optimize (spec: cost by default, time, distance; emissions
 * beyond the spec). Every measure reads the rendered summary, so the order is the one a client
 * recomputes from the response.
 */
import type { Chain } from "../chain.ts";
import type { Optimize } from "./options.ts";

type Summary = Chain<unknown>["summary"];

/**
 * The figure a chain is ranked by: cost_index, whole seconds, whole metres, or well-to-wheel kg
 * CO2e (a chain whose emissions cannot be stated, a barge leg without a published factor, ranks
 * after every chain whose emissions can).
 */
export function measure(s: Summary, optimize: Optimize): number {
  switch (optimize) {
    case "cost":
      return s.cost_index;
    case "time":
      return s.duration.seconds;
    case "distance":
      return s.distance.meters;
    case "emissions":
      return s.emissions.co2e_kg;
  }
}

const TIE_BREAKS: readonly Optimize[] = ["cost", "time", "distance"];

/** Best first under optimize; ties go to the cheaper, then the faster, then the shorter chain. */
export function compareChains(optimize: Optimize) {
  return (a: { summary: Summary }, b: { summary: Summary }): number => {
    for (const o of [optimize, ...TIE_BREAKS]) {
      const x = measure(a.summary, o);
      const y = measure(b.summary, o);
      if (x !== y) return x < y ? -1 : 1;
    }
    return 0;
  };
}

/** The best chain under optimize (undefined for none). */
export function bestOf<C extends { summary: Summary }>(
  chains: readonly C[],
  optimize: Optimize,
): C | undefined {
  return [...chains].sort(compareChains(optimize))[0];
}
