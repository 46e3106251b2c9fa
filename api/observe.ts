/**
 * What a running process reports beside its requests: the gauges read at scrape time (route
 * workers, database connections, records due, the outbox, caches) and the readiness checks that
 * depend on what this process runs (route workers, carriers). main.ts calls it once started.
 */
import { gauges, watchCaches } from "../common/metrics.ts";
import { RoutePool, type SeaPlanner } from "../engine/sea/pool.ts";
import { unreachableLines } from "../ingest/connector-errors.ts";
import type { Running } from "./platform-wiring.ts";

const ageSeconds = (iso: string | null, nowMs: number) =>
  iso === null ? 0 : Math.max(0, (nowMs - Date.parse(iso)) / 1000);

function watchRouteWorkers(platform: Running, planner: SeaPlanner): void {
  if (!(planner instanceof RoutePool)) return;
  gauges.routeQueueDepth.from(() =>
    Object.entries(planner.stats().lanes).map(([lane, s]) => [{ lane }, s.waiting] as const),
  );
  gauges.routeWorkersBusy.from(() => planner.stats().busy);
  gauges.routeWorkers.from(() => planner.stats().ready);
  platform.readiness.add("route_workers", () => {
    const { ready, workers } = planner.stats();
    return ready > 0 ? { status: "up" } : { status: "down", detail: `${ready} of ${workers} workers loaded` };
  });
}

function watchBacklogs(platform: Running): void {
  const { backlog } = platform.storage;
  const now = () => platform.now();
  const due = async () => backlog.due(new Date(now()).toISOString());
  gauges.pollerDue.from(async () => (await due()).records);
  gauges.pollerLag.from(async () => ageSeconds((await due()).oldestDueAt, now()));
  gauges.outboxEvents.from(async () => (await backlog.outbox()).events);
  gauges.outboxLag.from(async () => ageSeconds((await backlog.outbox()).oldestEventAt, now()));
  gauges.deliveriesPending.from(async () => (await backlog.outbox()).deliveries);
}

/** `planner`: the route planner when this process runs the API. */
export function observeProcess(platform: Running, planner: SeaPlanner | null): void {
  gauges.dbInUse.from(() => platform.storage.inUse());
  watchBacklogs(platform);
  if (planner) watchRouteWorkers(platform, planner);
  const { tracking } = platform;
  watchCaches({
    timelines: tracking.timelines,
    lookups: tracking.lookups,
    list_items: tracking.listItems,
    list_pages: tracking.listPages,
  });
  // A line that stopped answering degrades tracking (records keep what they hold), never readiness.
  platform.readiness.add("carriers", () => {
    const away = unreachableLines();
    return away.length ? { status: "degraded", detail: `unreachable: ${away.join(", ")}` } : { status: "up" };
  });
}
