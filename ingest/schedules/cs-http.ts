/**
 * One GET of a DCSA CS page, the way the TNT connector calls carriers (ingest/carriers/connector.ts):
 * same CarrierError kinds and Retry-After parsing; plus a body size cap and a bounded retry with
 * back-off for the transient kinds (unavailable, rate_limited), so one 5xx does not lose a refresh.
 */
import { readCapped as readCappedBody } from "../../common/capped-body.ts";
import { CarrierError, parseRetryAfter } from "../carriers/connector.ts";

export interface CsHttpOptions {
  scac: string;
  headers: Headers;
  /** Per request, body included. */
  timeoutMs: number;
  /** Bodies beyond this are refused unread (invalid_payload): a schedule page is never that big. */
  maxBodyBytes: number;
  /** Further attempts after a transient failure. */
  retries: number;
  /** First back-off; doubles per attempt up to maxRetryDelayMs. A Retry-After above that is not waited for. */
  retryDelayMs: number;
  maxRetryDelayMs: number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export interface CsPage {
  body: unknown;
  nextCursor: string | null;
}

export const abortableSleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });

/** GETs `url`, retrying transient failures with back-off; the last failure is thrown as is. */
export async function getPage(url: URL, opts: CsHttpOptions, signal?: AbortSignal): Promise<CsPage> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await getOnce(url, opts, signal);
    } catch (err) {
      if (!(err instanceof CarrierError) || attempt >= opts.retries) throw err;
      if (err.kind !== "unavailable" && err.kind !== "rate_limited") throw err;
      const asked = err.details.retryAfterSeconds;
      if (asked !== undefined && asked * 1000 > opts.maxRetryDelayMs) throw err;
      const delay =
        asked !== undefined ? asked * 1000 : Math.min(opts.maxRetryDelayMs, opts.retryDelayMs * 2 ** attempt);
      await opts.sleep(delay, signal);
    }
  }
}

/** The body as text, or null past `max` bytes (declared or streamed): never more than that in memory. */
async function readCapped(res: Response, max: number): Promise<string | null> {
  const declared = Number(res.headers.get("Content-Length"));
  const tooBig = new Error("too big");
  if (Number.isFinite(declared) && declared > max) {
    await res.body?.cancel();
    return null;
  }
  try {
    return new TextDecoder().decode(await readCappedBody(res.body, max, () => tooBig));
  } catch (err) {
    if (err === tooBig) return null;
    throw err;
  }
}

/** The DCSA ErrorResponse's detailed errors, when a failure body carries them. */
function dcsaErrors(text: string): string[] {
  try {
    const body = JSON.parse(text) as { errors?: Array<{ property?: string; errorCodeMessage?: string }> };
    return (body.errors ?? []).map((e) => `${e.property ?? "request"}: ${e.errorCodeMessage ?? "error"}`);
  } catch {
    return [];
  }
}

async function getOnce(url: URL, opts: CsHttpOptions, signal: AbortSignal | undefined): Promise<CsPage> {
  const timeout = AbortSignal.timeout(opts.timeoutMs);
  const fail = (
    kind: CarrierError["kind"],
    message: string,
    details: CarrierError["details"] = {},
  ): never => {
    throw new CarrierError(kind, opts.scac, message, details);
  };
  let res: Response;
  let text: string | null;
  try {
    res = await fetch(url, {
      headers: opts.headers,
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      redirect: "follow",
    });
    text = await readCapped(res, opts.maxBodyBytes);
  } catch (cause) {
    // The caller's own abort is not a carrier fault: let it through as is.
    if (signal?.aborted) throw signal.reason ?? cause;
    const timedOut = timeout.aborted;
    return fail(
      "unavailable",
      timedOut ? `no answer within ${opts.timeoutMs} ms` : `network error: ${String(cause)}`,
      { timeout: timedOut, cause },
    );
  }
  if (text === null) {
    return fail("invalid_payload", `body larger than ${opts.maxBodyBytes} bytes from ${url.pathname}`, {
      status: res.status,
      issues: [`$: body larger than ${opts.maxBodyBytes} bytes`],
    });
  }
  if (res.ok) {
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch (cause) {
      return fail("invalid_payload", `response from ${url.pathname} is not JSON`, {
        status: res.status,
        issues: ["$: not JSON"],
        cause,
      });
    }
    return { body, nextCursor: res.headers.get("Next-Page-Cursor") || null };
  }
  const message = `HTTP ${res.status} from ${url.pathname}${text ? `: ${text.slice(0, 200)}` : ""}`;
  if (res.status === 429) {
    return fail("rate_limited", message, {
      status: 429,
      retryAfterSeconds: parseRetryAfter(res.headers.get("Retry-After"), Date.now()),
    });
  }
  if (res.status >= 500) return fail("unavailable", message, { status: res.status });
  const issues = dcsaErrors(text);
  return fail("rejected", message, { status: res.status, ...(issues.length ? { issues } : {}) });
}
