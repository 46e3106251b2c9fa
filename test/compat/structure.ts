/**
 * Structural diff of two JSON documents: the same keys in every object, the same JSON types at
 * every path, arrays compared element-shape-wise (the shapes of all elements merged). Values are
 * never compared. Paths read like `data.containers[].events[].status`.
 */
import { join } from "node:path";
import { referenceDirFrom } from "../../common/sources-dir.ts";

type JsonType = "null" | "boolean" | "number" | "string" | "array" | "object";

interface Shape {
  types: Set<JsonType>;
  keys: Map<string, Shape>;
  /** Every element's shape merged (arrays). */
  items: Shape | null;
}

const empty = (): Shape => ({ types: new Set(), keys: new Map(), items: null });

function typeOf(v: unknown): JsonType {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  return typeof v as JsonType;
}

function add(shape: Shape, v: unknown): Shape {
  shape.types.add(typeOf(v));
  if (Array.isArray(v)) {
    for (const item of v) shape.items = add(shape.items ?? empty(), item);
  } else if (v !== null && typeof v === "object") {
    for (const [k, child] of Object.entries(v)) shape.keys.set(k, add(shape.keys.get(k) ?? empty(), child));
  }
  return shape;
}

export const shapeOf = (v: unknown): Shape => add(empty(), v);

export interface Allowances {
  /** Paths of keys we emit that the sample lacks (deliberate: spec or newer vendor shape). */
  extra?: string[];
  /** Paths of sample keys we deliberately do not emit. */
  missing?: string[];
  /** Paths where either side may be null (documented T|null, or the spec's null for "uncapped"). */
  nullable?: RegExp[];
}

/** Problems found walking ours against theirs; empty means the same structure. */
export function structuralDiff(ours: unknown, theirs: unknown, allow: Allowances = {}): string[] {
  const problems: string[] = [];
  const nullable = (path: string) => (allow.nullable ?? []).some((re) => re.test(path));
  const walk = (a: Shape, b: Shape, path: string) => {
    const canBeNull = nullable(path);
    const strip = (s: Set<JsonType>) => new Set([...s].filter((t) => !(canBeNull && t === "null")));
    const at = strip(a.types);
    const bt = strip(b.types);
    // A sample that only ever shows null at a nullable path says nothing about the other type.
    if (at.size > 0 && bt.size > 0) {
      for (const t of at) if (!bt.has(t)) problems.push(`${path}: we send ${t}, the sample has ${[...bt]}`);
      for (const t of bt) if (!at.has(t)) problems.push(`${path}: the sample has ${t}, we never send it`);
    }
    if (a.types.has("object") && b.types.has("object")) {
      for (const [k, child] of a.keys) {
        const p = path ? `${path}.${k}` : k;
        const other = b.keys.get(k);
        if (other) walk(child, other, p);
        else if (!allow.extra?.includes(p)) problems.push(`${p}: we send it, the sample has no such key`);
      }
      for (const k of b.keys.keys()) {
        const p = path ? `${path}.${k}` : k;
        if (!a.keys.has(k) && !allow.missing?.includes(p))
          problems.push(`${p}: in the sample, we never send it`);
      }
    }
    if (a.items && b.items) walk(a.items, b.items, `${path}[]`);
  };
  walk(shapeOf(ours), shapeOf(theirs), "");
  return problems;
}

/** The vendor samples under ../shared/reference (read in place, never copied). */
export const SAMPLES = join(referenceDirFrom(), "compat-samples");

export async function sample(name: string): Promise<Record<string, unknown>> {
  return (await Bun.file(join(SAMPLES, name)).json()) as Record<string, unknown>;
}
