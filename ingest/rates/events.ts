/**
 * The rates webhook events: rate_added (a new sheet imported), rate_changed (a re-import replaced a
 * sheet's content) and rate_expiring (a sheet's valid_to is near; ingest/rates/sweep.ts). Written
 * to the outbox in the transaction of the change that raised them, for the sheet's organisation
 * when it has an active rates endpoint subscribed to the type. Payloads: docs/rates.md, "Events".
 */
import type { ProductEvent } from "../../common/events/catalogue.ts";
import type { RatePrice, SheetSubject } from "../../common/events/rates.ts";
import { subscribed } from "../../common/subscriptions.ts";
import { laneKey, type RateLine, type RateSurcharge } from "../../engine/rates/sheet.ts";
import type { RateSheetRow } from "../../storage/rates.ts";
import type { Repositories } from "../../storage/storage.ts";

export const RATE_ADDED = "rate_added";
export const RATE_CHANGED = "rate_changed";
export const RATE_EXPIRING = "rate_expiring";

/** Lanes listed per kind in one rate_changed; the counts always give the whole number. */
export const MAX_LISTED_LANES = 100;

export type RaisedRateEvent = ProductEvent<"rates">;

/** A sheet's own fields as the API and the rates payloads name them. */
export function sheetFields(s: RateSheetRow) {
  return {
    name: s.name,
    carrier: s.carrier,
    mode: s.mode,
    currency: s.currency,
    valid_from: s.validFrom,
    valid_to: s.validTo,
  };
}

/** The sheet as every rates payload names it. */
export function sheetSubject(s: RateSheetRow): SheetSubject {
  return {
    sheet_id: s.id,
    ...sheetFields(s),
    version: s.version,
    source_file: s.sourceFile,
    imported_at: s.importedAt,
    lines: s.lineCount,
    surcharges: s.surchargeCount,
  };
}

type PriceFields = Pick<RateLine, "basis" | "rate" | "minimum" | "breaks">;

/** A lane's price as payloads show it. */
export const priceOf = (l: PriceFields): RatePrice => ({
  basis: l.basis,
  rate: l.rate,
  minimum: l.minimum,
  breaks: l.breaks,
});

const samePrice = (a: PriceFields, b: PriceFields) =>
  JSON.stringify(priceOf(a)) === JSON.stringify(priceOf(b));
const surchargeText = (s: RateSurcharge) =>
  JSON.stringify([s.code, s.basis, s.amount, s.equipment, s.origin, s.destination, s.validFrom, s.validTo]);

/** rate_changed: what the re-import replaced, lane by lane, and whether surcharges or validity moved. */
export function rateChanged(
  sheet: RateSheetRow,
  previous: Pick<RateSheetRow, "validFrom" | "validTo" | "version">,
  before: { lines: readonly RateLine[]; surcharges: readonly RateSurcharge[] },
  after: { lines: readonly RateLine[]; surcharges: readonly RateSurcharge[] },
): RaisedRateEvent {
  const old = new Map(before.lines.map((l) => [laneKey(l), l]));
  const now = new Map(after.lines.map((l) => [laneKey(l), l]));
  const lane = (l: RateLine) => ({ origin: l.origin, destination: l.destination, equipment: l.equipment });
  const changed = [...now].flatMap(([key, l]) => {
    const was = old.get(key);
    return was && !samePrice(was, l) ? [{ ...lane(l), previous: priceOf(was), current: priceOf(l) }] : [];
  });
  const added = [...now]
    .filter(([key]) => !old.has(key))
    .map(([, l]) => ({ ...lane(l), current: priceOf(l) }));
  const removed = [...old]
    .filter(([key]) => !now.has(key))
    .map(([, l]) => ({ ...lane(l), previous: priceOf(l) }));
  const texts = (list: readonly RateSurcharge[]) => list.map(surchargeText).sort().join("\n");
  return {
    type: RATE_CHANGED,
    data: {
      ...sheetSubject(sheet),
      previous_version: previous.version,
      previous_valid_from: previous.validFrom,
      previous_valid_to: previous.validTo,
      lanes_changed: changed.length,
      lanes_added: added.length,
      lanes_removed: removed.length,
      changed: changed.slice(0, MAX_LISTED_LANES),
      added: added.slice(0, MAX_LISTED_LANES),
      removed: removed.slice(0, MAX_LISTED_LANES),
      surcharges_changed: texts(before.surcharges) !== texts(after.surcharges),
    },
  };
}

/** rate_expiring: the sheet ends within the configured number of days (days_left 0 = today). */
export function rateExpiring(sheet: RateSheetRow, today: string, windowDays: number): RaisedRateEvent {
  const daysLeft = Math.round((Date.parse(sheet.validTo) - Date.parse(today)) / 86_400_000);
  return {
    type: RATE_EXPIRING,
    data: { ...sheetSubject(sheet), days_left: daysLeft, expiring_days: windowDays },
  };
}

/** Appends the events for `orgId` if one of its active rates endpoints is subscribed to each. */
export async function appendRateEvents(
  tx: Repositories,
  orgId: string,
  raised: readonly RaisedRateEvent[],
  at: string,
): Promise<number> {
  if (raised.length === 0) return 0;
  const endpoints = await tx.webhooks.subscribers(orgId, "rates");
  const rows = raised
    .filter((e) => endpoints.some((ep) => subscribed(ep.eventTypes, e.type)))
    .map((e) => ({ orgId, product: "rates" as const, ...e }));
  await tx.outbox.append(rows, at);
  return rows.length;
}
