/**
 * What the specs say each product's bodies look like, written independently of the implementation
 * so tests can check any response against it. Returns a list of problems (empty = conforms).
 */
import type { ProductId } from "../../api/shared/products.ts";

type Json = Record<string, unknown>;

const keyList = (o: unknown, skip: string[]) =>
  o && typeof o === "object"
    ? Object.keys(o)
        .filter((k) => !skip.includes(k))
        .sort()
        .join(",")
    : typeof o;
/** An object's keys in order, but for the request id every error body may carry (docs/operating.md). */
const keys = (o: unknown) => keyList(o, ["request_id"]);
/** Every key: compat bodies keep the vendor's keys and no others. */
const compatKeys = (o: unknown) => keyList(o, []);
const UPPER = /^[A-Z][A-Z_]+$/;
const LOWER = /^[a-z][a-z_]+$/;

const OK_FAMILY: ProductId[] = ["ocean", "schedules", "loading"];

/** `path`: the spec gives GET /v1/distance/locations a body of its own, {data: []}. */
export function successProblems(product: ProductId, body: Json, path?: string): string[] {
  const k = keys(body);
  switch (product) {
    case "ocean":
      // The DCSA 2.2 feed answers a bare array, as the DCSA API does.
      if (path === "/v2/events") return Array.isArray(body) ? [] : ["the DCSA feed answered no array"];
      if (k !== "api_version,data,ok" || body.ok !== true) return [`ocean success keys ${k}`];
      return /^\d{4}-\d{2}-\d{2}$/.test(String(body.api_version)) ? [] : ["api_version is not a date"];
    case "schedules":
    case "loading":
      return k === "data,ok" && body.ok === true ? [] : [`${product} success keys ${k}`];
    case "air":
    case "rates":
      return k === "data" ? [] : [`${product} success keys ${k}`];
    case "distance":
      if (path === "/v1/distance/locations")
        return k === "data" && Array.isArray(body.data) ? [] : [`locations success keys ${k}`];
      if (k !== "data,meta") return [`distance success keys ${k}`];
      return typeof (body.meta as Json).took_ms === "number" ? [] : ["meta.took_ms not a number"];
  }
}

/** `open` = an unkeyed route (public lookup, /public/*, docs, health). */
export function errorProblems(
  product: ProductId,
  body: Json,
  opts: { open?: boolean; compat?: boolean } = {},
): string[] {
  if (opts.compat) {
    return compatKeys(body) === "data,message,status" && body.status === "error" && body.data === null
      ? []
      : [`compat transport error ${JSON.stringify(body)}`];
  }
  if (OK_FAMILY.includes(product)) {
    if (opts.open) {
      return keys(body) === "message,ok" && body.ok === false && typeof body.message === "string"
        ? []
        : [`open error ${JSON.stringify(body)}`];
    }
    const e = body.error as Json;
    if (keys(body) !== "error,ok" || body.ok !== false) return [`keyed error keys ${keys(body)}`];
    if (!UPPER.test(String(e.code)) || typeof e.message !== "string" || typeof e.severity !== "string") {
      return [`error object ${JSON.stringify(e)}`];
    }
    return [];
  }
  const e = body.error as Json;
  if (keys(body) !== "error") return [`${product} error keys ${keys(body)}`];
  return LOWER.test(String(e?.code)) && typeof e?.message === "string"
    ? []
    : [`error object ${JSON.stringify(e)}`];
}

export function errorCode(body: Json): string | undefined {
  return (body.error as Json | undefined)?.code as string | undefined;
}

/** The vendor-compatible surface: {status, message, data[, detail]}; success carries exactly seven data keys. */
export function compatProblems(body: Json): string[] {
  const k = compatKeys(body);
  if (k !== "data,message,status" && k !== "data,detail,message,status") return [`compat keys ${k}`];
  if (body.status === "success") {
    return keys(body.data) === "containers,facilities,locations,metadata,route,route_data,vessels"
      ? []
      : [`compat data keys ${keys(body.data)}`];
  }
  if (body.status !== "error" || typeof body.message !== "string")
    return [`compat error ${JSON.stringify(body)}`];
  return body.data === null || keys(body.data) === ""
    ? []
    : [`compat error data ${JSON.stringify(body.data)}`];
}
