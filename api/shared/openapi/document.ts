/**
 * A product's OpenAPI 3.1 document, built from its routes: paths and parameters from the route
 * table and its TypeBox request schemas (a text query parameter as the value it stands for,
 * parameters.ts), request bodies as application/json (the only body the body plugin parses),
 * responses as each route declares them in `detail.responses` (responses.ts), and the product's
 * webhook events when it sends them. Any schema carrying an `$id` is a named component: defined
 * once under components.schemas and referenced wherever it appears. 3.1 because its schemas are
 * JSON Schema, which is what TypeBox writes (const, null, 2020-12 keywords).
 */

import { TEXT_VALUE } from "./parameters.ts";

export interface RouteEntry {
  method: string;
  path: string;
  hooks?: {
    detail?: Record<string, unknown> & { hide?: boolean; notAnswered?: readonly number[] };
    body?: unknown;
    query?: unknown;
    params?: unknown;
    headers?: unknown;
    beforeHandle?: unknown;
  };
}

export interface DocumentOptions {
  title: string;
  description: string;
  server: string;
  /** Whether an operation belongs in the document (methods a path refuses, pages for people). */
  include(method: string, path: string): boolean;
  /** The operation's responses: what the route declares completed with what every route answers. */
  responses(route: RouteEntry, declared: Record<string, unknown> | undefined): Record<string, unknown>;
}

type Json = Record<string, unknown>;

const METHODS = new Set(["GET", "POST", "PUT", "PATCH", "DELETE"]);

/** "/v1/containers/:id" as "/v1/containers/{id}". */
export const openApiPath = (path: string) => path.replace(/:([^/?]+)\??/g, "{$1}");

/** A TypeBox schema as plain JSON Schema (its symbols dropped). */
const plain = (schema: unknown): Json => JSON.parse(JSON.stringify(schema)) as Json;

/** A union of string literals (TypeBox's anyOf of consts) as the enum it is. */
function asEnum(node: Json): Json {
  const members = node.anyOf as Json[] | undefined;
  if (!members?.length || !members.every((m) => typeof m.const === "string" && Object.keys(m).length === 2)) {
    return node;
  }
  const { anyOf: _anyOf, ...rest } = node;
  return { ...rest, type: "string", enum: members.map((m) => m.const) };
}

/**
 * Replaces every sub-schema with an $id by a reference to it, collecting it into `components`;
 * literal unions become enums.
 */
function hoist(node: unknown, components: Record<string, Json>): unknown {
  if (Array.isArray(node)) return node.map((n) => hoist(n, components));
  if (node === null || typeof node !== "object") return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(asEnum(node as Json))) out[k] = k === "$id" ? v : hoist(v, components);
  const id = out.$id;
  if (typeof id !== "string") return out;
  delete out.$id;
  const seen = components[id];
  if (seen && JSON.stringify(seen) !== JSON.stringify(out)) {
    throw new Error(`OpenAPI component ${id} is defined twice with different shapes`);
  }
  components[id] = out;
  return { $ref: `#/components/schemas/${id}` };
}

function parametersOf(route: RouteEntry, components: Record<string, Json>): Json[] {
  const params: Json[] = [];
  const declared = (where: string, schema: unknown) => {
    if (!schema) return;
    const s = plain(schema) as { properties?: Record<string, Json>; required?: string[] };
    for (const [name, prop] of Object.entries(s.properties ?? {})) {
      // A text parameter documents the value it stands for (parameters.ts).
      const { description, [TEXT_VALUE]: value, ...rest } = prop;
      params.push({
        name,
        in: where,
        required: where === "path" || (s.required ?? []).includes(name),
        ...(description ? { description } : {}),
        schema: hoist(value ?? rest, components),
      });
    }
  };
  declared("path", route.hooks?.params);
  declared("query", route.hooks?.query);
  declared("header", route.hooks?.headers);
  for (const m of route.path.matchAll(/:([^/?]+)/g)) {
    if (!params.some((p) => p.in === "path" && p.name === m[1])) {
      params.unshift({ name: m[1], in: "path", required: true, schema: { type: "string" } });
    }
  }
  const extra = route.hooks?.detail?.parameters as Json[] | undefined;
  return [...params, ...(extra ?? []).map((p) => hoist(plain(p), components) as Json)];
}

/** The query parameters the route's operation lists: its query schema's and its documented extras. */
export function queryParameterNames(route: RouteEntry): string[] {
  return parametersOf(route, {})
    .filter((p) => p.in === "query")
    .map((p) => p.name as string);
}

/**
 * The operation extension saying a route ignores query parameters it does not list (the compat
 * surface, pages for people); every other route refuses them (plugins/query-params.ts).
 */
export const EXTRA_QUERY_IGNORED = { "x-extra-query-parameters": "ignored" } as const;

function operationOf(route: RouteEntry, opts: DocumentOptions, components: Record<string, Json>): Json {
  const {
    hide: _hide,
    parameters: _parameters,
    notAnswered: _notAnswered,
    responses,
    ...detail
  } = route.hooks?.detail ?? {};
  const op: Json = {
    operationId: `${route.method.toLowerCase()}${openApiPath(route.path).replace(/[^A-Za-z0-9]+(.)?/g, (_m, c?: string) => (c ? c.toUpperCase() : ""))}`,
    ...detail,
  };
  const parameters = parametersOf(route, components);
  if (parameters.length > 0) op.parameters = parameters;
  if (route.hooks?.body) {
    op.requestBody = {
      required: true,
      content: { "application/json": { schema: hoist(plain(route.hooks.body), components) } },
    };
  }
  op.responses = hoist(plain(opts.responses(route, responses as Json | undefined)), components);
  return op;
}

export function openApiDocument(
  routes: ReadonlyArray<RouteEntry>,
  opts: DocumentOptions,
  base: { securitySchemes: Json; security: Json[]; webhooks?: Record<string, Json> },
): Json {
  const components: Record<string, Json> = {};
  const paths: Record<string, Json> = {};
  for (const route of routes) {
    if (!METHODS.has(route.method) || route.path.includes("*") || route.hooks?.detail?.hide) continue;
    if (!opts.include(route.method, route.path)) continue;
    const path = openApiPath(route.path);
    paths[path] = { ...paths[path], [route.method.toLowerCase()]: operationOf(route, opts, components) };
  }
  return {
    openapi: "3.1.0",
    info: { title: opts.title, version: "1", description: opts.description },
    servers: [{ url: opts.server }],
    security: base.security,
    paths,
    ...(base.webhooks ? { webhooks: hoist(plain(base.webhooks), components) } : {}),
    components: {
      securitySchemes: base.securitySchemes,
      schemas: Object.fromEntries(Object.entries(components).sort(([a], [b]) => a.localeCompare(b))),
    },
  };
}
