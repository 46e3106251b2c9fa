/**
 * Asking airlines: a waybill's refresh (its airline's ONE Record connector, at most
 * perAirlineConcurrency calls in flight per airline), the first fetch that ends an add, failures
 * backing off, the poller's claims, and applying a snapshot in one transaction (the pure steps in
 * waybill-state.ts).
 */

import { log } from "../../common/log.ts";
import type { AirWaybillRow } from "../../storage/air-waybills.ts";
import { type AirlineConnector, AirlineError, type AwbSnapshot } from "../airlines/connector.ts";
import type { PollingDeps } from "../tracking/deps.ts";
import { Gates } from "../tracking/gate.ts";
import { visiblyChanged } from "../tracking/visible.ts";
import { AIR_CADENCE, backoff, CLAIM_MS } from "./schedule.ts";
import type { AwbStatus } from "./status.ts";
import type { AirportLookup } from "./timeline.ts";
import { mergeEvents, WAYBILL_VISIBLE, waybillState } from "./waybill-state.ts";

export interface AirTrackingDeps extends PollingDeps {
  /** ONE Record connectors by airline IATA code. */
  connectors: ReadonlyMap<string, AirlineConnector>;
  airports: AirportLookup;
  cadence?: Partial<Record<AwbStatus, number | null>>;
  /** Airline calls in flight per airline (per process). */
  perAirlineConcurrency?: number;
}

export interface AirRefreshOutcome {
  ok: boolean;
  events: number;
  error?: AirlineError;
}

export class AirRefresh {
  private readonly gates: Gates;
  private readonly cadence: Record<AwbStatus, number | null>;

  constructor(private readonly deps: AirTrackingDeps) {
    this.cadence = { ...AIR_CADENCE, ...deps.cadence };
    this.gates = new Gates(deps.perAirlineConcurrency ?? 4);
  }

  private iso(ms = this.deps.now()): string {
    return new Date(ms).toISOString();
  }

  /** The first airline call of a new waybill. Never throws: the add is committed by now. */
  async firstFetch(row: AirWaybillRow): Promise<{ row: AirWaybillRow; warning: string | null }> {
    let warning: string | null = null;
    let done = false;
    try {
      const outcome = await this.refresh(row.id);
      done = true;
      if (!this.deps.connectors.has(row.airlineIata))
        warning = `No ONE Record connection to ${row.airlineName ?? row.airlineIata} yet; tracking starts when one is configured.`;
      else if (outcome.error)
        warning = `The airline did not answer yet (${outcome.error.kind}); polling continues.`;
      else if (outcome.events === 0)
        warning = "The airline has no events for this waybill yet; polling continues.";
    } catch (err) {
      log.error({ component: "air", err }, `first fetch of ${row.awb}`);
      warning = "The first airline check did not complete; polling continues.";
    }
    let latest = await this.deps.storage.airWaybills.byId(row.id);
    if (!latest || latest.adding) {
      // The refresh wrote nothing (it threw): end the add, and make the waybill due now.
      await this.deps.storage.airWaybills.updateWhileAdding(row.id, {
        adding: false,
        ...(done ? {} : { nextPollAt: this.iso() }),
      });
      if (!done) this.deps.wakeups?.signal("tracking.due");
      latest = await this.deps.storage.airWaybills.byId(row.id);
    }
    return { row: latest ?? row, warning };
  }

  /** Asks the airline and applies its answer. Airline failures back off; they never throw. */
  async refresh(id: string): Promise<AirRefreshOutcome> {
    const row = await this.deps.storage.airWaybills.byId(id);
    if (!row || row.archivedAt) return { ok: false, events: 0 };
    const connector = this.deps.connectors.get(row.airlineIata);
    if (!connector) {
      await this.unconnected(row);
      return { ok: false, events: 0 };
    }
    let snapshot: AwbSnapshot;
    try {
      snapshot = await this.gates.run(row.airlineIata, () => connector.waybill(row.awb));
      if (snapshot.awb !== row.awb) {
        throw new AirlineError("malformed", `asked for ${row.awb}, the airline answered for ${snapshot.awb}`);
      }
    } catch (err) {
      if (!(err instanceof AirlineError)) throw err;
      await this.failed(row, err);
      return { ok: false, events: 0, error: err };
    }
    await this.apply(row.id, snapshot);
    return { ok: true, events: snapshot.events.length };
  }

  /** No connector for the airline (any more): looked at again at the slowest cadence. */
  private async unconnected(row: AirWaybillRow): Promise<void> {
    const now = this.deps.now();
    const update: Partial<AirWaybillRow> = {
      connectorStatus: "not_connected",
      lastPolledAt: this.iso(now),
      nextPollAt: this.iso(now + (this.cadence.unknown ?? AIR_CADENCE.unknown!)),
      adding: false,
    };
    if (visiblyChanged(WAYBILL_VISIBLE, row, update)) update.updatedAt = this.iso(now);
    await this.deps.storage.airWaybills.update(row.id, update);
  }

  private async failed(row: AirWaybillRow, err: AirlineError): Promise<void> {
    const now = this.deps.now();
    const failures = row.pollFailures + 1;
    const update: Partial<AirWaybillRow> = {
      lastError: err.kind,
      pollFailures: failures,
      lastPolledAt: this.iso(now),
      nextPollAt: this.iso(now + backoff(failures)),
      adding: false,
    };
    if (visiblyChanged(WAYBILL_VISIBLE, row, update)) update.updatedAt = this.iso(now);
    await this.deps.storage.airWaybills.update(row.id, update);
  }

  /**
   * Stores an airline snapshot and re-derives the waybill, raising its outbox rows, in one
   * transaction: all of it is written or none.
   */
  async apply(id: string, snapshot: AwbSnapshot): Promise<void> {
    const nowMs = this.deps.now();
    const nowIso = this.iso(nowMs);
    const raisedCount = await this.deps.storage.transaction(async (tx) => {
      // Another refresh of the same waybill (another poller) waits for this commit, then compares
      // against what this one wrote: nothing is raised twice.
      await tx.airWaybills.lock(id);
      const row = await tx.airWaybills.byId(id);
      if (!row || row.archivedAt) return 0;
      const merged = mergeEvents(await tx.airWaybills.events(id), snapshot.events);
      for (const stored of merged.inserts) await tx.airWaybills.insertEvent(id, stored, nowIso);
      for (const event of merged.replaces) await tx.airWaybills.replaceEvent(id, event.id, event);
      const at = { nowMs, cadence: this.cadence };
      const { update, raised } = waybillState(row, snapshot, merged, at, this.deps.airports);
      await tx.outbox.append(
        raised.map((e) => ({ orgId: row.orgId, product: "air", ...e })),
        nowIso,
      );
      await tx.airWaybills.update(id, update);
      return raised.length;
    });
    // After the commit: the dispatcher reads only what is committed.
    if (raisedCount > 0) this.deps.wakeups?.signal("webhooks.outbox");
  }

  /**
   * Claims up to `limit` due waybills (oldest due first) by pushing their next poll out by
   * CLAIM_MS in one statement, so several pollers on one database never take the same one.
   */
  claimDue(limit: number): Promise<string[]> {
    const now = this.deps.now();
    return this.deps.storage.airWaybills.claimDue(this.iso(now), this.iso(now + CLAIM_MS), limit);
  }

  /** One poller tick: refreshes every claimed waybill, honouring per-airline concurrency. */
  async pollDue(limit = 200): Promise<number> {
    const ids = await this.claimDue(limit);
    await Promise.all(
      ids.map((id) =>
        // One waybill's unexpected failure leaves the others' refreshes alone; its claim lapses.
        this.refresh(id).catch((err) => log.error({ component: "air", err }, `refresh of ${id}`)),
      ),
    );
    return ids.length;
  }
}
