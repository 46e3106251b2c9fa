/**
 * Air-waybill tracking: starts tracking an AWB, asks its airline (an AirlineConnector: ONE Record),
 * stores the airline's events by id, derives the waybill's state and writes the awb_* outbox rows
 * in the same transaction as the state change. The air-cargo routes and the poller drive it; all
 * state lives in the database. Derivation, milestones, webhook events and cadence are modules of
 * their own beside this one.
 */
import type { AirWaybillRow } from "../../storage/air-waybills.ts";
import { DuplicateKeyError } from "../../storage/errors.ts";
import type { Org } from "../../storage/orgs.ts";
import type { Storage } from "../../storage/storage.ts";
import { type AwbPrefixes, formatAwb, parseAwb } from "../airlines/awb.ts";
import {
  type AirlineConnector,
  AirlineError,
  type AwbEvent,
  type AwbSnapshot,
} from "../airlines/connector.ts";
import { TrackingError } from "../tracking/errors.ts";
import { Gate } from "../tracking/gate.ts";
import { chargeAdd } from "../tracking/quotas.ts";
import type { Wakeups } from "../wakeups.ts";
import { awbEvents } from "./notify.ts";
import { AIR_ADD_LEASE_MS, AIR_CADENCE, backoff, CLAIM_MS } from "./schedule.ts";
import { type AwbStatus, currentEvents, deriveAwb, type SeenEvent } from "./status.ts";
import { type AirportLookup, type AwbMilestone, toMilestone } from "./timeline.ts";

export type { AirWaybillRow };

export interface AirEngineDeps {
  storage: Storage;
  now: () => number;
  prefixes: AwbPrefixes;
  /** ONE Record connectors by airline IATA code. */
  connectors: ReadonlyMap<string, AirlineConnector>;
  airports: AirportLookup;
  /** Tells the dispatcher about new outbox rows, and pollers about waybills due now. */
  wakeups?: Wakeups;
  cadence?: Partial<Record<AwbStatus, number | null>>;
  /** Airline calls in flight per airline (per process). */
  perAirlineConcurrency?: number;
  /** Override of AIR_ADD_LEASE_MS. */
  addLeaseMs?: number;
}

export interface AirRefreshOutcome {
  ok: boolean;
  events: number;
  error?: AirlineError;
}

/** Reason of a waybill archived by its owner (DELETE). */
export const DELETED_REASON = "deleted";

/** Row fields a user sees; updated_at moves when one of them (or the timeline) changes. */
const VISIBLE_FIELDS = [
  "origin",
  "destination",
  "pieces",
  "weightKg",
  "status",
  "exceptions",
  "eta",
  "etaIsEstimated",
  "plannedArrivalAt",
  "departedAt",
  "arrivedAt",
  "deliveredAt",
  "lastError",
  "connectorStatus",
  "archivedAt",
] as const satisfies readonly (keyof AirWaybillRow)[];

function visiblyChanged(row: AirWaybillRow, update: Partial<AirWaybillRow>): boolean {
  return VISIBLE_FIELDS.some(
    (f) => f in update && JSON.stringify(update[f] ?? null) !== JSON.stringify(row[f] ?? null),
  );
}

export class AirTrackingEngine {
  private readonly gates = new Map<string, Gate>();
  private readonly cadence: Record<AwbStatus, number | null>;

  constructor(private readonly deps: AirEngineDeps) {
    this.cadence = { ...AIR_CADENCE, ...deps.cadence };
  }

  get airports(): AirportLookup {
    return this.deps.airports;
  }

  private iso(ms = this.deps.now()): string {
    return new Date(ms).toISOString();
  }

  /**
   * The AWB and its airline from what a caller typed. A malformed number, a wrong check digit (with
   * the likely intended number) or a prefix no airline holds are the caller's to fix (invalid_reference).
   */
  resolve(text: string): { awb: string; airline: { iata: string; name: string } } {
    const parsed = parseAwb(text);
    if (!parsed.ok) {
      if (parsed.reason === "format") throw new TrackingError("invalid_reference", `awb: ${parsed.message}.`);
      const { hint } = parsed;
      throw new TrackingError(
        "invalid_reference",
        `awb ${formatAwb(parsed.awb)} is not a valid air waybill number: ${parsed.message}`,
        {
          hint: formatAwb(hint.suggestion),
          suggestions: (hint.swapped ? [hint.suggestion, hint.swapped] : [hint.suggestion]).map(formatAwb),
        },
      );
    }
    const airline = this.deps.prefixes.airline(parsed.prefix);
    if (!airline) {
      throw new TrackingError(
        "invalid_reference",
        `awb ${formatAwb(parsed.awb)}: no airline in the IATA prefix table holds prefix ${parsed.prefix}.`,
      );
    }
    return { awb: parsed.awb, airline };
  }

  /**
   * Starts tracking; the first airline call happens before returning, so most adds come back with
   * their status. A failed call never fails the add (it is committed and charged): it is a warning,
   * and polling continues.
   */
  async add(org: Org, text: string): Promise<{ row: AirWaybillRow; warning: string | null }> {
    return this.firstFetch(await this.register(org, text));
  }

  /**
   * Validates, charges the month's shipment and inserts the waybill (marked as adding) in one
   * transaction. Throws its TrackingError refusals; nothing is written or charged when it does.
   */
  async register(org: Org, text: string): Promise<AirWaybillRow> {
    const { awb, airline } = this.resolve(text);
    const nowMs = this.deps.now();
    const now = this.iso(nowMs);
    try {
      return await this.deps.storage.transaction(async (tx) => {
        // The shipment quota counts an AWB like any shipment; it takes no container slot.
        await chargeAdd(tx, org, formatAwb(awb), [], nowMs);
        return tx.airWaybills.insert({
          id: crypto.randomUUID(),
          orgId: org.id,
          awb,
          airlineIata: airline.iata,
          airlineName: airline.name,
          connectorStatus: this.deps.connectors.has(airline.iata) ? null : "not_connected",
          // Due only once the add's lease lapses: pollers leave a live add alone.
          nextPollAt: this.iso(nowMs + (this.deps.addLeaseMs ?? AIR_ADD_LEASE_MS)),
          updatedAt: now,
          addedAt: now,
          adding: true,
        });
      });
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
      const existing = await this.deps.storage.airWaybills.active(org.id, awb);
      throw new TrackingError("already_tracked", `${formatAwb(awb)} is already tracked; read it back.`, {
        id: existing?.id,
      });
    }
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
      console.error(`[air] first fetch of ${row.awb}:`, err);
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

  /** A waybill of the organisation; another organisation's id reads as absent. */
  get(orgId: string, id: string): Promise<AirWaybillRow | undefined> {
    return this.deps.storage.airWaybills.get(orgId, id);
  }

  /** The waybill's current events as milestones, oldest first. */
  async timeline(row: AirWaybillRow): Promise<AwbMilestone[]> {
    const seen = await this.seen(row.id);
    return currentEvents(seen).map((e) => toMilestone(e, this.deps.airports));
  }

  private async seen(id: string): Promise<SeenEvent[]> {
    const stored = await this.deps.storage.airWaybills.events(id);
    return stored.map((s) => ({ event: s.payload as AwbEvent, seq: s.seq }));
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
    let gate = this.gates.get(row.airlineIata);
    if (!gate) {
      gate = new Gate(this.deps.perAirlineConcurrency ?? 4);
      this.gates.set(row.airlineIata, gate);
    }
    let snapshot: AwbSnapshot;
    try {
      snapshot = await gate.run(() => connector.waybill(row.awb));
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
    if (visiblyChanged(row, update)) update.updatedAt = this.iso(now);
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
    if (visiblyChanged(row, update)) update.updatedAt = this.iso(now);
    await this.deps.storage.airWaybills.update(row.id, update);
  }

  /**
   * Stores an airline snapshot and re-derives the waybill, raising its outbox rows, in one
   * transaction: all of it is written or none. Milestones reached before the waybill was added raise
   * nothing (webhooks report what happens after tracking starts); they count as notified.
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
      const stored = await tx.airWaybills.events(id);
      const seen = stored.map((s) => ({ event: s.payload as AwbEvent, seq: s.seq }));
      const byEventId = new Map(seen.map((s) => [s.event.id, s]));
      let next = stored.reduce((max, s) => Math.max(max, s.seq), -1) + 1;
      let eventsChanged = false;
      for (const e of snapshot.events) {
        const known = byEventId.get(e.id);
        if (!known) {
          const entry = { event: e, seq: next++ };
          await tx.airWaybills.insertEvent(id, { eventId: e.id, seq: entry.seq, payload: e }, nowIso);
          seen.push(entry);
          byEventId.set(e.id, entry);
        } else if (JSON.stringify(known.event) !== JSON.stringify(e)) {
          await tx.airWaybills.replaceEvent(id, e.id, e);
          known.event = e;
        } else continue;
        eventsChanged = true;
      }
      const facts = {
        origin: snapshot.origin ?? row.origin,
        destination: snapshot.destination ?? row.destination,
        pieces: snapshot.pieces ?? row.pieces,
      };
      const weightKg = snapshot.weightKg ?? row.weightKg;
      const d = deriveAwb(seen, facts);
      const subject = {
        id: row.id,
        awb: formatAwb(row.awb),
        airlineIata: row.airlineIata,
        pieces: facts.pieces,
        weightKg,
      };
      const { raised, passed } = awbEvents(subject, d, row.notified, row.addedAt, this.deps.airports);
      const notified = [...row.notified, ...passed, ...raised.map((r) => r.type)];
      const cadence = this.cadence[d.status];
      const update: Partial<AirWaybillRow> = {
        origin: d.origin,
        destination: d.destination,
        pieces: facts.pieces,
        weightKg,
        status: d.status,
        exceptions: d.exceptions,
        eta: d.eta,
        etaIsEstimated: d.etaIsEstimated,
        plannedArrivalAt: d.plannedArrivalAt,
        departedAt: d.departedAt,
        arrivedAt: d.arrivedAt,
        deliveredAt: d.deliveredAt,
        notified,
        lastError: null,
        connectorStatus: null,
        pollFailures: 0,
        lastPolledAt: nowIso,
        nextPollAt: cadence === null ? null : this.iso(nowMs + cadence),
        // Every refresh write ends an add, in the statement that sets the next poll.
        adding: false,
      };
      if (eventsChanged || visiblyChanged(row, update)) update.updatedAt = nowIso;
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

  /** Stops tracking: the waybill is archived (kept readable) and no longer polled. */
  async archive(orgId: string, id: string): Promise<AirWaybillRow> {
    const row = await this.get(orgId, id);
    if (!row) throw new TrackingError("not_found", `No tracked air waybill ${id} on this account.`);
    if (row.archivedAt === null) {
      const at = this.iso();
      await this.deps.storage.airWaybills.update(row.id, {
        archivedAt: at,
        archivedReason: DELETED_REASON,
        nextPollAt: null,
        updatedAt: at,
      });
    }
    return (await this.get(orgId, id))!;
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
        this.refresh(id).catch((err) => console.error(`[air] refresh of ${id}:`, err)),
      ),
    );
    return ids.length;
  }
}
