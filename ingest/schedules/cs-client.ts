/**
 * DCSA Commercial Schedules 1.0.3 client: GET {baseUrl}/v1/point-to-point-routes, /v1/port-schedules
 * and /v1/vessel-schedules with the OpenAPI's query parameters, following Next-Page-Cursor (the
 * `cursor` parameter, same filters and limit) to the last page. Every page is checked against the
 * OpenAPI schemas before anything is returned: one bad page fails the whole call (invalid_payload,
 * `issues` naming each field), never a partial result. Failures are the TNT connector's CarrierError.
 */
import { CarrierError, type CarrierHttpConfig } from "../carriers/connector.ts";
import { abortableSleep, type CsHttpOptions, getPage } from "./cs-http.ts";
import { mapPointToPoint, mapPortSchedules, mapVesselSchedules } from "./cs-map.ts";
import type {
  CsPointToPoint,
  CsPortSchedule,
  CsServiceSchedule,
  PortSchedule,
  Route,
  Sailing,
} from "./cs-types.ts";
import { type CsItemSchema, validateCsBody, validateCsQuery } from "./cs-validate.ts";

export interface CsClientConfig extends CarrierHttpConfig {
  /**
   * Where the OpenAPI paths hang from: `${baseUrl}/v1/vessel-schedules`. A base already ending in
   * /v1 is accepted too (the path's /v1 is then not repeated).
   */
  baseUrl: string;
  /** Default 8 MiB per page. */
  maxBodyBytes?: number;
  /** Further attempts per page after a 5xx, network error, timeout or 429. Default 2. */
  retries?: number;
  /** Default 500 ms, doubling. */
  retryDelayMs?: number;
  /** Default 30 s; a longer Retry-After is not waited for (the caller's scheduler backs off). */
  maxRetryDelayMs?: number;
  /** Test seam for the back-off wait; defaults to a real, abortable timer. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

type Code = string;
type IsoDate = string;

export interface PointToPointQuery {
  placeOfReceipt: Code;
  placeOfDelivery: Code;
  departureStartDate?: IsoDate;
  departureEndDate?: IsoDate;
  arrivalStartDate?: IsoDate;
  arrivalEndDate?: IsoDate;
  maxTranshipment?: number;
  receiptTypeAtOrigin?: "CY" | "SD" | "CFS";
  deliveryTypeAtDestination?: "CY" | "SD" | "CFS";
  cargoType?: string;
}

export interface PortScheduleQuery {
  UNLocationCode: Code;
  date: IsoDate;
}

export interface VesselScheduleQuery {
  vesselIMONumber?: string;
  vesselName?: string;
  carrierServiceCode?: string;
  universalServiceReference?: string;
  carrierVoyageNumber?: string;
  universalVoyageReference?: string;
  UNLocationCode?: Code;
  facilitySMDGCode?: string;
  vesselOperatorCarrierCode?: string;
  startDate?: IsoDate;
  endDate?: IsoDate;
  responseScope?: "FULL_VOYAGE" | "MATCHED_CALLS";
}

/** The vessel-schedules parameters that do not filter on their own (the OpenAPI: "MUST always be used in combination"). */
const NOT_A_FILTER = new Set(["startDate", "endDate", "responseScope"]);

export interface CsCallOptions {
  signal?: AbortSignal;
}

export class CsClient {
  readonly scac: string;
  private readonly base: string;
  private readonly http: CsHttpOptions;

  constructor(private readonly config: CsClientConfig) {
    this.scac = config.scac;
    this.base = config.baseUrl.replace(/\/+$/, "").replace(/\/v1$/, "");
    const headers = new Headers({ Accept: "application/json", "API-Version": "1" });
    for (const [k, v] of Object.entries(config.headers ?? {})) headers.set(k, v);
    if (config.apiKey) headers.set(config.apiKeyHeader ?? "API-Key", config.apiKey);
    if (config.bearerToken) headers.set("Authorization", `Bearer ${config.bearerToken}`);
    this.http = {
      scac: config.scac,
      headers,
      timeoutMs: config.timeoutMs ?? 15_000,
      maxBodyBytes: config.maxBodyBytes ?? 8 * 1024 * 1024,
      retries: config.retries ?? 2,
      retryDelayMs: config.retryDelayMs ?? 500,
      maxRetryDelayMs: config.maxRetryDelayMs ?? 30_000,
      sleep: config.sleep ?? abortableSleep,
    };
  }

  async pointToPointRoutes(query: PointToPointQuery, opts: CsCallOptions = {}): Promise<Route[]> {
    const items = await this.fetchAll("/v1/point-to-point-routes", "PointToPoint", { ...query }, opts);
    return mapPointToPoint(items as CsPointToPoint[]);
  }

  async portSchedules(query: PortScheduleQuery, opts: CsCallOptions = {}): Promise<PortSchedule[]> {
    const items = await this.fetchAll("/v1/port-schedules", "PortSchedule", { ...query }, opts);
    return mapPortSchedules(items as CsPortSchedule[]);
  }

  async vesselSchedules(query: VesselScheduleQuery, opts: CsCallOptions = {}): Promise<Sailing[]> {
    if (!Object.entries(query).some(([k, v]) => v !== undefined && !NOT_A_FILTER.has(k))) {
      throw new RangeError("vessel schedules need a filter besides startDate/endDate/responseScope");
    }
    const items = await this.fetchAll("/v1/vessel-schedules", "ServiceSchedule", { ...query }, opts);
    return mapVesselSchedules(items as CsServiceSchedule[]);
  }

  /** Every page of `path`, validated; throws before returning anything if any page is wrong. */
  private async fetchAll(
    path: string,
    item: CsItemSchema,
    query: Record<string, string | number | undefined>,
    opts: CsCallOptions,
  ): Promise<unknown[]> {
    const params = Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined));
    const limit = this.config.pageLimit ?? 100;
    // A caller's mistake, not the carrier's: refuse before sending.
    const bad = validateCsQuery(path, { ...params, limit });
    if (bad.length) throw new RangeError(`${path}: ${bad.join("; ")}`);
    const first = new URL(`${this.base}${path}`);
    for (const [k, v] of Object.entries(params)) first.searchParams.set(k, String(v));
    first.searchParams.set("limit", String(limit));

    const items: unknown[] = [];
    const cursors = new Set<string>();
    let url = first;
    const maxPages = this.config.maxPages ?? 50;
    for (let page = 1; ; page++) {
      const { body, nextCursor } = await getPage(url, this.http, opts.signal);
      const checked = validateCsBody(body, item);
      if (!checked.ok) {
        throw new CarrierError(
          "invalid_payload",
          this.scac,
          `page ${page} of ${path} breaks DCSA CS: ${checked.issues[0]}`,
          { issues: checked.issues },
        );
      }
      items.push(...checked.items);
      if (!nextCursor) return items;
      if (cursors.has(nextCursor) || page >= maxPages) {
        throw new CarrierError(
          "invalid_payload",
          this.scac,
          `${path}: pagination does not end (${cursors.has(nextCursor) ? "cursor repeats" : `more than ${maxPages} pages`})`,
          { issues: ["Next-Page-Cursor: pagination does not end"] },
        );
      }
      cursors.add(nextCursor);
      // The OpenAPI: the next request keeps every filter and the limit, adding the cursor.
      url = new URL(first);
      url.searchParams.set("cursor", nextCursor);
    }
  }
}
