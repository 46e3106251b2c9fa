/** `npm start`: every product on its own loopback port, one process, embedded defaults. */
import { buildApps } from "./app.ts";
import { bootstrap } from "./bootstrap.ts";
import { loadConfig } from "./config.ts";
import { distanceServices } from "./distance/services.ts";
import { serveBun } from "./runtime/bun-serve.ts";
import { PRODUCTS } from "./shared/products.ts";

const config = loadConfig();
try {
  await distanceServices(config.buildDir);
} catch (err) {
  // Refuse to start on missing, stale or mixed artifacts; the message says how to rebuild.
  console.error(`portolan: ${(err as Error).message}`);
  process.exit(1);
}
const platform = await bootstrap(config);
const apps = buildApps(platform);
for (const p of PRODUCTS) {
  const server = serveBun(apps[p.id], config.host, config.ports[p.id], config.maxBodyBytes);
  console.log(
    `${p.title.padEnd(32)} ${config.publicUrls[p.id]}  (docs ${config.publicUrls[p.id]}/swagger, port ${server.port})`,
  );
}
const stop = async () => {
  await platform.close();
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
