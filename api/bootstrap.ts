/** Wires a Platform from configuration under Bun: the database PORTOLAN_DB names, then the rest. */
import { openStorage } from "../storage/open.ts";
import type { Config } from "./config.ts";
import { type Running, wirePlatform } from "./platform-wiring.ts";

export type { Running } from "./platform-wiring.ts";

export async function bootstrap(config: Config, now: () => number = Date.now): Promise<Running> {
  return wirePlatform(config, await openStorage(config.database), now);
}
