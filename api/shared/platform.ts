/** Everything a product app needs from the process: config, accounts, the rate limiter, the clock. */
import type { AccountsRepo } from "../accounts/repo.ts";
import type { Config } from "../config.ts";
import type { RateLimiter } from "./ratelimit/types.ts";

export interface Platform {
  config: Config;
  accounts: AccountsRepo;
  limiter: RateLimiter;
  now: () => number;
}
