/**
 * The follows model (pure): what an organisation follows on the schedules host and which stored
 * calls that covers. A follow names one sailing, a lane (origin and destination UN/LOCODEs, a
 * carrier or any), or a service (carrier and service code); its lead time and cut-off codes shape
 * cutoff_approaching, and a followed lane is a reliability_drop scope. docs/schedules.md, "Follows".
 */
import type { FollowRow } from "../../storage/follows.ts";
import type { SailingRow } from "../../storage/sailings.ts";
import type { ScheduleCall } from "./cs-types.ts";
import { callsByKey, departsOn } from "./stored.ts";

export const FOLLOW_KINDS = ["sailing", "lane", "service"] as const;
export type FollowKind = (typeof FOLLOW_KINDS)[number];

/** Hours before a cut-off its notice goes out: a day by default, up to two weeks ahead. */
export const LEAD_HOURS = { default: 24, min: 1, max: 336 } as const;
/** Follows per organisation: each is matched against every stored sailing on every sweep. */
export const MAX_FOLLOWS = 100;
/** Cut-off codes per follow (DCSA codes are three letters; CS 1.0 lists no closed set). */
export const MAX_CUTOFF_CODES = 10;

export type FollowTarget = Pick<
  FollowRow,
  "kind" | "sailingId" | "carrier" | "origin" | "destination" | "serviceCode" | "leadHours" | "cutOffCodes"
>;

/** The follow's canonical form: the same target, lead and codes are the same follow. */
export function followIdentity(f: FollowTarget): string {
  const target =
    f.kind === "sailing"
      ? [f.sailingId]
      : f.kind === "lane"
        ? [f.carrier ?? "*", f.origin, f.destination]
        : [f.carrier, f.serviceCode];
  return [f.kind, ...target, f.leadHours, [...f.cutOffCodes].sort().join(",")].join("|");
}

/** The reliability scope of a followed lane: one carrier's sailings on it, or every carrier's. */
export function laneScope(f: Pick<FollowRow, "carrier" | "origin" | "destination">): string {
  return `lane:${f.carrier ?? "*"}:${f.origin}:${f.destination}`;
}

export interface FollowedCall {
  /** The call's key within the sailing (as sailing_changes names it). */
  key: string;
  call: ScheduleCall;
}

/**
 * The calls of a sailing whose cut-offs a follow covers. A sailing or service: every call the
 * sailing departs from (its ports of loading). A lane: the origin call of a sailing that calls the
 * destination after it (direct; the origin's cut-off is the one a shipper on the lane meets). Calls
 * already departed (an actual departure) are past their cut-offs and never covered.
 */
export function followedCalls(f: FollowTarget, s: SailingRow): FollowedCall[] {
  if (f.kind === "sailing" && s.id !== f.sailingId) return [];
  if (f.kind === "service" && (s.carrier !== f.carrier || s.serviceCode !== f.serviceCode)) return [];
  if (f.kind === "lane" && f.carrier !== null && s.carrier !== f.carrier) return [];
  const calls = [...callsByKey(s.calls as ScheduleCall[])].map(([key, call]) => ({ key, call }));
  const departing = ({ call }: FollowedCall) => departsOn(s, call) && call.departure.actual === undefined;
  if (f.kind !== "lane") return calls.filter(departing);
  const at = calls.findIndex(
    (c, i) =>
      c.call.place.unlocode === f.origin &&
      departing(c) &&
      calls.slice(i + 1).some((d) => d.call.place.unlocode === f.destination),
  );
  return at < 0 ? [] : [calls[at]!];
}
