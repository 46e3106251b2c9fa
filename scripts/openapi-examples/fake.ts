/**
 * Real answers made fit to publish and stable across runs: API keys, their hints and webhook
 * signing secrets become fakes of the same shape (prefix kept, the rest x's), every UUID a fake one
 * numbered in order of first appearance (the same id keeps the same fake everywhere), and the
 * time an answer took (took_ms) a fixed figure.
 */

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
/** A key or secret: a short lower-case prefix, then 16 characters or more with a digit among them. */
const SECRET = /\b([a-z]{2,5}_)(?=[A-Za-z]*[0-9])([A-Za-z0-9]{16,})\b/g;
/** A key's hint, as the key list shows it: "oc_ZGL…zAR5". */
const HINT = /\b([a-z]{2,5}_)([A-Za-z0-9]{3})…([A-Za-z0-9]{4})\b/g;

const TOOK_MS = 1.5;

const xs = (s: string) => "x".repeat(s.length);

export function fakeValues(): (value: unknown) => unknown {
  const ids = new Map<string, string>();
  const fakeId = (id: string) => {
    let f = ids.get(id.toLowerCase());
    if (!f) {
      f = `00000000-0000-4000-8000-${String(ids.size + 1).padStart(12, "0")}`;
      ids.set(id.toLowerCase(), f);
    }
    return f;
  };
  const text = (s: string) =>
    s
      .replace(SECRET, (_m, prefix: string, rest: string) => prefix + xs(rest))
      .replace(HINT, (_m, prefix: string, a: string, b: string) => `${prefix}${xs(a)}…${xs(b)}`)
      .replace(UUID, fakeId);
  const walk = (value: unknown): unknown => {
    if (typeof value === "string") return text(value);
    if (Array.isArray(value)) return value.map(walk);
    if (value === null || typeof value !== "object") return value;
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [
        k,
        k === "took_ms" && typeof v === "number" ? TOOK_MS : walk(v),
      ]),
    );
  };
  return walk;
}
