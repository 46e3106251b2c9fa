/**
 * The API reference: GET /docs (alias /swagger) is Swagger UI served from this host
 * (swagger-ui-dist, pinned in package.json; the page loads nothing from elsewhere), over GET
 * /docs/json (alias /swagger/json), the product's OpenAPI document (../openapi/document.ts) built
 * once from the app's routes on first request, with the example answers of ../openapi/examples.ts.
 */
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { Elysia } from "elysia";
import { type ErrorStyle, jsonTextResponse } from "../envelopes.ts";
import { type DocumentOptions, openApiDocument, type RouteEntry } from "../openapi/document.ts";
import { examplesOf, withExamples } from "../openapi/examples.ts";
import {
  commonAnswers,
  envelopeOf,
  errorAnswer,
  REQUEST_ID_HEADERS,
  rateHeaders,
  toOpenApi,
} from "../openapi/responses.ts";
import { pageSite } from "../pages/serve.ts";
import type { ProductDef } from "../products.ts";
import { type Access, checksEntitlement, isDocsPath } from "./access.ts";

const dist = (name: string) => createRequire(import.meta.url).resolve(`swagger-ui-dist/${name}`);
const here = (name: string) => fileURLToPath(new URL(`../openapi/${name}`, import.meta.url));

export interface OpenApiOptions {
  server: string;
  accessOf: (path: string) => Access;
  /** Paths on which only GET is served (request-target.ts): their other methods are not documented. */
  getOnly?: (path: string) => boolean;
  routes: () => ReadonlyArray<RouteEntry>;
  /** The product's webhook events (OpenAPI `webhooks`), when it sends any. */
  webhooks?: () => Record<string, Record<string, unknown>>;
}

/** The declared responses completed with what every route of its access kind answers. */
function completeResponses(
  def: ProductDef,
  accessOf: (path: string) => Access,
): DocumentOptions["responses"] {
  const fallback = toOpenApi({ 200: { description: "Success", body: envelopeOf(def, {} as never) } });
  return ({ path, hooks }, declared) => {
    const a = accessOf(path);
    const keyed = a.auth !== "none";
    const limited = keyed || (a.auth === "none" && a.limited);
    const kinds = {
      keyed,
      entitled: checksEntitlement(hooks),
      limited,
      withParams: path.includes(":"),
      never: hooks?.detail?.notAnswered,
    };
    const common = toOpenApi(commonAnswers(a.errors, kinds), limited);
    const own = inStyle(declared ?? fallback, a.errors);
    return withRequestId({ ...common, ...withRateHeaders(own, limited) });
  };
}

/** Every answer names its request (plugins/request-id.ts). */
function withRequestId(responses: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(responses).map(([status, r]) => {
      const res = r as { headers?: object };
      return [status, { ...res, headers: { ...REQUEST_ID_HEADERS, ...res.headers } }];
    }),
  );
}

/** A route's declared error statuses in the error style of its path (open, keyed, compat), with their headers. */
function inStyle(responses: Record<string, unknown>, style: ErrorStyle): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(responses).map(([status, r]) => {
      if (Number(status) < 400) return [status, r];
      const { description, headers } = r as { description: string; headers?: object };
      const styled = toOpenApi({ 0: errorAnswer(style, Number(status), description) })["0"] as {
        headers?: object;
      };
      // Headers the route declares for its own errors stay beside the style's.
      return [status, headers ? { ...styled, headers: { ...styled.headers, ...headers } } : styled];
    }),
  );
}

function withRateHeaders(responses: Record<string, unknown>, limited: boolean): Record<string, unknown> {
  if (!limited) return responses;
  return Object.fromEntries(
    Object.entries(responses).map(([status, r]) => {
      const res = r as { headers?: object };
      return [status, { ...res, headers: { ...rateHeaders(Number(status)), ...res.headers } }];
    }),
  );
}

export function openApi(def: ProductDef, opts: OpenApiOptions) {
  let text: string | undefined;
  const build = () =>
    openApiDocument(
      opts.routes(),
      {
        title: `Portolan ${def.title} API`,
        description: `Every route of the ${def.title} host with what it answers (docs/api-reference.md).`,
        server: opts.server,
        include: (method, path) => !isDocsPath(path) && !(opts.getOnly?.(path) && method !== "GET"),
        responses: completeResponses(def, opts.accessOf),
      },
      {
        securitySchemes: { bearer: { type: "http", scheme: "bearer" } },
        security: [{ bearer: [] }],
        webhooks: opts.webhooks?.(),
      },
    );
  // A Response, so the envelope plugin sends it as it is.
  const documentText = () => {
    text ??= JSON.stringify(withExamples(build(), examplesOf(def.id)));
    return text;
  };
  const documentOf = () => jsonTextResponse(documentText());
  const files = [
    { name: "", path: here("docs.html") },
    { name: "docs.js", path: here("docs.js") },
    { name: "icon.svg", path: fileURLToPath(new URL("../pages/icon.svg", import.meta.url)) },
    { name: "swagger-ui.css", path: dist("swagger-ui.css") },
    { name: "swagger-ui-bundle.js", path: dist("swagger-ui-bundle.js") },
  ];
  const errors = def.family === "ok" ? "open" : "data";
  const page = pageSite({ base: "/docs", title: "API reference", errors, files });
  const alias = pageSite({ base: "/swagger", title: "API reference", errors, files: files.slice(0, 1) });
  return (
    new Elysia({ name: `portolan-openapi-${def.id}` })
      // The document as an object, for the test helpers that check every answer against it.
      .state("openApiDocument", () => JSON.parse(documentText()) as Record<string, unknown>)
      .get("/docs/json", documentOf, { detail: { hide: true } })
      .get("/swagger/json", documentOf, { detail: { hide: true } })
      .use(page.routes)
      .use(alias.routes)
  );
}
