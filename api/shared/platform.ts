/** Everything a product app needs from the process: config, accounts, the rate limiter, the clock. */

import type { Storage } from "../../storage/storage.ts";
import type { AccountsRepo } from "../accounts/repo.ts";
import type { AirServices } from "../air/services.ts";
import type { Config } from "../config.ts";
import type { TrackingServices } from "../ocean/services.ts";
import type { RateLimiter } from "./ratelimit/types.ts";
import type { Readiness } from "./readiness.ts";

export interface Platform {
  config: Config;
  accounts: AccountsRepo;
  limiter: RateLimiter;
  now: () => number;
  /** What /readyz checks; without one it reports ready with no checks. */
  readiness?: Readiness;
}

/** The full Bun process: the tracking products also need the database and the tracking engines. */
export interface FullPlatform extends Platform {
  storage: Storage;
  tracking: TrackingServices;
  /** Air-waybill tracking (the air-cargo host). */
  air: AirServices;
}
