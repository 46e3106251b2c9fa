/** A refused call as an exception, for code that prefers throwing to checking `error`. */

/** An answer that was not a success: its status, the envelope's code and message, the body as sent. */
export class PortolanError extends Error {
  readonly status: number;
  readonly code: string | null;
  readonly body: unknown;

  constructor(status: number, body: unknown) {
    const { code, message } = describe(body);
    super(message ?? `HTTP ${status}`);
    this.name = "PortolanError";
    this.status = status;
    this.code = code;
    this.body = body;
  }
}

/** Every product's error envelope: {error: {code, message}}, {ok: false, message} or compat's {status, message}. */
function describe(body: unknown): { code: string | null; message: string | null } {
  const text = (v: unknown) => (typeof v === "string" ? v : null);
  if (typeof body !== "object" || body === null) return { code: null, message: text(body) || null };
  const { error, message } = body as { error?: { code?: unknown; message?: unknown }; message?: unknown };
  if (typeof error === "object" && error !== null)
    return { code: text(error.code), message: text(error.message) };
  return { code: null, message: text(message) };
}

/** What openapi-fetch answers: `data` on a success, `error` otherwise, and the response. */
export interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The answer's data, or a PortolanError when the status is not a success. */
export function unwrap<T>(answer: Answer<T>): T {
  if (!answer.response.ok) throw new PortolanError(answer.response.status, answer.error);
  return answer.data as T;
}
