/**
 * Bench servers, each run as its own process (`bun bench/servers.ts <kind> <port> <db|body> [product]`)
 * so the driver and the server do not share a core: "portolan" serves one real product app; "bare" is
 * a bare Bun.serve handler answering fixed bytes, the ceiling on this machine. BENCH_REQUEST_METRICS=off
 * leaves the request metrics unrecorded (bench/observability.ts).
 */
import { buildApps } from "../api/app.ts";
import { bootstrap } from "../api/bootstrap.ts";
import { loadConfig } from "../api/config.ts";
import type { ProductId } from "../api/shared/products.ts";
import { httpDuration, httpInFlight, httpRequests } from "../common/metrics.ts";

const [kind, port, file, productId] = process.argv.slice(2);
// bench/observability.ts's baseline: the request metrics' hooks run and record nothing.
if (process.env.BENCH_REQUEST_METRICS === "off") {
  httpRequests.inc = () => {};
  httpDuration.observe = () => {};
  httpInFlight.inc = () => {};
  httpInFlight.dec = () => {};
}
if (kind === "portolan") {
  const platform = await bootstrap({ ...loadConfig(), database: file! });
  Bun.serve({
    hostname: "127.0.0.1",
    port: Number(port),
    fetch: buildApps(platform)[productId as ProductId].fetch,
  });
} else {
  const body = await Bun.file(file!).bytes();
  Bun.serve({
    hostname: "127.0.0.1",
    port: Number(port),
    fetch: () => new Response(body, { headers: { "content-type": "application/json; charset=utf-8" } }),
  });
}
console.log("ready");
