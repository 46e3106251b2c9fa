/**
 * Keeps the schedules of configured carriers (those with a schedulesBaseUrl) fresh in the
 * database: fetches the vessel schedules of the carrier's fleet over a window, splits them into
 * sailings (service + voyage), and in one transaction per carrier inserts new sailings, updates
 * changed ones appending each difference to sailing_changes, and marks sailings of the window that
 * the carrier no longer publishes as withdrawn (blank sailings). A failed fetch writes nothing but
 * the feed's error; the next round retries. The same transaction raises the blank_sailing and
 * sailing_slipped webhook events (events.ts). docs/schedules.md, "Keeping schedules fresh", "Events".
 */

import { errorLine } from "../../common/log.ts";
import type { NewSailingChange, SailingRow } from "../../storage/sailings.ts";
import type { Repositories, Storage } from "../../storage/storage.ts";
import { CarrierError, type DcsaConnectorConfig } from "../carriers/connector.ts";
import { CsClient } from "./cs-client.ts";
import type { CallTimes, Sailing, ScheduleCall } from "./cs-types.ts";
import {
  appendScheduleEvents,
  blankSailing,
  DEFAULT_SLIP_HOURS,
  type FirstDeparture,
  type RaisedScheduleEvent,
  slipped,
} from "./events.ts";
import { callsByKey } from "./stored.ts";

const D = 86_400_000;
/** Sailings departing (planned) from this long before the clock are compared and kept fresh... */
export const WINDOW_BACK_MS = 8 * 7 * D;
/** ...up to this long after it. */
export const WINDOW_AHEAD_MS = 12 * 7 * D;
/**
 * The fetch reaches this far past the window so a voyage departing at its end arrives inside the
 * fetch too (longest sandbox half round trip ~6 weeks, plus delays): its last call is never cut off.
 */
const FETCH_MARGIN_MS = 10 * 7 * D;

export interface ScheduleSyncOptions {
  storage: Storage;
  carriers: readonly DcsaConnectorConfig[];
  /** The clock the window is taken from (the sandbox's manual clock in tests). */
  now?: () => number;
  /** A carrier refreshed (by any process) more recently than this is skipped by pollDue. Default 0. */
  minAgeMs?: number;
  /** A first call's expected departure moving later than this raises sailing_slipped. Default 12 h. */
  slipThresholdMs?: number;
  log?: (...args: unknown[]) => void;
}

export interface CarrierSyncResult {
  carrier: string;
  /** False when a fresher fetch (another process) had already been applied. */
  applied: boolean;
  sailings: number;
  inserted: number;
  changed: number;
  withdrawn: number;
  changes: number;
  /** Events raised (before the fan-out to organisations). */
  blankSailings: number;
  slips: number;
}

/** The sailing one CS voyage makes: what is stored, before the bookkeeping columns. */
export interface FetchedSailing {
  id: string;
  carrier: string;
  serviceCode: string;
  serviceName: string;
  voyage: string;
  vesselImo: string | null;
  vesselName: string | null;
  calls: ScheduleCall[];
  departsAt: string;
  arrivesAt: string;
}

const utc = (t: string | undefined): string | undefined =>
  t === undefined ? undefined : new Date(Date.parse(t)).toISOString();

const planned = (c: ScheduleCall, side: "arrival" | "departure"): string | undefined => c[side].planned;

/**
 * A hull's published calls split into voyages: a voyage holds the calls departing on it and the call
 * it arrives at under that number (the turn or the next round's first port), in the carrier's order.
 * A voyage with no departure in the fetch (only its last arrival showed) is not a sailing here.
 */
export function sailingsOf(carrier: string, published: readonly Sailing[]): FetchedSailing[] {
  const out = new Map<string, FetchedSailing>();
  for (const s of published) {
    const voyages = new Map<string, ScheduleCall[]>();
    for (const call of s.calls) {
      const exp = call.exportVoyage ?? call.importVoyage;
      for (const v of new Set([exp, call.importVoyage])) {
        if (!v) continue;
        voyages.set(v, [...(voyages.get(v) ?? []), call]);
      }
    }
    for (const [voyage, calls] of voyages) {
      const first = calls.find((c) => (c.exportVoyage ?? c.importVoyage) === voyage);
      const departsAt = first && utc(planned(first, "departure") ?? planned(first, "arrival"));
      if (!departsAt) continue;
      const last = calls.at(-1)!;
      const id = `${carrier}/${s.serviceCode}/${voyage}`;
      if (out.has(id)) continue; // one voyage number on two hulls: the first published wins
      out.set(id, {
        id,
        carrier,
        serviceCode: s.serviceCode,
        serviceName: s.serviceName,
        voyage,
        vesselImo: s.vessel?.imo ?? null,
        vesselName: s.vessel?.name ?? null,
        calls,
        departsAt,
        arrivesAt: utc(planned(last, "arrival") ?? planned(last, "departure")) ?? departsAt,
      });
    }
  }
  return [...out.values()];
}

/** The first call departing on the voyage, keyed as the changes key it. */
export function firstDeparture(calls: readonly ScheduleCall[], voyage: string): FirstDeparture | null {
  for (const [call, c] of callsByKey(calls)) {
    if ((c.exportVoyage ?? c.importVoyage) !== voyage) continue;
    const planned = utc(c.departure.planned) ?? null;
    return {
      call,
      unlocode: c.place.unlocode,
      planned,
      expected: utc(c.departure.estimated) ?? planned,
      departed: c.departure.actual !== undefined,
    };
  }
  return null;
}

/** Same instant (a carrier may write one instant in another offset), or both absent. */
function sameTime(a: string | undefined, b: string | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return Date.parse(a) === Date.parse(b);
}

type Change = Omit<NewSailingChange, "sailingId" | "seenAt">;

/** Every difference between a stored sailing's calls and vessel and a fresh fetch of it. */
export function differences(before: SailingRow, after: FetchedSailing): Change[] {
  const out: Change[] = [];
  if (before.status !== "active")
    out.push({ call: null, field: "status", before: before.status, after: "active" });
  if (before.vesselImo !== after.vesselImo || before.vesselName !== after.vesselName) {
    out.push({
      call: null,
      field: "vessel",
      before: { imo: before.vesselImo, name: before.vesselName },
      after: { imo: after.vesselImo, name: after.vesselName },
    });
  }
  const old = callsByKey(before.calls as ScheduleCall[]);
  const now = callsByKey(after.calls);
  for (const [key, was] of old) {
    const is = now.get(key);
    if (!is) {
      out.push({ call: key, field: "call", before: was, after: null });
      continue;
    }
    for (const side of ["arrival", "departure"] as const) {
      for (const kind of ["planned", "estimated", "actual"] as const satisfies (keyof CallTimes)[]) {
        const [a, b] = [was[side][kind], is[side][kind]];
        if (!sameTime(a, b))
          out.push({ call: key, field: `${side}.${kind}`, before: a ?? null, after: b ?? null });
      }
    }
    const codes = new Set([...was.cutOffs, ...is.cutOffs].map((c) => c.code));
    for (const code of codes) {
      const a = was.cutOffs.find((c) => c.code === code)?.at;
      const b = is.cutOffs.find((c) => c.code === code)?.at;
      if (!sameTime(a, b))
        out.push({ call: key, field: `cutoff.${code}`, before: a ?? null, after: b ?? null });
    }
  }
  for (const [key, is] of now) {
    if (!old.has(key)) out.push({ call: key, field: "call", before: null, after: is });
  }
  return out;
}

export class ScheduleSync {
  private readonly now: () => number;
  private readonly log: (...args: unknown[]) => void;
  private readonly clients: CsClient[];
  private readonly slipThresholdMs: number;

  constructor(private readonly opts: ScheduleSyncOptions) {
    this.now = opts.now ?? Date.now;
    this.log = opts.log ?? errorLine("schedules");
    this.slipThresholdMs = opts.slipThresholdMs ?? DEFAULT_SLIP_HOURS * 3_600_000;
    this.clients = opts.carriers
      .filter((c) => c.schedulesBaseUrl)
      .map((c) => new CsClient({ ...c, baseUrl: c.schedulesBaseUrl! }));
  }

  get carriers(): string[] {
    return this.clients.map((c) => c.scac);
  }

  /**
   * The poller's entry: refreshes every carrier not refreshed within minAgeMs; a carrier's failure
   * (typed CarrierError or other) is logged and stored on its feed, and retried next round.
   * Returns how many carriers were refreshed.
   */
  async pollDue(): Promise<number> {
    let done = 0;
    for (const client of this.clients) {
      const feed = await this.opts.storage.sailings.feed(client.scac);
      const last = feed?.lastSyncedAt ? Date.parse(feed.lastSyncedAt) : Number.NEGATIVE_INFINITY;
      if (this.now() - last < (this.opts.minAgeMs ?? 0)) continue;
      try {
        await this.syncCarrier(client.scac);
        done++;
      } catch (err) {
        this.log(
          `[schedules] ${client.scac}:`,
          err instanceof CarrierError ? `${err.kind}: ${err.message}` : err,
        );
      }
    }
    return done;
  }

  /** Fetches one carrier's window and applies it in one transaction; throws what the fetch threw. */
  async syncCarrier(scac: string): Promise<CarrierSyncResult> {
    const client = this.clients.find((c) => c.scac === scac);
    if (!client) throw new RangeError(`no schedules configured for ${scac}`);
    const { storage } = this.opts;
    const at = this.now();
    const attemptedAt = new Date(at).toISOString();
    const from = at - WINDOW_BACK_MS;
    const to = at + WINDOW_AHEAD_MS;
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    let published: Sailing[];
    try {
      // The carrier's own fleet; the day either side covers local dates at the ports.
      published = await client.vesselSchedules({
        vesselOperatorCarrierCode: scac,
        startDate: day(from - D),
        endDate: day(to + FETCH_MARGIN_MS),
        responseScope: "FULL_VOYAGE",
      });
    } catch (err) {
      const feed = await storage.sailings.feed(scac);
      await storage.sailings.updateFeed(scac, {
        lastAttemptAt: attemptedAt,
        lastError: err instanceof CarrierError ? `${err.kind}: ${err.message}` : String(err),
        failures: (feed?.failures ?? 0) + 1,
      });
      throw err;
    }
    const [fromIso, toIso] = [new Date(from).toISOString(), new Date(to).toISOString()];
    const fresh = sailingsOf(scac, published).filter((s) => s.departsAt >= fromIso && s.departsAt <= toIso);
    return storage.transaction((tx) => this.apply(tx, scac, attemptedAt, fromIso, toIso, fresh));
  }

  private async apply(
    tx: Repositories,
    scac: string,
    seenAt: string,
    from: string,
    to: string,
    fresh: FetchedSailing[],
  ): Promise<CarrierSyncResult> {
    const result: CarrierSyncResult = {
      carrier: scac,
      applied: false,
      sailings: fresh.length,
      inserted: 0,
      changed: 0,
      withdrawn: 0,
      changes: 0,
      blankSailings: 0,
      slips: 0,
    };
    const feed = await tx.sailings.lockFeed(scac);
    // Another process applied a fetch made later than ours while we fetched: ours is stale.
    if (feed.lastSyncedAt && feed.lastSyncedAt > seenAt) return result;
    const stored = new Map(
      (
        await tx.sailings.forRefresh(
          scac,
          from,
          to,
          fresh.map((s) => s.id),
        )
      ).map((r) => [r.id, r]),
    );
    const run: ApplyRun = { tx, seenAt, changes: [], raised: [], result };
    for (const s of fresh) {
      const before = stored.get(s.id);
      stored.delete(s.id);
      await this.refresh(run, s, before);
    }
    // Left over: stored sailings of the window the carrier no longer publishes.
    for (const gone of stored.values()) {
      if (gone.status === "withdrawn" || gone.departsAt < from || gone.departsAt > to) continue;
      await withdraw(run, gone);
    }
    const { changes, raised } = run;
    await tx.sailings.appendChanges(changes);
    await appendScheduleEvents(tx, raised, seenAt);
    result.blankSailings = raised.filter((e) => e.type === "blank_sailing").length;
    result.slips = raised.filter((e) => e.type === "sailing_slipped").length;
    await tx.sailings.updateFeed(scac, {
      lastSyncedAt: seenAt,
      lastAttemptAt: seenAt,
      lastError: null,
      failures: 0,
    });
    result.changes = changes.length;
    result.applied = true;
    return result;
  }

  /** One published sailing: inserted when new, updated (with its changes and a slip) when different. */
  private async refresh(run: ApplyRun, s: FetchedSailing, before: SailingRow | undefined): Promise<void> {
    const { tx, seenAt } = run;
    const first = firstDeparture(s.calls, s.voyage);
    if (!before) {
      await tx.sailings.insert({
        ...s,
        status: "active",
        firstSeenAt: seenAt,
        changedAt: seenAt,
        slipBaselineAt: first?.expected ?? null,
      });
      run.result.inserted++;
      return;
    }
    const found = differences(before, s);
    if (found.length === 0) return;
    // Only a refresh that found a difference can raise: the same schedule again raises nothing.
    const slip = slipped(
      s,
      firstDeparture(before.calls as ScheduleCall[], before.voyage),
      first,
      before.slipBaselineAt,
      this.slipThresholdMs,
      seenAt,
    );
    if (slip.raised) run.raised.push(slip.raised);
    await tx.sailings.update(s.id, {
      ...s,
      status: "active",
      changedAt: seenAt,
      slipBaselineAt: slip.baseline,
    });
    run.changes.push(...found.map((c) => ({ ...c, sailingId: s.id, seenAt })));
    run.result.changed++;
  }
}

/** What one apply collects for the end of its transaction. */
interface ApplyRun {
  tx: Repositories;
  seenAt: string;
  changes: NewSailingChange[];
  raised: RaisedScheduleEvent[];
  result: CarrierSyncResult;
}

/** A stored sailing of the window the carrier no longer publishes: withdrawn, a blank sailing raised. */
async function withdraw(run: ApplyRun, gone: SailingRow): Promise<void> {
  await run.tx.sailings.update(gone.id, { status: "withdrawn", changedAt: run.seenAt });
  const calls = gone.calls as ScheduleCall[];
  const blank = blankSailing(
    gone,
    firstDeparture(calls, gone.voyage),
    calls.map((c) => c.place.unlocode),
    run.seenAt,
  );
  if (blank) run.raised.push(blank);
  run.changes.push({
    sailingId: gone.id,
    call: null,
    field: "status",
    before: gone.status,
    after: "withdrawn",
    seenAt: run.seenAt,
  });
  run.result.withdrawn++;
}
