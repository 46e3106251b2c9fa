/** What tracking takes from outside: the database, the clock, the lines and their connectors. */
import type { Storage } from "../../storage/storage.ts";
import type { PositionStore } from "../ais/positions.ts";
import type { CarrierConnector } from "../carriers/connector.ts";
import type { CarrierDirectory } from "../carriers/resolve.ts";
import type { LessorConnector } from "../lessors/connector.ts";
import type { Wakeups } from "../wakeups.ts";
import type { PollPriority } from "./schedule.ts";
import type { PlaceLookup } from "./timeline.ts";

/** What every tracking service (ocean records, air waybills) takes. */
export interface PollingDeps {
  storage: Storage;
  now: () => number;
  /** Tells other roles (the dispatcher, pollers) there is work for them now, not at their next tick. */
  wakeups?: Wakeups;
  /** Override of how long an add's claim on its new record lasts (ADD_LEASE_MS, AIR_ADD_LEASE_MS). */
  addLeaseMs?: number;
}

export interface TrackingDeps extends PollingDeps {
  carriers: CarrierDirectory;
  /** Connectors by SCAC (ingest/carriers/registry.ts builds them from configuration). */
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
}
