/**
 * Asking carriers: a record's refresh (its line's connector, at most perCarrierConcurrency calls in
 * flight per SCAC), the first fetch that ends an add, carrier failures backing off or giving up,
 * and the poller's claims. What a snapshot changes is applied in apply.ts.
 */

import { log } from "../../common/log.ts";
import { REJECTED_REASON, type TrackedRow } from "../../storage/trackings.ts";
import { CarrierError, type ReferenceKind } from "../carriers/connector.ts";
import { type ApplyDeps, applySnapshot, discard } from "./apply.ts";
import type { DcsaEventLike } from "./dcsa.ts";
import type { TrackingDeps } from "./deps.ts";
import { TrackingError } from "./errors.ts";
import { Gates } from "./gate.ts";
import { refreshLeases } from "./leases.ts";
import { refundAdd } from "./quotas.ts";
import { ADD_LEASE_MS, type IdentifierType, KIND } from "./registration.ts";
import { backoff, CLAIM_MS, DEFAULT_CADENCE, type PollPriority } from "./schedule.ts";

export interface RefreshOutcome {
  ok: boolean;
  events: number;
  error?: CarrierError;
  /** A strict first fetch undid the add (record deleted, charge refunded): the caller's answer. */
  refused?: TrackingError;
}

/**
 * How a first fetch treats a refusal (the carrier rejects the number's form, or a B/L or booking
 * names more boxes than the plan has slots free). Either way the registration is undone and its
 * charge refunded. Strict when the caller still holds its answer (an add, a held lookup): the
 * record is deleted and the caller answers the error. Otherwise (a lookup answered at once, a
 * poller finishing an interrupted add) the record is archived with the reason, and the next lookup
 * answers it (OceanTracking's lookupRefusal).
 */
export interface FetchOptions {
  strict?: boolean;
  /**
   * The caller did not say what the reference is (a lookup, compat without type=) and registered a
   * document as a B/L: the carrier's events may show it is a booking (named BKG, never TRD). An
   * explicit B/L is not turned into a booking on that alone (its document may not be issued yet).
   */
  kindGuessed?: boolean;
  /** Set by refresh: the carrier knew the number only as a booking (404 as B/L, 200 as booking). */
  answeredAsBooking?: boolean;
}

export class CarrierRefresh {
  private readonly gates: Gates;
  private readonly applying: ApplyDeps;
  readonly cadence: Record<PollPriority, number>;
  private readonly addLeaseMs: number;

  constructor(private readonly deps: TrackingDeps) {
    this.cadence = { ...DEFAULT_CADENCE, ...deps.cadence };
    this.addLeaseMs = deps.addLeaseMs ?? ADD_LEASE_MS;
    this.gates = new Gates(deps.perCarrierConcurrency ?? 4);
    this.applying = { ...deps, cadence: this.cadence };
  }

  private iso(): string {
    return new Date(this.deps.now()).toISOString();
  }

  /**
   * The first carrier call of a new record. Never throws: the record is committed and charged by
   * now, so the add succeeded whatever happens here, and an error would contradict the database
   * (the client's retry would meet ALREADY_TRACKED). The refresh's own write clears the adding mark.
   * The one exception is a strict refusal (see FetchOptions): the refresh deleted the record and
   * refunded its charge in one transaction, and `refused` is the error to answer.
   */
  async firstFetch(
    row: TrackedRow,
    opts: FetchOptions = {},
  ): Promise<{ row: TrackedRow; warning: string | null; refused?: TrackingError }> {
    let warning: string | null = null;
    let done = false;
    try {
      const outcome = await this.refresh(row.id, opts);
      done = true;
      if (outcome.refused) return { row, warning: null, refused: outcome.refused };
      warning = firstFetchWarning(row, outcome, this.deps.connectors);
    } catch (err) {
      log.error({ component: "tracking", err }, `first fetch of ${row.identifier}`);
      warning = "The first carrier check did not complete; polling continues.";
    }
    let latest = await this.readBack(row);
    if (!latest || latest.adding) {
      // The refresh wrote nothing (it threw, or the record was archived meanwhile): end the add
      // here, and after a failure make the record due so the next poller tick tries again.
      try {
        await this.deps.storage.trackings.updateWhileAdding(row.id, {
          adding: false,
          ...(done ? {} : { nextPollAt: this.iso() }),
        });
        if (!done) this.deps.wakeups?.signal("tracking.due");
      } catch (err) {
        // Still marked: the add's lease lapses and a poller takes the record over.
        log.error({ component: "tracking", err }, `ending the add of ${row.identifier}`);
      }
      latest = await this.readBack(row);
    }
    return { row: latest ?? row, warning };
  }

  private async readBack(row: TrackedRow): Promise<TrackedRow | undefined> {
    try {
      return await this.deps.storage.trackings.get(row.orgId, row.id);
    } catch (err) {
      log.error({ component: "tracking", err }, `reading back ${row.identifier}`);
      return undefined;
    }
  }

  /** Asks the carrier for a root record's events and applies them. Carrier failures back off, never throw. */
  async refresh(rootId: string, opts: FetchOptions = {}): Promise<RefreshOutcome> {
    const root = await this.deps.storage.trackings.byId(rootId);
    if (!root || root.archivedAt) return { ok: false, events: 0 };
    const scac = root.carrierCode ?? root.carrierHintCode;
    const connector = scac ? this.deps.connectors.get(scac) : undefined;
    if (!connector || !scac) {
      await this.schedule(root);
      return { ok: false, events: 0 };
    }
    let events: DcsaEventLike[];
    const ask = (kind: ReferenceKind) =>
      this.gates.run(scac, () => connector.fetchEvents({ kind, value: root.identifier })) as Promise<
        DcsaEventLike[]
      >;
    try {
      events = await ask(KIND[root.identifierType as IdentifierType]);
    } catch (err) {
      if (!(err instanceof CarrierError)) throw err;
      // Unknown as a B/L: a carrier with distinct numbers may know it as a booking.
      const asBooking =
        root.identifierType === "bill_of_lading" && err.kind === "rejected" && err.status === 404
          ? await ask("booking").catch(() => null)
          : null;
      if (!asBooking) {
        const refused = await this.failed(root, err, opts);
        return { ok: false, events: 0, error: err, ...(refused ? { refused } : {}) };
      }
      events = asBooking;
      opts = { ...opts, answeredAsBooking: true };
    }
    const refused = await applySnapshot(this.applying, root, events, opts);
    if (refused) return { ok: false, events: events.length, refused };
    await refreshLeases(this.deps, root.id);
    return { ok: true, events: events.length };
  }

  /** Records a carrier failure; returns the refusal when a strict first fetch undid the add. */
  private async failed(
    root: TrackedRow,
    err: CarrierError,
    opts: FetchOptions = {},
  ): Promise<TrackingError | undefined> {
    const now = this.deps.now();
    const failures = root.pollFailures + 1;
    // 400: the carrier rejects the number's form, which no retry will change.
    let invalid = err.kind === "rejected" && err.status === 400;
    if (invalid) {
      const undone = await this.rejectMalformed(root, err, opts);
      if (undone instanceof TrackingError) return undone;
      if (undone === "done") return undefined;
      // Not undone for want of a write: back off and meet the same answer at the next poll.
      if (undone === "retry") invalid = false;
    }
    // A carrier that keeps saying "unknown reference" for three days: resolution is given up too.
    const unknownForLong =
      err.kind === "rejected" && err.status === 404 && now - Date.parse(root.addedAt) > 3 * 86_400_000;
    const reason = invalid
      ? "invalid_number"
      : unknownForLong
        ? root.identifierType === "container_id"
          ? "not_found"
          : "bl_booking_unresolved"
        : null;
    const wait =
      err.details.retryAfterSeconds !== undefined ? err.details.retryAfterSeconds * 1000 : backoff(failures);
    await this.deps.storage.trackings.update(root.id, {
      pollFailures: failures,
      lastPolledAt: new Date(now).toISOString(),
      // Given up: no more polls (a recheck can still ask).
      nextPollAt: reason ? null : new Date(now + wait).toISOString(),
      unresolvableSince: reason
        ? (root.unresolvableSince ?? new Date(now).toISOString())
        : root.unresolvableSince,
      unresolvedReason: reason ?? root.unresolvedReason,
      adding: false,
      ...(reason && reason !== root.unresolvedReason ? { updatedAt: new Date(now).toISOString() } : {}),
    });
    return undefined;
  }

  /**
   * The carrier rejects the form of a number it never answered for: tracking it cannot start, so
   * it must not hold a slot or a charge. Strict first fetch: the record is deleted and its charge
   * refunded, and the refusal returned. Otherwise the record (and any box) is archived as rejected,
   * refunded, and a lookup answers that. "resolved" when the record had carrier data already (the
   * caller records invalid_number on it), "retry" when the database refused the write.
   */
  private async rejectMalformed(
    root: TrackedRow,
    err: CarrierError,
    opts: FetchOptions,
  ): Promise<TrackingError | "done" | "resolved" | "retry"> {
    const nowIso = this.iso();
    // The carrier's own words (a DCSA error's message) when it gave any.
    const said = /"message"\s*:\s*"((?:[^"\\]|\\.)*)"/.exec(err.message)?.[1];
    const refusal = new TrackingError(
      "invalid_reference",
      `The carrier (${root.carrierName ?? root.carrierCode ?? root.carrierHintCode}) rejects ${root.identifier} as malformed${said ? ` (${said})` : ""}; nothing was tracked or charged.`,
    );
    try {
      return await this.deps.storage.transaction(async (tx) => {
        // The record, then its organisation (the refund touches the month's shipments): the order
        // every unit taking both locks keeps.
        await tx.trackings.lock(root.id);
        await tx.orgs.lock(root.orgId);
        const current = await tx.trackings.byId(root.id);
        if (!current || current.archivedAt) return "done" as const;
        if (await tx.events.hasAny(root.id)) return "resolved" as const;
        await refundAdd(tx, current);
        if (opts.strict && current.adding) {
          await discard(tx, current.id);
          return refusal;
        }
        await tx.trackings.updateTree(current.id, {
          archivedAt: nowIso,
          archivedReason: REJECTED_REASON,
          unresolvableSince: current.unresolvableSince ?? nowIso,
          unresolvedReason: "invalid_number",
          lastPolledAt: nowIso,
          nextPollAt: null,
          pollFailures: current.pollFailures + 1,
          adding: false,
          updatedAt: nowIso,
        });
        return "done" as const;
      });
    } catch (e) {
      // Recorded as a plain failure instead; the next poll meets the same answer and tries again.
      log.error({ component: "tracking", err: e }, `undoing the add of ${root.identifier}`);
      return "retry";
    }
  }

  /** No connector for the line: look again at the slowest cadence (a connector may have gone live). */
  private async schedule(row: TrackedRow): Promise<void> {
    const now = this.deps.now();
    await this.deps.storage.trackings.update(row.id, {
      lastPolledAt: new Date(now).toISOString(),
      nextPollAt: new Date(now + this.cadence.pre_departure).toISOString(),
      adding: false,
    });
  }

  /**
   * Makes records whose add was interrupted (still marked as adding, lease lapsed) due at once, so
   * the next poller tick refreshes them and ends the add. Records marked by this code are due by then
   * anyway; this catches those an earlier version left marked with their next poll hours away. Run
   * at start: one scan, and a live add of another process (lease not lapsed) is left alone.
   */
  recoverInterruptedAdds(): Promise<number> {
    const now = this.deps.now();
    return this.deps.storage.trackings.recoverInterruptedAdds(
      new Date(now).toISOString(),
      new Date(now - this.addLeaseMs).toISOString(),
    );
  }

  /**
   * Claims up to `limit` due root records (oldest due first) by pushing their next poll out by
   * CLAIM_MS in one statement, so several pollers on one database never take the same record.
   */
  claimDue(limit: number): Promise<string[]> {
    const now = this.deps.now();
    return this.deps.storage.trackings.claimDue(
      new Date(now).toISOString(),
      new Date(now + CLAIM_MS).toISOString(),
      limit,
    );
  }

  /** One poller tick: refreshes every claimed root, honouring per-carrier concurrency. */
  async pollDue(limit = 200): Promise<number> {
    const ids = await this.claimDue(limit);
    await Promise.all(ids.map((id) => this.refresh(id)));
    return ids.length;
  }
}

/** What an add answers beside its record when the first carrier call brought nothing yet. */
function firstFetchWarning(
  row: TrackedRow,
  outcome: RefreshOutcome,
  connectors: ReadonlyMap<string, unknown>,
): string | null {
  const scac = row.carrierCode ?? row.carrierHintCode;
  if (!scac || !connectors.has(scac))
    return `No connector for carrier ${scac} yet; tracking starts when it goes live.`;
  if (outcome.error) return `The carrier did not answer yet (${outcome.error.kind}); polling continues.`;
  if (outcome.events === 0) return "The carrier has no events for this reference yet; polling continues.";
  return null;
}
