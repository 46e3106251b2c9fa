/**
 * The load planner's own failures, without any HTTP in sight: `invalid_request` names the offending
 * field (a JSON-path-like string such as `items[2].width`); `engine_failure` means the WASM core
 * refused what validation let through (a bug, not the caller's fault).
 */

export type LoadPlanErrorCode = "invalid_request" | "engine_failure";

export class LoadPlanError extends Error {
  constructor(
    readonly code: LoadPlanErrorCode,
    message: string,
    /** The input field at fault, for invalid_request. */
    readonly field?: string,
  ) {
    super(message);
    this.name = "LoadPlanError";
  }
}
