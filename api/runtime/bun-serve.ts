/** Bun.serve adapter: one listener per product. Deno uses Deno.serve(app.fetch) instead. */
import type { FetchApp } from "../app.ts";

/**
 * Bun answers an empty 413 past its own body cap, before the app sees the request. The app caps
 * every body itself (declared Content-Length up front, streamed bytes as they arrive) and answers
 * in the product's envelope, so Bun's cap is lifted out of the way.
 */
const BUN_BODY_CAP = 2 ** 50;

/**
 * Seconds a connection may pass without a byte before Bun closes it (Bun's default, named here):
 * a request waiting for a route worker answers 503 well before (engine/sea/lanes.ts, WAIT_MS).
 */
export const IDLE_TIMEOUT_S = 10;

export function serveBun(app: FetchApp, hostname: string, port: number) {
  return Bun.serve({
    hostname,
    port,
    fetch: app.fetch,
    maxRequestBodySize: BUN_BODY_CAP,
    idleTimeout: IDLE_TIMEOUT_S,
  });
}
