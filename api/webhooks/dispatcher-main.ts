/**
 * The dispatcher as its own process (`bun api/webhooks/dispatcher-main.ts`), for running it apart
 * from the API (PORTOLAN_WEBHOOK_DISPATCHER=0 there) or several side by side on one database.
 */

import { openStorage } from "../../storage/open.ts";
import { loadConfig, redactedDatabase } from "../config.ts";
import { Dispatcher } from "./dispatcher.ts";

const config = loadConfig();
const storage = await openStorage(config.database);
const dispatcher = await Dispatcher.start(storage, config.webhooks);
console.log(`webhook dispatcher ${dispatcher.owner} on ${redactedDatabase(config.database)}`);
const stop = async () => {
  await dispatcher.stop();
  await storage.close();
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
