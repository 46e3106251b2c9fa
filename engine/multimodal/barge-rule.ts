/**
 * Our rule for a Sea + River chain's barge leg, beside the spec's drop rules (drop-rules.ts): a
 * barge must carry the cargo between places a road leg would not serve better. Without the barge
 * the door's cargo goes by truck to the sea: to the gateway itself, or to the nearest main
 * container port, where the Sea chain's ship calls. The barge saves the difference between that
 * truck leg and the one to its river port; it costs a transshipment (a day of handling, a crane
 * move each end) and barge hours. When it saves no more road than a local transfer (30 km, the
 * mode rule's), the truck serves the door better and the barge is not offered: Rotterdam barging
 * 30 km to Hook of Holland or 105 km to Amsterdam instead of sailing from Rotterdam, a 2 km barge
 * from the seaport up the Yangtze at Wuhan to a river port in the same city. When the caller fixes
 * the gateway (pol/pod) the main port is not the alternative. Pure: estimated road km in (great
 * circle x circuity, as the ranking's), the reason out. docs/multimodal.md, "Drop rules".
 */
import { LOCAL_TRANSFER_KM } from "./mode-rule.ts";

export const BARGE_RULES = {
  seaPort: "road_to_sea_port_serves_better",
  gateway: "road_to_gateway_serves_better",
} as const;

export type BargeReason = (typeof BARGE_RULES)[keyof typeof BARGE_RULES];

/** A barge candidate on one side of the sea leg, as road km from its door. */
export interface BargeSide {
  /** To the nearest main container port; null when the caller fixed the gateway. */
  seaPortRoadKm: number | null;
  /** To the gateway where the barge meets the ship. */
  gatewayRoadKm: number;
  /** To the barge's river port (0: the door is the port). */
  portRoadKm: number;
}

/** Why a truck to the sea serves the door better than this barge, or null: the barge is offered. */
export function roadServesBetter(s: BargeSide): BargeReason | null {
  const seaPort = s.seaPortRoadKm ?? Number.POSITIVE_INFINITY;
  if (Math.min(seaPort, s.gatewayRoadKm) - s.portRoadKm > LOCAL_TRANSFER_KM) return null;
  return seaPort < s.gatewayRoadKm ? BARGE_RULES.seaPort : BARGE_RULES.gateway;
}

/** No barge on this side saves more road than a local transfer: the door is at a main port. */
export const doorAtSeaPort = (seaPortRoadKm: number | null): boolean =>
  seaPortRoadKm !== null && seaPortRoadKm <= LOCAL_TRANSFER_KM;
