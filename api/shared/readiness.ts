/**
 * GET /readyz: whether this process should be sent traffic, one entry per dependency. A check that
 * answers "down" makes the process not ready (503); "degraded" is reported and stays ready (the
 * carriers: tracking answers from what it holds while a line is away). Each check is bounded in
 * time: a database that hangs reads as down, not as a probe that never answers.
 */

export type CheckState = "up" | "down" | "degraded";

export interface CheckResult {
  status: CheckState;
  /** Why, when not up: the driver's reason, the carrier that stopped. */
  detail?: string;
}

export type Check = () => CheckResult | Promise<CheckResult>;

/** How long one check may take before it reads as down. */
export const CHECK_TIMEOUT_MS = 2_000;

export interface ReadinessReport {
  status: "ready" | "not_ready";
  checks: Record<string, CheckResult>;
}

async function bounded(check: Check): Promise<CheckResult> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<CheckResult>((resolve) => {
    timer = setTimeout(() => resolve({ status: "down", detail: "no answer in time" }), CHECK_TIMEOUT_MS);
  });
  try {
    return await Promise.race([Promise.resolve().then(check), late]);
  } catch (err) {
    return { status: "down", detail: (err as Error).message };
  } finally {
    clearTimeout(timer);
  }
}

export class Readiness {
  private readonly checks = new Map<string, Check>();
  private stopping = false;

  /** Adds (or replaces) the check reported under `name`. */
  add(name: string, check: Check): this {
    this.checks.set(name, check);
    return this;
  }

  /** From now on the process reports not ready: it is draining before it stops. */
  drain(): void {
    this.stopping = true;
  }

  async report(): Promise<ReadinessReport> {
    const names = [...this.checks.keys()];
    const results = await Promise.all(names.map((name) => bounded(this.checks.get(name)!)));
    const checks: Record<string, CheckResult> = Object.fromEntries(names.map((n, i) => [n, results[i]!]));
    if (this.stopping) checks.process = { status: "down", detail: "stopping" };
    const down = Object.values(checks).some((c) => c.status === "down");
    return { status: down ? "not_ready" : "ready", checks };
  }
}

/** The probe answers as web-standard Responses, for the product apps and the admin port alike. */
export async function readyzResponse(readiness: Readiness): Promise<Response> {
  const report = await readiness.report();
  return Response.json(report, { status: report.status === "ready" ? 200 : 503 });
}

export function livezResponse(): Response {
  return Response.json({ status: "live" });
}
