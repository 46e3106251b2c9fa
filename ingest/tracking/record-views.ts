/**
 * What tracked records show besides their row, for whoever renders them (api/ocean, api/compat):
 * their timeline and milestones, their boxes, the carrying hull's position, port names and zones,
 * and demurrage computed now from the organisation's terms.
 */
import type { Repositories, Storage } from "../../storage/storage.ts";
import type { StoredTimeline } from "../../storage/timelines.ts";
import { NO_SLOTS_REASON, PARKED_REASON, type TrackedRow } from "../../storage/trackings.ts";
import type { PositionStore, VesselPosition } from "../ais/positions.ts";
import { withoutBoxes } from "./box-slots.ts";
import type { DcsaEventLike } from "./dcsa.ts";
import {
  computeDemurrage,
  type Demurrage,
  type DemurrageSubject,
  type FreeTimeTerms,
  matchTerms,
} from "./demurrage.ts";
import {
  currentEvents,
  eventsForContainer,
  milestonesJson,
  type PlaceLookup,
  storedFits,
} from "./timeline.ts";

/** A record not tracked for want of container slots: a parked box, or a refused B/L or booking. */
export const withoutSlot = (row: TrackedRow) =>
  row.archivedReason === PARKED_REASON || row.archivedReason === NO_SLOTS_REASON;

/** The box's demurrage at `now`, from its organisation's terms (see demurrage.ts for the rules). */
export function demurrageAt(
  places: PlaceLookup,
  row: DemurrageSubject,
  terms: readonly FreeTimeTerms[],
  now: number,
): Demurrage {
  const zone = row.destinationUnlocode ? places.timezone(row.destinationUnlocode) : null;
  return computeDemurrage(row, matchTerms(terms, row), now, zone);
}

export class RecordViews {
  constructor(
    private readonly deps: {
      storage: Storage;
      now: () => number;
      places: PlaceLookup;
      positions?: PositionStore;
    },
  ) {}

  get places(): PlaceLookup {
    return this.deps.places;
  }

  /** Raw events stored for a root record. */
  async rawEvents(rootId: string, tx: Repositories = this.deps.storage): Promise<DcsaEventLike[]> {
    return (await tx.events.forRecord(rootId)).map((r) => r.payload as DcsaEventLike);
  }

  /** The boxes of a B/L or booking, parked ones included. */
  children(parentId: string): Promise<TrackedRow[]> {
    return this.deps.storage.trackings.children(parentId);
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

  /** The box's demurrage now, from its organisation's terms. */
  demurrageOf(row: DemurrageSubject, terms: readonly FreeTimeTerms[]): Demurrage {
    return demurrageAt(this.places, row, terms, this.deps.now());
  }
}
