/**
 * The operator's routes on every product port: /livez (the process answers), /readyz (its
 * dependencies, shared/readiness.ts), and /metrics when a metrics token is configured (bearer
 * token; otherwise metrics are on the admin port only). None takes an API key or counts against a
 * rate window.
 */
import { Elysia } from "elysia";
import { metricsResponse } from "../admin.ts";
import { sha256Hex } from "../crypto.ts";
import { ApiError } from "../errors.ts";
import { livezResponse, Readiness, readyzResponse } from "../readiness.ts";

/** Paths these routes answer; access.ts opens them. */
export const PROBE_PATHS: ReadonlySet<string> = new Set(["/livez", "/readyz", "/metrics"]);

const hidden = { detail: { hide: true } };

/** Compared as hashes: the time taken says nothing of how much of the token matched. */
async function sameToken(given: string | null, token: string): Promise<boolean> {
  const m = /^bearer\s+(\S+)\s*$/i.exec(given ?? "");
  return !!m && (await sha256Hex(m[1]!)) === (await sha256Hex(token));
}

export function probes(id: string, readiness: Readiness | undefined, metricsToken: string | null) {
  const ready = readiness ?? new Readiness();
  return new Elysia({ name: `portolan-probes-${id}` })
    .get("/livez", () => livezResponse(), hidden)
    .get("/readyz", () => readyzResponse(ready), hidden)
    .get(
      "/metrics",
      async ({ request }) => {
        if (!metricsToken) throw new ApiError("notFound", "Metrics are served on the admin port.");
        if (!(await sameToken(request.headers.get("authorization"), metricsToken)))
          throw new ApiError(
            "unauthorized",
            "Metrics need the metrics token: Authorization: Bearer <token>.",
          );
        return metricsResponse();
      },
      hidden,
    );
}
