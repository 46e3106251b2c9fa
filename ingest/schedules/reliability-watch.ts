/**
 * reliability_drop: after each schedules refresh the poller measures reliability (reliability.ts,
 * the product's rolling window) per carrier and per followed lane, and raises the event when a
 * scope falls below the threshold. Hysteresis: the scope is then disarmed until it rises to
 * threshold + margin, so a reliability hovering at the threshold raises once, not at every
 * refresh. The state per scope (reliability_states) moves in the transaction that appends the
 * event, conditionally on its stored flag, so concurrent watches raise a drop once.
 * docs/schedules.md, "Events".
 */
import type { EventData, OutboxEvent } from "../../common/events/catalogue.ts";
import { subscribed } from "../../common/subscriptions.ts";
import type { Storage } from "../../storage/storage.ts";
import { laneScope } from "./follows.ts";
import {
  type Lane,
  ON_TIME_MS,
  RELIABILITY_WINDOW_DAYS,
  reliability,
  type Tally,
  windowSailings,
} from "./reliability.ts";
import { HOUR_MS } from "./stored.ts";

export const RELIABILITY_DROP = "reliability_drop";

export interface ReliabilitySettings {
  /** A scope measured below this (share of on-time calls, 0..1) drops. */
  threshold: number;
  /** ...and is re-armed once measured at threshold + margin or above. */
  margin: number;
  /** Fewer measured calls than this say nothing (a scope keeps its state). */
  minCalls: number;
  /** The rolling window, days (the product's default). */
  windowDays: number;
}

export const DEFAULT_RELIABILITY: ReliabilitySettings = {
  threshold: 0.7,
  margin: 0.05,
  minCalls: 20,
  windowDays: RELIABILITY_WINDOW_DAYS,
};

export type Transition = "drop" | "rearm" | "hold";

/**
 * What a measurement does to a scope: an armed scope below the threshold drops (a scope first
 * measured below it too: it is below, as far as anyone knows); a disarmed one at threshold +
 * margin or above is re-armed; too few calls, or anything else, holds.
 */
export function transition(
  armed: boolean,
  t: Pick<Tally, "calls" | "reliability">,
  s: Pick<ReliabilitySettings, "threshold" | "margin" | "minCalls">,
): Transition {
  if (t.reliability === null || t.calls < s.minCalls) return "hold";
  if (armed && t.reliability < s.threshold) return "drop";
  if (!armed && t.reliability >= s.threshold + s.margin) return "rearm";
  return "hold";
}

interface Scope {
  id: string;
  carrier: string | null;
  lane: Lane | null;
  tally: Tally;
}

export interface ReliabilityWatchOptions {
  storage: Storage;
  now?: () => number;
  settings?: Partial<ReliabilitySettings>;
}

export interface WatchResult {
  /** Scopes measured (carriers with stored sailings, followed lanes). */
  scopes: number;
  /** Scopes that dropped (events are one per subscribed organisation each). */
  drops: string[];
  rearmed: string[];
}

export class ReliabilityWatch {
  private readonly now: () => number;
  readonly settings: ReliabilitySettings;

  constructor(private readonly opts: ReliabilityWatchOptions) {
    this.now = opts.now ?? Date.now;
    this.settings = { ...DEFAULT_RELIABILITY, ...opts.settings };
  }

  /** The poller's entry (right after the schedules refresh): the number of scopes that dropped. */
  async pollDue(): Promise<number> {
    return (await this.check()).drops.length;
  }

  async check(): Promise<WatchResult> {
    const { storage } = this.opts;
    const s = this.settings;
    const nowMs = this.now();
    const at = new Date(nowMs).toISOString();
    const { window, rows } = await windowSailings(storage.sailings, nowMs, s.windowDays);
    const measured = reliability(rows, window);
    const none: Tally = { calls: 0, on_time: 0, reliability: null, mean_delay_hours: null };
    const scopes: Scope[] = [...new Set(rows.map((r) => r.carrier))].sort().map((carrier) => ({
      id: `carrier:${carrier}`,
      carrier,
      lane: null,
      tally: measured.carriers.find((c) => c.carrier === carrier) ?? none,
    }));
    const follows = (await storage.follows.all()).filter((f) => f.kind === "lane");
    const lanes = new Map(follows.map((f) => [laneScope(f), f]));
    for (const [id, f] of [...lanes].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const lane = { origin: f.origin!, destination: f.destination! };
      const r = reliability(rows, window, lane);
      const tally =
        f.carrier === null ? r.overall : (r.carriers.find((c) => c.carrier === f.carrier) ?? none);
      scopes.push({ id, carrier: f.carrier, lane, tally });
    }
    const endpoints = await storage.webhooks.active("schedules");
    const subscribers = new Set(
      endpoints.filter((e) => subscribed(e.eventTypes, RELIABILITY_DROP)).map((e) => e.orgId),
    );
    const result: WatchResult = { scopes: scopes.length, drops: [], rearmed: [] };
    if (scopes.length === 0) return result;
    return storage.transaction(async (tx) => {
      const states = new Map(
        (await tx.scheduleNotices.states(scopes.map((x) => x.id))).map((r) => [r.scope, r]),
      );
      const events: OutboxEvent[] = [];
      for (const scope of scopes) {
        const state = states.get(scope.id)!;
        const move = transition(state.armed, scope.tally, s);
        const m = { reliability: scope.tally.reliability, calls: scope.tally.calls, measuredAt: at };
        const changed = await tx.scheduleNotices.measure(
          scope.id,
          m,
          move === "drop" ? false : move === "rearm" ? true : undefined,
        );
        if (move === "rearm" && changed) result.rearmed.push(scope.id);
        if (move !== "drop" || !changed) continue;
        result.drops.push(scope.id);
        // Carrier-wide drops reach every subscriber; a lane's only those following that lane.
        const orgs =
          scope.lane === null
            ? [...subscribers]
            : [...new Set(follows.filter((f) => laneScope(f) === scope.id).map((f) => f.orgId))].filter((o) =>
                subscribers.has(o),
              );
        const data = dropData(scope, state.reliability, s, window, at);
        for (const orgId of orgs.sort()) {
          events.push({ orgId, product: "schedules", type: RELIABILITY_DROP, data });
        }
      }
      await tx.outbox.append(events, at);
      return result;
    });
  }
}

const iso = (ms: number) => new Date(ms).toISOString();

function dropData(
  scope: Scope,
  previous: number | null,
  s: ReliabilitySettings,
  window: { fromMs: number; toMs: number },
  detectedAt: string,
): EventData<"schedules", typeof RELIABILITY_DROP> {
  return {
    scope: scope.lane === null ? "carrier" : "lane",
    carrier_code: scope.carrier,
    lane: scope.lane,
    reliability: scope.tally.reliability,
    previous_reliability: previous,
    threshold: s.threshold,
    rearm_at: Math.round((s.threshold + s.margin) * 10_000) / 10_000,
    calls: scope.tally.calls,
    on_time: scope.tally.on_time,
    mean_delay_hours: scope.tally.mean_delay_hours,
    window: { from: iso(window.fromMs), to: iso(window.toMs), days: s.windowDays },
    tolerance_hours: ON_TIME_MS / HOUR_MS,
    detected_at: detectedAt,
  };
}
