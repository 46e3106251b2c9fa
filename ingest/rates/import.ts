/**
 * Importing a checked rate sheet for an organisation (`portolan rates import`): one transaction
 * that inserts a new sheet (rate_added), replaces the lines and surcharges of the sheet with the
 * same identity (organisation, carrier, mode, name; rate_changed) or, when the content digest is
 * the stored one, changes nothing and raises nothing. docs/rates.md, "Importing".
 */
import { type RateLine, type RateSheet, type RateSurcharge, sheetDigest } from "../../engine/rates/sheet.ts";
import type {
  NewRateLine,
  NewRateSurcharge,
  RateLineRow,
  RateSheetRow,
  RateSurchargeRow,
} from "../../storage/rates.ts";
import type { Storage } from "../../storage/storage.ts";
import { appendRateEvents, RATE_ADDED, type RaisedRateEvent, rateChanged, sheetSubject } from "./events.ts";

export type ImportOutcome = "added" | "replaced" | "unchanged";

export interface ImportResult {
  outcome: ImportOutcome;
  sheet: RateSheetRow;
  /** Outbox rows written (0 when nobody subscribed, or nothing changed). */
  events: number;
}

/** A stored line as the engine prices it. */
export const lineOf = (r: RateLineRow): RateLine => ({
  origin: r.origin,
  destination: r.destination,
  equipment: r.equipment,
  basis: r.basis as RateLine["basis"],
  rate: r.rate,
  minimum: r.minimum,
  breaks: r.breaks ?? null,
  transitDays: r.transitDays,
  distanceKm: r.distanceKm,
});

export const surchargeOf = (r: RateSurchargeRow): RateSurcharge => ({
  code: r.code,
  basis: r.basis as RateSurcharge["basis"],
  amount: r.amount,
  equipment: r.equipment,
  origin: r.origin,
  destination: r.destination,
  validFrom: r.validFrom,
  validTo: r.validTo,
});

const lineRows = (lines: readonly RateLine[]): NewRateLine[] => lines.map((l) => ({ ...l }));
const surchargeRows = (list: readonly RateSurcharge[]): NewRateSurcharge[] => list.map((s) => ({ ...s }));

export async function importSheet(
  storage: Storage,
  orgId: string,
  sheet: RateSheet,
  sourceFile: string,
  now: number,
): Promise<ImportResult> {
  const at = new Date(now).toISOString();
  const digest = sheetDigest(sheet);
  const fields = {
    name: sheet.name,
    carrier: sheet.carrier,
    mode: sheet.mode,
    currency: sheet.currency,
    validFrom: sheet.validFrom,
    validTo: sheet.validTo,
    sourceFile,
    importedAt: at,
    digest,
    lineCount: sheet.lines.length,
    surchargeCount: sheet.surcharges.length,
  };
  return storage.transaction(async (tx) => {
    const existing = await tx.rateSheets.byIdentity(orgId, sheet.carrier, sheet.mode, sheet.name);
    if (existing?.digest === digest) return { outcome: "unchanged", sheet: existing, events: 0 };
    let raised: RaisedRateEvent;
    let stored: RateSheetRow;
    if (!existing) {
      stored = {
        id: crypto.randomUUID(),
        orgId,
        createdAt: at,
        version: 1,
        expiringRaisedFor: null,
        ...fields,
      };
      await tx.rateSheets.insert(stored, lineRows(sheet.lines), surchargeRows(sheet.surcharges));
      raised = { type: RATE_ADDED, data: sheetSubject(stored) };
    } else {
      const before = {
        lines: (await tx.rateSheets.lines(existing.id)).map(lineOf),
        surcharges: (await tx.rateSheets.surcharges([existing.id])).map(surchargeOf),
      };
      stored = { ...existing, ...fields, version: existing.version + 1 };
      await tx.rateSheets.replace(
        existing.id,
        { ...fields, version: stored.version },
        lineRows(sheet.lines),
        surchargeRows(sheet.surcharges),
      );
      raised = rateChanged(stored, existing, before, sheet);
    }
    const events = await appendRateEvents(tx, orgId, [raised], at);
    return { outcome: existing ? "replaced" : "added", sheet: stored, events };
  });
}
