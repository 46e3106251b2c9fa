/**
 * Ocean tracking's use cases, one method each: add a reference, look one up (registering it when
 * never seen, the caller saying how it waits for the carrier's first answer), read a record, list,
 * recheck, archive, ask to hear of a connector, free-time terms, the portfolio, the open public
 * lookup, and the poller's tick. api/ocean and api/compat parse, call these and render; failures
 * are TrackingErrors with domain codes, mapped by each product at its edge.
 */

import { log } from "../../common/log.ts";
import { VersionedCache } from "../../common/versioned-cache.ts";
import type { Org } from "../../storage/orgs.ts";
import {
  type ListFilter,
  NO_SLOTS_REASON,
  type PageKeys,
  REJECTED_REASON,
  type TrackedRow,
} from "../../storage/trackings.ts";
import { looksLikeContainer, validateContainerNumber } from "../iso6346.ts";
import { boxesNamed } from "./box-slots.ts";
import type { FreeTimeTerms } from "./demurrage.ts";
import type { TrackingDeps } from "./deps.ts";
import { TrackingError } from "./errors.ts";
import { type PublicAnswer, publicLookup } from "./public-lookup.ts";
import { containerSlots, slotRefusal } from "./quotas.ts";
import { activeRow, ownRow, type RowSources, type SingleRead } from "./record-reads.ts";
import { RecordViews } from "./record-views.ts";
import { CarrierRefresh, type RefreshOutcome } from "./refresh.ts";
import { type AddInput, type IdentifierType, normalizeIdentifier, register } from "./registration.ts";
import { RECHECK_INTERVAL_MS } from "./schedule.ts";

export interface OceanTrackingDeps extends TrackingDeps {
  /** Records whose rows the single reads keep (record-reads.ts); 0 reads every time. */
  rowCacheCapacity: number;
}

/** How a lookup's caller waits for a new registration's first carrier answer. */
export type LookupWait =
  /** Answer at once while the carrier is asked (the keyed lookup's 202 with retry_after). */
  | { kind: "answer_now" }
  /**
   * Hold the request up to ceilingMs for the carrier's answer (compat): a record another request is
   * adding is waited for too, and a known one is asked again unless its carrier is backing off.
   */
  | { kind: "hold"; ceilingMs: number };

export interface LookupRequest {
  /** As the caller sent it, trimmed and upper-cased. */
  reference: string;
  /** What the caller declared it is; undeclared, its form decides (container-shaped or a B/L). */
  type?: IdentifierType;
  carrierCode?: string;
  /** Runs before anything is registered (the caller's entitlement); throws to refuse. */
  beforeRegister?: () => Promise<void>;
}

export type LookupResult =
  | { kind: "record"; read: SingleRead }
  /** Registered or being added: the carrier's first answer has not landed yet. */
  | { kind: "pending" };

/** Terms as a caller writes them; the id and the time are the service's. */
export type NewTerms = Omit<FreeTimeTerms, "id" | "createdAt">;

/** How often a request waiting on another's first carrier call looks again. */
const SETTLE_POLL_MS = 100;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Waits for `work` at most `ms`; it keeps running in the background past it. */
async function held(work: Promise<unknown>, ms: number): Promise<void> {
  const done = work.then(
    () => undefined,
    (err) => log.error({ component: "tracking", err }, "carrier call"),
  );
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([done, new Promise<void>((r) => (timer = setTimeout(r, ms)))]);
  clearTimeout(timer);
}

const notFound = (id: string) => new TrackingError("not_found", `No tracked record ${id} on this account.`);

export class OceanTracking {
  /** The single reads' row caches; a bench swaps them to compare reads with and without. */
  readonly rowCaches: RowSources;
  /** What records show besides their row, for those who render them. */
  readonly views: RecordViews;
  private readonly refresher: CarrierRefresh;

  constructor(private readonly deps: OceanTrackingDeps) {
    this.views = new RecordViews(deps);
    this.refresher = new CarrierRefresh(deps);
    const capacity = deps.rowCacheCapacity;
    this.rowCaches = {
      storage: deps.storage,
      rows: new VersionedCache(capacity),
      reads: new VersionedCache(capacity),
      terms: new VersionedCache(capacity),
    };
  }

  /**
   * Starts tracking; the first carrier call happens before returning, so most adds come back
   * populated. A refusal at that call (the carrier rejects the number's form, a B/L names more
   * boxes than slots are free) undoes the add and is thrown.
   */
  async add(org: Org, input: AddInput): Promise<{ row: TrackedRow; warning: string | null }> {
    const result = await this.refresher.firstFetch(await this.register(org, input), { strict: true });
    if (result.refused) throw result.refused;
    return result;
  }

  /**
   * The record a reference names, registering a never-seen one (a shipment slot, like an add) and
   * waiting for the carrier's first answer as `wait` says. A registration is all or nothing: a
   * held one meets its refusal live (strict); after an answer at once the refusal is remembered
   * and the next lookup answers it (lookupRefusal).
   */
  lookup(org: Org, request: LookupRequest, wait: LookupWait): Promise<LookupResult> {
    return this.lookupOnce(org, request, wait, true);
  }

  private async lookupOnce(
    org: Org,
    request: LookupRequest,
    wait: LookupWait,
    again: boolean,
  ): Promise<LookupResult> {
    const found = await this.existing(org.id, request.reference, wait);
    if (!found) return this.registerAndWait(org, request, wait);
    if (wait.kind === "hold") return this.heldExisting(org, request, wait, found.row, again);
    return found.row.adding ? PENDING : { kind: "record", read: found };
  }

  /**
   * The active record a lookup names. Answered at once, it is rendered: read through the row caches,
   * and also without spaces or dashes. Held, the carrier is asked again unless its poll schedule
   * says it is backing off: next_poll_at, which a poller's claim moves without moving the version,
   * so the row is read as stored.
   */
  private async existing(
    orgId: string,
    reference: string,
    wait: LookupWait,
  ): Promise<SingleRead | undefined> {
    if (wait.kind === "hold") {
      const row = await this.findActive(orgId, reference);
      return row && { row };
    }
    return (
      (await activeRow(this.rowCaches, orgId, reference)) ??
      (await activeRow(this.rowCaches, orgId, reference.replace(/[\s-]/g, "")))
    );
  }

  /** A known record, held for: the add in flight settles, or the carrier is asked again first. */
  private async heldExisting(
    org: Org,
    request: LookupRequest,
    wait: LookupWait & { kind: "hold" },
    existing: TrackedRow,
    again: boolean,
  ): Promise<LookupResult> {
    if (existing.adding) {
      await this.settle(org.id, existing.id, wait.ceilingMs);
      // The other request's registration was undone (refused: deleted, or archived after a
      // lookup's 202): ask once ourselves for the reason.
      const settled = await this.get(org.id, existing.id);
      if (again && (!settled || settled.archivedAt)) return this.lookupOnce(org, request, wait, false);
    } else {
      const root = existing.parentId ? ((await this.get(org.id, existing.parentId)) ?? existing) : existing;
      // A carrier in back-off (errors, or its Retry-After) is not asked: the answer is what we hold.
      const backingOff =
        root.pollFailures > 0 && root.nextPollAt !== null && Date.parse(root.nextPollAt) > this.deps.now();
      if (!backingOff) await held(this.refresh(root.id), wait.ceilingMs);
    }
    return heldResult(await this.get(org.id, existing.id));
  }

  /** A never-seen reference: registered, then its first carrier answer waited for as `wait` says. */
  private async registerAndWait(org: Org, request: LookupRequest, wait: LookupWait): Promise<LookupResult> {
    const type = request.type ?? (looksLikeContainer(request.reference) ? "container_id" : "bill_of_lading");
    if (type === "container_id") {
      const check = validateContainerNumber(request.reference);
      if (!check.ok)
        throw new TrackingError("reference_not_resolvable", `${request.reference}: ${check.message}`);
    }
    const reference = normalizeIdentifier(request.reference, type);
    // A box that finished its cycle was closed out (archived as completed): its record is the
    // answer. Registering again would only find the same finished journey, close it out at once,
    // and answer pending to every poll (docs/tracking.md).
    const done = await this.deps.storage.trackings.lastCompleted(org.id, reference);
    if (done) return { kind: "record", read: { row: done } };
    // Refused after an earlier lookup answered at once (a malformed number, or more boxes than
    // slots free): that is the answer, not another registration answering pending again.
    if (wait.kind === "answer_now") {
      const refusal = await this.lookupRefusal(org.id, reference);
      if (refusal) throw refusal;
    }
    await request.beforeRegister?.();
    let row: TrackedRow;
    try {
      row = await this.register(org, {
        identifier: reference,
        identifierType: type,
        carrierCode: request.carrierCode,
      });
    } catch (err) {
      if (!(err instanceof TrackingError) || err.code !== "add_in_progress") throw err;
      return this.anotherAdd(org.id, reference, wait);
    }
    // An undeclared kind is a guess: the carrier's answer may show a booking (FetchOptions).
    const kindGuessed = request.type === undefined;
    if (wait.kind === "answer_now") {
      this.refresher
        .firstFetch(row, { kindGuessed })
        .catch((err) => log.error({ component: "tracking", err }, `first fetch of ${row.identifier}`));
      return PENDING;
    }
    // Strict even past the ceiling: a refusal after it still undoes the registration, and the
    // client's retry meets the refusal again (nothing kept, nothing charged meanwhile).
    let refusal: TrackingError | undefined;
    const fetched = this.refresher.firstFetch(row, { strict: true, kindGuessed });
    await held(
      fetched.then((r) => (refusal = r.refused)),
      wait.ceilingMs,
    );
    if (refusal) throw refusal;
    return heldResult(await this.get(org.id, row.id));
  }

  /**
   * What a lookup answers instead of registering this identifier again, when its latest
   * registration was refused after an earlier lookup's answer: the carrier rejected the number's
   * form (for good), or its boxes needed more container slots than were free (by slotRefusal, while
   * they still do; once they fit, the lookup registers it again).
   */
  private async lookupRefusal(orgId: string, identifier: string): Promise<TrackingError | undefined> {
    const latest = await this.deps.storage.trackings.latestRoot(orgId, identifier);
    if (latest?.archivedReason === REJECTED_REASON) {
      return new TrackingError(
        "reference_not_resolvable",
        `The carrier rejects ${latest.identifier} as malformed; nothing is tracked or charged.`,
      );
    }
    if (latest?.archivedReason !== NO_SLOTS_REASON) return undefined;
    const boxes = boxesNamed(await this.views.rawEvents(latest.id));
    const slots = await containerSlots(this.deps.storage, orgId);
    return slotRefusal(slots.org, slots.active.size, boxes.filter((b) => !slots.active.has(b)).length);
  }

  /** Another request is adding the reference now: pending, or (held) its first answer waited for. */
  private async anotherAdd(orgId: string, reference: string, wait: LookupWait): Promise<LookupResult> {
    if (wait.kind === "answer_now") return PENDING;
    const other = await this.findActive(orgId, reference);
    if (other) await this.settle(orgId, other.id, wait.ceilingMs);
    return heldResult(other && (await this.get(orgId, other.id)));
  }

  /** A record another request is adding: waits (up to `ms`) for its first carrier answer. */
  private async settle(orgId: string, id: string, ms: number): Promise<void> {
    const deadline = Date.now() + ms;
    while ((await this.get(orgId, id))?.adding && Date.now() < deadline) await sleep(SETTLE_POLL_MS);
  }

  /** A record of the organisation as a single read renders it; another organisation's id is not_found. */
  async read(orgId: string, id: string): Promise<SingleRead> {
    const found = await ownRow(this.rowCaches, orgId, id);
    if (!found) throw notFound(id);
    return found;
  }

  /** A page of the organisation's records, whole rows. */
  list(orgId: string, filter: ListFilter): Promise<TrackedRow[]> {
    return this.deps.storage.trackings.list(orgId, filter);
  }

  /** The same page's keys only (id and version), for a reader that keeps rows it rendered. */
  listKeys(orgId: string, filter: ListFilter): Promise<PageKeys> {
    return this.deps.storage.trackings.listKeys(orgId, filter);
  }

  /** Whole rows of the organisation's records by id (what a keyed page's reader has not kept). */
  rows(orgId: string, ids: readonly string[]): Promise<TrackedRow[]> {
    return this.deps.storage.trackings.byIds(orgId, ids);
  }

  /** Asks the carrier again now, at most once per RECHECK_INTERVAL_MS per record. */
  async recheck(orgId: string, id: string): Promise<TrackedRow> {
    const row = await this.own(orgId, id);
    const now = this.deps.now();
    if (row.lastRecheckAt && now - Date.parse(row.lastRecheckAt) < RECHECK_INTERVAL_MS) {
      const wait = Math.ceil((Date.parse(row.lastRecheckAt) + RECHECK_INTERVAL_MS - now) / 1000);
      throw new TrackingError(
        "recheck_too_soon",
        `Rechecked less than ${RECHECK_INTERVAL_MS / 60_000} minutes ago; retry in ${wait} s.`,
        { retry_after_seconds: wait },
      );
    }
    await this.deps.storage.trackings.update(row.id, { lastRecheckAt: new Date(now).toISOString() });
    await this.refresh(row.parentId ?? row.id);
    return this.own(orgId, id);
  }

  /** Stops tracking (archives the record and the boxes of a B/L or booking). */
  async archive(orgId: string, id: string, reason: string): Promise<TrackedRow> {
    const row = await this.own(orgId, id);
    if (row.archivedAt === null) {
      const at = new Date(this.deps.now()).toISOString();
      await this.deps.storage.trackings.updateTree(
        row.id,
        { archivedAt: at, archivedReason: reason, updatedAt: at },
        true,
      );
    }
    return this.own(orgId, id);
  }

  /** Asks to be told when the record's carrier gets a connector. */
  async notifyConnector(orgId: string, id: string): Promise<TrackedRow> {
    const row = await this.own(orgId, id);
    if (row.connectorStatus === null)
      throw new TrackingError("already_connected", "This carrier is already connected.");
    await this.deps.storage.trackings.update(row.id, {
      connectorStatus: "notify_requested",
      connectorNotifyRequestedAt: new Date(this.deps.now()).toISOString(),
    });
    return this.own(orgId, id);
  }

  terms(orgId: string): Promise<FreeTimeTerms[]> {
    return this.deps.storage.terms.forOrg(orgId);
  }

  async addTerms(orgId: string, terms: NewTerms): Promise<FreeTimeTerms> {
    const row = {
      id: crypto.randomUUID(),
      orgId,
      ...terms,
      createdAt: new Date(this.deps.now()).toISOString(),
    };
    await this.deps.storage.terms.add(row);
    return row;
  }

  async removeTerms(orgId: string, id: string): Promise<void> {
    if (!(await this.deps.storage.terms.remove(orgId, id)))
      throw new TrackingError("not_found", `No free-time terms ${id} on this account.`);
  }

  /** Every active box (up to `limit`) with the organisation's terms, and the counts by status. */
  async portfolio(orgId: string, limit: number) {
    const terms = await this.terms(orgId);
    const boxes = await this.deps.storage.trackings.activeBoxes(orgId, limit);
    const byStatus = await this.deps.storage.trackings.activeBoxesByStatus(orgId);
    return { terms, boxes, byStatus };
  }

  /** The open lookup: the carrier asked live, nothing stored or charged. */
  publicLookup(raw: string): Promise<PublicAnswer> {
    return publicLookup(this.deps.carriers, this.deps.connectors, raw);
  }

  /** The poller's tick: refreshes the due records it claims. */
  pollDue(limit?: number): Promise<number> {
    return this.refresher.pollDue(limit);
  }

  /** Asks the carrier for a root record's events and applies them; carrier failures back off. */
  refresh(rootId: string): Promise<RefreshOutcome> {
    return this.refresher.refresh(rootId);
  }

  /** At start: adds a dead process left half done become due, so a poller finishes them. */
  recoverInterruptedAdds(): Promise<number> {
    return this.refresher.recoverInterruptedAdds();
  }

  /** Validates, charges and inserts a record marked as adding, without asking the carrier yet. */
  register(org: Org, input: AddInput): Promise<TrackedRow> {
    return register(this.deps, org, input);
  }

  /** A record of the organisation (another organisation's id reads as absent). */
  get(orgId: string, id: string): Promise<TrackedRow | undefined> {
    return this.deps.storage.trackings.get(orgId, id);
  }

  /** The active record carrying this identifier as its own reference, as a box of it, or by its B/L or booking. */
  findActive(orgId: string, identifier: string): Promise<TrackedRow | undefined> {
    return this.deps.storage.trackings.firstActiveCarrying(orgId, identifier);
  }

  private async own(orgId: string, id: string): Promise<TrackedRow> {
    const row = await this.get(orgId, id);
    // Another account's id answers exactly like an id that never existed.
    if (!row) throw notFound(id);
    return row;
  }
}

const PENDING: LookupResult = Object.freeze({ kind: "pending" });

/** What a held lookup answers: the record once the carrier's first answer landed, else pending. */
const heldResult = (row: TrackedRow | undefined): LookupResult =>
  row && !row.adding ? { kind: "record", read: { row } } : PENDING;
