/**
 * Every answer a test receives through the platform helpers, checked against the host's served
 * OpenAPI document (api/shared/plugins/openapi.ts): the route template and method the request
 * matched, the status among those the operation documents, and a JSON body valid against that
 * status's schema (Ajv, JSON Schema 2020-12, as OpenAPI 3.1 writes it), and the headers that status
 * declares (each required one present, none sent undeclared). A mismatch throws, so the test that
 * saw it fails. PORTOLAN_OPENAPI_COVERAGE=<file> appends each (document, method, route, status)
 * seen, for scripts/openapi-coverage.ts to compare with the documents.
 */
import { appendFileSync } from "node:fs";
import Ajv2020, { type ValidateFunction } from "ajv/dist/2020.js";

type Json = Record<string, unknown>;
type Documented = { content?: Record<string, unknown>; headers?: Record<string, { required?: boolean }> };
type Operation = { responses: Record<string, Documented> };
export type Doc = { info: { title: string }; paths: Record<string, Record<string, Operation>> };

interface Checker {
  doc: Doc;
  routes: Array<{ template: string; re: RegExp; params: number }>;
  validators: Map<string, ValidateFunction>;
  ajv: Ajv2020;
}

export const FORMATS: Record<string, RegExp> = {
  date: /^\d{4}-\d{2}-\d{2}$/,
  "date-time": /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/,
  uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
  uri: /^[a-z][a-z0-9+.-]*:/i,
  // Elysia's t.Integer on request parameters: the numeric string it also takes.
  integer: /^-?\d+$/,
};

/**
 * Headers of the transport and of caching and encoding, which no operation documents: everything
 * else the server sends must be declared for the (route, status) that sent it.
 */
const TRANSPORT = new Set([
  "date",
  "content-length",
  "connection",
  "keep-alive",
  "transfer-encoding",
  "vary",
  "content-encoding",
  "etag",
  "cache-control",
  "server",
]);

const checkers = new Map<string, Checker>();
/** The same document object finds its checker without serialising the document again. */
const checkerOfObject = new WeakMap<Doc, Checker>();

function checkerOf(doc: Doc): Checker {
  const known = checkerOfObject.get(doc);
  if (known) return known;
  const key = JSON.stringify(doc);
  let c = checkers.get(key);
  if (!c) {
    const ajv = new Ajv2020({ strict: false, allErrors: false });
    for (const [name, re] of Object.entries(FORMATS)) ajv.addFormat(name, re);
    ajv.addSchema(doc as Json, "doc");
    const routes = Object.keys(doc.paths).map((template) => ({
      template,
      re: new RegExp(`^${template.replace(/\{[^}]+\}/g, "[^/]+")}/?$`),
      params: (template.match(/\{/g) ?? []).length,
    }));
    // The router prefers static segments: the template with fewer parameters wins.
    routes.sort((a, b) => a.params - b.params);
    c = { doc, routes, validators: new Map(), ajv };
    checkers.set(key, c);
  }
  checkerOfObject.set(doc, c);
  return c;
}

const pointer = (...parts: string[]) =>
  parts.map((p) => p.replaceAll("~", "~0").replaceAll("/", "~1")).join("/");

/** The answer's headers against the declared ones: each required one present, each sent declared. */
function checkHeaders(what: string, documented: Documented, headers: Headers): void {
  const declared = new Map(
    Object.entries(documented.headers ?? {}).map(([name, h]) => [name.toLowerCase(), h]),
  );
  for (const [name, h] of declared) {
    if (h.required && !headers.has(name)) throw new Error(`${what}: the required header ${name} is missing`);
  }
  for (const name of headers.keys()) {
    if (TRANSPORT.has(name) || name.startsWith("access-control-") || name === "content-type") continue;
    if (!declared.has(name))
      throw new Error(`${what}: sent the header ${name}, which the document does not declare`);
  }
}

/** The answer's content type, one of the media types its status documents. */
function checkContentType(what: string, documented: Documented, headers: Headers): void {
  const types = Object.keys(documented.content ?? {});
  if (types.length === 0) return;
  const type = headers.get("content-type")?.split(";")[0]?.trim();
  if (!type || !types.includes(type)) {
    throw new Error(`${what}: documented as ${types.join(" or ")}, sent ${type ?? "no content type"}`);
  }
}

/** Throws when the answer to `method path` is not what the document says that route answers. */
export async function checkAnswer(docOf: () => Doc, request: Request, response: Response): Promise<void> {
  const { pathname } = new URL(request.url);
  const method = request.method.toLowerCase();
  if (method === "head" || response.status === 304) return;
  const doc = docOf();
  const c = checkerOf(doc);
  const route = c.routes.find((r) => r.re.test(pathname) && c.doc.paths[r.template]![method]);
  // Paths and methods no route serves answer 404/405 before any route: nothing to compare with.
  if (!route) return;
  const what = `${request.method} ${route.template} answered ${response.status}`;
  const documented = c.doc.paths[route.template]![method]!.responses[String(response.status)];
  if (!documented) throw new Error(`${what}: the OpenAPI document does not list this status`);
  const coverage = process.env.PORTOLAN_OPENAPI_COVERAGE;
  if (coverage) {
    appendFileSync(coverage, `${c.doc.info.title}\t${request.method} ${route.template} ${response.status}\n`);
  }
  checkHeaders(what, documented, response.headers);
  checkContentType(what, documented, response.headers);
  if (!documented.content?.["application/json"]) return;
  checkBody(what, doc, route.template, method, response.status, await response.clone().json());
}

/**
 * Throws when `body` is not valid against the JSON schema the document gives the answer of
 * `method template` with `status` (the served examples are checked through this too).
 */
export function checkBody(
  what: string,
  doc: Doc,
  template: string,
  method: string,
  status: number,
  body: unknown,
): void {
  const c = checkerOf(doc);
  const ref = `doc#/${pointer("paths", template, method, "responses", String(status), "content", "application/json", "schema")}`;
  let validate = c.validators.get(ref);
  if (!validate) {
    validate = c.ajv.compile({ $ref: ref });
    c.validators.set(ref, validate);
  }
  if (!validate(body)) {
    const e = validate.errors?.[0];
    throw new Error(
      `${what}: body does not match the document at ${e?.instancePath || "/"}: ${e?.message} ${JSON.stringify(e?.params)}\n${JSON.stringify(body).slice(0, 400)}`,
    );
  }
}
