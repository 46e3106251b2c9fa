/**
 * Applying a carrier snapshot: one transaction runs the pure steps (snapshot-diff.ts: the events to
 * store; box-slots.ts: which boxes take container slots; derived-state.ts: each record's state;
 * outbox-events.ts: the webhook events raised) and writes what they decide, so a record's state and
 * its outbox rows are committed together or not at all.
 */
import type { Repositories, Storage } from "../../storage/storage.ts";
import { NO_SLOTS_REASON, type TrackedRow } from "../../storage/trackings.ts";
import type { CarrierDirectory } from "../carriers/resolve.ts";
import type { Wakeups } from "../wakeups.ts";
import { allocateSlots, boxesNamed, newBox } from "./box-slots.ts";
import type { DcsaEventLike } from "./dcsa.ts";
import type { FreeTimeTerms } from "./demurrage.ts";
import { type Documents, documentsOf, recordState } from "./derived-state.ts";
import type { TrackingError } from "./errors.ts";
import { eventsRaised } from "./outbox-events.ts";
import { containerSlots, refundAdd } from "./quotas.ts";
import { demurrageAt } from "./record-views.ts";
import type { FetchOptions } from "./refresh.ts";
import type { PollPriority } from "./schedule.ts";
import { diffSnapshot } from "./snapshot-diff.ts";
import { type Derived, type PlaceLookup, parkedList, renderForStore } from "./timeline.ts";

export interface ApplyDeps {
  storage: Storage;
  now: () => number;
  carriers: CarrierDirectory;
  places: PlaceLookup;
  cadence: Record<PollPriority, number>;
  wakeups?: Wakeups;
}

/**
 * Stores a carrier snapshot and re-derives every affected box, raising outbox rows, in one
 * transaction. Boxes a B/L or booking names take container slots here, counted in this IMMEDIATE
 * transaction like an add's. At the registration's first answer the manifest follows an add's
 * rule (slotRefusal): all its boxes take slots or the registration is refused (refuseManifest).
 * Boxes a later refresh discovers take free slots only; the rest are parked (children archived
 * with PARKED_REASON, taken up at a later refresh once a slot is free).
 */
export async function applySnapshot(
  deps: ApplyDeps,
  stale: TrackedRow,
  snapshot: DcsaEventLike[],
  opts: FetchOptions = {},
): Promise<TrackingError | undefined> {
  const nowIso = new Date(deps.now()).toISOString();
  let outboxRows = 0;
  // One transaction, write lock first: it reads then writes, and another process's commit in
  // between must wait rather than fail it.
  const result = await deps.storage.transaction(async (tx) => {
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
    const { writes, after: merged } = diffSnapshot(stored, snapshot, (e) => e.eventID);
    for (const { event, was } of writes) {
      if (was) await tx.events.correct(root.id, event.eventID, was, event, nowIso);
      else await tx.events.insert(root.id, event.eventID, event, nowIso);
    }
    const after = [...merged.values()];
    const ofMany = root.identifierType !== "container_id";
    const documents = ofMany ? documentsOf(root, after, opts) : null;
    const placed = ofMany
      ? await placeBoxes(deps, tx, root, boxesNamed(after), documents, nowIso)
      : { boxes: [], parked: new Set<string>() };
    if ("refusal" in placed) return refuseManifest(deps, tx, root, placed.refusal, opts.strict === true);
    const { parked } = placed;
    // Boxes first, the B/L or booking last: its state aggregates theirs.
    const boxStates: Derived[] = [];
    for (const row of [...placed.boxes, root]) {
      const rootOfMany = row === root && ofMany;
      const common = { before, after, parked, documents, nowIso, boxStates, orgTerms };
      const raised = await writeRecord(deps, tx, { ...common, row, rootOfMany });
      outboxRows += raised;
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
  if (outboxRows > 0) deps.wakeups?.signal("webhooks.outbox");
  return result;
}

/**
 * The boxes a B/L or booking names, placed as allocateSlots decides: the tracked ones to derive
 * (parked ones taken up again, new ones inserted) and the ones left parked; or the refusal of a
 * registration whose boxes do not all fit.
 */
async function placeBoxes(
  deps: ApplyDeps,
  tx: Repositories,
  root: TrackedRow,
  named: string[],
  documents: Documents | null,
  nowIso: string,
): Promise<{ refusal: TrackingError } | { boxes: TrackedRow[]; parked: Set<string> }> {
  const kids = await tx.trackings.children(root.id);
  // Slots are counted per organisation: adds and other refreshes taking slots wait for this one.
  await tx.orgs.lock(root.orgId);
  const slots = await containerSlots(tx, root.orgId);
  const allocated = allocateSlots(named, kids, slots, root.adding);
  if ("refusal" in allocated) return allocated;
  const boxes: TrackedRow[] = [];
  const parked = new Set<string>();
  for (const f of allocated.fates) {
    if (f.fate === "tracked") boxes.push(f.child);
    else if (f.fate === "parked") parked.add(f.box);
    else if (f.fate === "unpark") {
      const taken = { archivedAt: null, archivedReason: null, updatedAt: nowIso };
      await tx.trackings.update(f.child.id, taken);
      boxes.push({ ...f.child, ...taken });
    } else {
      const owner = deps.carriers.resolve({ reference: f.box, kind: "container" });
      const box = { id: crypto.randomUUID(), number: f.box, ...owner, tracks: f.tracks };
      const child = newBox(root, box, documents, nowIso);
      await tx.trackings.insert(child);
      if (f.tracks) boxes.push(child);
      else parked.add(f.box);
    }
  }
  return { boxes, parked };
}

interface RecordWrite {
  row: TrackedRow;
  rootOfMany: boolean;
  before: DcsaEventLike[];
  after: DcsaEventLike[];
  parked: Set<string>;
  documents: Documents | null;
  /** The root's boxes' states so far: a box adds its own, a root of many aggregates them. */
  boxStates: Derived[];
  orgTerms: readonly FreeTimeTerms[];
  nowIso: string;
}

/** Writes one record's new state, its outbox rows and its stored milestones; the rows raised. */
async function writeRecord(deps: ApplyDeps, tx: Repositories, w: RecordWrite): Promise<number> {
  const { row, rootOfMany, nowIso } = w;
  const state = recordState({ ...w, cadence: deps.cadence });
  const { update } = state;
  let raised: ReturnType<typeof eventsRaised> = [];
  if (!rootOfMany) {
    w.boxStates.push(state.derived);
    const next = { ...row, ...update } as TrackedRow;
    const demurrage = demurrageAt(deps.places, next, w.orgTerms, deps.now());
    update.demurragePhase = demurrage.phase;
    raised = eventsRaised({
      ...state,
      row,
      next,
      demurrage,
      backfill: w.before.length === 0,
      places: deps.places,
    });
  }
  await tx.outbox.append(
    raised.map((event) => ({ orgId: row.orgId, product: "ocean", ...event })),
    nowIso,
  );
  await tx.trackings.update(row.id, update);
  // After the events were written (which dropped the tree's renderings): what a lookup of this
  // record reads instead of deriving it (milestonesJson). Most polls find nothing new: the same
  // rendering is then stored already and not written again.
  const rendered = renderForStore(
    state.current,
    deps.places,
    row.containerNumber,
    rootOfMany ? parkedList(w.parked) : "",
  );
  const kept = await tx.timelines.get(row.id);
  if (kept?.of !== rendered.of || kept.json !== rendered.json) await tx.timelines.put(row.id, rendered);
  return raised.length;
}

/**
 * Undoes a registration whose boxes do not all fit, in the refresh's transaction (its charge
 * refunded). Strict: the record and its stored events are deleted and the refusal is the caller's
 * answer. Otherwise the answer went out: the record is archived as NO_SLOTS_REASON, keeping the
 * carrier's events so a lookup can tell when the boxes fit; it shows none of them (record-views.ts).
 */
async function refuseManifest(
  deps: ApplyDeps,
  tx: Repositories,
  root: TrackedRow,
  refusal: TrackingError,
  strict: boolean,
): Promise<TrackingError | undefined> {
  await refundAdd(tx, root);
  if (strict) {
    await discard(tx, root.id);
    return refusal;
  }
  const nowIso = new Date(deps.now()).toISOString();
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

/** Deletes a record whose add is undone, with its boxes and stored events (inside the caller's transaction). */
export async function discard(tx: Repositories, rootId: string): Promise<void> {
  const ids = await tx.trackings.treeIds(rootId);
  await tx.events.deleteFor(ids);
  await tx.trackings.delete(ids);
}
