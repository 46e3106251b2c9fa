/**
 * A raw HTTP/1.1 client over a real TCP socket: sends exactly the bytes given (odd Host headers,
 * absolute-form targets, bad request lines) and parses whatever comes back, or notes that the
 * server closed without answering.
 */
import type { FetchApp } from "../../api/app.ts";
import { serveBun } from "../../api/runtime/bun-serve.ts";
import { PRODUCT_IDS, type ProductId } from "../../api/shared/products.ts";

export interface RawAnswer {
  /** 0 when the connection closed (or timed out) without a status line. */
  status: number;
  headers: Record<string, string>;
  body: string;
}

export function rawRequest(port: number, payload: string, timeoutMs = 5000): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    let buf = Buffer.alloc(0);
    let settled = false;
    const finish = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(parse(buf));
    };
    // A complete response (status, headers and Content-Length bytes) ends the wait early.
    const complete = () => {
      const head = buf.indexOf("\r\n\r\n");
      if (head < 0) return false;
      const m = /\r\ncontent-length:\s*(\d+)/i.exec(buf.subarray(0, head).toString("latin1"));
      return m ? buf.length >= head + 4 + Number(m[1]) : false;
    };
    const timer = setTimeout(finish, timeoutMs);
    Bun.connect({
      hostname: "127.0.0.1",
      port,
      socket: {
        open(s) {
          s.write(payload);
        },
        data(s, d) {
          buf = Buffer.concat([buf, d]);
          if (complete()) {
            s.end();
            finish();
          }
        },
        close: finish,
        error: finish,
      },
    }).catch(reject);
  });
}

function parse(buf: Buffer): RawAnswer {
  const text = buf.toString("utf8");
  const head = text.indexOf("\r\n\r\n");
  const m = /^HTTP\/1\.[01] (\d{3})/.exec(text);
  if (!m || head < 0) return { status: 0, headers: {}, body: text };
  const headers: Record<string, string> = {};
  for (const line of text.slice(0, head).split("\r\n").slice(1)) {
    const i = line.indexOf(":");
    if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  return { status: Number(m[1]), headers, body: text.slice(head + 4) };
}

/** A GET with the given target and Host line (null: no Host header at all). */
export const rawGet = (target: string, host: string | null, extra = "") =>
  `GET ${target} HTTP/1.1\r\n${host === null ? "" : `Host: ${host}\r\n`}${extra}Connection: close\r\n\r\n`;

/** Every product of an app set on its own real loopback listener; stop() closes them all. */
export function serveProducts(apps: Record<ProductId, FetchApp>) {
  const ports = {} as Record<ProductId, number>;
  const servers = PRODUCT_IDS.map((id) => {
    const server = serveBun(apps[id], "127.0.0.1", 0);
    ports[id] = server.port!;
    return server;
  });
  const stop = () => {
    for (const s of servers) s.stop(true);
  };
  return { ports, stop };
}
