/**
 * schedule_disruption: what changed, between two derivations, in the sailings still ahead of a box
 * (rules in docs/tracking.md, payload in docs/webhooks.md). Until the sailing-schedules product has
 * data of its own, the source is the carrier's forecasts (PLN/EST) of the box's vessel calls: the
 * departures and arrivals of its transport events. Pure: the same two event lists always give the
 * same answer, and identical lists give none.
 */
import type { DcsaEventLike } from "./dcsa.ts";
import { codeOf, locationOf } from "./timeline.ts";

/** A forecast call moving by less than this is schedule noise, not a disruption. */
export const SLIP_MS = 24 * 3_600_000;

export type DisruptionKind = "slip" | "omission" | "sailing_change";

export interface Sailing {
  imo: string | null;
  name: string | null;
  voyage: string | null;
}

export interface DisruptedCall {
  event_type: string;
  location: string;
  previous_time: string;
  new_time: string | null;
  delay_hours: number | null;
}

export interface Disruption {
  kind: DisruptionKind;
  /** The event the payload's moment describes: the new forecast, or the dropped one for an omission. */
  event: DcsaEventLike;
  previous: Sailing;
  current: Sailing;
  /** Every call of that sailing disrupted in this way by this refresh, earliest first. */
  calls: DisruptedCall[];
}

export interface DisruptionContext {
  /** The box; transport events naming other boxes (a B/L's sibling rolled elsewhere) are not its sailing. */
  container: string | null;
  /** The box's destination after the refresh: slips of the arrival there are eta_changed. */
  destination: string | null;
  /** The destination before the refresh: dropping it is container_misrouted (destination_change). */
  previousDestination: string | null;
  /** This refresh raises container_misrouted: the box's route changed, and that event says so. */
  misrouted: boolean;
}

/** The carrier's optional words on a change (DCSA 2.2 transport events). */
type WithRemarks = DcsaEventLike & {
  delayReasonCode?: string;
  references?: Array<{ referenceType?: string; referenceValue?: string }>;
};

const VESSEL_CALLS = new Set(["DEPA", "ARRI"]);
const ms = (e: DcsaEventLike) => Date.parse(e.eventDateTime);
const iso = (e: DcsaEventLike) => new Date(ms(e)).toISOString();

export function sailingOf(e: DcsaEventLike): Sailing {
  const tc = e.transportCall;
  return {
    imo: tc?.vessel?.vesselIMONumber ?? null,
    name: tc?.vessel?.vesselName ?? null,
    voyage: tc?.carrierVoyageNumber ?? tc?.exportVoyageNumber ?? null,
  };
}

/** Another sailing only when both sides name it and the names differ: a missing voyage is no change. */
function otherSailing(a: Sailing, b: Sailing): boolean {
  const differ = (x: string | null, y: string | null) => x !== null && y !== null && x !== y;
  const hull = a.imo !== null && b.imo !== null ? differ(a.imo, b.imo) : differ(a.name, b.name);
  return hull || differ(a.voyage, b.voyage);
}

const sailingKey = (s: Sailing) => `${s.imo ?? s.name ?? ""}/${s.voyage ?? ""}`;

function concernsBox(e: DcsaEventLike, container: string | null): boolean {
  const boxes = ((e as WithRemarks).references ?? []).filter((r) => r.referenceType === "EQ");
  return container === null || boxes.length === 0 || boxes.some((r) => r.referenceValue === container);
}

/**
 * The box's vessel calls still to come, by "CODE|LOCODE" (currentEvents keeps at most one forecast
 * per key and none once the call happened).
 */
function forecastCalls(current: DcsaEventLike[], container: string | null): Map<string, DcsaEventLike> {
  const happened = new Set<string>();
  const ahead = new Map<string, DcsaEventLike>();
  for (const e of current) {
    const loc = locationOf(e);
    if (e.eventType !== "TRANSPORT" || !VESSEL_CALLS.has(codeOf(e)) || !loc) continue;
    const key = `${codeOf(e)}|${loc}`;
    if (e.eventClassifierCode === "ACT") happened.add(key);
    else if (concernsBox(e, container)) ahead.set(key, e);
  }
  for (const key of happened) ahead.delete(key);
  return ahead;
}

const hours = (deltaMs: number) => Math.round(deltaMs / 360_000) / 10;

/** Disruptions between the box's current events before and after a refresh, earliest call first. */
export function scheduleDisruptions(
  before: DcsaEventLike[],
  after: DcsaEventLike[],
  ctx: DisruptionContext,
): Disruption[] {
  const was = forecastCalls(before, ctx.container);
  const now = forecastCalls(after, ctx.container);
  const groups = new Map<string, Disruption & { firstAt: number }>();
  const add = (kind: DisruptionKind, old: DcsaEventLike, fresh: DcsaEventLike | null) => {
    const previous = sailingOf(old);
    const current = fresh ? sailingOf(fresh) : previous;
    // One event per sailing and kind: a roll moves its departure and arrival together.
    const key = `${kind}|${sailingKey(previous)}|${sailingKey(current)}`;
    const call: DisruptedCall = {
      event_type: codeOf(old),
      location: locationOf(old)!,
      previous_time: iso(old),
      new_time: fresh ? iso(fresh) : null,
      delay_hours: fresh ? hours(ms(fresh) - ms(old)) : null,
    };
    const group = groups.get(key);
    if (!group) {
      groups.set(key, { kind, event: fresh ?? old, previous, current, calls: [call], firstAt: ms(old) });
      return;
    }
    group.calls.push(call);
    if (ms(old) < group.firstAt) Object.assign(group, { event: fresh ?? old, firstAt: ms(old) });
  };
  for (const [key, old] of was) {
    const loc = locationOf(old)!;
    const fresh = now.get(key);
    if (!fresh) {
      // Gone from the box's events altogether (a carrier correction, or the sailing skips the
      // port). A call that happened meanwhile, or one now listed for other boxes only, is not.
      const stillCalled = after.some((e) => locationOf(e) === loc);
      if (!stillCalled && loc !== ctx.previousDestination && !ctx.misrouted) add("omission", old, null);
      continue;
    }
    if (otherSailing(sailingOf(old), sailingOf(fresh))) {
      if (!ctx.misrouted) add("sailing_change", old, fresh);
      continue;
    }
    const arrivalAtDestination = codeOf(fresh) === "ARRI" && loc === ctx.destination;
    if (Math.abs(ms(fresh) - ms(old)) >= SLIP_MS && !arrivalAtDestination) add("slip", old, fresh);
  }
  return [...groups.values()]
    .sort((a, b) => a.firstAt - b.firstAt)
    .map(({ firstAt: _, ...d }) => ({
      ...d,
      calls: d.calls.sort((x, y) => Date.parse(x.previous_time) - Date.parse(y.previous_time)),
    }));
}

/** The carrier's reason for the change, when it gives one (an omission has no new event to give it). */
export function remarksOf(d: Disruption): { change_remark: string | null; delay_reason_code: string | null } {
  const fresh: WithRemarks | null = d.kind === "omission" ? null : d.event;
  return {
    change_remark: fresh?.changeRemark ?? null,
    delay_reason_code: fresh?.delayReasonCode ?? null,
  };
}
