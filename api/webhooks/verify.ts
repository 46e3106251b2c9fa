/**
 * Webhook signatures: X-<Product>-Signature: sha256=<lower-case hex HMAC-SHA256 of the raw body>,
 * keyed with the UTF-8 bytes of the whole whsec_ secret. Web-standard crypto only, so a receiver
 * can copy this file into any runtime (Bun, Deno, Node 20+, workers).
 */

const encoder = new TextEncoder();

type Bytes = string | Uint8Array | ArrayBuffer;

const bytesOf = (b: Bytes): Uint8Array =>
  typeof b === "string" ? encoder.encode(b) : b instanceof Uint8Array ? b : new Uint8Array(b);

/** A non-extractable HMAC-SHA256 key for a whsec_ secret. */
export function hmacKey(secret: string, usage: "sign" | "verify"): Promise<CryptoKey> {
  return crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
    usage,
  ]);
}

/** The header value for a body: "sha256=" + lower-case hex; `key` from hmacKey(secret, "sign") or the secret. */
export async function sign(rawBody: Bytes, key: CryptoKey | string): Promise<string> {
  const k = typeof key === "string" ? await hmacKey(key, "sign") : key;
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", k, bytesOf(rawBody) as BufferSource));
  let hex = "";
  for (const b of mac) hex += b.toString(16).padStart(2, "0");
  return `sha256=${hex}`;
}

/**
 * True when the header is a valid signature of exactly these body bytes. Pass the body as received
 * (request.text() or arrayBuffer()), never re-serialised JSON. Comparison is constant time
 * (crypto.subtle.verify).
 */
export async function verify(
  rawBody: Bytes,
  signatureHeader: string | null,
  secret: string,
): Promise<boolean> {
  const m = /^sha256=([0-9a-f]{64})$/.exec(signatureHeader?.trim() ?? "");
  if (!m) return false;
  const mac = Uint8Array.from(m[1]!.match(/../g)!, (h) => Number.parseInt(h, 16));
  return crypto.subtle.verify(
    "HMAC",
    await hmacKey(secret, "verify"),
    mac as BufferSource,
    bytesOf(rawBody) as BufferSource,
  );
}
