/**
 * The admin listener (PORTOLAN_ADMIN_PORT, loopback by default): /metrics in Prometheus text
 * format, /livez and /readyz, nothing else and no key. Web-standard: any runtime serves its fetch.
 * The product ports answer /livez and /readyz too, and /metrics when PORTOLAN_METRICS_TOKEN is set
 * (plugins/probes.ts).
 */
import { registry } from "../../common/metrics.ts";
import { livezResponse, type Readiness, readyzResponse } from "./readiness.ts";

export async function metricsResponse(): Promise<Response> {
  return new Response(await registry.metrics(), { headers: { "content-type": registry.contentType } });
}

export function adminApp(readiness: Readiness): { fetch(request: Request): Promise<Response> } {
  return {
    async fetch(request) {
      const { pathname } = new URL(request.url);
      if (request.method !== "GET" && request.method !== "HEAD")
        return Response.json({ error: "GET only" }, { status: 405 });
      if (pathname === "/metrics") return metricsResponse();
      if (pathname === "/livez") return livezResponse();
      if (pathname === "/readyz") return readyzResponse(readiness);
      return Response.json(
        { error: "not found: /metrics, /livez and /readyz are served here" },
        { status: 404 },
      );
    },
  };
}
