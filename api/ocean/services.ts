/** Ocean tracking (the service and what it needs) and the caches its renderings use, wired from configuration. */

import { log } from "../../common/log.ts";
import { VersionedCache } from "../../common/versioned-cache.ts";
import { distanceServices } from "../../engine/services.ts";
import type { PositionStore } from "../../ingest/ais/positions.ts";
import { carrierConnectors } from "../../ingest/carriers/registry.ts";
import { CarrierDirectory } from "../../ingest/carriers/resolve.ts";
import { HttpLessorConnector } from "../../ingest/lessors/connector.ts";
import { OceanTracking } from "../../ingest/tracking/ocean-tracking.ts";
import type { RecordViews } from "../../ingest/tracking/record-views.ts";
import type { PlaceLookup } from "../../ingest/tracking/timeline.ts";
import type { Wakeups } from "../../ingest/wakeups.ts";
import type { Storage } from "../../storage/storage.ts";
import type { TrackedRow } from "../../storage/trackings.ts";
import type { Config } from "../config.ts";
import { positionStore, wakeups } from "../shared/cross-process.ts";
import type { RenderedJson } from "../shared/envelopes.ts";
import { ProvenanceTexts } from "./provenance.ts";
import type { LaneConfidence, ListItem, Timeline } from "./records.ts";

export interface TrackingServices {
  /** The use cases (add, lookup, read, list, recheck, archive, the public lookup, polling). */
  ocean: OceanTracking;
  /** What records show besides their row (ocean.views), for the renderers. */
  views: RecordViews;
  storage: Storage;
  positions: PositionStore;
  /** Work for other roles, signalled across processes when REDIS_URL is set. */
  wakeups: Wakeups;
  carriers: CarrierDirectory;
  confidence: LaneConfidence;
  /** Lookups' rendered milestones, checked against the record's version on every read (versioned-cache.ts). */
  timelines: VersionedCache<Timeline>;
  /** Whole lookup records (their milestones shared with timelines), checked the same way (records.ts). */
  lookups: VersionedCache<RenderedJson>;
  /** Lookups' field_provenance texts by what each family's entry is written from (provenance.ts). */
  provenance: ProvenanceTexts;
  /** List items' rendered text, checked against the record's version on every read (list-page.ts). */
  listItems: VersionedCache<ListItem>;
  /** Whole list pages free of per-request fields, checked against their rows' versions (list-page.ts). */
  listPages: VersionedCache<RenderedJson>;
  /** The same pages under the database's change token, SQLite only (list-page.ts). */
  quietPages: VersionedCache<RenderedJson>;
}

/** Voyages needed on a lane before an on-time share is shown. */
export const MIN_LANE_VOYAGES = 5;
/** Arrival within this many days of the first plan counts as on time. */
export const ON_TIME_DAYS = 1;
const LANE_CACHE_MS = 60_000;
const PLACE_CACHE_MAX = 50_000;
/**
 * Records whose single reads a process keeps (row, milestones, whole lookup text): some 26 kB of
 * heap and buffers a record over the five caches. Kept small on purpose: a heap that holds more made
 * every other read slower, not only the ones it serves (the collector's young generation grows with
 * the heap kept). A server whose caches were full read records it had not kept at 61-62 us of CPU
 * each with room for 10,000, 60-61 us with 5,000, 49-54 us with 3,000 or 2,000 (docs/tracking.md
 * "Caches that stay small"). A dashboard's working set fits; a fleet polled round robin is read,
 * not kept (VersionedCache.admits).
 */
export const TIMELINE_CACHE_MAX = 2_000;
/**
 * field_provenance texts a process keeps: a family's members for one set of values (a carrier and
 * a destination, a vessel's fix at some hour, ...), at most about 1 kB each, so under 5 MB.
 */
export const PROVENANCE_TEXTS_MAX = 4_096;
/**
 * Records whose list item a process keeps: about 1.5 kB of text and fields each, some 30 MB in
 * all; a dashboard's pages stay, a walk through the whole fleet only costs its own renders.
 */
export const LIST_CACHE_MAX = 20_000;
/**
 * Whole pages (of at most 100 rows, some 75 kB at 50, kept twice once answered twice: as pieces
 * and as the response body, envelopes.ts): the pages dashboards poll, some 75 MB at most.
 */
export const PAGE_CACHE_MAX = 500;

export async function trackingServices(
  config: Config,
  storage: Storage,
  now: () => number,
  opts: { isDemo?: (reference: string) => boolean } = {},
): Promise<TrackingServices> {
  const [carriers, { locations }] = await Promise.all([
    CarrierDirectory.load(config.sourcesDir),
    distanceServices(config.buildDir),
  ]);
  // Every record and milestone names its ports and zones: one index search per code, not per read.
  const known = new Map<string, { name: string; timezone: string | null } | null>();
  const place = (locode: string) => {
    let p = known.get(locode);
    if (p === undefined) {
      const port = locations.port(locode);
      p = port ? { name: port.name, timezone: port.timezone ?? null } : null;
      // Carriers send a bounded set of codes; the cap only guards against junk ones piling up.
      if (known.size >= PLACE_CACHE_MAX) known.clear();
      known.set(locode, p);
    }
    return p;
  };
  const places: PlaceLookup = {
    timezone: (locode) => place(locode)?.timezone ?? null,
    name: (locode) => place(locode)?.name ?? null,
  };
  const connectors = carrierConnectors(config.carriers, { now });
  const lessors = config.lessors.map((l) => new HttpLessorConnector(l));
  const positions = await positionStore(config);
  const wake = await wakeups(config);
  const ocean = new OceanTracking({
    storage,
    now,
    carriers,
    connectors,
    places,
    lessors,
    positions,
    wakeups: wake,
    isDemo: opts.isDemo,
    rowCacheCapacity: TIMELINE_CACHE_MAX,
  });
  // A restart picks up adds a dead process left half done (the poller finishes them).
  const recovered = await ocean.recoverInterruptedAdds();
  if (recovered > 0) {
    log.error({ component: "tracking" }, `${recovered} interrupted add(s) due for a poll again`);
    wake.signal("tracking.due");
  }
  // Lane shares move slowly: one query per lane per minute, not per read.
  const laneCache = new Map<string, { at: number; pct: number | null }>();
  const confidence: LaneConfidence = async (row: TrackedRow) => {
    const { carrierCode, originUnlocode, destinationUnlocode } = row;
    if (!carrierCode || !originUnlocode || !destinationUnlocode) return null;
    const lane = `${carrierCode}|${originUnlocode}|${destinationUnlocode}`;
    const cached = laneCache.get(lane);
    if (cached && now() - cached.at < LANE_CACHE_MS) return cached.pct;
    const arrived = await storage.trackings.laneArrivals(
      { carrierCode, originUnlocode, destinationUnlocode },
      ON_TIME_DAYS,
    );
    const pct = arrived.total < MIN_LANE_VOYAGES ? null : Math.round((arrived.onTime / arrived.total) * 100);
    if (laneCache.size > 10_000) laneCache.clear();
    laneCache.set(lane, { at: now(), pct });
    return pct;
  };
  return {
    ocean,
    views: ocean.views,
    storage,
    positions,
    wakeups: wake,
    carriers,
    confidence,
    timelines: new VersionedCache(TIMELINE_CACHE_MAX),
    // The record's text but its milestones (about 4 kB, twice once answered twice): some 80 MB at most.
    lookups: new VersionedCache(TIMELINE_CACHE_MAX),
    provenance: new ProvenanceTexts(PROVENANCE_TEXTS_MAX),
    listItems: new VersionedCache(LIST_CACHE_MAX),
    listPages: new VersionedCache(PAGE_CACHE_MAX),
    // References to listPages' texts (a page kept under its keys is kept under the token too).
    quietPages: new VersionedCache(PAGE_CACHE_MAX),
  };
}
