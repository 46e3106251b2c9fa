/**
 * Reading stored sailings' calls (JSON ScheduleCall[]): best-known times, which calls a sailing
 * departs on, a call's key within its sailing (as sailing_changes names it) and one identity per
 * physical call (the turn call is stored on both voyages). Shared by the refresh, the event sweeps
 * and the schedules product (api/schedules/), which may import ingest but not the other way round.
 */
import type { SailingRow } from "../../storage/sailings.ts";
import type { CallTimes, ScheduleCall } from "./cs-types.ts";

export const HOUR_MS = 3_600_000;

/** The carrier's latest word on a time: actual, else estimated, else planned (epoch ms). */
export function best(t: CallTimes): number | undefined {
  const v = t.actual ?? t.estimated ?? t.planned;
  return v === undefined ? undefined : Date.parse(v);
}

export const callsOf = (s: Pick<SailingRow, "calls">): ScheduleCall[] => s.calls as ScheduleCall[];

/** Whether the sailing departs from this call (the calls before its last arrival under the voyage). */
export const departsOn = (s: Pick<SailingRow, "voyage">, c: ScheduleCall): boolean =>
  (c.exportVoyage ?? c.importVoyage) === s.voyage && best(c.departure) !== undefined;

/** One key per physical call of a hull, whichever of its two voyages it is read from. */
export function callKey(s: Pick<SailingRow, "carrier" | "vesselImo" | "id">, c: ScheduleCall): string {
  const at = c.arrival.planned ?? c.departure.planned ?? "";
  return `${s.carrier}|${s.vesselImo ?? s.id}|${c.transportCallReference ?? `${c.place.unlocode}@${at}`}`;
}

/** A sailing's calls by their key within it: the carrier's transport call reference, else port#n. */
export function callsByKey(calls: readonly ScheduleCall[]): Map<string, ScheduleCall> {
  const out = new Map<string, ScheduleCall>();
  const seen = new Map<string, number>();
  for (const c of calls) {
    const port = c.place.unlocode ?? c.place.name ?? "?";
    const n = (seen.get(port) ?? 0) + 1;
    seen.set(port, n);
    out.set(c.transportCallReference ?? `${port}#${n}`, c);
  }
  return out;
}
