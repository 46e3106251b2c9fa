/**
 * cutoff_approaching (time-driven): a sweep over the stored active sailings finds the cut-offs of
 * followed calls (follows.ts) whose time lies within (now, now + lead] and raises one event per
 * organisation, sailing, call and cut-off code. The notice is recorded (cutoff_notices) in the
 * transaction that appends the event, so it is raised once across sweeps and processes; a cut-off
 * moved earlier by more than the re-notice threshold after its notice is told again.
 * docs/schedules.md, "Events".
 */
import type { EventData, OutboxEvent } from "../../common/events/catalogue.ts";
import { subscribed } from "../../common/subscriptions.ts";
import type { FollowRow } from "../../storage/follows.ts";
import type { SailingRow } from "../../storage/sailings.ts";
import type { CutoffNoticeRow } from "../../storage/schedule-notices.ts";
import type { Storage } from "../../storage/storage.ts";
import type { ScheduleCall } from "./cs-types.ts";
import { sailingSubject } from "./events.ts";
import { followedCalls } from "./follows.ts";
import { HOUR_MS } from "./stored.ts";

export const CUTOFF_APPROACHING = "cutoff_approaching";
/** A cut-off moved earlier by more than this after its notice is notified again (a working shift). */
export const DEFAULT_RENOTICE_HOURS = 6;
/**
 * Sailings are read by planned span: a cut-off lies up to a few days before its call's departure
 * and published times run off the plan (the sandbox: DCO 72 h before, delays up to 72 h), so the
 * read reaches this far either side of (now, now + lead].
 */
const READ_SLACK_MS = 7 * 24 * HOUR_MS;

export interface DueCutoff {
  orgId: string;
  sailing: SailingRow;
  /** The call's key within the sailing. */
  call: string;
  published: ScheduleCall;
  code: string;
  /** The cut-off as published (the port's offset) and as a UTC instant. */
  publishedAt: string;
  at: string;
  /** The longest lead among the organisation's follows that cover it now (hours). */
  leadHours: number;
  followIds: string[];
}

/**
 * Every (organisation, sailing, call, code) whose cut-off lies within (now, now + lead] of at least
 * one of the organisation's follows covering that call and code, in a stable order.
 */
export function dueCutoffs(
  follows: readonly FollowRow[],
  sailings: readonly SailingRow[],
  nowMs: number,
): DueCutoff[] {
  const due = new Map<string, DueCutoff>();
  for (const s of sailings) {
    if (s.status !== "active") continue;
    for (const f of follows) {
      for (const { key, call } of followedCalls(f, s)) {
        for (const c of call.cutOffs) {
          if (f.cutOffCodes.length > 0 && !f.cutOffCodes.includes(c.code)) continue;
          const atMs = Date.parse(c.at);
          if (!(atMs > nowMs && atMs <= nowMs + f.leadHours * HOUR_MS)) continue;
          const id = [f.orgId, s.id, key, c.code].join("\u0000");
          const held = due.get(id);
          if (held) {
            held.leadHours = Math.max(held.leadHours, f.leadHours);
            held.followIds.push(f.id);
            continue;
          }
          due.set(id, {
            orgId: f.orgId,
            sailing: s,
            call: key,
            published: call,
            code: c.code,
            publishedAt: c.at,
            at: new Date(atMs).toISOString(),
            leadHours: f.leadHours,
            followIds: [f.id],
          });
        }
      }
    }
  }
  return [...due.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, d]) => ({ ...d, followIds: [...new Set(d.followIds)].sort() }));
}

/** Whether a cut-off now at `at` is to be notified again after a notice that gave `notified`. */
export function renotice(notified: string, at: string, thresholdMs: number): boolean {
  return Date.parse(notified) - Date.parse(at) > thresholdMs;
}

const hours = (ms: number) => Math.round((ms / HOUR_MS) * 10) / 10;
const utc = (t: string | undefined) => (t === undefined ? null : new Date(Date.parse(t)).toISOString());

/** The event's data: the sailing, the call and its cut-off, and what the notice replaces. */
export function cutoffData(
  d: DueCutoff,
  previous: string | null,
  detectedAt: string,
): EventData<"schedules", typeof CUTOFF_APPROACHING> {
  const c = d.published;
  return {
    ...sailingSubject(d.sailing, { unlocode: c.place.unlocode, planned: utc(c.departure.planned) }),
    transport_call_reference: c.transportCallReference ?? null,
    call: d.call,
    expected_departure: utc(c.departure.estimated ?? c.departure.planned),
    cut_off_code: d.code,
    cut_off_at: d.at,
    cut_off_local: d.publishedAt,
    hours_left: hours(Date.parse(d.at) - Date.parse(detectedAt)),
    lead_hours: d.leadHours,
    previous_cut_off_at: previous,
    follow_ids: d.followIds,
    detected_at: detectedAt,
  };
}

export interface CutoffSweepOptions {
  storage: Storage;
  /** The clock (the sandbox's manual clock in tests). */
  now?: () => number;
  /** Re-notice a cut-off moved earlier by more than this. Default DEFAULT_RENOTICE_HOURS. */
  renoticeMs?: number;
}

export interface CutoffSweepResult {
  /** Cut-offs within their follows' lead (subscribed organisations only). */
  due: number;
  /** Events raised: first notices and re-notices. */
  raised: number;
  renotices: number;
}

export class CutoffSweep {
  private readonly now: () => number;
  private readonly renoticeMs: number;

  constructor(private readonly opts: CutoffSweepOptions) {
    this.now = opts.now ?? Date.now;
    this.renoticeMs = opts.renoticeMs ?? DEFAULT_RENOTICE_HOURS * HOUR_MS;
  }

  /** The poller's entry: one sweep; the number of events raised. */
  async pollDue(): Promise<number> {
    return (await this.sweep()).raised;
  }

  async sweep(): Promise<CutoffSweepResult> {
    const { storage } = this.opts;
    const nowMs = this.now();
    const detectedAt = new Date(nowMs).toISOString();
    const result: CutoffSweepResult = { due: 0, raised: 0, renotices: 0 };
    // Only organisations that would receive the event: one subscribing later hears of cut-offs
    // still ahead rather than finding them spent on nobody.
    const endpoints = await storage.webhooks.active("schedules");
    const orgs = new Set(
      endpoints.filter((e) => subscribed(e.eventTypes, CUTOFF_APPROACHING)).map((e) => e.orgId),
    );
    const follows = (await storage.follows.all()).filter((f) => orgs.has(f.orgId));
    if (follows.length === 0) return result;
    const lead = Math.max(...follows.map((f) => f.leadHours)) * HOUR_MS;
    const rows = await storage.sailings.overlapping({
      from: new Date(nowMs - READ_SLACK_MS).toISOString(),
      to: new Date(nowMs + lead + READ_SLACK_MS).toISOString(),
    });
    const due = dueCutoffs(follows, rows, nowMs);
    result.due = due.length;
    if (due.length === 0) return result;
    const keyOf = (n: Pick<CutoffNoticeRow, "orgId" | "sailingId" | "call" | "code">) =>
      [n.orgId, n.sailingId, n.call, n.code].join("\u0000");
    return storage.transaction(async (tx) => {
      const rowsOf = due.map((d) => ({
        orgId: d.orgId,
        sailingId: d.sailing.id,
        call: d.call,
        code: d.code,
        cutOffAt: d.at,
        notifiedAt: detectedAt,
      }));
      const claimed = new Set((await tx.scheduleNotices.claimCutoffs(rowsOf)).map(keyOf));
      const rest = due.filter((d) => !claimed.has(keyOf({ ...d, sailingId: d.sailing.id })));
      const given = new Map(
        (await tx.scheduleNotices.cutoffsOf(rest.map((d) => d.sailing.id))).map((n) => [keyOf(n), n]),
      );
      const events: OutboxEvent[] = [];
      for (const d of due) {
        const key = { orgId: d.orgId, sailingId: d.sailing.id, call: d.call, code: d.code };
        let previous: string | null = null;
        if (!claimed.has(keyOf(key))) {
          const notice = given.get(keyOf(key));
          if (!notice || !renotice(notice.cutOffAt, d.at, this.renoticeMs)) continue;
          const laterThan = new Date(Date.parse(d.at) + this.renoticeMs).toISOString();
          // Conditional on the stored time: of two sweeps moving it, only one raises.
          if (!(await tx.scheduleNotices.moveCutoff(key, d.at, laterThan, detectedAt))) continue;
          previous = notice.cutOffAt;
          result.renotices++;
        }
        events.push({
          orgId: d.orgId,
          product: "schedules",
          type: CUTOFF_APPROACHING,
          data: cutoffData(d, previous, detectedAt),
        });
      }
      await tx.outbox.append(events, detectedAt);
      result.raised = events.length;
      return result;
    });
  }
}
