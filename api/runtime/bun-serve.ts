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
 * a client that opens a connection and sends nothing, or stops half-way through its request.
 */
export const IDLE_TIMEOUT_S = 10;

/**
 * Seconds a request that has arrived may take to be answered before Bun closes its connection. A
 * route or plan computed on a busy machine (a worker loading its graphs first) can pass the idle
 * timeout with the client waiting and no byte sent: its answer must still reach the client. A
 * request waiting for a worker answers 503 long before (engine/sea/lanes.ts, WAIT_MS).
 */
export const ANSWER_TIMEOUT_S = 120;

export function serveBun(app: FetchApp, hostname: string, port: number) {
  const server = Bun.serve({
    hostname,
    port,
    fetch(request, server) {
      server.timeout(request, ANSWER_TIMEOUT_S);
      return app.fetch(request);
    },
    maxRequestBodySize: BUN_BODY_CAP,
    idleTimeout: IDLE_TIMEOUT_S,
  });
  // Elysia hands its hooks the server it listens on; served from here, it is told which, so
  // per-IP limits read each client's address (server.requestIP) instead of none.
  app.server = server;
  return server;
}

/** The admin listener (api/shared/admin.ts): probes and metrics, small answers, Bun's defaults. */
export function serveAdmin(
  app: { fetch(request: Request): Promise<Response> },
  hostname: string,
  port: number,
) {
  return Bun.serve({ hostname, port, fetch: (request) => app.fetch(request), idleTimeout: IDLE_TIMEOUT_S });
}
