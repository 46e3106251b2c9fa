/**
 * The rates events' payloads (docs/rates.md, "Events"), in catalogue order. Raised by
 * ingest/rates/: import.ts (rate_added, rate_changed) and sweep.ts (rate_expiring).
 */
import { type Static, Type } from "@sinclair/typebox";
import { Bool, Int, NNum, NStr, Nullable, Num, Obj, Str } from "./fields.ts";

/** The sheet as every rates payload names it. */
const SHEET_SUBJECT = {
  sheet_id: Str,
  name: Str,
  carrier: Str,
  mode: Str,
  currency: Str,
  valid_from: Type.String({ description: "First day the sheet applies, YYYY-MM-DD" }),
  valid_to: Type.String({ description: "Last day the sheet applies, YYYY-MM-DD" }),
  version: Int,
  source_file: Str,
  imported_at: Str,
  lines: Int,
  surcharges: Int,
};

const Subject = Obj(SHEET_SUBJECT);
export type SheetSubject = Static<typeof Subject>;

/** A lane's price: per-kg breaks for air, else a rate. */
const Price = Obj({
  basis: Str,
  rate: NNum,
  minimum: NNum,
  breaks: Nullable(Type.Record(Str, Num)),
});

export type RatePrice = Static<typeof Price>;

const LANE = { origin: Str, destination: Str, equipment: NStr };

export const RATE_EVENTS = {
  rate_added: Subject,
  rate_changed: Obj({
    ...SHEET_SUBJECT,
    previous_version: Int,
    previous_valid_from: Str,
    previous_valid_to: Str,
    lanes_changed: Int,
    lanes_added: Int,
    lanes_removed: Int,
    /** Lanes listed up to a cap (ingest/rates/events.ts); the counts give the whole number. */
    changed: Type.Array(Obj({ ...LANE, previous: Price, current: Price })),
    added: Type.Array(Obj({ ...LANE, current: Price })),
    removed: Type.Array(Obj({ ...LANE, previous: Price })),
    surcharges_changed: Bool,
  }),
  rate_expiring: Obj({ ...SHEET_SUBJECT, days_left: Int, expiring_days: Int }),
};
