/**
 * Just enough JSON-LD to read ONE Record bodies without a JSON-LD library: properties are found by
 * their full IRI whether the document is compacted ("cargo:eventDate", with an @context of prefixes
 * or terms) or expanded (full IRIs, every value wrapped in an array), and a value may be plain
 * ("cargo:ACTUAL", 12) or an object ({"@value": ...} for literals, {"@id": ...} for references).
 * Anything else is a LdError naming the JSON path, which the client reports as a malformed body.
 */
import { DEFAULT_PREFIXES } from "./one-record-vocab.ts";

export class LdError extends Error {
  override readonly name = "LdError";
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Dict = { [key: string]: Json };

const isDict = (v: unknown): v is Dict => typeof v === "object" && v !== null && !Array.isArray(v);
const show = (v: unknown) => {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
};

/** Prefix and term definitions in scope; @vocab when one is set. */
class Context {
  constructor(
    private readonly terms: ReadonlyMap<string, string>,
    private readonly vocab: string | null,
  ) {}

  static initial(): Context {
    return new Context(new Map(Object.entries(DEFAULT_PREFIXES)), null);
  }

  /** This context with a node's own @context applied (objects only: remote contexts are not fetched). */
  extend(local: Json | undefined, path: string): Context {
    if (local === undefined || local === null) return this;
    const list = Array.isArray(local) ? local : [local];
    const terms = new Map(this.terms);
    let vocab = this.vocab;
    for (const item of list) {
      if (typeof item === "string") continue; // a remote context: the default prefixes stand in
      if (!isDict(item)) throw new LdError(`${path}.@context: expected an object, got ${show(item)}`);
      for (const [term, def] of Object.entries(item)) {
        if (term === "@vocab") {
          if (typeof def === "string") vocab = def;
          continue;
        }
        if (term.startsWith("@")) continue;
        const iri =
          typeof def === "string" ? def : isDict(def) && typeof def["@id"] === "string" ? def["@id"] : null;
        if (iri !== null) terms.set(term, iri);
      }
    }
    return new Context(terms, vocab);
  }

  /** A compact IRI, term or full IRI as a full IRI (unknown prefixes stay as written). */
  expand(value: string): string {
    const direct = this.terms.get(value);
    // A term may be defined by a compact IRI ("eventDate": "cargo:eventDate"): one more step only.
    if (direct !== undefined) return this.prefixed(direct) ?? direct;
    return this.prefixed(value) ?? (!value.includes(":") && this.vocab ? `${this.vocab}${value}` : value);
  }

  private prefixed(value: string): string | null {
    const colon = value.indexOf(":");
    if (colon <= 0 || value.startsWith("//", colon + 1)) return null;
    const prefix = this.terms.get(value.slice(0, colon));
    return prefix === undefined ? null : `${prefix}${value.slice(colon + 1)}`;
  }
}

/** One JSON-LD node object with the context in scope at it. */
export class LdNode {
  private readonly byIri = new Map<string, { key: string; value: Json }>();

  private constructor(
    private readonly raw: Dict,
    private readonly ctx: Context,
    /** JSON path of this node, for error messages. */
    readonly path: string,
  ) {
    for (const [key, value] of Object.entries(raw)) {
      if (key.startsWith("@")) continue;
      const iri = ctx.expand(key);
      if (this.byIri.has(iri)) {
        throw new LdError(`${path}: ${this.byIri.get(iri)!.key} and ${key} are the same property`);
      }
      this.byIri.set(iri, { key, value });
    }
  }

  /** The top node of a parsed JSON document. */
  static document(body: unknown, what: string): LdNode {
    // Expanded form may wrap the top node in an array of one.
    const top = Array.isArray(body) && body.length === 1 ? body[0] : body;
    if (!isDict(top)) throw new LdError(`${what}: expected a JSON-LD object, got ${show(top)}`);
    return LdNode.at(top, Context.initial(), "$");
  }

  private static at(raw: Dict, parent: Context, path: string): LdNode {
    return new LdNode(raw, parent.extend(raw["@context"], path), path);
  }

  /** @id as a full IRI, or null for a blank node. */
  get id(): string | null {
    const id = this.raw["@id"];
    if (id === undefined) return null;
    if (typeof id !== "string" || id === "")
      throw new LdError(`${this.path}.@id: expected an IRI, got ${show(id)}`);
    return this.ctx.expand(id);
  }

  /** @type values as full IRIs. */
  get types(): string[] {
    const t = this.raw["@type"];
    if (t === undefined) return [];
    const list = Array.isArray(t) ? t : [t];
    return list.map((v) => {
      if (typeof v !== "string") throw new LdError(`${this.path}.@type: expected IRIs, got ${show(t)}`);
      return this.ctx.expand(v);
    });
  }

  /** True when the node carries data beyond @id, @type and @context (not a bare reference). */
  get hasProperties(): boolean {
    return this.byIri.size > 0;
  }

  /** Where a property sits in the body, as written there (for messages). */
  where(iri: string): string {
    const key = this.byIri.get(iri)?.key ?? iri;
    return `${this.path}.${key}`;
  }

  /** The values of a property, arrays flattened (JSON-LD sets): [] when absent. */
  private values(iri: string): Array<{ value: Json; path: string }> {
    const found = this.byIri.get(iri);
    if (!found) return [];
    const at = `${this.path}.${found.key}`;
    // JSON has no undefined, but objects built in code do: both mean absent, like null.
    if (!Array.isArray(found.value)) return found.value == null ? [] : [{ value: found.value, path: at }];
    return found.value.filter((v) => v != null).map((value, i) => ({ value, path: `${at}[${i}]` }));
  }

  private one(iri: string): { value: Json; path: string } | null {
    const all = this.values(iri);
    if (all.length > 1) throw new LdError(`${this.where(iri)}: expected one value, got ${all.length}`);
    return all[0] ?? null;
  }

  /** A literal: plain JSON or {"@value": ...}; null when absent. */
  literal(iri: string): string | number | boolean | null {
    const v = this.one(iri);
    return v && literalOf(v.value, v.path);
  }

  /** A reference: an IRI string (compact or full) or {"@id": ...}; null when absent. */
  iri(iri: string): string | null {
    const v = this.one(iri);
    if (!v) return null;
    if (typeof v.value === "string") return this.ctx.expand(v.value);
    if (isDict(v.value) && typeof v.value["@id"] === "string") return this.ctx.expand(v.value["@id"]);
    throw new LdError(`${v.path}: expected an IRI or {"@id": ...}, got ${show(v.value)}`);
  }

  /** Embedded or referenced node objects ({"@id"} alone is a node too); strings are references. */
  nodes(iri: string): LdNode[] {
    return this.values(iri).map(({ value, path }) => {
      if (typeof value === "string") return LdNode.at({ "@id": value }, this.ctx, path);
      if (!isDict(value) || "@value" in value)
        throw new LdError(`${path}: expected an object, got ${show(value)}`);
      return LdNode.at(value, this.ctx, path);
    });
  }

  node(iri: string): LdNode | null {
    const all = this.nodes(iri);
    if (all.length > 1) throw new LdError(`${this.where(iri)}: expected one object, got ${all.length}`);
    return all[0] ?? null;
  }
}

function literalOf(value: Json, path: string): string | number | boolean {
  const v = isDict(value) && "@value" in value ? value["@value"] : value;
  if (typeof v === "string" || typeof v === "number" || typeof v === "boolean") return v;
  throw new LdError(`${path}: expected a literal value, got ${show(value)}`);
}
