/**
 * A poller on its own: `bun api/ocean/poller-main.ts`, against the API's database and
 * carriers (same configuration). Run several; claims keep them off each other's records. Start the
 * API with PORTOLAN_POLLER=0 to leave polling to these.
 */

import { startPoller } from "../../ingest/tracking/poller.ts";
import { bootstrap } from "../bootstrap.ts";
import { loadConfig, redactedDatabase } from "../config.ts";

const config = loadConfig();
const platform = await bootstrap(config);
const poller = startPoller(platform.tracking.engine, config.pollIntervalMs);
console.log(`poller: every ${config.pollIntervalMs} ms against ${redactedDatabase(config.database)}`);
const stop = async () => {
  poller.stop();
  await platform.close();
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
