/**
 * Rate sheets with their priced lanes and surcharges. Part of the one schema (storage/schema.ts).
 */
import { index, integer, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { orgs } from "./accounts.ts";

/**
 * Rate sheets an operator imported for an organisation (`portolan rates import`): one carrier, mode,
 * currency and validity; a re-import under the same identity (org, carrier, mode, name) replaces the
 * lines and surcharges in place. docs/rates.md.
 */
export const rateSheets = sqliteTable(
  "rate_sheets",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => orgs.id),
    name: text("name").notNull(),
    carrier: text("carrier").notNull(),
    /** OCEAN_FCL, OCEAN_LCL, AIR, ROAD or RAIL. */
    mode: text("mode").notNull(),
    currency: text("currency").notNull(),
    /** UTC dates YYYY-MM-DD, both inclusive. */
    validFrom: text("valid_from").notNull(),
    validTo: text("valid_to").notNull(),
    sourceFile: text("source_file").notNull(),
    /** When the current content was imported (a no-op re-import leaves it). */
    importedAt: text("imported_at").notNull(),
    createdAt: text("created_at").notNull(),
    /** sha256 of the canonical content: an identical re-import changes nothing. */
    digest: text("digest").notNull(),
    /** 1 at the first import, +1 per replacing re-import. */
    version: integer("version").notNull().default(1),
    lineCount: integer("line_count").notNull(),
    surchargeCount: integer("surcharge_count").notNull(),
    /** The valid_to a rate_expiring was raised for (once per sheet and end date, across processes). */
    expiringRaisedFor: text("expiring_raised_for"),
  },
  (t) => [
    uniqueIndex("rate_sheets_identity").on(t.orgId, t.carrier, t.mode, t.name),
    index("rate_sheets_org_mode").on(t.orgId, t.mode, t.validTo),
    index("rate_sheets_org_imported").on(t.orgId, t.importedAt),
    index("rate_sheets_valid_to").on(t.validTo),
  ],
);

/** A sheet's priced lanes: one row per origin, destination and equipment. */
export const rateLines = sqliteTable(
  "rate_lines",
  {
    seq: integer("seq").primaryKey({ autoIncrement: true }),
    sheetId: text("sheet_id")
      .notNull()
      .references(() => rateSheets.id, { onDelete: "cascade" }),
    /** UN/LOCODE, IATA airport code (air) or ISO country code. */
    origin: text("origin").notNull(),
    destination: text("destination").notNull(),
    /** Container type (FCL), free equipment text (road, rail) or null. */
    equipment: text("equipment"),
    /** per_container, per_wm, weight_break, per_km or per_lane. */
    basis: text("basis").notNull(),
    rate: real("rate"),
    minimum: real("minimum"),
    /** Air: rate per kg by break label ("-45", "+45", ...). */
    breaks: text("breaks", { mode: "json" }).$type<Record<string, number>>(),
    transitDays: real("transit_days"),
    distanceKm: real("distance_km"),
  },
  (t) => [index("rate_lines_sheet").on(t.sheetId), index("rate_lines_lane").on(t.origin, t.destination)],
);

/** A sheet's surcharges, each optionally narrowed to equipment, origin, destination and dates. */
export const rateSurcharges = sqliteTable(
  "rate_surcharges",
  {
    seq: integer("seq").primaryKey({ autoIncrement: true }),
    sheetId: text("sheet_id")
      .notNull()
      .references(() => rateSheets.id, { onDelete: "cascade" }),
    code: text("code").notNull(),
    /** per_container, per_shipment, per_kg, per_wm or percent (of the base freight). */
    basis: text("basis").notNull(),
    amount: real("amount").notNull(),
    equipment: text("equipment"),
    origin: text("origin"),
    destination: text("destination"),
    validFrom: text("valid_from"),
    validTo: text("valid_to"),
  },
  (t) => [index("rate_surcharges_sheet").on(t.sheetId)],
);
