/**
 * Spec, chain rule 1, the Sea chain: the five closest main container ports on each side are
 * paired; pairs are ranked by sea distance plus inland legs (estimated: estimate.ts); the best
 * three are routed in full, inland legs by rail when rail is allowed and the port is more than
 * 250 km away, otherwise by road. A pair that cannot be routed in full (no road to a port, no sea
 * route with the closures) gives its place to the next one. Port to port the chain is the direct
 * sea route, labelled Direct.
 */
import type { Chain } from "../chain.ts";
import { SEA } from "../modes/sea.ts";
import { chainOf, joinParts, sectionPart } from "./compose.ts";
import { addFigures, score } from "./estimate.ts";
import type { InlandLegs } from "./inland.ts";
import type { Place, Settings } from "./options.ts";
import type { SeaDistances } from "./sea-distances.ts";
import { type PortOption, seaFigures, seaSection } from "./sea-legs.ts";

/** Spec, chain rule 1: the best three pairs are routed in full. */
export const SEA_CHAINS_ROUTED = 3;

const samePort = (a: Place, b: Place) =>
  (a.locode && a.locode === b.locode) || (a.lat === b.lat && a.lng === b.lng);

/** The sea chains, best first by the ranking estimate. */
export async function seaChains(args: {
  from: Place;
  to: Place;
  origins: readonly PortOption[];
  destinations: readonly PortOption[];
  sea: SeaDistances;
  legs: InlandLegs;
  settings: Settings;
}): Promise<Chain<Place>[]> {
  const { origins, destinations, settings: s } = args;
  const pairs: Array<{ a: PortOption; b: PortOption; score: number }> = [];
  for (const a of origins) {
    for (const b of destinations) {
      // One port for both ends is no sea leg: a road (or barge) question.
      if (samePort(a.stop, b.stop)) continue;
      const m = args.sea.metres(a.stop, b.stop, s.closedMask);
      if (!Number.isFinite(m)) continue;
      pairs.push({ a, b, score: score(addFigures(a.est, seaFigures(m, s), b.est), s.optimize) });
    }
  }
  pairs.sort((x, y) => x.score - y.score);
  const out: Chain<Place>[] = [];
  for (const { a, b } of pairs) {
    if (out.length === SEA_CHAINS_ROUTED) break;
    const chain = await seaChain(args.from, args.to, a, b, args);
    if (chain) out.push(chain);
  }
  return out;
}

async function seaChain(
  from: Place,
  to: Place,
  a: PortOption,
  b: PortOption,
  ctx: { sea: SeaDistances; legs: InlandLegs; settings: Settings },
): Promise<Chain<Place> | null> {
  // The inland legs first (kept per request): where nothing reaches a port, no sea route is planned.
  const [pre, post] = await Promise.all([
    ctx.legs.leg(from, a.stop, "from", a.mode),
    ctx.legs.leg(to, b.stop, "to", b.mode),
  ]);
  if (!pre || !post) return null;
  const route = ctx.sea.route(a.stop, b.stop, ctx.settings);
  if (!route) return null;
  const hours = ctx.settings.handling ? SEA.handlingHours : 0;
  const lanePoints = { start: ctx.sea.lanePoint(a.stop), end: ctx.sea.lanePoint(b.stop) };
  const part = joinParts(
    [pre, sectionPart({ ...seaSection(route, a.stop, b.stop, ctx.settings), ...lanePoints }), post],
    [
      { at: a.stop, hours },
      { at: b.stop, hours },
    ],
  );
  const direct = pre.sections.length === 0 && post.sections.length === 0;
  return chainOf(direct ? "Direct" : "Sea", part);
}
