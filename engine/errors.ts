/**
 * The routing engine's own failures. Scripts and the batch CLI catch these without any HTTP in
 * sight; the distance API maps each code to the spec's error of the same name (api/distance).
 */
import { CodedError } from "../common/coded-error.ts";

export type EngineErrorCode =
  | "invalid_request"
  /** A well-formed code naming nothing (an air quote's airport). */
  | "not_found"
  | "location_not_found"
  | "no_route"
  | "geocoder_unavailable"
  | "overloaded";

export class EngineError extends CodedError<EngineErrorCode> {
  override readonly name = "EngineError";
}
