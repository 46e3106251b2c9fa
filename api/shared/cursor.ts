/**
 * Opaque page cursors: base64url JSON of string fields. Decoding checks the shape, so a cursor
 * that is valid base64url JSON of anything else (null, [], 1, {}), or whose fields hold text no
 * field accepts (storable-text.ts), is refused like garbage.
 */
import { fromBase64Url, toBase64Url } from "./crypto.ts";
import { ApiError } from "./errors.ts";
import { unstorable } from "./storable-text.ts";

export const encodeCursor = (fields: Record<string, string>): string => toBase64Url(JSON.stringify(fields));

/** The cursor's fields, or a validation error naming how to get a good one. */
export function decodeCursor<K extends string>(
  raw: string,
  keys: readonly K[],
  hint: string,
): Record<K, string> {
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(fromBase64Url(raw));
  } catch {}
  const obj = parsed as Record<string, unknown> | null;
  if (
    obj &&
    typeof obj === "object" &&
    !Array.isArray(obj) &&
    keys.every((k) => typeof obj[k] === "string" && !unstorable(obj[k]))
  ) {
    return obj as Record<K, string>;
  }
  throw new ApiError("validation", `cursor is not one this API issued; ${hint}.`);
}
