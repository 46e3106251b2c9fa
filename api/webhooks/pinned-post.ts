/**
 * One delivery's HTTPS POST to the address the dispatcher checked, while the certificate is
 * verified against the endpoint's own name (SNI) and the Host header stays the endpoint's: DNS
 * rebinding cannot slip in between the check and the connection. The runtime's entry picks the
 * client (api/runtime/): Bun's fetch takes tls.serverName and ca; Deno's does not, so Deno posts
 * through node:https (api/runtime/deno-https.ts).
 */
export interface PinnedRequest {
  /** https://<checked address>[:port]/path?query */
  url: string;
  body: string;
  headers: Record<string, string>;
  signal: AbortSignal;
  /** The name the certificate must carry; null when the endpoint is an address literal. */
  serverName: string | null;
  /** Trust anchors replacing the default roots, when the endpoint or the configuration names some. */
  ca?: string[];
}

/** Resolves with the answer (redirects are answers, never followed); rejects on a network error. */
export type PinnedPost = (request: PinnedRequest) => Promise<Response>;

/** Bun's fetch, whose tls option connects to the address while verifying the name. */
export const fetchPinned: PinnedPost = (r) =>
  fetch(r.url, {
    method: "POST",
    body: r.body,
    headers: r.headers,
    redirect: "manual",
    signal: r.signal,
    tls: { ...(r.serverName ? { serverName: r.serverName } : {}), ...(r.ca ? { ca: r.ca } : {}) },
  } as RequestInit);
