/**
 * Boolean query parameters (path, alternatives, handling, seasonal, archived, direct_only,
 * indicative, ...), read alike by every product (common/boolean-text.ts): anything but a boolean
 * is a validation error naming the parameter.
 */
import { booleanText, notBoolean } from "../../common/boolean-text.ts";
import { ApiError } from "./errors.ts";

export function flag(name: string, raw: string | undefined, fallback = false): boolean {
  const value = booleanText(raw, fallback);
  if (value === null) throw new ApiError("validation", notBoolean(name, raw));
  return value;
}
