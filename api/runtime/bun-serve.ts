/** Bun.serve adapter: one listener per product. Deno uses Deno.serve(app.fetch) instead. */
import type { FetchApp } from "../app.ts";

export function serveBun(app: FetchApp, hostname: string, port: number, maxBodyBytes: number) {
  // Bun's own cap sits well above ours so oversized bodies still get the product's envelope.
  return Bun.serve({
    hostname,
    port,
    fetch: app.fetch,
    maxRequestBodySize: Math.max(maxBodyBytes * 8, 16 * 1024 * 1024),
  });
}
