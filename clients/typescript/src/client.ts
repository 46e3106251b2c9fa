/**
 * One typed client per product over openapi-fetch: every path, parameter and answer of the
 * product's OpenAPI document (src/generated), the key sent as Authorization: Bearer, and answers
 * 429 and 503 retried after their Retry-After (retry.ts) unless `retry: false`.
 */
import createClient, { type Client } from "openapi-fetch";
import type { paths as AirPaths } from "./generated/air.ts";
import type { paths as DistancePaths } from "./generated/distance.ts";
import type { paths as LoadingPaths } from "./generated/loading.ts";
import type { paths as OceanPaths } from "./generated/ocean.ts";
import type { paths as RatesPaths } from "./generated/rates.ts";
import type { paths as SchedulesPaths } from "./generated/schedules.ts";
import { type FetchLike, type RetryOptions, retrying } from "./retry.ts";

export interface ClientOptions {
  /** The product's base URL, e.g. http://127.0.0.1:8080 for ocean tracking. */
  baseUrl: string;
  /** The product's key (oc_, ac_, ss_, lp_, rt_, ds_); open routes need none. */
  apiKey?: string;
  /** How answers 429 and 503 are retried; false sends each request once. */
  retry?: RetryOptions | false;
  /** The fetch to send requests with (default globalThis.fetch). */
  fetch?: FetchLike;
}

function productClient<Paths extends {}>(options: ClientOptions): Client<Paths> {
  const send: FetchLike = options.fetch ?? ((request) => globalThis.fetch(request));
  return createClient<Paths>({
    baseUrl: options.baseUrl,
    headers: options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {},
    fetch: options.retry === false ? send : retrying(send, options.retry),
  });
}

export type OceanClient = Client<OceanPaths>;
export type AirClient = Client<AirPaths>;
export type SchedulesClient = Client<SchedulesPaths>;
export type LoadPlanClient = Client<LoadingPaths>;
export type RatesClient = Client<RatesPaths>;
export type DistanceClient = Client<DistancePaths>;

/** Ocean tracking and, on the same host, the vendor-compatible surface (its key goes in `api_key`). */
export const createOceanClient = (o: ClientOptions): OceanClient => productClient<OceanPaths>(o);
export const createAirClient = (o: ClientOptions): AirClient => productClient<AirPaths>(o);
export const createSchedulesClient = (o: ClientOptions): SchedulesClient => productClient<SchedulesPaths>(o);
export const createLoadPlanClient = (o: ClientOptions): LoadPlanClient => productClient<LoadingPaths>(o);
export const createRatesClient = (o: ClientOptions): RatesClient => productClient<RatesPaths>(o);
export const createDistanceClient = (o: ClientOptions): DistanceClient => productClient<DistancePaths>(o);
