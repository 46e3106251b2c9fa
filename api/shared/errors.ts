/**
 * The error catalogue: every failure any product can answer, with its HTTP status and its code in
 * both spellings. Upper-case codes go to the ok-envelope products (ocean, schedules, load plans);
 * lower-case codes to the data-envelope products (air-cargo, rates, distance). Envelopes render
 * these in envelopes.ts. Below api/ each layer raises its own typed failures (the engine's
 * EngineError, tracking's TrackingError), mapped onto this catalogue here (fromEngine,
 * fromTracking); handlers throw ApiError or let those pass.
 */
import type { EngineError, EngineErrorCode } from "../../engine/errors.ts";
import type { TrackingError, TrackingErrorCode } from "../../ingest/tracking/errors.ts";

export type Severity = "warning" | "error";

interface Problem {
  status: number;
  code: string;
  lower: string;
  severity: Severity;
}

const problem = (status: number, code: string, lower: string, severity: Severity = "error"): Problem => ({
  status,
  code,
  lower,
  severity,
});

export const PROBLEMS = {
  validation: problem(400, "VALIDATION_ERROR", "invalid_request", "warning"),
  invalidUrl: problem(400, "INVALID_URL", "invalid_url", "warning"),
  unauthorized: problem(401, "UNAUTHORIZED", "missing_key"),
  forbidden: problem(403, "FORBIDDEN", "forbidden"),
  uniqueQuota: problem(402, "UNIQUE_QUOTA_EXCEEDED", "unique_quota_exceeded"),
  containerQuota: problem(402, "CONTAINER_QUOTA_EXCEEDED", "container_quota_exceeded"),
  paygCap: problem(402, "PAYG_SPEND_CAP_REACHED", "payg_spend_cap_reached"),
  notFound: problem(404, "NOT_FOUND", "not_found"),
  referenceNotResolvable: problem(404, "REFERENCE_NOT_RESOLVABLE", "reference_not_resolvable"),
  locationNotFound: problem(404, "LOCATION_NOT_FOUND", "location_not_found"),
  methodNotAllowed: problem(405, "METHOD_NOT_ALLOWED", "method_not_allowed"),
  alreadyTracked: problem(409, "ALREADY_TRACKED", "already_tracked"),
  addInProgress: problem(409, "CONTAINER_ADD_IN_PROGRESS", "container_add_in_progress"),
  /** The organisation holds as many schedule follows as it may (docs/schedules.md, Follows). */
  followLimit: problem(409, "FOLLOW_LIMIT_REACHED", "follow_limit_reached"),
  /** The organisation holds as many webhook endpoints on the product as it may (docs/webhooks.md). */
  webhookLimit: problem(409, "WEBHOOK_LIMIT_REACHED", "webhook_limit_reached"),
  noRoute: problem(422, "NO_ROUTE", "no_route"),
  /** Burst over the rate window: the spec answers it with the validation code, in both spellings. */
  rateWindow: problem(429, "VALIDATION_ERROR", "invalid_request", "warning"),
  /** Too soon after the last recheck of one box. */
  recheckTooSoon: problem(429, "RATE_LIMITED", "rate_limited", "warning"),
  internal: problem(500, "INTERNAL_ERROR", "server_error"),
  database: problem(500, "DB_ERROR", "server_error"),
  geocoderUnavailable: problem(503, "GEOCODER_UNAVAILABLE", "geocoder_unavailable"),
  /** Route workers saturated: shed with Retry-After instead of queueing without limit. */
  overloaded: problem(503, "SERVICE_UNAVAILABLE", "overloaded"),
} as const satisfies Record<string, Problem>;

export type ProblemKey = keyof typeof PROBLEMS;

export class ApiError extends Error {
  readonly problem: Problem;
  constructor(
    readonly key: ProblemKey,
    message: string,
    /** Extra top-level error fields, e.g. plan_needed on CONTAINER_QUOTA_EXCEEDED. */
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
    this.problem = PROBLEMS[key];
  }
  get status(): number {
    return this.problem.status;
  }
}

/** The engine's typed failures as the API's: same spec code, same message and extra fields. */
const ENGINE_PROBLEMS: Record<EngineErrorCode, ProblemKey> = {
  invalid_request: "validation",
  not_found: "notFound",
  location_not_found: "locationNotFound",
  no_route: "noRoute",
  geocoder_unavailable: "geocoderUnavailable",
  overloaded: "overloaded",
};

export function fromEngine(err: EngineError): ApiError {
  return new ApiError(ENGINE_PROBLEMS[err.code], err.message, err.extra);
}

/** Tracking's domain codes as the ocean and air-cargo envelopes answer them (same message and extra fields). */
const TRACKING_PROBLEMS: Record<TrackingErrorCode, ProblemKey> = {
  invalid_reference: "validation",
  reference_not_resolvable: "referenceNotResolvable",
  not_found: "notFound",
  unique_quota_exceeded: "uniqueQuota",
  container_quota_exceeded: "containerQuota",
  payg_spend_cap_reached: "paygCap",
  already_tracked: "alreadyTracked",
  add_in_progress: "addInProgress",
  recheck_too_soon: "recheckTooSoon",
  already_connected: "validation",
  carrier_unavailable: "overloaded",
};

export function fromTracking(err: TrackingError): ApiError {
  return new ApiError(TRACKING_PROBLEMS[err.code], err.message, err.extra);
}
