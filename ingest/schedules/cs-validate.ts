/**
 * Checks a DCSA CS body against the OpenAPI component schemas (cs-schema.ts, generated from the
 * YAML): types, required fields, enums, patterns, lengths, item counts, bounds, oneOf, and the
 * `date` / `date-time` formats (RFC 3339, a real calendar instant). Only the keyword subset the CS
 * 1.0.3 components use; unknown properties are allowed, as the schemas allow them.
 */
import { isCalendarDate } from "../../common/calendar-date.ts";
import { CS_QUERIES, CS_SCHEMAS } from "./cs-schema.ts";

export interface SchemaNode {
  type?: "object" | "array" | "string" | "integer" | "number" | "boolean";
  required?: string[];
  properties?: Record<string, SchemaNode>;
  items?: SchemaNode;
  enum?: string[];
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  minimum?: number;
  maximum?: number;
  format?: string;
  oneOf?: SchemaNode[];
  /** A components/schemas name. */
  $ref?: string;
  additionalProperties?: boolean;
}

/** The response item schema of each endpoint. */
export type CsItemSchema = "PointToPoint" | "PortSchedule" | "ServiceSchedule";

/** Beyond this many issues a body is hopeless: stop collecting, the first ones say enough. */
const MAX_ISSUES = 50;
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-](\d{2}):(\d{2}))$/i;

const patterns = new Map<string, RegExp>();
const regex = (p: string) => {
  let re = patterns.get(p);
  if (!re) {
    re = new RegExp(p);
    patterns.set(p, re);
  }
  return re;
};

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** Why `v` is not an RFC 3339 date-time with an offset (the OpenAPI `date-time`), or null. */
export function dateTimeIssue(v: string): string | null {
  const m = DATE_TIME.exec(v);
  if (!m) return "is not an RFC 3339 date-time with an offset";
  const [, date, h, mi, s, , , oh, om] = m;
  const fine =
    isCalendarDate(date!) &&
    Number(h) < 24 &&
    Number(mi) < 60 &&
    Number(s) < 60 &&
    (oh === undefined || (Number(oh) < 24 && Number(om) < 60));
  return fine ? null : "is not a real instant";
}

/** Why `v` is not a full-date (the OpenAPI `date`), or null. */
export function dateIssue(v: string): string | null {
  return isCalendarDate(v) ? null : "is not a real date written YYYY-MM-DD";
}

function typeName(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  return typeof v;
}

class Checker {
  readonly issues: string[] = [];

  private add(path: string, msg: string) {
    if (this.issues.length < MAX_ISSUES) this.issues.push(`${path}: ${msg}`);
  }

  get full() {
    return this.issues.length >= MAX_ISSUES;
  }

  check(v: unknown, node: SchemaNode, path: string): void {
    if (this.full) return;
    if (node.$ref) {
      const target = CS_SCHEMAS[node.$ref];
      if (!target) throw new Error(`cs-schema: no component ${node.$ref}`);
      this.check(v, target, path);
      return;
    }
    if (node.oneOf) {
      this.oneOf(v, node.oneOf, path);
      return;
    }
    switch (node.type) {
      case "object":
        this.object(v, node, path);
        return;
      case "array":
        this.array(v, node, path);
        return;
      case "string":
        this.string(v, node, path);
        return;
      case "integer":
      case "number":
        this.number(v, node, path);
        return;
      case "boolean":
        if (typeof v !== "boolean") this.add(path, `must be a boolean, got ${typeName(v)}`);
        return;
      default:
        // The CS components put `type` on every node but the $ref / oneOf ones handled above.
        if (node.properties) this.object(v, node, path);
    }
  }

  /** Exactly one alternative must hold; when none does, the closest one's issues name the field. */
  private oneOf(v: unknown, alternatives: SchemaNode[], path: string) {
    const results = alternatives.map((alt) => {
      const c = new Checker();
      c.check(v, alt, path);
      return c.issues;
    });
    const matching = results.filter((r) => r.length === 0).length;
    if (matching === 1) return;
    if (matching > 1) {
      this.add(path, `matches ${matching} of the oneOf alternatives, not exactly one`);
      return;
    }
    const closest = results.reduce((a, b) => (b.length < a.length ? b : a));
    for (const issue of closest) this.issues.length < MAX_ISSUES && this.issues.push(issue);
  }

  private object(v: unknown, node: SchemaNode, path: string) {
    if (!isObj(v)) {
      this.add(path, `must be an object, got ${typeName(v)}`);
      return;
    }
    for (const key of node.required ?? []) {
      if (v[key] === undefined) this.add(`${path}.${key}`, "required");
    }
    const props = node.properties ?? {};
    for (const [key, value] of Object.entries(v)) {
      const child = props[key];
      // JSON null is not a value of any CS property type: it fails the type check like any other.
      if (child) this.check(value, child, `${path}.${key}`);
      else if (node.additionalProperties === false) {
        this.add(`${path}.${key}`, "is not allowed here");
      }
    }
  }

  private array(v: unknown, node: SchemaNode, path: string) {
    if (!Array.isArray(v)) {
      this.add(path, `must be an array, got ${typeName(v)}`);
      return;
    }
    if (node.minItems !== undefined && v.length < node.minItems)
      this.add(path, `needs at least ${node.minItems} item(s), has ${v.length}`);
    if (node.maxItems !== undefined && v.length > node.maxItems)
      this.add(path, `allows at most ${node.maxItems} items, has ${v.length}`);
    const items = node.items;
    if (items) for (let i = 0; i < v.length; i++) this.check(v[i], items, `${path}[${i}]`);
  }

  private string(v: unknown, node: SchemaNode, path: string) {
    if (typeof v !== "string") {
      this.add(path, `must be a string, got ${typeName(v)}`);
      return;
    }
    const shown = JSON.stringify(v.length > 60 ? `${v.slice(0, 60)}…` : v);
    if (node.enum && !node.enum.includes(v)) {
      this.add(path, `${shown} is not one of ${node.enum.join(", ")}`);
      return;
    }
    if (node.minLength !== undefined && v.length < node.minLength)
      this.add(path, `${shown} is shorter than ${node.minLength}`);
    if (node.maxLength !== undefined && v.length > node.maxLength)
      this.add(path, `${shown} is longer than ${node.maxLength}`);
    if (node.pattern && !regex(node.pattern).test(v))
      this.add(path, `${shown} does not match ${node.pattern}`);
    const formatIssue =
      node.format === "date-time" ? dateTimeIssue(v) : node.format === "date" ? dateIssue(v) : null;
    if (formatIssue) this.add(path, `${shown} ${formatIssue}`);
  }

  private number(v: unknown, node: SchemaNode, path: string) {
    if (typeof v !== "number" || !Number.isFinite(v)) {
      this.add(path, `must be a number, got ${typeName(v)}`);
      return;
    }
    if (node.type === "integer" && !Number.isInteger(v)) this.add(path, `${v} is not an integer`);
    if (node.minimum !== undefined && v < node.minimum) this.add(path, `${v} is below ${node.minimum}`);
    if (node.maximum !== undefined && v > node.maximum) this.add(path, `${v} is above ${node.maximum}`);
  }
}

export type CsValidation = { ok: true; items: unknown[] } | { ok: false; issues: string[] };

/**
 * Validates one response body: a JSON array of `item` objects, as each CS 200 response is. Issue
 * paths start at `$` (the body), e.g. `$[0].legs[1].departure.dateTime: … is not a real instant`.
 */
export function validateCsBody(body: unknown, item: CsItemSchema): CsValidation {
  const c = new Checker();
  c.check(body, { type: "array", items: { $ref: item } }, "$");
  return c.issues.length ? { ok: false, issues: c.issues } : { ok: true, items: body as unknown[] };
}

/** Validates a single value against a named component (the test fixtures use it per object). */
export function validateCsComponent(value: unknown, component: string): string[] {
  const c = new Checker();
  c.check(value, { $ref: component }, "$");
  return c.issues;
}

/** Checks query parameters against the OpenAPI's parameter list of `path` (e.g. "/v1/port-schedules"). */
export function validateCsQuery(path: string, query: Record<string, unknown>): string[] {
  const schema = CS_QUERIES[path];
  if (!schema) throw new Error(`cs-schema: no path ${path}`);
  const c = new Checker();
  c.check(query, schema, "query");
  return c.issues;
}
