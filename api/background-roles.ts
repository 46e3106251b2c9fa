/**
 * The roles that work in the background (PORTOLAN_ROLES poller and dispatcher): the carrier and
 * airline poller, carrier schedules with their cut-off and reliability watches, the rate-expiry
 * sweep, the webhook dispatcher. Each comes back with a stop that resolves once its current work
 * is done (shutdown.ts waits for it within the drain deadline).
 */
import { log } from "../common/log.ts";
import { RateExpirySweep, SWEEP_INTERVAL_MS } from "../ingest/rates/sweep.ts";
import { CutoffSweep } from "../ingest/schedules/cutoffs.ts";
import { ReliabilityWatch } from "../ingest/schedules/reliability-watch.ts";
import { ScheduleSync } from "../ingest/schedules/sync.ts";
import { startPoller } from "../ingest/tracking/poller.ts";
import type { Config } from "./config.ts";
import type { Running } from "./platform-wiring.ts";
import { Dispatcher } from "./webhooks/dispatcher.ts";
import type { PinnedPost } from "./webhooks/pinned-post.ts";

export interface BackgroundRole {
  name: string;
  stop(): Promise<void>;
}

/** Carrier schedules (carriers with a schedulesBaseUrl), their cut-offs and reliability. */
function scheduleRoles(config: Config, platform: Running): BackgroundRole[] {
  // A refresh another poller process made within half the interval is not repeated.
  const schedules = new ScheduleSync({
    storage: platform.storage,
    carriers: config.carriers,
    minAgeMs: config.schedulesIntervalMs / 2,
    slipThresholdMs: config.schedulesSlipHours * 3_600_000,
  });
  if (schedules.carriers.length === 0) return [];
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
  return [
    {
      name: "schedules",
      ...startPoller([schedules, cutoffs, reliabilityWatch], config.schedulesIntervalMs, { immediate: true }),
    },
    { name: "cutoffs", ...startPoller([cutoffs], scheduleWatch.cutoffSweepMs) },
  ];
}

/** `post`: the runtime's HTTPS client for webhook deliveries (api/runtime/). */
export async function startBackgroundRoles(
  config: Config,
  platform: Running,
  post?: PinnedPost,
): Promise<BackgroundRole[]> {
  const { wakeups } = platform.tracking;
  const started: BackgroundRole[] = [];
  if (config.roles.has("poller")) {
    const tracked = [platform.tracking.ocean, platform.air.waybills];
    started.push({ name: "poller", ...startPoller(tracked, config.pollIntervalMs, { wakeups }) });
    started.push(...scheduleRoles(config, platform));
    // rate_expiring: once at start and daily; the sheet row says whether another process raised it.
    const sweep = new RateExpirySweep({ storage: platform.storage, days: config.ratesExpiringDays });
    started.push({ name: "rates", ...startPoller([sweep], SWEEP_INTERVAL_MS, { immediate: true }) });
  }
  if (config.roles.has("dispatcher")) {
    const dispatcher = await Dispatcher.start(platform.storage, config.webhooks, { wakeups, post });
    started.push({ name: "dispatcher", stop: () => dispatcher.stop() });
  }
  for (const { name } of started) log.info({ role: name }, "role started");
  return started;
}
