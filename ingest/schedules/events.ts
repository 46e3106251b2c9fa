/**
 * The schedules webhook events a refresh raises, in its own transaction (ingest/schedules/sync.ts):
 * blank_sailing when a sailing not yet departed is withdrawn, sailing_slipped when its first call's
 * expected departure moves later than the last one reported by more than a threshold. One outbox row
 * per organisation with an active schedules endpoint subscribed to the type; the dispatcher fans it
 * out to that organisation's endpoints. Payloads: docs/schedules.md, "Events".
 */
import type { OutboxEvent, ProductEvent } from "../../common/events/catalogue.ts";
import type { SailingSubjectData } from "../../common/events/schedules.ts";
import { subscribed } from "../../common/subscriptions.ts";
import type { Repositories } from "../../storage/storage.ts";
import type { FetchedSailing } from "./sync.ts";

export const BLANK_SAILING = "blank_sailing";
export const SAILING_SLIPPED = "sailing_slipped";
/** A half day moves cut-offs and trucking; the sandbox's per-leg estimate noise stays under it. */
export const DEFAULT_SLIP_HOURS = 12;

const H = 3_600_000;

/** What a refresh raises (the sweeps raise the other two schedules events). */
export type RaisedScheduleEvent = Extract<
  ProductEvent<"schedules">,
  { type: typeof BLANK_SAILING | typeof SAILING_SLIPPED }
>;

/** Where and when a sailing leaves: its first call departing on the voyage. */
export interface FirstDeparture {
  /** The call's key within the sailing (as sailing_changes names it). */
  call: string;
  unlocode: string | null;
  /** UTC ISO; null when the carrier published no planned departure. */
  planned: string | null;
  /** The estimate, else the plan (UTC ISO). */
  expected: string | null;
  /** An actual departure is published: the sailing has left. */
  departed: boolean;
}

/** The sailing as a payload names it. */
export type SailingSubject = Pick<
  FetchedSailing,
  "id" | "carrier" | "serviceCode" | "serviceName" | "voyage" | "vesselImo" | "vesselName"
>;

const hours = (ms: number) => Math.round((ms / H) * 10) / 10;

/** The sailing as every schedules payload starts: `at` names the call (port, planned departure). */
export function sailingSubject(
  s: SailingSubject,
  at: Pick<FirstDeparture, "unlocode" | "planned"> | null,
): SailingSubjectData {
  return {
    sailing_id: s.id,
    carrier_code: s.carrier,
    service_code: s.serviceCode,
    service_name: s.serviceName,
    voyage: s.voyage,
    vessel_imo: s.vesselImo,
    vessel_name: s.vesselName,
    port_unlocode: at?.unlocode ?? null,
    planned_departure: at?.planned ?? null,
  };
}

/** blank_sailing for a withdrawn sailing, unless it had already left (a carrier trimming history). */
export function blankSailing(
  s: SailingSubject,
  first: FirstDeparture | null,
  ports: Array<string | null>,
  seenAt: string,
): RaisedScheduleEvent | null {
  if (first?.departed) return null;
  return {
    type: BLANK_SAILING,
    data: {
      ...sailingSubject(s, first),
      expected_departure: first?.expected ?? null,
      ports,
      withdrawn_at: seenAt,
    },
  };
}

/**
 * Whether a refreshed sailing slipped, and the baseline to keep. The baseline only moves when a slip
 * is raised (estimates creeping later a few hours at a time add up), or starts afresh without an
 * event when there was none or the first call changed (an omitted first port is not a slip). A
 * sailing that has left raises nothing more: its lateness is for the reliability figures.
 */
export function slipped(
  s: SailingSubject,
  was: FirstDeparture | null,
  is: FirstDeparture | null,
  baseline: string | null,
  thresholdMs: number,
  seenAt: string,
): { baseline: string | null; raised: RaisedScheduleEvent | null } {
  if (!is?.expected || is.departed) return { baseline, raised: null };
  if (baseline === null || was?.call !== is.call) return { baseline: is.expected, raised: null };
  const moved = Date.parse(is.expected) - Date.parse(baseline);
  if (moved <= thresholdMs) return { baseline, raised: null };
  return {
    baseline: is.expected,
    raised: {
      type: SAILING_SLIPPED,
      data: {
        ...sailingSubject(s, is),
        previous_departure: baseline,
        new_departure: is.expected,
        slip_hours: hours(moved),
        delay_hours: is.planned ? hours(Date.parse(is.expected) - Date.parse(is.planned)) : null,
        threshold_hours: hours(thresholdMs),
        detected_at: seenAt,
      },
    },
  };
}

/** Appends each event once per organisation subscribed to it (none subscribed: nothing written). */
export async function appendScheduleEvents(
  tx: Repositories,
  raised: readonly RaisedScheduleEvent[],
  at: string,
): Promise<number> {
  if (raised.length === 0) return 0;
  const endpoints = await tx.webhooks.active("schedules");
  const orgsFor = (type: string) =>
    [...new Set(endpoints.filter((e) => subscribed(e.eventTypes, type)).map((e) => e.orgId))].sort();
  const rows: OutboxEvent[] = raised.flatMap((e) =>
    orgsFor(e.type).map((orgId) => ({ orgId, product: "schedules" as const, ...e })),
  );
  await tx.outbox.append(rows, at);
  return rows.length;
}
