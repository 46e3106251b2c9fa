/**
 * The ocean resources as the spec shows them: the tracked record (list item, every field always
 * present), the lookup record (single read) and milestone events. Rendering only; state comes from
 * ocean tracking (ingest/tracking/).
 */
import type { VersionedCache } from "../../common/versioned-cache.ts";
import type { VesselPosition } from "../../ingest/ais/positions.ts";
import {
  computeDemurrage,
  type Demurrage,
  type DemurrageSubject,
  type FreeTimeTerms,
} from "../../ingest/tracking/demurrage.ts";
import type { SingleRead } from "../../ingest/tracking/record-reads.ts";
import type { RecordViews } from "../../ingest/tracking/record-views.ts";
import { type MilestoneView, parkedList } from "../../ingest/tracking/timeline.ts";
import type { Storage } from "../../storage/storage.ts";
import type { StoredTimeline } from "../../storage/timelines.ts";
import { PARKED_REASON, type TrackedRow } from "../../storage/trackings.ts";
import { RenderedJson } from "../shared/envelopes.ts";
import { type ProvenanceSubject, type ProvenanceTexts, provenance, provenanceJson } from "./provenance.ts";

export type Source = "direct_carrier" | "warm_db";

/** The spec's vessel position: null without an IMO aboard or a usable fix. */
function positionView(
  row: Pick<TrackedRow, "currentVesselImo" | "currentVesselName">,
  p: VesselPosition | null,
) {
  if (!p) return null;
  return {
    imo: row.currentVesselImo,
    name: p.name ?? row.currentVesselName,
    lat: p.lat,
    lng: p.lng,
    speed_knots: p.speed_knots,
    heading_deg: p.heading_deg,
    nav_status: p.nav_status,
    position_updated_at: p.position_updated_at,
    position_fix_at: p.position_fix_at,
    position_age_hours: p.position_age_hours,
    position_freshness: p.position_freshness,
  };
}

/** Port name, falling back to the UN/LOCODE; "Unknown" when the carrier named no port yet. */
function portName(views: RecordViews, locode: string | null): string {
  return locode ? (views.places.name(locode) ?? locode) : "Unknown";
}

/** A tracked record's fields before the demurrage ones: from its row alone. */
function recordHead(row: TrackedRow) {
  return {
    id: row.id,
    org_id: row.orgId,
    identifier: row.identifier,
    identifier_type: row.identifierType,
    carrier_code: row.carrierCode,
    carrier_name: row.carrierName,
    tags: row.tags,
    status: row.status,
    eta: row.eta,
    eta_is_estimated: row.eta === null ? null : row.etaIsEstimated,
    planned_departure_at: row.plannedDepartureAt,
    current_vessel_imo: row.currentVesselImo,
    poll_priority: row.pollPriority,
  };
}

/** The demurrage fields: on the clock, rendered per request. */
function demurrageFields(demurrage: Demurrage) {
  return {
    demurrage_at_risk: demurrage.atRisk,
    demurrage_accrued_usd: demurrage.accruedUsd,
    demurrage_last_free_day: demurrage.lastFreeDay,
  };
}

/** The fields between the demurrage ones and the vessel position: from the row and the source. */
function recordMiddle(views: RecordViews, row: TrackedRow, source: Source) {
  return {
    customs_hold_reason: row.customsHoldReason,
    customs_hold_since: row.customsHoldSince,
    origin_unlocode: row.originUnlocode,
    destination_unlocode: row.destinationUnlocode,
    destination_name: portName(views, row.destinationUnlocode),
    container_size: row.containerSize,
    equipment_type: row.equipmentType,
    iso_type_code: row.isoTypeCode,
    equipment_owner: row.equipmentOwner,
    equipment_lessor: row.equipmentLessor,
    lessee_name: row.lesseeName,
    carrier_hint_code: row.carrierHintCode,
    lessor_status: row.lessorStatus,
    lessor_checked_at: row.lessorCheckedAt,
    connector_status: row.connectorStatus,
    connector_notify_requested_at: row.connectorNotifyRequestedAt,
    redelivery_reference: row.redeliveryReference,
    redelivery_date: row.redeliveryDate,
    redelivery_location: row.redeliveryLocation,
    redelivery_yard: row.redeliveryYard,
    lessor_contract_number: row.lessorContractNumber,
    lessor_contract_type: row.lessorContractType,
    equipment_manufacturer: row.equipmentManufacturer,
    last_polled_at: row.lastPolledAt ?? row.addedAt,
    added_at: row.addedAt,
    archived_at: row.archivedAt,
    archived_reason: row.archivedReason,
    unresolvable_since: row.unresolvableSince,
    unresolved_reason: row.unresolvedReason,
    route_alert: row.routeAlert,
    source,
    delay_bars: row.delayBars ?? [null, null, null, null, null],
    route_ports: row.routePorts?.length
      ? row.routePorts.map((p) => ({
          unlocode: p.unlocode,
          name: portName(views, p.unlocode),
          role: p.role,
        }))
      : null,
    is_demo: row.isDemo,
  };
}

export function trackedRecord(views: RecordViews, row: TrackedRow, source: Source, demurrage: Demurrage) {
  return {
    ...recordHead(row),
    ...demurrageFields(demurrage),
    ...recordMiddle(views, row, source),
    vessel_position: positionView(row, views.vesselPosition(row)),
  };
}

/** What a list item's per-request fields (demurrage, vessel position) are computed from. */
export type LiveFields = DemurrageSubject & Pick<TrackedRow, "currentVesselImo" | "currentVesselName">;

/**
 * A tracked record's list item as UTF-8 JSON, what its row alone decides serialised once per
 * version: `bytes` is the whole item preceded by a comma (to follow another item) as it reads with
 * no demurrage and no vessel position; `head` (the opening brace, the members before the demurrage
 * ones and the comma after them) and `middle` (the members from there to the vessel position's
 * name) are views into it for items whose demurrage or position are rendered at the read, from
 * `live`.
 */
export interface ListItem {
  readonly bytes: Uint8Array;
  readonly head: Uint8Array;
  readonly middle: Uint8Array;
  readonly live: Readonly<LiveFields>;
}

const UTF8 = new TextEncoder();

/** A box of no terms' concern (NO_DEMURRAGE). */
const NO_BOX: DemurrageSubject = {
  carrierCode: null,
  destinationUnlocode: null,
  containerSize: null,
  dischargedAt: null,
  deliveredAt: null,
};

/** The members of an object's JSON, without its braces. */
const members = (o: object) => JSON.stringify(o).slice(1, -1);

// Without terms no box has demurrage, and without a hull aboard there is no position: the same
// text for every such item.
const NO_DEMURRAGE = members(demurrageFields(computeDemurrage(NO_BOX, null, 0, null)));
const NO_POSITION = JSON.stringify(positionView({ currentVesselImo: null, currentVesselName: null }, null));
const COMMA = UTF8.encode(",");
const CLOSE = UTF8.encode("}");

/** The list item of a row ("warm_db": read from the database), to cache under its version. */
export function listItem(views: RecordViews, row: TrackedRow): ListItem {
  const head = `{${members(recordHead(row))},`;
  const middle = `,${members(recordMiddle(views, row, "warm_db"))},"vessel_position":`;
  const bytes = UTF8.encode(`,${head}${NO_DEMURRAGE}${middle}${NO_POSITION}}`);
  const headEnd = 1 + Buffer.byteLength(head);
  const middleStart = headEnd + Buffer.byteLength(NO_DEMURRAGE);
  return Object.freeze({
    bytes,
    head: bytes.subarray(1, headEnd),
    middle: bytes.subarray(middleStart, middleStart + Buffer.byteLength(middle)),
    live: Object.freeze({
      carrierCode: row.carrierCode,
      destinationUnlocode: row.destinationUnlocode,
      containerSize: row.containerSize,
      dischargedAt: row.dischargedAt,
      deliveredAt: row.deliveredAt,
      currentVesselImo: row.currentVesselImo,
      currentVesselName: row.currentVesselName,
    }),
  });
}

/**
 * Appends a list item's JSON now to `out` as UTF-8 pieces (after a comma unless `first`), together
 * byte for byte JSON.stringify(trackedRecord(views, row, "warm_db", views.demurrageOf(row,
 * terms))): every member is present (none undefined) and keys keep their order, so the pieces join
 * with commas. Bytes, not a string: a page goes out as one copy of its pieces instead of a string
 * built, flattened and encoded again, and an item without terms or a hull aboard is one piece
 * (bench/tracking.ts).
 */
export function pushListItemJson(
  out: Uint8Array[],
  views: RecordViews,
  item: ListItem,
  terms: readonly FreeTimeTerms[],
  first: boolean,
): void {
  const { live } = item;
  if (terms.length === 0 && live.currentVesselImo === null) {
    out.push(first ? item.bytes.subarray(1) : item.bytes);
    return;
  }
  if (!first) out.push(COMMA);
  out.push(
    item.head,
    UTF8.encode(terms.length === 0 ? NO_DEMURRAGE : members(demurrageFields(views.demurrageOf(live, terms)))),
    item.middle,
    UTF8.encode(
      live.currentVesselImo === null
        ? NO_POSITION
        : JSON.stringify(positionView(live, views.vesselPosition(live))),
    ),
    CLOSE,
  );
}

/** Share of on-time arrivals (within a day of the first plan) on the lane; null under five voyages. */
export type LaneConfidence = (row: TrackedRow) => Promise<number | null>;

/**
 * A record's rendered milestones: their JSON text, what a lookup response splices in, and as
 * objects (parsed at their first use: only a B/L's or booking's boxes are rendered from them).
 */
export class Timeline {
  #views: readonly MilestoneView[] | undefined;
  constructor(readonly json: string) {}
  /** Frozen: one rendering is shared by every response until the version moves. */
  get views(): readonly MilestoneView[] {
    this.#views ??= Object.freeze((JSON.parse(this.json) as MilestoneView[]).map((m) => Object.freeze(m)));
    return this.#views;
  }
}

/** What a lookup record is read from. */
export interface LookupSources {
  views: RecordViews;
  storage: Storage;
  confidence: LaneConfidence;
  timelines: VersionedCache<Timeline>;
  /** Whole lookup records, keyed by the versions and the per-request fields they render (lookupRecordJson). */
  lookups: VersionedCache<RenderedJson>;
  /** field_provenance texts by what they are written from (provenance.ts). */
  provenance: ProvenanceTexts;
}

/**
 * The record's milestones, read once per version (see VersionedCache): as its last refresh stored
 * them, or derived from its events when that rendering no longer fits (RecordViews.milestonesJson). The
 * row's version moves with every event added to or corrected under its root (storage/events.ts
 * moves the whole tree's) and with every write to the row; it is read (with the row) before the
 * events or their rendering are (written in one transaction): a read may see newer milestones than
 * the version says (they are then kept under the older version and read again at the next read),
 * never older ones. A record's share of its root's events: its box's (none while parked) or, for a
 * B/L or booking, all but those of its parked boxes (read with the boxes' rows before this;
 * unparking a box rewrites its root's row too).
 */
async function milestonesOf(
  t: LookupSources,
  r: TrackedRow,
  parkedBoxes: string,
  stored?: StoredTimeline | null,
): Promise<Timeline> {
  if (!t.timelines.wants(r.id)) return new Timeline(await t.views.milestonesJson(r, parkedBoxes, stored));
  const version = timelineVersion(r, parkedBoxes);
  const cached = t.timelines.get(r.id, version);
  if (cached) return cached;
  const rendered = new Timeline(await t.views.milestonesJson(r, parkedBoxes, stored));
  t.timelines.set(r.id, version, rendered);
  return rendered;
}

const timelineVersion = (r: TrackedRow, parkedBoxes: string) =>
  `${r.version}|${r.containerNumber}|${r.archivedReason === PARKED_REASON}|${parkedBoxes}`;

/** What a lookup record is rendered from besides its row: read or computed at each request. */
interface LookupInputs {
  dem: Demurrage;
  position: VesselPosition | null;
  pct: number | null;
  kids: TrackedRow[] | null;
  /** The parked boxes' container numbers (parkedList). */
  parked: string;
}

async function lookupInputs(
  t: LookupSources,
  row: TrackedRow,
  terms?: readonly FreeTimeTerms[],
): Promise<LookupInputs> {
  const { views } = t;
  const dem = terms ? views.demurrageOf(row, terms) : await views.demurrage(row);
  const position = views.vesselPosition(row);
  const pct = await t.confidence(row);
  const kids = row.identifierType === "container_id" ? null : await views.children(row.id);
  const parked = parkedList(
    (kids ?? []).filter((c) => c.archivedReason === PARKED_REASON).map((c) => c.containerNumber),
  );
  return { dem, position, pct, kids, parked };
}

/**
 * The version a whole lookup record is cached under: its row's and its boxes' versions (which
 * key its milestones and theirs, see milestonesOf) and the per-request fields as computed now
 * (demurrage, vessel position, lane share), so the text is served only while all of them are
 * what it was rendered from.
 */
function lookupVersion(row: TrackedRow, i: LookupInputs): string {
  const kids = i.kids?.map((c) => `${c.id}:${c.version}`).join(",") ?? "";
  return `${timelineVersion(row, i.parked)}|${kids}|${JSON.stringify([i.dem, i.position, i.pct])}`;
}

/**
 * The lookup record (the single read): `record` holds every field but the last, `events`. `stored`:
 * the row's stored milestones when they were read with it (milestonesOf).
 */
async function lookupParts(
  t: LookupSources,
  row: TrackedRow,
  inputs?: LookupInputs,
  stored?: StoredTimeline | null,
) {
  const { views } = t;
  const { dem, position, pct, kids, parked } = inputs ?? (await lookupInputs(t, row));
  const fixAt = position?.position_fix_at ?? null;
  // last_updated_at: the more recent of the carrier check and the AIS fix.
  const aisNewer =
    fixAt !== null && (row.lastPolledAt === null || Date.parse(fixAt) > Date.parse(row.lastPolledAt));
  const timeline = await milestonesOf(t, row, parked, stored);
  const children = kids
    ? await Promise.all(kids.map(async (c) => ({ c, events: (await milestonesOf(t, c, "")).views })))
    : null;
  const head = {
    id: row.id,
    container_number: row.containerNumber,
    bl_number: row.blNumber,
    booking_number: row.bookingNumber,
    identifier: row.identifier,
    identifier_type: row.identifierType,
    container_size: row.containerSize,
    equipment_type: row.equipmentType,
    iso_type_code: row.isoTypeCode,
    // Keyed by container number, each box with its own timeline.
    child_containers: children
      ? Object.fromEntries(
          children.map(({ c, events }) => [
            c.containerNumber,
            {
              id: c.id,
              status: c.status,
              eta: c.eta,
              container_size: c.containerSize,
              iso_type_code: c.isoTypeCode,
              vessel_imo: c.currentVesselImo,
              // Why a box is not tracked (deleted, or parked for want of a container slot); null while it is.
              archived_reason: c.archivedReason,
              events,
            },
          ]),
        )
      : null,
    status: row.status,
    route_alert: row.routeAlert,
    // A lessor's hint is never the carrier (carrier_hint_code on the list item says it).
    carrier: row.carrierName ?? row.carrierCode ?? "Unknown",
    vessel_name: row.currentVesselName,
    vessel_imo: row.currentVesselImo,
    vessel_position: positionView(row, position),
    origin_name: portName(views, row.originUnlocode),
    destination_name: portName(views, row.destinationUnlocode),
    eta: row.eta,
    eta_confidence_pct: pct,
    last_updated_at: aisNewer ? fixAt : (row.lastPolledAt ?? row.addedAt),
    last_updated_source: aisNewer ? "ais_vessel_position" : row.lastPolledAt ? "carrier_poll" : null,
    last_polled_at: row.lastPolledAt ?? row.addedAt,
    last_ais_fix_at: fixAt,
  };
  // field_provenance sits between the two (provenance.ts), then the events.
  const tail = { demurrage_free_days_left: dem.freeDaysLeft, ai_narrative: null };
  const subject: ProvenanceSubject = {
    row,
    dem,
    position,
    dest: head.destination_name,
    destZoneKnown:
      row.destinationUnlocode !== null && views.places.timezone(row.destinationUnlocode) !== null,
  };
  return { head, subject, tail, timeline };
}

export async function lookupRecord(t: LookupSources, row: TrackedRow) {
  const { head, subject, tail, timeline } = await lookupParts(t, row);
  return { ...head, field_provenance: provenance(subject), ...tail, events: timeline.views };
}

/**
 * The lookup record as JSON text, byte for byte JSON.stringify(lookupRecord(...)): the whole text
 * from the cache while nothing it renders moved (lookupVersion), else rendered with the milestones'
 * text from their cache, so only the per-request fields are serialised. A record read for the first
 * time skips both caches' keys (it would not be kept, VersionedCache.wants). The read may carry the
 * organisation's terms and the row's stored milestones (record-reads.ts): neither is read again.
 */
export async function lookupRecordJson(
  t: LookupSources,
  { row, terms, stored }: SingleRead,
): Promise<RenderedJson> {
  const inputs = await lookupInputs(t, row, terms);
  const version = t.lookups.wants(row.id) ? lookupVersion(row, inputs) : null;
  const kept = version === null ? undefined : t.lookups.get(row.id, version);
  if (kept) return kept;
  const { head, subject, tail, timeline } = await lookupParts(t, row, inputs, stored);
  // One text: the response encodes it once (as UTF-8 pieces it was encoded twice and copied once
  // more, about 4 us and 9 kB of garbage a first read; bench/tracking.ts).
  const rendered = new RenderedJson(
    `${JSON.stringify(head).slice(0, -1)},"field_provenance":${provenanceJson(t.provenance, subject)},${JSON.stringify(tail).slice(1, -1)},"events":${timeline.json}}`,
  );
  if (version !== null) t.lookups.set(row.id, version, rendered);
  return rendered;
}
