/**
 * What GET /healthz reports beside liveness. The process answers 200 while it is alive; a
 * dependency that is down makes it "degraded" (requests still succeed, see the fail-open policy in
 * redis-link.ts), so monitors can alert on it without load balancers pulling a working instance.
 */

export type DependencyState = "up" | "down";

export interface Health {
  status: "ok" | "degraded";
  /** Only configured dependencies appear: no redis key when REDIS_URL is unset. */
  dependencies: { redis?: DependencyState };
}

/** The state of the process's Redis link per URL, reported by redis-link.ts while a link is held. */
const redisLinks = new Map<string, () => DependencyState>();

export function trackRedis(url: string, state: (() => DependencyState) | null): void {
  if (state) redisLinks.set(url, state);
  else redisLinks.delete(url);
}

/** The process's link to Redis at `url`: configured but not held (connecting, closed) is down. */
export function redisState(url: string): DependencyState {
  return redisLinks.get(url)?.() ?? "down";
}

export function health(platform: { config: { redisUrl: string | null } }): Health {
  const dependencies: Health["dependencies"] = {};
  const url = platform.config.redisUrl;
  // Configured but not held (still connecting, or closed) counts as down.
  if (url) dependencies.redis = redisState(url);
  const down = Object.values(dependencies).some((s) => s === "down");
  return { status: down ? "degraded" : "ok", dependencies };
}
