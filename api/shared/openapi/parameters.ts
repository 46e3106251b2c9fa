/**
 * Query and path parameters arrive as text and each handler reads its own (the product's 400
 * naming the parameter when a value is out of range or unknown). A parameter declared here is
 * accepted as text by the router and documented as the value it stands for: its type with the
 * bounds, the enum or the format the reading enforces. The bounds and value lists are the ones the
 * reading checks, passed in, so the document and the check cannot drift.
 */
import { t } from "elysia";

type Json = Record<string, unknown>;

/** Where a text parameter keeps the schema of the value it stands for (document.ts reads it). */
export const TEXT_VALUE = "x-text-value";

/** The bounds a numeric reading enforces, and its default when absent. */
export interface Range {
  minimum?: number;
  /** A lower bound the value must be above (cargo_tonnes, weight_kg: above 0). */
  exclusiveMinimum?: number;
  maximum: number;
  default?: number;
}

/** A text parameter documented as `value`. */
const text = (value: Json, description: string) => t.String({ description, [TEXT_VALUE]: value });
const documented = (value: Json, description: string) => t.Optional(text(value, description));

export const integerQuery = (range: Range, description: string) =>
  documented({ type: "integer", ...range }, description);

export const numberQuery = (range: Range, description: string) =>
  documented({ type: "number", ...range }, description);

/** One of `values` (the reading's own list; it may also take other spellings, said in the description). */
export const enumQuery = (values: readonly string[], description: string, fallback?: string) =>
  documented({ type: "string", enum: [...values], ...(fallback ? { default: fallback } : {}) }, description);

/** A required parameter, one of `values`. */
export const requiredEnumQuery = (values: readonly string[], description: string) =>
  text({ type: "string", enum: [...values] }, description);

/**
 * A boolean flag, as common/boolean-text.ts reads it: true or 1, false or 0, in any case; absent or
 * empty is `fallback` (left out where the default depends on other parameters).
 */
export const booleanQuery = (description: string, fallback?: boolean) =>
  documented(
    { type: "boolean", ...(fallback === undefined ? {} : { default: fallback }) },
    `${description}; true or 1, false or 0, in any case`,
  );

/**
 * A path parameter naming a resource by the UUID the server gave it: an unknown id and a value that
 * is no UUID alike answer 404 (it names nothing), not 400.
 */
export const uuidPath = (description: string) => text({ type: "string", format: "uuid" }, description);

/** A UTC calendar date, YYYY-MM-DD. */
export const dateQuery = (description: string) => documented({ type: "string", format: "date" }, description);
