/**
 * The webhook signature check. A delivery is an HTTPS POST of {id, type, occurred_at, data} with
 * X-Portolan-<Tag>-Signature: sha256=<lower-case hex HMAC-SHA256 of the raw body>, keyed with the
 * UTF-8 bytes of the endpoint's whole whsec_ secret (the server's signer: api/webhooks/verify.ts).
 * Web-standard crypto only, so it runs in Bun, Deno, Node 20+ and workers; crypto.subtle.verify
 * compares in constant time.
 *
 * The server signs no timestamp and keeps no replay window: receivers deduplicate on the delivery
 * id. `toleranceMs` optionally refuses a delivery whose signed occurred_at is further than that
 * from now; a retry keeps its occurred_at and the retry ladder spans about 27.5 hours (held
 * deliveries of a paused endpoint wait longer), so a tolerance shorter than that refuses real retries.
 */

export type WebhookProduct = "ocean" | "air" | "schedules" | "loading" | "rates";

/** <Tag> of each product's X-Portolan-<Tag>-* headers. */
const TAGS: Readonly<Record<WebhookProduct, string>> = {
  ocean: "ocean",
  air: "air",
  schedules: "schedules",
  loading: "loadplan",
  rates: "rates",
};

export interface WebhookDelivery {
  /** The delivery id: equals the X-Portolan-<Tag>-Delivery header, stable across retries. */
  id: string;
  type: string;
  occurred_at: string;
  data: Record<string, unknown>;
}

export interface VerifyOptions {
  product: WebhookProduct;
  /** The endpoint's whsec_ secret (in the answer that registered it). */
  secret: string;
  /** Refuse a delivery whose occurred_at is further than this from now (default: no window). */
  toleranceMs?: number;
  now?: () => number;
}

export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WebhookVerificationError";
  }
}

type HeaderSource = Headers | Record<string, string | string[] | undefined>;

const encoder = new TextEncoder();

function header(headers: HeaderSource, name: string): string | null {
  if (headers instanceof Headers) return headers.get(name);
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : headers[key];
  return (Array.isArray(value) ? value[0] : value) ?? null;
}

/** The header's name for a product, e.g. x-portolan-loadplan-signature. */
export function webhookHeader(product: WebhookProduct, field: "signature" | "event" | "delivery"): string {
  if (!Object.hasOwn(TAGS, product)) throw new WebhookVerificationError(`no webhooks on product ${product}`);
  return `x-portolan-${TAGS[product]}-${field}`;
}

/** True when `signature` (the header's value) is the HMAC of exactly these body bytes. */
export async function signatureValid(
  rawBody: string | Uint8Array,
  signature: string | null,
  secret: string,
): Promise<boolean> {
  const m = /^sha256=([0-9a-f]{64})$/.exec(signature?.trim() ?? "");
  if (!m) return false;
  const mac = Uint8Array.from(m[1]!.match(/../g)!, (h) => Number.parseInt(h, 16));
  const key = await crypto.subtle.importKey(
    "raw",
    encoder.encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["verify"],
  );
  const body = typeof rawBody === "string" ? encoder.encode(rawBody) : rawBody;
  return crypto.subtle.verify("HMAC", key, mac as BufferSource, body as BufferSource);
}

/**
 * The delivery in `rawBody` (the bytes as received, never re-serialised JSON), once its signature
 * holds and, with `toleranceMs`, its occurred_at is recent; otherwise WebhookVerificationError.
 */
export async function verifyWebhook(
  rawBody: string | Uint8Array,
  headers: HeaderSource,
  options: VerifyOptions,
): Promise<WebhookDelivery> {
  const signature = header(headers, webhookHeader(options.product, "signature"));
  if (!(await signatureValid(rawBody, signature, options.secret))) {
    throw new WebhookVerificationError("the signature does not match the body");
  }
  const text = typeof rawBody === "string" ? rawBody : new TextDecoder().decode(rawBody);
  const delivery = JSON.parse(text) as WebhookDelivery;
  if (options.toleranceMs !== undefined) {
    const age = (options.now ?? Date.now)() - Date.parse(delivery.occurred_at);
    if (!(Math.abs(age) <= options.toleranceMs)) {
      throw new WebhookVerificationError(`occurred_at ${delivery.occurred_at} is outside the tolerance`);
    }
  }
  return delivery;
}
