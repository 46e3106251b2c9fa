/**
 * The roles PORTOLAN_ROLES names, all of them by default, in this one process: every product on
 * its own loopback port (api), the carrier poller, the webhook dispatcher and the AIS feeds, with
 * the sandbox carrier beside the API (PORTOLAN_SANDBOX=0 and PORTOLAN_CARRIERS for real lines).
 * The same under either runtime: the entry (api/main.ts for Bun, api/runtime/deno-main.ts for
 * Deno) hands in its listeners, SQLite driver and process spawner.
 */

import { log } from "../common/log.ts";
import {
  checkModeArtifacts,
  closeRoutePlanners,
  distanceServices,
  routePlanner,
} from "../engine/services.ts";
import { SANDBOX_SCACS } from "../ingest/sandbox/world.ts";
import { openTarget } from "../storage/open-target.ts";
import { airQuoter } from "./air/quote.ts";
import { buildApps } from "./app.ts";
import { startBackgroundRoles } from "./background-roles.ts";
import { type Config, loadConfig, redactedDatabase } from "./config.ts";
import { observeProcess } from "./observe.ts";
import { type Running, wirePlatform } from "./platform-wiring.ts";
import type { Runtime } from "./runtime/runtime.ts";
import { startSandboxCarrier } from "./runtime/sandbox-process.ts";
import { adminApp } from "./shared/admin.ts";
import { PRODUCTS } from "./shared/products.ts";
import { stopOnSignals } from "./shutdown.ts";
import { SecretBox } from "./webhooks/secrets.ts";

/** The admin listener, unless turned off; a port in use stops the start, named. */
function serveAdminPort(runtime: Runtime, config: Config, platform: Running) {
  const { host, port } = config.admin;
  if (port === null) return null;
  try {
    const server = runtime.serveAdmin(adminApp(platform.readiness), host, port);
    log.info(
      { role: "admin", url: `http://${host}:${server.port}` },
      "admin port listening (/metrics, /livez, /readyz)",
    );
    return server;
  } catch (err) {
    console.error(
      `portolan: admin port ${host}:${port}: ${(err as Error).message} (set PORTOLAN_ADMIN_PORT to a free port, or "off")`,
    );
    process.exit(1);
  }
}

/**
 * The configuration, with everything it names checked: refuses to start on bad settings, missing,
 * stale or mixed artifacts or bad keys; the message says what to do.
 */
async function checkedConfig(): Promise<Config> {
  try {
    const config = loadConfig();
    if (config.roles.has("api")) {
      await distanceServices(config.buildDir);
      // Route workers load their own router: a broken load stops the start, not the first route.
      await routePlanner(config.buildDir, config.routes);
      await checkModeArtifacts(config.buildDir, config.routes, config.road);
      // A malformed air rate card (PORTOLAN_AIR_RATE_CARD) stops the start with the field named.
      await airQuoter(config);
    }
    // A missing or malformed webhook key ring fails here, not as a 500 on the first registration.
    await SecretBox.create(config.webhooks);
    return config;
  } catch (err) {
    console.error(`portolan: ${(err as Error).message}`);
    process.exit(1);
  }
}

/**
 * The sandbox carrier goes with the API; processes running other roles apart are given the
 * carriers (PORTOLAN_CARRIERS) like any real line.
 */
async function sandboxBeside(runtime: Runtime, config: Config) {
  if (!config.roles.has("api") || !config.sandbox || config.carriers.length > 0) return null;
  const sandbox = await startSandboxCarrier(
    runtime.spawnSandbox,
    config.sandboxPort,
    config.sandboxAisPort,
    process.env,
    config.sandboxAirPort,
  );
  config.carriers = sandbox.carriers;
  // Real airlines (PORTOLAN_AIRLINES) win; otherwise air waybills are tracked at the sandbox airline.
  if (config.airlines.length === 0) config.airlines = sandbox.airlines;
  config.lessors = [...config.lessors, ...sandbox.lessors];
  config.aisFeeds = [...config.aisFeeds, ...sandbox.aisFeeds];
  log.info(
    { role: "sandbox", url: sandbox.url, lines: SANDBOX_SCACS, child_pid: sandbox.pid() },
    "sandbox carrier (DCSA TNT 2.2) listening",
  );
  log.info(
    { role: "sandbox", url: sandbox.airUrl, airlines: sandbox.airlines.map((a) => a.iata) },
    "sandbox airline (ONE Record) listening",
  );
  return sandbox;
}

/** Every product on its own port, when this process runs the api role. */
function serveProducts(runtime: Runtime, config: Config, platform: Running) {
  const apps = config.roles.has("api") ? buildApps(platform) : null;
  return (apps ? PRODUCTS : []).map((p) => {
    const server = runtime.serve(apps![p.id], config.host, config.ports[p.id]);
    const url = config.publicUrls[p.id];
    log.info(
      { role: "api", product: p.id, url, docs: `${url}/docs`, port: server.port },
      `${p.title} listening`,
    );
    return server;
  });
}

export async function start(runtime: Runtime): Promise<void> {
  const config = await checkedConfig();
  const { roles } = config;
  const sandbox = await sandboxBeside(runtime, config);
  const platform = await wirePlatform(config, await openTarget(config.database, runtime.openSqlite));
  if (sandbox) {
    // Tracking answers from what it holds while the sandbox restarts: degraded, still ready.
    platform.readiness.add("sandbox", () =>
      sandbox.state() === "up" ? { status: "up" } : { status: "degraded", detail: "restarting" },
    );
  }
  const planner = roles.has("api") ? await routePlanner(config.buildDir, config.routes) : null;
  // Artifacts were checked above: a process that got this far has them.
  if (planner) platform.readiness.add("artifacts", () => ({ status: "up" }));
  observeProcess(platform, planner);
  const admin = serveAdminPort(runtime, config, platform);
  const listeners = serveProducts(runtime, config, platform);
  const background = await startBackgroundRoles(config, platform, runtime.pinnedPost);
  log.info(
    { runtime: runtime.name, roles: [...roles], database: redactedDatabase(config.database) },
    "started",
  );
  stopOnSignals({
    readiness: platform.readiness,
    drainMs: config.drainMs,
    listeners,
    roles: background,
    close: async () => {
      await closeRoutePlanners();
      sandbox?.stop();
      await admin?.stop(true);
      await platform.close();
    },
  });
}
