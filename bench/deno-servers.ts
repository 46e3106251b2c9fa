/**
 * bench/servers.ts under Deno (`deno run -A --no-check bench/deno-servers.ts <kind> <port> <db|body>
 * [product]`): "portolan" serves one real product app through the Deno start's own adapters
 * (api/runtime/deno.ts); "bare" is a bare Deno.serve handler answering fixed bytes, Deno's ceiling.
 */
import { readFileSync } from "node:fs";
import { buildApps } from "../api/app.ts";
import { loadConfig } from "../api/config.ts";
import { wirePlatform } from "../api/platform-wiring.ts";
import { denoRuntime, denoServe } from "../api/runtime/deno.ts";
import type { ProductId } from "../api/shared/products.ts";
import { openTarget } from "../storage/open-target.ts";

const [kind, port, file, productId] = process.argv.slice(2);
if (kind === "portolan") {
  const storage = await openTarget(file!, denoRuntime.openSqlite);
  const platform = await wirePlatform({ ...loadConfig(), database: file! }, storage);
  denoRuntime.serve(buildApps(platform)[productId as ProductId], "127.0.0.1", Number(port));
} else {
  const body = readFileSync(file!);
  denoServe({
    hostname: "127.0.0.1",
    port: Number(port),
    fetch: () => new Response(body, { headers: { "content-type": "application/json; charset=utf-8" } }),
  });
}
console.log("ready");
