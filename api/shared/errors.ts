/**
 * ApiError and its catalogue (common/errors.ts, shared with ingest), and the mapping of the
 * engine's typed failures onto it. Handlers throw ApiError, or let the engine's EngineError pass
 * (fromEngine maps it).
 */

import { ApiError, type ProblemKey } from "../../common/errors.ts";
import type { EngineError, EngineErrorCode } from "../../engine/errors.ts";

export { ApiError, PROBLEMS, type ProblemKey, type Severity } from "../../common/errors.ts";

/** The engine's typed failures as the API's: same spec code, same message and extra fields. */
const ENGINE_PROBLEMS: Record<EngineErrorCode, ProblemKey> = {
  invalid_request: "validation",
  location_not_found: "locationNotFound",
  no_route: "noRoute",
  geocoder_unavailable: "geocoderUnavailable",
  overloaded: "overloaded",
};

export function fromEngine(err: EngineError): ApiError {
  return new ApiError(ENGINE_PROBLEMS[err.code], err.message, err.extra);
}
