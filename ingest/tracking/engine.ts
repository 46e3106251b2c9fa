/**
 * The tracking engine: starts tracking, asks the carrier, stores raw events, derives each box's
 * state and writes the webhook outbox rows in the same transaction as the state change. Pollers
 * and the ocean API both drive it; all state lives in the database.
 */
import { DuplicateKeyError } from "../../storage/errors.ts";
import type { Org } from "../../storage/orgs.ts";
import type { Repositories, Storage } from "../../storage/storage.ts";
import type { StoredTimeline } from "../../storage/timelines.ts";
import {
  NO_SLOTS_REASON,
  PARKED_REASON,
  REJECTED_REASON,
  type RecordRead,
  type TrackedRow,
} from "../../storage/trackings.ts";
import type { PositionStore, VesselPosition } from "../ais/positions.ts";
import { type CarrierConnector, CarrierError, type ReferenceKind } from "../carriers/connector.ts";
import type { CarrierDirectory } from "../carriers/resolve.ts";
import { validateContainerNumber } from "../iso6346.ts";
import type { LessorConnector, LessorRecord } from "../lessors/connector.ts";
import type { Wakeups } from "../wakeups.ts";
import type { DcsaEventLike } from "./dcsa.ts";
import {
  computeDemurrage,
  type Demurrage,
  type DemurrageSubject,
  type FreeTimeTerms,
  matchTerms,
} from "./demurrage.ts";
import { bookingEvidence, documentNumbers, pick } from "./documents.ts";
import { equipmentFromIso } from "./equipment.ts";
import { TrackingError } from "./errors.ts";
import { Gate } from "./gate.ts";
import { demurrageEvents, type Raised, raisedEvents } from "./outbox-events.ts";
import { chargeAdd, containerSlots, refundAdd, slotRefusal } from "./quotas.ts";
import {
  backoff,
  CLAIM_MS,
  DEFAULT_CADENCE,
  type PollPriority,
  pollPriority,
  RECHECK_INTERVAL_MS,
} from "./schedule.ts";
import {
  aggregateBoxes,
  currentEvents,
  type Derived,
  derive,
  eventsForContainer,
  type FirstPlan,
  milestonesJson,
  type PlaceLookup,
  parkedList,
  recordFirstPlans,
  renderForStore,
  storedFits,
} from "./timeline.ts";

export type { TrackedRow };
export type IdentifierType = "container_id" | "bill_of_lading" | "booking";

const KIND: Record<IdentifierType, ReferenceKind> = {
  container_id: "container",
  bill_of_lading: "bill_of_lading",
  booking: "booking",
};

export interface EngineDeps {
  storage: Storage;
  now: () => number;
  carriers: CarrierDirectory;
  connectors: ReadonlyMap<string, CarrierConnector>;
  places: PlaceLookup;
  isDemo?: (reference: string) => boolean;
  cadence?: Partial<Record<PollPriority, number>>;
  /** Carrier calls in flight per SCAC (per process). */
  perCarrierConcurrency?: number;
  /** Asked in turn about leased boxes (BIC owner is a leasing company). */
  lessors?: readonly LessorConnector[];
  /** Live AIS positions by IMO (vessel_position on records). */
  positions?: PositionStore;
  /** Override of ADD_LEASE_MS. */
  addLeaseMs?: number;
  /** Tells other roles (the dispatcher, pollers) there is work for them now, not at their next tick. */
  wakeups?: Wakeups;
}

/** Lease data older than this is looked up again at the next poll. */
export const LESSOR_REFRESH_MS = 24 * 3_600_000;

/**
 * An add's claim on its new record: the record is due for a poll this long after the add started,
 * so a poller takes over an add whose process died. Far above a first fetch (one carrier call of at
 * most the connector timeout, 15 s, after its turn at the gate); taking over a live add early only
 * costs a second carrier call.
 */
export const ADD_LEASE_MS = 2 * 60_000;

export interface AddInput {
  identifier: string;
  identifierType: IdentifierType;
  carrierCode?: string;
  tags?: string[];
}

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
 * charge refunded. Strict when the caller still holds its answer (an add, a compat registration):
 * the record is deleted and the caller answers the error. Otherwise (a lookup's 202 is gone, a
 * poller finishing an interrupted add) the record is archived with the reason, and the next lookup
 * answers it (lookupRefusal).
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

/**
 * Record fields a user sees (list item, lookup record, compat answer) that tracking data sets.
 * updated_at moves when one of them, or the record's timeline, changes; see docs/tracking.md.
 */
const VISIBLE_FIELDS = [
  "status",
  "eta",
  "etaIsEstimated",
  "plannedDepartureAt",
  "currentVesselImo",
  "currentVesselName",
  "originUnlocode",
  "destinationUnlocode",
  "routePorts",
  "routeAlert",
  "delayBars",
  "customsHoldReason",
  "customsHoldSince",
  "dischargedAt",
  "deliveredAt",
  "isoTypeCode",
  "containerSize",
  "equipmentType",
  "carrierCode",
  "carrierHintCode",
  "identifierType",
  "blNumber",
  "bookingNumber",
  "unresolvableSince",
  "unresolvedReason",
  "archivedAt",
  "archivedReason",
  "equipmentLessor",
  "lesseeName",
  "lessorStatus",
  "lessorContractNumber",
  "lessorContractType",
  "redeliveryReference",
  "redeliveryDate",
  "redeliveryLocation",
  "redeliveryYard",
  "equipmentManufacturer",
] as const satisfies readonly (keyof TrackedRow)[];

/** Whether applying `update` to `row` changes anything a user sees. */
function visiblyChanged(row: TrackedRow, update: Partial<TrackedRow>): boolean {
  return VISIBLE_FIELDS.some(
    (f) => f in update && JSON.stringify(update[f] ?? null) !== JSON.stringify(row[f] ?? null),
  );
}

export function normalizeIdentifier(identifier: string, type: IdentifierType): string {
  const s = identifier.trim().toUpperCase();
  return type === "container_id" ? s.replace(/[\s-]/g, "") : s;
}

export class TrackingEngine {
  private readonly gates = new Map<string, Gate>();
  private readonly cadence: Record<PollPriority, number>;

  private readonly addLeaseMs: number;

  constructor(private readonly deps: EngineDeps) {
    this.cadence = { ...DEFAULT_CADENCE, ...deps.cadence };
    this.addLeaseMs = deps.addLeaseMs ?? ADD_LEASE_MS;
  }

  private iso(): string {
    return new Date(this.deps.now()).toISOString();
  }

  get places(): PlaceLookup {
    return this.deps.places;
  }

  /**
   * Starts tracking; the first carrier call happens before returning, so most adds come back
   * populated. The caller holds its answer meanwhile, so a refusal at that call (the carrier rejects
   * the number's form, a B/L names more boxes than slots are free) undoes the add and is thrown.
   */
  async add(org: Org, input: AddInput): Promise<{ row: TrackedRow; warning: string | null }> {
    const result = await this.firstFetch(await this.register(org, input), { strict: true });
    if (result.refused) throw result.refused;
    return result;
  }

  /**
   * Validates, resolves the line, charges the quota and inserts the record (marked as adding) in one
   * transaction. Throws its TrackingError refusals; nothing is written or charged when it does,
   * and nothing after the commit can throw.
   */
  async register(org: Org, input: AddInput): Promise<TrackedRow> {
    const identifier = normalizeIdentifier(input.identifier, input.identifierType);
    if (input.identifierType === "container_id") {
      const check = validateContainerNumber(identifier);
      if (!check.ok)
        throw new TrackingError("invalid_reference", `identifier ${identifier}: ${check.message}`);
    }
    const resolution = this.deps.carriers.resolve({
      reference: identifier,
      kind: KIND[input.identifierType],
      scacHint: input.carrierCode,
    });
    const carrierCode = resolution.carrier?.scac ?? input.carrierCode?.toUpperCase() ?? null;
    // A leased box: the lessor names the lessee. Without a line of its own that is the line asked,
    // a hint never shown as the carrier (carrier_hint_code only).
    const lease =
      input.identifierType === "container_id" && resolution.ownerIsLessor
        ? await this.lessorLookup(identifier)
        : null;
    const hint =
      !carrierCode && lease?.lesseeScac && this.deps.carriers.carrier(lease.lesseeScac)
        ? lease.lesseeScac
        : null;
    const scac = carrierCode ?? hint;
    if (!scac) {
      throw new TrackingError(
        "reference_not_resolvable",
        `No line recognises ${identifier}${resolution.ownerIsLessor ? ` (owner ${resolution.owner} is a lessor)` : ""}: send carrier_code.`,
      );
    }
    // One instant for the charge's month and added_at: a refund finds the charge by that month.
    const nowMs = this.deps.now();
    const now = new Date(nowMs).toISOString();
    // Due for a poll only once the add's lease has lapsed: pollers leave a live add alone.
    const claimUntil = new Date(nowMs + this.addLeaseMs).toISOString();
    const id = crypto.randomUUID();
    try {
      // One transaction (write lock first): the quota counts are read and the charge written in one
      // snapshot, also with another process adding at the same time.
      return await this.deps.storage.transaction(async (tx) => {
        await chargeAdd(
          tx,
          org,
          identifier,
          input.identifierType === "container_id" ? [identifier] : [],
          nowMs,
        );
        return tx.trackings.insert({
          id,
          orgId: org.id,
          identifier,
          identifierType: input.identifierType,
          containerNumber: input.identifierType === "container_id" ? identifier : null,
          blNumber: input.identifierType === "bill_of_lading" ? identifier : null,
          bookingNumber: input.identifierType === "booking" ? identifier : null,
          carrierCode,
          carrierName: resolution.carrier?.name ?? null,
          carrierHintCode: hint,
          equipmentOwner: resolution.owner,
          ownerIsLessor: resolution.ownerIsLessor && input.identifierType === "container_id",
          ...(lease ? leaseFields(lease) : {}),
          connectorStatus: this.deps.connectors.has(scac) ? null : "not_connected",
          tags: input.tags ?? [],
          isDemo: this.deps.isDemo?.(identifier) ?? false,
          nextPollAt: claimUntil,
          updatedAt: now,
          addedAt: now,
          adding: true,
        });
      });
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
      const existing = await this.findActive(org.id, identifier);
      if (existing?.adding) {
        throw new TrackingError(
          "add_in_progress",
          `${identifier} is being added by another request; read it back shortly.`,
          {
            id: existing.id,
          },
        );
      }
      throw new TrackingError("already_tracked", `${identifier} is already tracked.`, { id: existing?.id });
    }
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
    const scac = row.carrierCode ?? row.carrierHintCode;
    let warning: string | null = null;
    let done = false;
    try {
      const outcome = await this.refresh(row.id, opts);
      done = true;
      if (outcome.refused) return { row, warning: null, refused: outcome.refused };
      if (!scac || !this.deps.connectors.has(scac))
        warning = `No connector for carrier ${scac} yet; tracking starts when it goes live.`;
      else if (outcome.error)
        warning = `The carrier did not answer yet (${outcome.error.kind}); polling continues.`;
      else if (outcome.events === 0)
        warning = "The carrier has no events for this reference yet; polling continues.";
    } catch (err) {
      console.error(`[tracking] first fetch of ${row.identifier}:`, err);
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
        console.error(`[tracking] ending the add of ${row.identifier}:`, err);
      }
      latest = await this.readBack(row);
    }
    return { row: latest ?? row, warning };
  }

  private async readBack(row: TrackedRow): Promise<TrackedRow | undefined> {
    try {
      return await this.get(row.orgId, row.id);
    } catch (err) {
      console.error(`[tracking] reading back ${row.identifier}:`, err);
      return undefined;
    }
  }

  get(orgId: string, id: string): Promise<TrackedRow | undefined> {
    return this.deps.storage.trackings.get(orgId, id);
  }

  /** The active record carrying this identifier as its own reference, as a box of it, or by its B/L or booking. */
  async findActive(orgId: string, identifier: string): Promise<TrackedRow | undefined> {
    // A root tracked by that very identifier wins over a child box of some B/L.
    return this.deps.storage.trackings.firstActiveCarrying(orgId, identifier);
  }

  /** get's and findActive's records as a single read renders them: with their stored milestones. */
  readOwn(orgId: string, id: string): Promise<RecordRead | undefined> {
    return this.deps.storage.trackings.readOwn(orgId, id);
  }

  readActive(orgId: string, identifier: string): Promise<RecordRead | undefined> {
    return this.deps.storage.trackings.readFirstActive(orgId, identifier);
  }

  children(parentId: string): Promise<TrackedRow[]> {
    return this.deps.storage.trackings.children(parentId);
  }

  /** Raw events stored for a root record. */
  async rawEvents(rootId: string, tx: Repositories = this.deps.storage): Promise<DcsaEventLike[]> {
    return (await tx.events.forRecord(rootId)).map((r) => r.payload as DcsaEventLike);
  }

  /**
   * The current (deduplicated, superseded-forecast-free) events of one record, oldest first. A box
   * parked for want of a slot shows none, and its equipment events stay out of its B/L's timeline;
   * a B/L refused for want of slots shows none either: an untracked box's whereabouts are what a
   * slot pays for.
   */
  async timeline(row: TrackedRow): Promise<DcsaEventLike[]> {
    if (withoutSlot(row)) return [];
    const events = await this.rawEvents(row.parentId ?? row.id);
    if (row.containerNumber) return currentEvents(eventsForContainer(events, row.containerNumber));
    return currentEvents(withoutBoxes(events, await this.deps.storage.trackings.parkedBoxes(row.id)));
  }

  /**
   * timeline(row) as the spec's milestones, JSON: the rendering the last refresh stored while it
   * still fits the record (storedFits), else derived now. `parkedBoxes`: parkedList of a B/L's
   * or booking's parked boxes ("" for a box). `stored`: the stored rendering when the caller read it
   * with the row (RecordRead), null when there is none; read here when not given.
   */
  async milestonesJson(
    row: TrackedRow,
    parkedBoxes: string,
    stored?: StoredTimeline | null,
  ): Promise<string> {
    if (withoutSlot(row)) return "[]";
    const kept = stored === undefined ? await this.deps.storage.timelines.get(row.id) : stored;
    if (kept && storedFits(kept.of, this.places, row.containerNumber, parkedBoxes)) return kept.json;
    return milestonesJson(await this.timeline(row), this.places);
  }

  /**
   * What a lookup answers instead of registering this identifier again, when its latest
   * registration was refused after an earlier lookup's 202: the carrier rejected the number's form
   * (404, for good), or its boxes needed more container slots than were free (402 by slotRefusal,
   * while they still do; once they fit, the lookup registers it again).
   */
  async lookupRefusal(orgId: string, identifier: string): Promise<TrackingError | undefined> {
    const latest = await this.deps.storage.trackings.latestRoot(orgId, identifier);
    if (latest?.archivedReason === REJECTED_REASON) {
      return new TrackingError(
        "reference_not_resolvable",
        `The carrier rejects ${latest.identifier} as malformed; nothing is tracked or charged.`,
      );
    }
    if (latest?.archivedReason !== NO_SLOTS_REASON) return undefined;
    const boxes = boxesNamed(await this.rawEvents(latest.id));
    const slots = await containerSlots(this.deps.storage, orgId);
    return slotRefusal(slots.org, slots.active.size, boxes.filter((b) => !slots.active.has(b)).length);
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
    let gate = this.gates.get(scac);
    if (!gate) {
      gate = new Gate(this.deps.perCarrierConcurrency ?? 4);
      this.gates.set(scac, gate);
    }
    let events: DcsaEventLike[];
    const ask = (kind: ReferenceKind) =>
      gate.run(() => connector.fetchEvents({ kind, value: root.identifier })) as Promise<DcsaEventLike[]>;
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
    const refused = await this.apply(root, events, opts);
    if (refused) return { ok: false, events: events.length, refused };
    await this.refreshLeases(root.id);
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
          await this.discard(tx, current.id);
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
      console.error(`[tracking] undoing the add of ${root.identifier}:`, e);
      return "retry";
    }
  }

  /** Deletes a record whose add is undone, with its boxes and stored events (inside the caller's transaction). */
  private async discard(tx: Repositories, rootId: string): Promise<void> {
    const ids = await tx.trackings.treeIds(rootId);
    await tx.events.deleteFor(ids);
    await tx.trackings.delete(ids);
  }

  /**
   * Stores a carrier snapshot and re-derives every affected box, raising outbox rows, in one
   * transaction. Boxes a B/L or booking names take container slots here, counted in this IMMEDIATE
   * transaction like an add's. At the registration's first answer the manifest follows an add's
   * rule (slotRefusal): all its boxes take slots or the registration is refused (refuseManifest).
   * Boxes a later refresh discovers take free slots only; the rest are parked (children archived
   * with PARKED_REASON, taken up at a later refresh once a slot is free).
   */
  async apply(
    stale: TrackedRow,
    snapshot: DcsaEventLike[],
    opts: FetchOptions = {},
  ): Promise<TrackingError | undefined> {
    const nowIso = this.iso();
    let outboxRows = 0;
    // One transaction, write lock first: it reads then writes, and another process's commit in
    // between must wait rather than fail it.
    const result = await this.deps.storage.transaction(async (tx) => {
      // Compare against the row as committed now: another refresh of the same record (a recheck,
      // another poller) may have moved it since the carrier was asked, and must not raise twice.
      // The record's lock makes that other refresh wait for this commit (PostgreSQL).
      await tx.trackings.lock(stale.id);
      const root = (await tx.trackings.byId(stale.id)) ?? stale;
      const orgTerms = await tx.terms.forOrg(root.orgId);
      const stored = new Map(
        (await tx.events.forRecord(root.id)).map((r) => [r.eventId, r.payload as DcsaEventLike]),
      );
      const before = [...stored.values()];
      for (const e of snapshot) {
        const known = stored.get(e.eventID);
        if (!known) {
          await tx.events.insert(root.id, e.eventID, e, nowIso);
        } else if (JSON.stringify(known) !== JSON.stringify(e)) {
          await tx.events.correct(root.id, e.eventID, known, e, nowIso);
        } else continue;
        stored.set(e.eventID, e);
      }
      const after = [...stored.values()];
      const documents = root.identifierType === "container_id" ? null : this.documentsOf(root, after, opts);
      const boxes = boxesNamed(after);
      // Boxes first, the B/L or booking last: its state aggregates theirs.
      const records: TrackedRow[] = [];
      const parked = new Set<string>();
      if (root.identifierType !== "container_id") {
        const kids = await tx.trackings.children(root.id);
        // Slots are counted per organisation: adds and other refreshes taking slots wait for this one.
        await tx.orgs.lock(root.orgId);
        const slots = await containerSlots(tx, root.orgId);
        // Boxes wanting a slot: new ones and parked ones, in the carrier's order. A box the
        // organisation already tracks (alone, or in another B/L) takes no second slot.
        const wanting = boxes.filter((box) => {
          const child = kids.find((k) => k.containerNumber === box);
          return (!child || child.archivedReason === PARKED_REASON) && !slots.active.has(box);
        });
        const refusal = root.adding ? slotRefusal(slots.org, slots.active.size, wanting.length) : undefined;
        if (refusal) return this.refuseManifest(tx, root, refusal, opts.strict === true);
        let free = slots.free ?? Number.POSITIVE_INFINITY;
        const takesSlot = (box: string) => {
          if (slots.active.has(box)) return true;
          if (free <= 0) return false;
          free--;
          slots.active.add(box);
          return true;
        };
        for (const box of boxes) {
          let child = kids.find((k) => k.containerNumber === box);
          if (child?.archivedReason === PARKED_REASON) {
            if (!takesSlot(box)) {
              parked.add(box);
              continue;
            }
            await tx.trackings.update(child.id, {
              archivedAt: null,
              archivedReason: null,
              updatedAt: nowIso,
            });
            child = { ...child, archivedAt: null, archivedReason: null, updatedAt: nowIso };
          } else if (!child) {
            const owner = this.deps.carriers.resolve({ reference: box, kind: "container" });
            const tracks = takesSlot(box);
            child = {
              ...root,
              ...UNDERIVED,
              id: crypto.randomUUID(),
              parentId: root.id,
              identifier: box,
              identifierType: "container_id",
              containerNumber: box,
              blNumber: documents?.blNumber ?? root.blNumber,
              bookingNumber: documents?.bookingNumber ?? root.bookingNumber,
              equipmentOwner: owner.owner,
              ownerIsLessor: owner.ownerIsLessor,
              adding: false,
              updatedAt: nowIso,
              ...(tracks ? {} : { archivedAt: nowIso, archivedReason: PARKED_REASON }),
            };
            await tx.trackings.insert(child);
            if (!tracks) {
              parked.add(box);
              continue;
            }
          }
          records.push(child);
        }
      }
      records.push(root);
      const boxStates: Derived[] = [];
      for (const row of records) {
        const isRootOfMany = row === root && root.identifierType !== "container_id";
        const box = isRootOfMany ? null : row.containerNumber;
        // A parked box's equipment events stay out of its B/L's state (see timeline()).
        const mine = (events: DcsaEventLike[]) =>
          box ? eventsForContainer(events, box) : withoutBoxes(events, parked);
        const plans: Record<string, FirstPlan> = { ...(row.firstPlans ?? {}) };
        recordFirstPlans(plans, mine(after));
        const prevCurrent = currentEvents(mine(before));
        const current = currentEvents(mine(after));
        let d = derive(current, (k) => plans[k] ?? null);
        if (!isRootOfMany) boxStates.push(d);
        else if (boxStates.length > 0) d = aggregateBoxes(d, boxStates);
        const update = this.stateUpdate(row, d, plans, nowIso);
        // The carrier has events for it after all: resolution is no longer given up.
        if (after.length > 0) {
          update.unresolvableSince = null;
          update.unresolvedReason = null;
        }
        // The carrier's booking and B/L numbers, on the B/L or booking and each of its boxes.
        if (documents) {
          update.blNumber = documents.blNumber;
          update.bookingNumber = documents.bookingNumber;
          if (row === root) update.identifierType = documents.identifierType;
        }
        // What users see moved (a field, or the timeline: a new or corrected event): the list's
        // "most recently updated first" follows it. Polls that find nothing new leave it.
        if (visiblyChanged(row, update) || JSON.stringify(prevCurrent) !== JSON.stringify(current)) {
          update.updatedAt = nowIso;
        }
        // Outbox rows for boxes only (a B/L's subscribers hear about each of its containers), and not
        // for what the first fetch backfills: webhooks report what happens from then on.
        const backfill = before.length === 0;
        const raised: Raised[] = [];
        if (!isRootOfMany) {
          // Demurrage runs on the clock: evaluated at every poll, edges raise their events.
          const next = { ...row, ...update } as TrackedRow;
          const dem = this.demurrageOf(next, orgTerms);
          update.demurragePhase = dem.phase;
          if (!backfill) {
            raised.push(...demurrageEvents(next, row.demurragePhase, dem));
            raised.push(...raisedEvents(row, d, prevCurrent, current, this.deps.places));
          }
        }
        await tx.outbox.append(
          raised.map((event) => ({ orgId: row.orgId, product: "ocean", ...event })),
          nowIso,
        );
        outboxRows += raised.length;
        await tx.trackings.update(row.id, update);
        // After the events were written (which dropped the tree's renderings): what a lookup of
        // this record reads instead of deriving it (milestonesJson). Most polls find nothing new:
        // the same rendering is then stored already and not written again.
        const rendered = renderForStore(
          current,
          this.deps.places,
          row.containerNumber,
          isRootOfMany ? parkedList(parked) : "",
        );
        const kept = await tx.timelines.get(row.id);
        if (kept?.of !== rendered.of || kept.json !== rendered.json) await tx.timelines.put(row.id, rendered);
      }
      // Parked boxes are not in records: they carry the document numbers too.
      if (documents && parked.size > 0) {
        await tx.trackings.updateParked(root.id, {
          blNumber: documents.blNumber,
          bookingNumber: documents.bookingNumber,
        });
      }
      return undefined;
    });
    // After the commit: the dispatcher reads only what is committed.
    if (outboxRows > 0) this.deps.wakeups?.signal("webhooks.outbox");
    return result;
  }

  /**
   * A B/L or booking record's kind and numbers from what the carrier says: TRD numbers are the
   * B/L, BKG numbers the booking. A reference registered as a B/L becomes a booking when the
   * carrier knows it only as one (see FetchOptions, bookingEvidence); never the other way, so an
   * explicit booking stays one. The identifier always stays its own kind's number.
   */
  private documentsOf(
    root: TrackedRow,
    events: readonly DcsaEventLike[],
    opts: FetchOptions,
  ): { identifierType: IdentifierType; blNumber: string | null; bookingNumber: string | null } {
    const numbers = documentNumbers(events);
    const evidence = bookingEvidence(numbers, root.identifier);
    const isBooking =
      root.identifierType === "booking" ||
      opts.answeredAsBooking === true ||
      evidence === "certain" ||
      (evidence === "likely" && opts.kindGuessed === true && root.adding);
    if (isBooking) {
      // Unnamed as TRD while it was registered as a B/L: no B/L number is known for it.
      const bl = pick(numbers.transportDocuments, root.identifier);
      return {
        identifierType: "booking",
        bookingNumber: root.identifier,
        blNumber: bl ?? (root.identifierType === "booking" ? root.blNumber : null),
      };
    }
    return {
      identifierType: root.identifierType as IdentifierType,
      blNumber: root.identifier,
      bookingNumber: pick(numbers.bookings, root.identifier) ?? root.bookingNumber,
    };
  }

  /**
   * Undoes a registration whose boxes do not all fit, in the refresh's transaction (its charge
   * refunded). Strict: the record and its stored events are deleted and the refusal is the caller's
   * answer. Otherwise the answer went out: the record is archived as NO_SLOTS_REASON, keeping the
   * carrier's events so lookupRefusal can tell when the boxes fit; it shows none of them (timeline).
   */
  private async refuseManifest(
    tx: Repositories,
    root: TrackedRow,
    refusal: TrackingError,
    strict: boolean,
  ): Promise<TrackingError | undefined> {
    await refundAdd(tx, root);
    if (strict) {
      await this.discard(tx, root.id);
      return refusal;
    }
    const nowIso = this.iso();
    await tx.trackings.update(root.id, {
      archivedAt: nowIso,
      archivedReason: NO_SLOTS_REASON,
      lastPolledAt: nowIso,
      nextPollAt: null,
      adding: false,
      updatedAt: nowIso,
    });
    return undefined;
  }

  /** Record fields from a derivation, with the poll schedule and automatic close-out. */
  private stateUpdate(
    row: TrackedRow,
    d: Derived,
    plans: Record<string, FirstPlan>,
    nowIso: string,
  ): Partial<TrackedRow> {
    const now = Date.parse(nowIso);
    const destinationChanged =
      row.destinationUnlocode !== null &&
      d.destinationUnlocode !== null &&
      row.destinationUnlocode !== d.destinationUnlocode;
    const routeAlert = destinationChanged
      ? "destination_change"
      : d.missedConnection
        ? "missed_connection"
        : row.routeAlert;
    const equipment = equipmentFromIso(d.isoEquipmentCode);
    const priority = pollPriority(d, now);
    const closeOut = d.stage === "returned_empty" && row.archivedAt === null;
    return {
      status: d.status,
      stage: d.stage,
      eta: d.eta,
      etaIsEstimated: d.etaIsEstimated,
      plannedDepartureAt: d.plannedDepartureAt,
      currentVesselImo: d.currentVesselImo,
      currentVesselName: d.currentVesselName,
      originUnlocode: d.originUnlocode,
      destinationUnlocode: d.destinationUnlocode,
      routePorts: d.routePorts,
      routeAlert,
      delayBars: d.delayBars,
      firstPlans: plans,
      customsHoldReason: d.customsHoldReason,
      customsHoldSince: d.customsHoldSince,
      dischargedAt: d.dischargedAt,
      deliveredAt: d.deliveredAt,
      isoTypeCode: equipment?.isoTypeCode ?? row.isoTypeCode,
      containerSize: equipment?.size ?? row.containerSize,
      equipmentType: equipment?.type ?? row.equipmentType,
      pollPriority: priority,
      pollFailures: 0,
      lastPolledAt: nowIso,
      nextPollAt: new Date(now + this.cadence[priority]).toISOString(),
      // Every refresh write ends an add, in the same statement that moves the next poll: a crash can
      // never leave a record marked as adding with its next poll hours away.
      adding: false,
      ...(closeOut ? { archivedAt: nowIso, archivedReason: "completed: empty returned" } : {}),
    };
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

  /** The first lessor connector that knows the box; failures count as "not known" (looked up again later). */
  async lessorLookup(containerNumber: string): Promise<LessorRecord | null> {
    for (const lessor of this.deps.lessors ?? []) {
      try {
        const found = await lessor.lookup(containerNumber);
        if (found) return found;
      } catch (err) {
        console.error(`[tracking] lessor ${lessor.name}: ${(err as Error).message}`);
      }
    }
    return null;
  }

  /** Refreshes lease data of a root's leased boxes when it is older than LESSOR_REFRESH_MS. */
  private async refreshLeases(rootId: string): Promise<void> {
    const now = this.deps.now();
    // Parked boxes are not tracked: no lessor calls for them.
    const boxes = (await this.deps.storage.trackings.leasedInTree(rootId)).filter(
      (b) =>
        b.containerNumber && (!b.lessorCheckedAt || now - Date.parse(b.lessorCheckedAt) >= LESSOR_REFRESH_MS),
    );
    for (const box of boxes) {
      const lease = await this.lessorLookup(box.containerNumber!);
      if (!lease) continue;
      const fields = leaseFields(lease);
      // A new lease state is an update users see; a re-read of the same lease is not.
      if (visiblyChanged(box, fields)) fields.updatedAt = new Date(this.deps.now()).toISOString();
      await this.deps.storage.trackings.update(box.id, fields);
    }
  }

  /** The carrying hull's latest AIS position, or null without an IMO aboard or a fix. */
  vesselPosition(row: Pick<TrackedRow, "currentVesselImo">): VesselPosition | null {
    if (!row.currentVesselImo || !this.deps.positions) return null;
    const p = this.deps.positions.byImo(Number(row.currentVesselImo), this.deps.now());
    return p && p.lat !== null && p.lng !== null ? p : null;
  }

  terms(orgId: string): Promise<FreeTimeTerms[]> {
    return this.deps.storage.terms.forOrg(orgId);
  }

  /** The box's demurrage now, reading its organisation's terms. */
  async demurrage(row: TrackedRow): Promise<Demurrage> {
    return this.demurrageOf(row, await this.terms(row.orgId));
  }

  /** The box's demurrage now, from its organisation's terms (see demurrage.ts for the rules). */
  demurrageOf(row: DemurrageSubject, terms: readonly FreeTimeTerms[]): Demurrage {
    const zone = row.destinationUnlocode ? this.deps.places.timezone(row.destinationUnlocode) : null;
    return computeDemurrage(row, matchTerms(terms, row), this.deps.now(), zone);
  }

  /** Caller-requested refresh, at most once per RECHECK_INTERVAL_MS per record. */
  async recheck(orgId: string, id: string): Promise<TrackedRow> {
    const row = await this.get(orgId, id);
    if (!row) throw new TrackingError("not_found", `No tracked record ${id} on this account.`);
    const now = this.deps.now();
    if (row.lastRecheckAt && now - Date.parse(row.lastRecheckAt) < RECHECK_INTERVAL_MS) {
      const wait = Math.ceil((Date.parse(row.lastRecheckAt) + RECHECK_INTERVAL_MS - now) / 1000);
      throw new TrackingError(
        "recheck_too_soon",
        `Rechecked less than ${RECHECK_INTERVAL_MS / 60_000} minutes ago; retry in ${wait} s.`,
        {
          retry_after_seconds: wait,
        },
      );
    }
    await this.deps.storage.trackings.update(row.id, { lastRecheckAt: new Date(now).toISOString() });
    await this.refresh(row.parentId ?? row.id);
    return (await this.get(orgId, id))!;
  }

  /** Stops tracking (archives the record and the boxes of a B/L or booking). */
  async archive(orgId: string, id: string, reason: string): Promise<TrackedRow> {
    const row = await this.get(orgId, id);
    if (!row) throw new TrackingError("not_found", `No tracked record ${id} on this account.`);
    if (row.archivedAt === null) {
      const at = this.iso();
      await this.deps.storage.trackings.updateTree(
        row.id,
        { archivedAt: at, archivedReason: reason, updatedAt: at },
        true,
      );
    }
    return (await this.get(orgId, id))!;
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

/** A new box's derived fields before its first derivation (a parked box keeps these). */
const UNDERIVED = {
  status: "unknown",
  stage: "unknown",
  eta: null,
  etaIsEstimated: null,
  plannedDepartureAt: null,
  currentVesselImo: null,
  currentVesselName: null,
  originUnlocode: null,
  destinationUnlocode: null,
  routePorts: null,
  routeAlert: null,
  delayBars: null,
  firstPlans: null,
  customsHoldReason: null,
  customsHoldSince: null,
  isoTypeCode: null,
  containerSize: null,
  equipmentType: null,
  dischargedAt: null,
  deliveredAt: null,
  demurragePhase: "none",
  pollFailures: 0,
  lastRecheckAt: null,
  unresolvableSince: null,
  unresolvedReason: null,
} satisfies Partial<TrackedRow>;

/** A record not tracked for want of container slots: a parked box, or a refused B/L or booking. */
const withoutSlot = (row: TrackedRow) =>
  row.archivedReason === PARKED_REASON || row.archivedReason === NO_SLOTS_REASON;

/** The container numbers a carrier's events name, in their order. */
function boxesNamed(events: readonly DcsaEventLike[]): string[] {
  const named = events.filter((e) => e.eventType === "EQUIPMENT" && e.equipmentReference);
  return [...new Set(named.map((e) => e.equipmentReference!))];
}

/** Events without the equipment events of the given boxes. */
function withoutBoxes(events: DcsaEventLike[], boxes: ReadonlySet<string>): DcsaEventLike[] {
  if (boxes.size === 0) return events;
  return events.filter((e) => e.eventType !== "EQUIPMENT" || !boxes.has(e.equipmentReference ?? ""));
}

function leaseFields(lease: LessorRecord): Partial<TrackedRow> {
  return {
    equipmentLessor: lease.lessor,
    lesseeName: lease.lesseeName,
    lessorStatus: lease.status,
    lessorCheckedAt: lease.checkedAt,
    lessorContractNumber: lease.contractNumber,
    lessorContractType: lease.contractType,
    redeliveryReference: lease.redeliveryReference,
    redeliveryDate: lease.redeliveryDate,
    redeliveryLocation: lease.redeliveryLocation,
    redeliveryYard: lease.redeliveryYard,
    equipmentManufacturer: lease.manufacturer,
  };
}
