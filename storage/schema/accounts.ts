/**
 * Organisations, their API keys and the products each may use. Part of the one schema
 * (storage/schema.ts).
 */
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

export const orgs = sqliteTable("orgs", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  /** Plan name, e.g. free, starter, pro, payg. */
  plan: text("plan").notNull().default("free"),
  /** Paid plans get the higher rate window (120 instead of 40). */
  paid: integer("paid", { mode: "boolean" }).notNull().default(false),
  /** Unique shipments allowed per billing month; null = uncapped. */
  shipmentQuota: integer("shipment_quota"),
  /** Concurrently tracked containers; null = uncapped. */
  containerSlots: integer("container_slots"),
  /** Pay-as-you-go only: spend cap and unit price in USD; null = not pay-as-you-go. */
  paygSpendCapUsd: real("payg_spend_cap_usd"),
  paygUnitPriceUsd: real("payg_unit_price_usd"),
  /** Per-account ceiling arranged by support; overrides the plan's 40 / 120 per window. */
  rateLimit: integer("rate_limit"),
  createdAt: text("created_at").notNull(),
});

export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => orgs.id),
    /** Product that issued the key: ocean, air, schedules, loading, rates, distance. */
    product: text("product").notNull(),
    /** SHA-256 (hex) of the whole key; keys are 190-bit random, so a fast hash is safe here. */
    hash: text("hash").notNull(),
    /** First characters and last four, for display; never enough to use the key. */
    hint: text("hint").notNull(),
    label: text("label"),
    createdAt: text("created_at").notNull(),
    expiresAt: text("expires_at"),
    revokedAt: text("revoked_at"),
  },
  (t) => [uniqueIndex("api_keys_hash").on(t.hash), index("api_keys_org").on(t.orgId)],
);

export const entitlements = sqliteTable(
  "entitlements",
  {
    orgId: text("org_id")
      .notNull()
      .references(() => orgs.id),
    product: text("product").notNull(),
    /** ISO 8601; null = no expiry. */
    expiresAt: text("expires_at"),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.product] })],
);
