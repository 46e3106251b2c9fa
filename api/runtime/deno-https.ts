/**
 * Pinned webhook POSTs under Deno (api/webhooks/pinned-post.ts): Deno's fetch cannot name the
 * certificate apart from the address it connects to, node:https can (host, servername, ca).
 */
import { request } from "node:https";
import { Readable } from "node:stream";
import type { PinnedPost } from "../webhooks/pinned-post.ts";

/** Statuses whose answer has no body: a Response refuses one. */
const NO_BODY = new Set([204, 205, 304]);

export const nodePinnedPost: PinnedPost = (r) =>
  new Promise((resolve, reject) => {
    const url = new URL(r.url);
    const req = request(
      {
        host: url.hostname.replace(/^\[|\]$/g, ""),
        port: url.port || 443,
        path: `${url.pathname}${url.search}`,
        method: "POST",
        headers: r.headers,
        signal: r.signal,
        servername: r.serverName ?? undefined,
        ca: r.ca,
      },
      (res) => {
        const headers = new Headers();
        for (const [name, value] of Object.entries(res.headers))
          if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
        const status = res.statusCode ?? 0;
        if (NO_BODY.has(status)) res.resume();
        try {
          const body = NO_BODY.has(status)
            ? null
            : (Readable.toWeb(res) as unknown as ReadableStream<Uint8Array>);
          resolve(new Response(body, { status, headers }));
        } catch (err) {
          // A status outside 200-599 is no HTTP answer a receiver can give: a failed attempt.
          res.destroy();
          reject(err);
        }
      },
    );
    req.on("error", reject);
    req.end(r.body);
  });
