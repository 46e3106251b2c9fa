/**
 * The distance API under Deno: `deno run -A --no-check api/runtime/deno-distance.ts`.
 * Same app, same handlers, same WASM router; only the listener (Deno.serve) and the SQLite client
 * (node:sqlite) differ from the Bun start.
 */
import { fileURLToPath } from "node:url";
import { checkModeArtifacts, distanceServices, routePlanner } from "../../engine/services.ts";
import { sqliteStorage } from "../../storage/storage.ts";
import { AccountsRepo } from "../accounts/repo.ts";
import { loadConfig } from "../config.ts";
import { distanceApp } from "../distance/app.ts";
import { MemoryRateLimiter } from "../shared/ratelimit/memory.ts";
import { openDenoDatabase } from "./deno-sqlite.ts";

declare const Deno: {
  env: { toObject(): Record<string, string> };
  serve(
    opts: { hostname: string; port: number; onListen?: () => void },
    handler: (r: Request) => Response | Promise<Response>,
  ): unknown;
};

const config = loadConfig(Deno.env.toObject());
const storage = sqliteStorage(
  openDenoDatabase(config.database, fileURLToPath(new URL("../../storage/migrations", import.meta.url))),
);
await distanceServices(config.buildDir);
await routePlanner(config.buildDir, config.routes);
await checkModeArtifacts(config.buildDir, config.routes, config.road);
const app = distanceApp({
  config,
  accounts: new AccountsRepo(storage, Date.now),
  limiter: new MemoryRateLimiter(config.rateWindowMs),
  now: Date.now,
});
Deno.serve(
  { hostname: config.host, port: config.ports.distance, onListen: () => console.log("ready") },
  app.fetch,
);
