/** Whole event payloads for tests of the outbox and the fan-out, where no emitter is under test. */
import type { EventData } from "../../common/events/catalogue.ts";

export const sampleSheet = (sheetId: string): EventData<"rates", "rate_added"> => ({
  sheet_id: sheetId,
  name: "Sample sheet",
  carrier: "MAEU",
  mode: "fcl",
  currency: "USD",
  valid_from: "2026-01-01",
  valid_to: "2026-12-31",
  version: 1,
  source_file: "sample.csv",
  imported_at: "2026-01-01T00:00:00.000Z",
  lines: 1,
  surcharges: 0,
});

export const sampleDeletedPlan = (id: string): EventData<"loading", "plan_deleted"> => ({
  id,
  name: "Sample plan",
  reference: null,
  version: 1,
  deleted_at: "2026-01-01T00:00:00.000Z",
});
