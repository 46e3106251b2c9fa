/**
 * The dispatcher as its own process (`bun api/webhooks/dispatcher-main.ts`), for running it apart
 * from the API (PORTOLAN_WEBHOOK_DISPATCHER=0 there) or several side by side on one database.
 */

import { openDatabase } from "../../storage/sqlite.ts";
import { loadConfig } from "../config.ts";
import { Dispatcher } from "./dispatcher.ts";

const config = loadConfig();
const { db, close } = openDatabase(config.dbPath);
const dispatcher = await Dispatcher.start(db, config.webhooks);
console.log(`webhook dispatcher ${dispatcher.owner} on ${config.dbPath}`);
const stop = async () => {
  await dispatcher.stop();
  close();
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
