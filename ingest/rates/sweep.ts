/**
 * The daily rate_expiring sweep (poller role): every sheet whose valid_to falls within the next
 * PORTOLAN_RATES_EXPIRING_DAYS days (today included) raises rate_expiring once for that end date.
 * The sheet row records the end date it was raised for, by a conditional update in the same
 * transaction as the outbox row, so sweeps in several processes raise it once; a re-import that
 * moves valid_to makes it due again. docs/rates.md, "Events".
 */
import type { Storage } from "../../storage/storage.ts";
import type { Pollable } from "../tracking/poller.ts";
import { appendRateEvents, rateExpiring } from "./events.ts";

export const DEFAULT_EXPIRING_DAYS = 7;
/** The sweep's interval: once a day (and once at start). */
export const SWEEP_INTERVAL_MS = 86_400_000;

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export class RateExpirySweep implements Pollable {
  constructor(private readonly deps: { storage: Storage; days: number; now?: () => number }) {}

  /** Raises what is due; returns how many sheets it raised rate_expiring for. */
  pollDue(): Promise<number> {
    const now = (this.deps.now ?? Date.now)();
    const today = day(now);
    const until = day(now + this.deps.days * 86_400_000);
    const at = new Date(now).toISOString();
    return this.deps.storage.transaction(async (tx) => {
      let raised = 0;
      for (const sheet of await tx.rateSheets.expiring(today, until)) {
        if (!(await tx.rateSheets.markExpiring(sheet.id, sheet.validTo))) continue;
        await appendRateEvents(tx, sheet.orgId, [rateExpiring(sheet, today, this.deps.days)], at);
        raised++;
      }
      return raised;
    });
  }
}
