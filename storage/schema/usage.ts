/**
 * Metering: the shipments each organisation started per month, and the calls on the
 * vendor-compatible surface. Part of the one schema (storage/schema.ts).
 */
import { integer, primaryKey, real, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** Unique shipments started per organisation and month (the shipment quota counts these). */
export const shipmentUsage = sqliteTable(
  "shipment_usage",
  {
    orgId: text("org_id").notNull(),
    month: text("month").notNull(),
    identifier: text("identifier").notNull(),
    chargedUsd: real("charged_usd").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.month, t.identifier] })],
);

/**
 * How many shipment_usage rows each organisation has per month, moved in the transaction that adds
 * or removes one (storage/quotas.ts): the month's count is one row read, where counting the rows
 * read every one of them (an organisation with 100,000 shipments in the month paid 4-5 ms a
 * compat answer, and a count per add).
 */
export const shipmentMonths = sqliteTable(
  "shipment_months",
  {
    orgId: text("org_id").notNull(),
    month: text("month").notNull(),
    shipments: integer("shipments").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.month] })],
);

/**
 * Calls on the vendor-compatible surface (X-Usage-* headers per key, metadata.api_calls per
 * organisation). scope is key:<id> or org:<id>; period a month (2026-11), day (2026-11-21), ISO
 * week (2026-W47) or "all".
 */
export const compatUsage = sqliteTable(
  "compat_usage",
  {
    scope: text("scope").notNull(),
    period: text("period").notNull(),
    calls: integer("calls").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.scope, t.period] })],
);
