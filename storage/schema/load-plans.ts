/**
 * Load plans. Part of the one schema (storage/schema.ts).
 */
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { orgs } from "./accounts.ts";

/**
 * Load plans per organisation (the load-plan host, /v1/load-plans): the request's input as the
 * caller sent it (snake_case JSON) and the planner's result, re-planned when the input changes.
 * Deleting a plan removes its row (plan_deleted carries what receivers need). docs/loadplan.md,
 * "The load-plan product".
 */
export const loadPlans = sqliteTable(
  "load_plans",
  {
    /** Time-ordered (common/ids.ts). */
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => orgs.id),
    name: text("name").notNull(),
    /** The caller's own reference (booking, order), optional. */
    reference: text("reference"),
    input: text("input", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    /** engine/loadplan/types.ts LoadPlanResult. */
    result: text("result", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    /** complete (every piece placed) or partial. */
    status: text("status").notNull(),
    /** 1 when created, +1 per change. */
    version: integer("version").notNull().default(1),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [index("load_plans_org_updated").on(t.orgId, t.updatedAt, t.id)],
);
