/**
 * A chain uses only the allowed modes (spec, multimodal `modes`: "a chain uses only these"; SEA
 * alone between two inland cities is its own no_route example). The spec builds the River, Rail
 * and Air chains with road access legs (road to a river port, a railhead within 150 km, an airport
 * within 600 km), so a road section beside a barge, train or flight belongs to that mode's chain.
 * A Sea chain's inland legs have no such licence: without ROAD, a road section that only joins a
 * door to a sea port must be a local transfer (a door in the port's own town), at most
 * LOCAL_TRANSFER_KM. docs/multimodal.md, "Modes".
 */
import type { Chain, ChainSection, TransportMode } from "../chain.ts";

/** The longest road section a Sea chain may hold between a door and its port when ROAD is not among the modes. */
export const LOCAL_TRANSFER_KM = 30;

/** Modes whose chains the spec builds with road access legs. */
const WITH_ROAD_ACCESS: ReadonlySet<TransportMode> = new Set(["RIVER", "RAIL", "AIR"]);

interface Named {
  name?: string | null;
}

/** Why the chain steps outside the allowed modes (its first section that does), or null. */
export function outsideModes<P extends Named>(
  chain: Chain<P>,
  modes: ReadonlySet<TransportMode>,
): string | null {
  const sections = chain.sections;
  for (const [i, s] of sections.entries()) {
    const mode = s.transport_mode;
    if (modes.has(mode)) continue;
    if (mode === "ROAD" && roadAllowed(s, sections[i - 1], sections[i + 1])) continue;
    const where = `${s.from.name ?? "a point"} to ${s.to.name ?? "a point"}, ${s.distance.km} km`;
    return mode === "ROAD"
      ? `a road leg to or from a sea port (${where}) longer than the ${LOCAL_TRANSFER_KM} km local transfer, and ROAD is not among the modes`
      : `a ${mode} leg (${where}), and ${mode} is not among the modes`;
  }
  return null;
}

function roadAllowed<P>(road: ChainSection<P>, before?: ChainSection<P>, after?: ChainSection<P>): boolean {
  if (road.distance.meters <= LOCAL_TRANSFER_KM * 1000) return true;
  return [before, after].some((s) => s !== undefined && WITH_ROAD_ACCESS.has(s.transport_mode));
}
