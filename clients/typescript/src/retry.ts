/**
 * Retries of answers that say "not now": 429 (rate limited) and 503 (unavailable) are sent again
 * after the wait their Retry-After names (seconds or an HTTP date), or after 1 s, 2 s, 4 s... when
 * it names none. Attempts are bounded, and a wait longer than `maxDelayMs` is not waited for: that
 * answer is returned as it is, for the caller to decide.
 */

export type FetchLike = (request: Request) => Promise<Response>;

export interface RetryOptions {
  /** Attempts in all, the first included (default 3; 1 never retries). */
  attempts?: number;
  /** The longest wait worth making, in ms (default 60 000). */
  maxDelayMs?: number;
  /** How to wait (default a timer); tests pass their own. */
  sleep?: (ms: number) => Promise<void>;
  /** The clock an HTTP-date Retry-After is read against (default Date.now). */
  now?: () => number;
}

export const RETRIED_STATUSES: ReadonlySet<number> = new Set([429, 503]);

const timer = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The wait a Retry-After header asks for, in ms; null when absent or unreadable. */
export function retryAfterMs(header: string | null, now: number): number | null {
  const value = header?.trim() ?? "";
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = value ? Date.parse(value) : Number.NaN;
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** `base`, sending a request again while it answers 429 or 503, as the options above bound it. */
export function retrying(base: FetchLike, options: RetryOptions = {}): FetchLike {
  const attempts = Math.max(1, options.attempts ?? 3);
  const maxDelayMs = options.maxDelayMs ?? 60_000;
  const sleep = options.sleep ?? timer;
  const now = options.now ?? Date.now;
  return async (request) => {
    for (let attempt = 1; ; attempt++) {
      // A clone per attempt: a body can be sent only once.
      const response = await base(attempt < attempts ? request.clone() : request);
      if (!RETRIED_STATUSES.has(response.status) || attempt >= attempts) return response;
      const wait = retryAfterMs(response.headers.get("retry-after"), now()) ?? 1000 * 2 ** (attempt - 1);
      if (wait > maxDelayMs) return response;
      await response.body?.cancel();
      await sleep(wait);
    }
  };
}
