import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "sqlite",
  schema: "./storage/schema.ts",
  out: "./storage/migrations",
});
