/**
 * Relational schema (drizzle, SQLite dialect): the tables of every product, one module per area
 * under storage/schema/, gathered here. Migrations under storage/migrations are generated from
 * this file with `npm run db:generate` and committed; the server applies them at start. Its
 * PostgreSQL mirror (pg-schema.ts) is derived from the tables exported here.
 */
export * from "./schema/accounts.ts";
export * from "./schema/air.ts";
export * from "./schema/load-plans.ts";
export * from "./schema/rates.ts";
export * from "./schema/schedules.ts";
export * from "./schema/tracking.ts";
export * from "./schema/usage.ts";
export * from "./schema/webhooks.ts";
