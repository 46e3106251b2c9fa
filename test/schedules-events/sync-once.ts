/**
 * Another process refreshing the schedules: opens the database at PORTOLAN_DB and refreshes every
 * carrier of CARRIERS (JSON) once at the clock reading CLOCK (ms), printing the results as JSON.
 */
import type { DcsaConnectorConfig } from "../../ingest/carriers/connector.ts";
import { ScheduleSync } from "../../ingest/schedules/sync.ts";
import { openStorage } from "../../storage/open.ts";

const carriers = JSON.parse(process.env.CARRIERS!) as DcsaConnectorConfig[];
const clock = Number(process.env.CLOCK);
const storage = await openStorage(process.env.PORTOLAN_DB!);
try {
  const sync = new ScheduleSync({ storage, carriers, now: () => clock });
  const results = await Promise.all(carriers.map((c) => sync.syncCarrier(c.scac)));
  console.log(JSON.stringify(results));
} finally {
  await storage.close();
}
