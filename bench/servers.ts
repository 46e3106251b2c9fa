/**
 * Bench servers, each run as its own process (`bun bench/servers.ts <kind> <port> [db]`) so the
 * driver and the server do not share a core: "portolan" serves the real ocean app; "bare" is a
 * bare Bun.serve handler answering the same bytes, the ceiling on this machine.
 */
import { buildApps } from "../api/app.ts";
import { bootstrap } from "../api/bootstrap.ts";
import { loadConfig } from "../api/config.ts";

const [kind, port, dbPath, bodyFile] = process.argv.slice(2);
if (kind === "portolan") {
  const platform = await bootstrap({ ...loadConfig(), dbPath: dbPath! });
  Bun.serve({ hostname: "127.0.0.1", port: Number(port), fetch: buildApps(platform).ocean.fetch });
} else {
  const body = await Bun.file(bodyFile!).bytes();
  Bun.serve({
    hostname: "127.0.0.1",
    port: Number(port),
    fetch: () => new Response(body, { headers: { "content-type": "application/json; charset=utf-8" } }),
  });
}
console.log("ready");
