/**
 * Text no field accepts, refused at the edge with 400 in the product's envelope: NUL, which
 * PostgreSQL stores in no text or JSON column (SQLite would take it, so the two databases would
 * answer alike only by accident), and an unpaired UTF-16 surrogate, which is no text at all (JSON
 * may spell one as "\ud800"; PostgreSQL refuses it in JSON, and UTF-8 cannot carry it). Checked
 * once for the query and the body, so no handler, filter or stored row ever sees one.
 */

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Whether `text` holds a character no field accepts. */
export function unstorable(text: string): boolean {
  return text.includes("\u0000") || LONE_SURROGATE.test(text);
}

/**
 * The name of the first query parameter whose name or value holds a NUL, or null. Decoded query
 * text holds no unpaired surrogate (invalid UTF-8 decodes to U+FFFD), and a NUL arrives only as
 * %00: a URL without one is let through unparsed.
 */
export function queryParamWithNul(url: string): string | null {
  const q = url.indexOf("?");
  if (q < 0 || !url.includes("%00", q)) return null;
  for (const [name, value] of new URLSearchParams(url.slice(q + 1))) {
    if (name.includes("\u0000") || value.includes("\u0000")) return JSON.stringify(name);
  }
  return null;
}

/**
 * Where in a parsed JSON body the first unstorable string (a value or a field name) is, as
 * "tags[0]" or "terms.carrier_code", or null. `raw` is the body's text: JSON carries NUL and lone
 * surrogates only as \u escapes (a raw control character is invalid JSON, and invalid UTF-8
 * decodes to U+FFFD), so a body without such an escape is not walked.
 */
export function unstorablePath(raw: string, body: unknown): string | null {
  return /\\u(0000|[dD][89a-fA-F])/.test(raw) ? find(body, "") : null;
}

function find(value: unknown, path: string): string | null {
  if (typeof value === "string") return unstorable(value) ? path || "(the body)" : null;
  if (value === null || typeof value !== "object") return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const hit = find(value[i], `${path}[${i}]`);
      if (hit !== null) return hit;
    }
    return null;
  }
  for (const [key, v] of Object.entries(value)) {
    const here = path ? `${path}.${key}` : key;
    if (unstorable(key)) return `${path ? `${path}.` : ""}${JSON.stringify(key)}`;
    const hit = find(v, here);
    if (hit !== null) return hit;
  }
  return null;
}
