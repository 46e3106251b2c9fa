/**
 * Boolean query parameters (path, alternatives, handling, seasonal, archived, direct_only,
 * indicative, ...): the spec types them boolean and leaves the spelling open, so every product reads
 * them alike: true or 1, false or 0, in any case; absent or empty is the parameter's default, and
 * anything else is a validation error naming the parameter.
 */
import { ApiError } from "./errors.ts";

export function flag(name: string, raw: string | undefined, fallback = false): boolean {
  if (raw === undefined || raw === "") return fallback;
  const v = raw.toLowerCase();
  if (v === "true" || v === "1") return true;
  if (v === "false" || v === "0") return false;
  throw new ApiError("validation", `${name} must be true or false; got "${raw}".`);
}
