/**
 * What a reader of the sandbox carrier sees of a simulated voyage at an instant: the events
 * published by then (about one box when named), and where a box stands.
 */
import type { DcsaEvent } from "../carriers/dcsa.ts";
import type { SimulatedContainer, SimulatedVoyage } from "./simulate.ts";

/** The events a query sees at `now`: published by then, and about the box when one is named. */
export function visibleEvents(
  voyage: SimulatedVoyage,
  now: number,
  container: string | null = null,
): DcsaEvent[] {
  return voyage.events.filter(
    (e) => Date.parse(e.eventCreatedDateTime) <= now && (container === null || concerns(e, container)),
  );
}

function concerns(e: DcsaEvent, box: string): boolean {
  if (e.eventType === "EQUIPMENT") return e.equipmentReference === box;
  const eq = (e.references ?? []).filter((r) => r.referenceType === "EQ");
  return e.eventType === "SHIPMENT"
    ? eq.length === 0 || eq.some((r) => r.referenceValue === box)
    : eq.some((r) => r.referenceValue === box);
}

export type BoxPhase =
  | "booked"
  | "in_transit"
  | "customs_hold"
  | "discharged"
  | "delivered"
  | "returned_empty";

/** Where a box stands at `now` (for docs, demos and tests; the tracking engine derives its own status). */
export function boxPhaseAt(box: SimulatedContainer, now: number): BoxPhase {
  const m = box.milestones;
  const t = (s: string) => Date.parse(s);
  if (now < t(m.loaded)) return "booked";
  if (now < t(m.discharged)) return "in_transit";
  if (box.customsHold && now >= t(box.customsHold.from) && now < t(box.customsHold.to)) return "customs_hold";
  if (now < t(m.gateOut)) return "discharged";
  if (now < t(m.emptyReturn)) return "delivered";
  return "returned_empty";
}
