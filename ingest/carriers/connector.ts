/**
 * Carrier connectors: one per carrier, answering "all events for this reference". The DCSA TNT 2.2
 * connector polls GET {baseUrl}/v2/events and follows pagination.
 */
import type { DcsaEvent } from "./dcsa.ts";
import { validateEvents } from "./validate.ts";

export type ReferenceKind = "container" | "bill_of_lading" | "booking";

export interface TrackingReference {
  kind: ReferenceKind;
  value: string;
}

export interface FetchOptions {
  signal?: AbortSignal;
}

export interface CarrierConnector {
  scac: string;
  fetchEvents(ref: TrackingReference, opts?: FetchOptions): Promise<DcsaEvent[]>;
}

export type CarrierErrorKind = "rate_limited" | "unavailable" | "rejected" | "invalid_payload";

/**
 * Why a carrier call failed. rate_limited (429; retryAfterSeconds when the carrier said), unavailable
 * (5xx, network, timeout: retry later), rejected (other 4xx: status 404 means the carrier does not
 * know the reference; 401/403 a credentials problem), invalid_payload (the body breaks the DCSA 2.2
 * schema: `issues` lists every violation).
 */
export class CarrierError extends Error {
  override readonly name = "CarrierError";
  constructor(
    readonly kind: CarrierErrorKind,
    readonly scac: string,
    message: string,
    readonly details: {
      status?: number;
      retryAfterSeconds?: number;
      issues?: string[];
      timeout?: boolean;
      cause?: unknown;
    } = {},
  ) {
    super(`${scac}: ${message}`, details.cause === undefined ? undefined : { cause: details.cause });
  }

  get status(): number | undefined {
    return this.details.status;
  }
}

/** How to reach one carrier's DCSA API: what the TNT connector and the schedules client share. */
export interface CarrierHttpConfig {
  scac: string;
  baseUrl: string;
  /** Sent in `apiKeyHeader` (default "API-Key"). */
  apiKey?: string;
  apiKeyHeader?: string;
  /** Sent as `Authorization: Bearer …`. */
  bearerToken?: string;
  /** Extra headers (carrier-specific subscription keys and the like). */
  headers?: Record<string, string>;
  /** Per HTTP request, not per reference. Default 15 s. */
  timeoutMs?: number;
  /** `limit` query parameter. Default 100. */
  pageLimit?: number;
  /** Guard against a cursor chain that never ends. Default 50. */
  maxPages?: number;
}

export interface DcsaConnectorConfig extends CarrierHttpConfig {
  /** Base URL the DCSA paths hang from: `${baseUrl}/v2/events`. */
  baseUrl: string;
  /**
   * The carrier's DCSA Commercial Schedules base (`${schedulesBaseUrl}/v1/vessel-schedules`, a
   * base ending in /v1 taken as is): its schedules are kept fresh (ingest/schedules/sync.ts).
   */
  schedulesBaseUrl?: string;
  /** The caller's clock (ms), bounding eventCreatedDateTime; default Date.now. */
  now?: () => number;
}

const QUERY_PARAM: Record<ReferenceKind, string> = {
  container: "equipmentReference",
  bill_of_lading: "transportDocumentReference",
  booking: "carrierBookingReference",
};

/** Retry-After is delta-seconds or an HTTP date. */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (!value) return undefined;
  const secs = Number(value);
  if (Number.isFinite(secs) && secs >= 0) return secs;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

export class DcsaConnector implements CarrierConnector {
  readonly scac: string;
  private readonly base: string;

  constructor(private readonly config: DcsaConnectorConfig) {
    this.scac = config.scac;
    this.base = config.baseUrl.replace(/\/+$/, "");
  }

  async fetchEvents(ref: TrackingReference, opts: FetchOptions = {}): Promise<DcsaEvent[]> {
    const first = new URL(`${this.base}/v2/events`);
    first.searchParams.set(QUERY_PARAM[ref.kind], ref.value.trim().toUpperCase());
    first.searchParams.set("limit", String(this.config.pageLimit ?? 100));
    const events: DcsaEvent[] = [];
    const seen = new Set<string>();
    let url: URL | null = first;
    for (let page = 0; url; page++) {
      if (page >= (this.config.maxPages ?? 50)) {
        throw new CarrierError("invalid_payload", this.scac, `more than ${page} pages: pagination loop?`);
      }
      const { res, body } = await this.get(url, opts.signal);
      const checked = validateEvents(body, { seen, now: (this.config.now ?? Date.now)() });
      if (!checked.ok) {
        throw new CarrierError("invalid_payload", this.scac, `events break DCSA 2.2: ${checked.issues[0]}`, {
          issues: checked.issues,
        });
      }
      events.push(...checked.events);
      url = this.nextPage(res, url);
    }
    return events;
  }

  /**
   * Next-Page may be a full URL, a path, or (as in the spec's examples) a bare cursor;
   * Next-Page-Cursor is always a cursor for the same query.
   */
  private nextPage(res: Response, current: URL): URL | null {
    const link = res.headers.get("Next-Page");
    if (link) {
      if (/^https?:\/\//i.test(link) || link.startsWith("/")) return new URL(link, current);
      return this.withCursor(current, link);
    }
    const cursor = res.headers.get("Next-Page-Cursor");
    return cursor ? this.withCursor(current, cursor) : null;
  }

  private withCursor(current: URL, cursor: string): URL {
    const next = new URL(current);
    next.searchParams.set("cursor", cursor);
    return next;
  }

  private headers(): Headers {
    const h = new Headers({ Accept: "application/json", "API-Version": "2" });
    for (const [k, v] of Object.entries(this.config.headers ?? {})) h.set(k, v);
    if (this.config.apiKey) h.set(this.config.apiKeyHeader ?? "API-Key", this.config.apiKey);
    if (this.config.bearerToken) h.set("Authorization", `Bearer ${this.config.bearerToken}`);
    return h;
  }

  /** One request, body included: the timeout covers a body that stalls after the headers too. */
  private async get(url: URL, signal: AbortSignal | undefined): Promise<{ res: Response; body: unknown }> {
    const timeoutMs = this.config.timeoutMs ?? 15_000;
    const timeout = AbortSignal.timeout(timeoutMs);
    let res: Response;
    let text: string;
    try {
      res = await fetch(url, {
        headers: this.headers(),
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        redirect: "follow",
      });
      text = await res.text();
    } catch (cause) {
      // The caller's own abort is not a carrier fault: let it through as is.
      if (signal?.aborted) throw signal.reason ?? cause;
      const timedOut = timeout.aborted;
      throw new CarrierError(
        "unavailable",
        this.scac,
        timedOut ? `no answer within ${timeoutMs} ms` : `network error: ${String(cause)}`,
        { timeout: timedOut, cause },
      );
    }
    if (res.ok) {
      try {
        return { res, body: JSON.parse(text) };
      } catch (cause) {
        return this.fail("invalid_payload", "response is not JSON", { status: res.status, cause });
      }
    }
    const message = `HTTP ${res.status} from ${url.pathname}${text ? `: ${text.slice(0, 200)}` : ""}`;
    if (res.status === 429) {
      return this.fail("rate_limited", message, {
        status: 429,
        retryAfterSeconds: parseRetryAfter(res.headers.get("Retry-After"), Date.now()),
      });
    }
    return this.fail(res.status >= 500 ? "unavailable" : "rejected", message, { status: res.status });
  }

  private fail(kind: CarrierErrorKind, message: string, details: CarrierError["details"]): never {
    throw new CarrierError(kind, this.scac, message, details);
  }
}
