import { defineConfig } from "drizzle-kit";

// The PostgreSQL migrations, generated from the mirror of the one schema (storage/pg-schema.ts).
export default defineConfig({
  dialect: "postgresql",
  schema: "./storage/pg-schema.ts",
  out: "./storage/migrations-pg",
});
