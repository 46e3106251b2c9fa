/** Builds the six product apps over one platform; runtime adapters decide how they are served. */
import { airApp } from "./air/app.ts";
import { distanceApp } from "./distance/app.ts";
import { loadingApp } from "./loading/app.ts";
import { oceanApp } from "./ocean/app.ts";
import { ratesApp } from "./rates/app.ts";
import { schedulesApp } from "./schedules/app.ts";
import type { FullPlatform } from "./shared/platform.ts";
import type { ProductId } from "./shared/products.ts";

export interface FetchApp {
  fetch: (request: Request) => Response | Promise<Response>;
  handle: (request: Request) => Promise<Response>;
  /** The server answering for it, when one does: its hooks read client addresses from it. */
  server: { requestIP(request: Request): { address: string } | null } | null;
}

export function buildApps(platform: FullPlatform): Record<ProductId, FetchApp> {
  return {
    ocean: oceanApp(platform),
    air: airApp(platform),
    schedules: schedulesApp(platform),
    loading: loadingApp(platform),
    rates: ratesApp(platform),
    distance: distanceApp(platform),
  };
}
