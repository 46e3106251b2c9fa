/**
 * `npm start`: the roles PORTOLAN_ROLES names, all of them by default, in this one process: every
 * product on its own loopback port (api), the carrier poller, the webhook dispatcher and the AIS
 * feeds, with the sandbox carrier beside the API (PORTOLAN_SANDBOX=0 and PORTOLAN_CARRIERS for real
 * lines). docs/scale-out.md runs each role as processes of its own on PostgreSQL and Redis.
 */

import {
  checkModeArtifacts,
  closeRoutePlanners,
  distanceServices,
  routePlanner,
} from "../engine/services.ts";
import { RateExpirySweep, SWEEP_INTERVAL_MS } from "../ingest/rates/sweep.ts";
import { CutoffSweep } from "../ingest/schedules/cutoffs.ts";
import { ReliabilityWatch } from "../ingest/schedules/reliability-watch.ts";
import { ScheduleSync } from "../ingest/schedules/sync.ts";
import { startPoller } from "../ingest/tracking/poller.ts";
import { airQuoter } from "./air/quote.ts";
import { buildApps } from "./app.ts";
import { bootstrap } from "./bootstrap.ts";
import { type Config, loadConfig, redactedDatabase } from "./config.ts";
import { serveBun } from "./runtime/bun-serve.ts";
import { startSandboxCarrier } from "./runtime/sandbox-process.ts";
import { PRODUCTS } from "./shared/products.ts";
import { Dispatcher } from "./webhooks/dispatcher.ts";
import { SecretBox } from "./webhooks/secrets.ts";

let config: Config;
try {
  config = loadConfig();
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
} catch (err) {
  // Refuse to start on bad settings, missing, stale or mixed artifacts or bad keys; the message
  // says what to do.
  console.error(`portolan: ${(err as Error).message}`);
  process.exit(1);
}
const { roles } = config;
// The sandbox carrier goes with the API; processes running other roles apart are given the
// carriers (PORTOLAN_CARRIERS) like any real line.
const sandbox =
  roles.has("api") && config.sandbox && config.carriers.length === 0
    ? await startSandboxCarrier(config.sandboxPort, config.sandboxAisPort, process.env, config.sandboxAirPort)
    : null;
if (sandbox) {
  config.carriers = sandbox.carriers;
  // Real airlines (PORTOLAN_AIRLINES) win; otherwise air waybills are tracked at the sandbox airline.
  if (config.airlines.length === 0) config.airlines = sandbox.airlines;
  config.lessors = [...config.lessors, ...sandbox.lessors];
  config.aisFeeds = [...config.aisFeeds, ...sandbox.aisFeeds];
  console.log(
    `${"Sandbox carrier (DCSA TNT 2.2)".padEnd(32)} ${sandbox.url}  (MAEU, MSCU, CMDU, HLCU, ONEY)`,
  );
  console.log(
    `${"Sandbox airline (ONE Record)".padEnd(32)} ${sandbox.airUrl}  (${sandbox.airlines.map((a) => a.iata).join(", ")})`,
  );
}
const platform = await bootstrap(config);
const apps = roles.has("api") ? buildApps(platform) : null;
for (const p of apps ? PRODUCTS : []) {
  const server = serveBun(apps![p.id], config.host, config.ports[p.id]);
  console.log(
    `${p.title.padEnd(32)} ${config.publicUrls[p.id]}  (docs ${config.publicUrls[p.id]}/docs, port ${server.port})`,
  );
}
const { wakeups } = platform.tracking;
const poller = roles.has("poller")
  ? startPoller([platform.tracking.ocean, platform.air.waybills], config.pollIntervalMs, { wakeups })
  : null;
// Carrier schedules (carriers with a schedulesBaseUrl) on their own interval; a refresh another
// poller process made within half of it is not repeated.
const schedules = new ScheduleSync({
  storage: platform.storage,
  carriers: config.carriers,
  minAgeMs: config.schedulesIntervalMs / 2,
  slipThresholdMs: config.schedulesSlipHours * 3_600_000,
});
// Cut-offs approach as the clock moves: swept on their own short interval and right after each
// refresh (which may have moved them); reliability only moves with a refresh, so it follows one.
const { scheduleWatch } = config;
const cutoffs = new CutoffSweep({
  storage: platform.storage,
  renoticeMs: scheduleWatch.renoticeHours * 3_600_000,
});
const reliabilityWatch = new ReliabilityWatch({
  storage: platform.storage,
  settings: scheduleWatch.reliability,
});
const watching = roles.has("poller") && schedules.carriers.length > 0;
const schedulePoller = watching
  ? startPoller([schedules, cutoffs, reliabilityWatch], config.schedulesIntervalMs, { immediate: true })
  : null;
const cutoffPoller = watching ? startPoller([cutoffs], scheduleWatch.cutoffSweepMs) : null;
// rate_expiring: once at start and daily; the sheet row says whether another process raised it.
const ratesPoller = roles.has("poller")
  ? startPoller(
      [new RateExpirySweep({ storage: platform.storage, days: config.ratesExpiringDays })],
      SWEEP_INTERVAL_MS,
      { immediate: true },
    )
  : null;
const dispatcher = roles.has("dispatcher")
  ? await Dispatcher.start(platform.storage, config.webhooks, { wakeups })
  : null;
console.log(`Roles ${[...roles].join(", ")} on ${redactedDatabase(config.database)}`);
const stop = async () => {
  poller?.stop();
  schedulePoller?.stop();
  ratesPoller?.stop();
  cutoffPoller?.stop();
  await dispatcher?.stop();
  sandbox?.stop();
  await closeRoutePlanners();
  await platform.close();
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
