/**
 * What a route answers, as OpenAPI responses: each status with a description and its body in the
 * product's envelope (envelopes.ts), the error bodies as named components whose codes are the
 * catalogue's (errors.ts), and the headers each answer carries. Routes declare what is theirs
 * (`answers`, `routeAnswers`); the product app adds what every route of an access kind answers
 * (`commonAnswers`): 400 for a malformed target, 401 for keyed routes, 403 for those checking the
 * product's entitlement, 404 for a path parameter's unknown value, 429 where limited, 500 and 503,
 * less those the route says it never gives (`neverAnswers`).
 */

import { Type } from "@sinclair/typebox";
import { type TSchema, t } from "elysia";
import type { OpenAPIV3 } from "openapi-types";
import type { ErrorStyle } from "../envelopes.ts";
import { PROBLEMS } from "../errors.ts";
import { API_VERSION, PRODUCT_IDS, type ProductDef } from "../products.ts";

type Json = Record<string, unknown>;

const codes = (spelling: "code" | "lower", status?: number) => [
  ...new Set(
    Object.values(PROBLEMS)
      .filter((p) => status === undefined || p.status === status)
      .map((p) => p[spelling]),
  ),
];

const literalUnion = (values: string[], options: Json = {}) =>
  t.Union(
    values.map((v) => t.Literal(v)),
    options,
  );

/** Error objects carry the catalogue's fields and, for some failures, fields of their own (plan_needed, retry_after_seconds, id). */
const OkError = t.Object(
  {
    ok: t.Literal(false),
    error: t.Object(
      {
        code: literalUnion(codes("code")),
        message: t.String(),
        severity: literalUnion(["warning", "error"]),
      },
      { additionalProperties: true },
    ),
  },
  { $id: "OkError", additionalProperties: false, description: "Error on a keyed route (upper-case code)" },
);

const OpenError = t.Object(
  { ok: t.Literal(false), message: t.String() },
  { $id: "OpenError", additionalProperties: true, description: "Error on an open route" },
);

const DataError = t.Object(
  {
    error: t.Object(
      { code: literalUnion(codes("lower")), message: t.String() },
      { additionalProperties: true },
    ),
  },
  { $id: "DataError", additionalProperties: false, description: "Error (lower-case code)" },
);

/** The vendor's transport errors: a message code, data null (docs/compat.md). */
export const CompatError = t.Object(
  { status: t.Literal("error"), message: t.String(), data: t.Null() },
  { $id: "CompatError", additionalProperties: false, description: "Vendor transport error (message code)" },
);

const ERROR_BODIES: Record<ErrorStyle, TSchema> = {
  ok: OkError,
  open: OpenError,
  data: DataError,
  compat: CompatError,
};

const intHeader = (description: string) => ({ description, schema: { type: "string", pattern: "^[0-9]+$" } });

/**
 * Sent on the answers of a keyed or per-address limited route (plugins/rate-limit.ts): on every
 * success and 429; an error raised before the window is counted (a malformed target, a missing
 * key) goes without them.
 */
export function rateHeaders(status: number): Json {
  const required = status < 300 || status === 429;
  const header = (description: string) => ({ ...intHeader(description), ...(required ? { required } : {}) });
  return {
    "X-RateLimit-Limit": header("Requests allowed per window"),
    "X-RateLimit-Remaining": header("Requests left in this window"),
    "X-RateLimit-Reset": header("Unix time (seconds) when the window resets"),
  };
}

export const RETRY_HEADER = intHeader("Seconds to wait before retrying");

/** Sent on every answer of every route (plugins/request-id.ts); error bodies carry it too. */
export const REQUEST_ID_HEADERS = {
  "X-Request-Id": {
    description: "This request's id, as the access log and error bodies name it",
    required: true,
    schema: { type: "string" },
  },
};
const RETRY_AFTER = { "Retry-After": RETRY_HEADER };

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: "Invalid request: a parameter, the body or the request target does not pass validation",
  401: "Missing, malformed, unknown, revoked or expired API key",
  402: "A quota or spend cap of the plan is reached",
  403: "The account has no live entitlement to this product, or the key may not do this",
  404: "Not found (another account's id answers the same)",
  405: "Method not allowed on this path",
  409: "Conflicts with what exists",
  422: "No route between the places",
  429: "Rate window exceeded; Retry-After says when to come back",
  500: "Internal error; retry shortly",
  503: "Temporarily unavailable (database, carrier or route workers); Retry-After says when to come back",
};

export interface Answer {
  description: string;
  /** The body as sent (already in the envelope: see `envelopeOf`). */
  body?: TSchema;
  headers?: Json;
}

export type Answers = Record<number, Answer>;

/** Field shapes the views share. */
export const DateTime = t.String({ format: "date-time" });
export const Day = t.String({ format: "date" });
export const Uuid = t.String({ format: "uuid" });
/** An integer as JSON Schema writes it (Elysia's t.Integer also takes a numeric string, for queries). */
export const Int = (options: Json = {}) => Type.Integer(options);
export const nullable = <T extends TSchema>(schema: T) => t.Union([schema, t.Null()]);

/** Text that may be null. */
export const Text = nullable(t.String());

/** When and where a milestone happened, in UTC and in the place's local time (ocean and air alike). */
export const LOCAL_MOMENT = {
  is_actual: t.Boolean(),
  label: t.String(),
  timestamp: DateTime,
  event_local_datetime: Text,
  utc_offset_minutes: nullable(Int()),
  event_timezone: Text,
  location: Text,
};

/** A strict object: a field the schema does not name fails the answer check. */
export const strict = <P extends Record<string, TSchema>>(properties: P, options: Json = {}) =>
  t.Object(properties, { additionalProperties: false, ...options });

/** A list page: its items, whether more follow and the cursor to ask for them. */
export const listPage = (item: TSchema) =>
  strict({ items: t.Array(item), has_more: t.Boolean(), next_cursor: nullable(t.String()) });

/** GET /healthz's data (health.ts). */
export const HealthReport = strict(
  {
    product: t.Union(PRODUCT_IDS.map((id) => t.Literal(id))),
    status: t.Union([t.Literal("ok"), t.Literal("degraded")]),
    dependencies: strict({ redis: t.Optional(t.Union([t.Literal("up"), t.Literal("down")])) }),
  },
  { $id: "Health" },
);

/** Beside data on an add that succeeded with less than usual (the carrier did not answer). */
export const WARNING = { warning: t.Optional(t.String()) };

/** The success body of a product: its envelope around `data` (and `beside` it, the fields given). */
export function envelopeOf(def: ProductDef, data: TSchema, beside: Record<string, TSchema> = {}): TSchema {
  if (def.id === "distance") {
    return t.Object(
      { data, meta: t.Object({ took_ms: t.Number({ minimum: 0 }) }, { additionalProperties: false }) },
      { additionalProperties: false },
    );
  }
  if (def.family === "data") return t.Object({ ...beside, data }, { additionalProperties: false });
  return def.versioned
    ? t.Object(
        { api_version: t.Literal(API_VERSION), ok: t.Literal(true), ...beside, data },
        { additionalProperties: false },
      )
    : t.Object({ ok: t.Literal(true), ...beside, data }, { additionalProperties: false });
}

/** An error answer in `style` with the catalogue's description for its status. */
export function errorAnswer(style: ErrorStyle, status: number, description?: string): Answer {
  return {
    description: description ?? ERROR_DESCRIPTIONS[status] ?? "Error",
    body: ERROR_BODIES[style],
    ...(status === 429 || status === 503 ? { headers: RETRY_AFTER } : {}),
  };
}

/** Route-specific answers: successes as given, errors by status in the route's style. */
export function answers(
  style: ErrorStyle,
  success: Answers,
  errors: ReadonlyArray<number | [number, string]> = [],
): Answers {
  const out: Answers = { ...success };
  for (const e of errors) {
    const [status, description] = typeof e === "number" ? [e, undefined] : e;
    out[status] = errorAnswer(style, status, description);
  }
  return out;
}

/** Successes in the product's envelope, errors in its keyed style: what most routes declare. */
export function routeAnswers(
  def: ProductDef,
  success: Record<
    number,
    { description: string; data: TSchema; beside?: Record<string, TSchema>; headers?: Json }
  >,
  errors: ReadonlyArray<number | [number, string]> = [],
): { responses: OpenAPIV3.ResponsesObject } {
  const ok: Answers = {};
  for (const [status, s] of Object.entries(success)) {
    ok[Number(status)] = {
      description: s.description,
      body: envelopeOf(def, s.data, s.beside),
      headers: s.headers,
    };
  }
  const style: ErrorStyle = def.family === "ok" ? "ok" : "data";
  return { responses: toOpenApi(answers(style, ok, errors)) };
}

/** What the server decides about a route before its handler: which of the common answers apply. */
export interface RouteKinds {
  keyed: boolean;
  /** The route checks the product's entitlement (plugins/access.ts `entitled`): 403. */
  entitled: boolean;
  limited: boolean;
  withParams: boolean;
  /** Common answers the route never gives (its detail's `notAnswered`, `neverAnswers`). */
  never?: readonly number[];
}

/**
 * Route detail naming common answers the route cannot give: 404 where every well-formed path value
 * answers (an empty list for one nothing is known of, an idempotent delete), 503 where nothing it
 * reads can be away (no storage, no workers, no carrier behind it).
 */
export const neverAnswers = (...statuses: number[]) => ({ notAnswered: statuses });

/**
 * What every route of an access kind may answer besides its own statuses; a route with a path
 * parameter answers 404 for a value it does not know.
 */
export function commonAnswers(
  style: ErrorStyle,
  { keyed, entitled, limited, withParams, never = [] }: RouteKinds,
): Answers {
  const statuses = [
    400,
    ...(keyed ? [401] : []),
    ...(entitled ? [403] : []),
    ...(withParams ? [404] : []),
    ...(limited ? [429] : []),
    500,
    503,
  ];
  return answers(
    style,
    {},
    statuses.filter((s) => !never.includes(s)),
  );
}

/** Answers as an OpenAPI responses object (rate headers added where the route is limited). */
export function toOpenApi(all: Answers, limited = false): OpenAPIV3.ResponsesObject {
  const out: Json = {};
  for (const [status, a] of Object.entries(all).sort(([x], [y]) => Number(x) - Number(y))) {
    const headers = { ...(limited ? rateHeaders(Number(status)) : {}), ...a.headers };
    out[status] = {
      description: a.description,
      ...(Object.keys(headers).length > 0 ? { headers } : {}),
      ...(a.body ? { content: { "application/json": { schema: a.body } } } : {}),
    };
  }
  // TypeBox schemas are JSON Schema; openapi-types spells the 3.0 subset.
  return out as OpenAPIV3.ResponsesObject;
}
