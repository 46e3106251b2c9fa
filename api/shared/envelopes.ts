/**
 * Body shapes per product family. Success: ocean {api_version, ok, data}; schedules and load plans
 * {ok, data}; air-cargo and rates {data}; distance {data, meta:{took_ms}}. Errors: keyed ok-family
 * {ok:false, error:{code, message, severity}}; open routes {ok:false, message}; data-family
 * {error:{code, message}} with lower-case codes; compat {status:"error", message, data:null}. Every
 * error body but compat's also carries the request's id, request_id: in the error object where there
 * is one, else at the top level. Compat keeps the vendor's three keys (clients that refuse unknown
 * keys parse it); its X-Request-Id header carries the id.
 */
import type { ApiError } from "./errors.ts";
import { API_VERSION, type ProductDef } from "./products.ts";

export type ErrorStyle = "ok" | "open" | "data" | "compat";

const JSON_HEADERS = { "content-type": "application/json; charset=utf-8" };

export function jsonResponse(body: unknown, status = 200, headers?: Record<string, string>): Response {
  return jsonTextResponse(JSON.stringify(body), status, headers);
}

/** A response of JSON text already written (as a string, as UTF-8 bytes or a Blob of them). */
export function jsonTextResponse(
  text: string | Uint8Array<ArrayBuffer> | Blob,
  status = 200,
  headers?: Record<string, string>,
): Response {
  return new Response(text, {
    status,
    // The JSON content type wins over a caller's, as Elysia's header merge would have it.
    headers: headers ? { ...headers, ...JSON_HEADERS } : JSON_HEADERS,
  });
}

/**
 * A handler's data already serialised (exactly JSON.stringify of it): the envelope is written
 * around the text instead of serialising the data again (cached renderings of items). Given as
 * UTF-8 pieces, it goes out as one byte array: a large body (a list page of cached items) costs
 * less copied as bytes than built as a string and encoded (bench/tracking.ts).
 */
export class RenderedJson {
  /**
   * For products whose envelope does not vary per request: the product that answered with it, and
   * from its second answer on (a rendering kept in a cache: a list page, a lookup) the whole body as
   * a Blob, which a Response shares where it copies a typed array (75 kB for a list page,
   * bench/tracking.ts). A rendering answered once keeps nothing.
   */
  written?: { product: string; body?: Blob };
  constructor(readonly json: string | readonly Uint8Array[]) {}
}

const UTF8 = new TextEncoder();

/** The distance envelope carries meta.took_ms, so its text changes at every answer; no other does. */
const timed = (def: ProductDef) => def.id === "distance";

export function successBody(def: ProductDef, data: unknown, tookMs: number): Record<string, unknown> {
  if (timed(def)) return { data, meta: { took_ms: tookMs } };
  if (def.family === "data") return { data };
  return def.versioned ? { api_version: API_VERSION, ok: true, data } : { ok: true, data };
}

const VERSION_JSON = JSON.stringify(API_VERSION);

/** The text of successBody(def, data, tookMs) before and after the data's. */
function envelopeAround(def: ProductDef, tookMs: number): [string, string] {
  if (timed(def)) return ['{"data":', `,"meta":{"took_ms":${JSON.stringify(tookMs)}}}`];
  if (def.family === "data") return ['{"data":', "}"];
  return def.versioned
    ? [`{"api_version":${VERSION_JSON},"ok":true,"data":`, "}"]
    : ['{"ok":true,"data":', "}"];
}

/** JSON.stringify(successBody(def, data, tookMs)) for data given as its JSON text (UTF-8 if in pieces). */
export function successJson(
  def: ProductDef,
  data: RenderedJson,
  tookMs: number,
): string | Uint8Array<ArrayBuffer> | Blob {
  const written = data.written;
  if (written?.body && written.product === def.id) return written.body;
  const [open, close] = envelopeAround(def, tookMs);
  // Buffer.concat: a few times faster than setting each piece from script (a page has hundreds).
  const body =
    typeof data.json === "string"
      ? `${open}${data.json}${close}`
      : Buffer.concat([UTF8.encode(open), ...data.json, UTF8.encode(close)]);
  if (timed(def)) return body;
  if (written?.product !== def.id) {
    data.written = { product: def.id };
    return body;
  }
  written.body = new Blob([body]);
  return written.body;
}

const COMPAT_CODES: Partial<Record<ApiError["key"], string>> = {
  unauthorized: "API_KEY_WRONG",
  rateWindow: "API_KEY_RATE_LIMIT",
};

/** The error body of `style`, with the request's id when it has one (plugins/request-id.ts). */
export function errorBody(style: ErrorStyle, err: ApiError, requestId = ""): Record<string, unknown> {
  const { code, lower, severity } = err.problem;
  const id = requestId ? { request_id: requestId } : {};
  switch (style) {
    case "ok":
      return { ok: false, error: { code, message: err.message, severity, ...err.extra, ...id } };
    case "open":
      return { ok: false, message: err.message, ...err.extra, ...id };
    case "data":
      return { error: { code: lower, message: err.message, ...err.extra, ...id } };
    case "compat":
      // Vendor clients branch on message codes (compat-vendor-v3 section 5): the compat routes raise
      // codes already; the platform's own sentences (auth, rate window) map to the matching code.
      return {
        status: "error",
        message: /^[A-Z][A-Z_]+$/.test(err.message) ? err.message : (COMPAT_CODES[err.key] ?? err.message),
        data: null,
      };
  }
}

/** The error style a product uses on keyed routes. */
export function keyedErrorStyle(def: ProductDef): ErrorStyle {
  return def.family === "ok" ? "ok" : "data";
}
