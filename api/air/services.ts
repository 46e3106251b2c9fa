/** Air-waybill tracking and what it needs, wired from configuration (like api/ocean/services.ts). */
import { distanceServices } from "../../engine/services.ts";
import { airportLookup } from "../../ingest/air-tracking/airports.ts";
import { AirWaybillTracking } from "../../ingest/air-tracking/waybill-tracking.ts";
import { AwbPrefixes } from "../../ingest/airlines/awb.ts";
import type { AirlineConnector } from "../../ingest/airlines/connector.ts";
import { oneRecordConnectors } from "../../ingest/airlines/one-record.ts";
import type { Wakeups } from "../../ingest/wakeups.ts";
import type { Storage } from "../../storage/storage.ts";
import type { Config } from "../config.ts";

export interface AirServices {
  /** The use cases: add, read, list, archive, the poller's tick. */
  waybills: AirWaybillTracking;
  storage: Storage;
  prefixes: AwbPrefixes;
  /** ONE Record connectors by airline IATA code (PORTOLAN_AIRLINES; the sandbox airline's by default). */
  connectors: ReadonlyMap<string, AirlineConnector>;
}

export async function airServices(
  config: Config,
  storage: Storage,
  now: () => number,
  wakeups?: Wakeups,
): Promise<AirServices> {
  // A broken prefix table stops the start here rather than failing every add.
  const [prefixes, { locations }] = await Promise.all([
    AwbPrefixes.load(config.sourcesDir),
    distanceServices(config.buildDir),
  ]);
  const connectors = oneRecordConnectors(config.airlines);
  const waybills = new AirWaybillTracking({
    storage,
    now,
    prefixes,
    connectors,
    airports: airportLookup(locations),
    wakeups,
  });
  return { waybills, storage, prefixes, connectors };
}
