/**
 * A real HTTPS webhook receiver for tests: a throwaway CA and a server certificate for hooks.test,
 * localhost and 127.0.0.1 made with openssl, and a node:https server whose behaviour is chosen by
 * path: /ok, /status/<code>, /redirect, /slow/<ms>, /reset, /stall (200, then a body that never
 * ends), /hang (no answer at all until the client gives up or the test calls release), /flaky/<n>
 * (500 for the first n requests of each delivery id, then 200). Every request is kept with its raw
 * body bytes and with where it arrived and ended in one sequence shared by all requests, so tests
 * can assert what happened while what else was open (causality) instead of timing it.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  makeCertificates as certificatesFor,
  type LocalCertificates,
} from "../../api/webhooks/local-certificates.ts";

export interface Received {
  path: string;
  headers: Record<string, string>;
  raw: Buffer;
  at: number;
  /** Position of the arrival in the receiver's event sequence. */
  seq: number;
  /** Position at which the exchange ended (answer sent or connection dropped); null while open. */
  ended: number | null;
}

export interface Receiver {
  port: number;
  /** PEM file of the CA that signed the server certificate (PORTOLAN_WEBHOOK_CA_FILE). */
  caFile: string;
  url(path: string, host?: string): string;
  received: Received[];
  /** Resolves once `n` requests matching `filter` have arrived. */
  waitFor(n: number, filter?: (r: Received) => boolean, timeoutMs?: number): Promise<Received[]>;
  /** Resolves with the first truthy answer of `probe`, re-asked on every arrival and every end. */
  waitUntil<T>(probe: () => T | null | undefined | false, what: string, timeoutMs?: number): Promise<T>;
  /** Answers 200 to the open /hang requests under `prefix`, and at once to later ones. */
  release(prefix: string): void;
  close(): Promise<void>;
}

/** A CA and a server certificate for the names the tests and benches reach their receivers by. */
export function makeCertificates(dir: string): LocalCertificates {
  return certificatesFor(dir, ["hooks.test", "rebind.test", "localhost", "127.0.0.1"]);
}

export async function startReceiver(): Promise<Receiver> {
  const dir = mkdtempSync(join(tmpdir(), "portolan-receiver-"));
  const certs = makeCertificates(dir);
  const received: Received[] = [];
  const seen = new Map<string, number>();
  const waiters = new Set<() => void>();
  const hanging = new Set<{ path: string; answer: () => void }>();
  const released: string[] = [];
  let seq = 0;
  const server: Server = createServer(
    { cert: readFileSync(certs.cert), key: readFileSync(certs.key) },
    (req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const path = req.url ?? "/";
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(req.headers)) headers[k] = String(v);
        const got: Received = {
          path,
          headers,
          raw: Buffer.concat(chunks),
          at: Date.now(),
          seq: ++seq,
          ended: null,
        };
        received.push(got);
        res.on("close", () => {
          got.ended = ++seq;
          for (const w of waiters) w();
        });
        for (const w of waiters) w();
        const [, mode, arg] = path.split("/");
        if (mode === "hang" && !released.some((p) => path.startsWith(p))) {
          const entry = {
            path,
            answer: () => {
              if (!res.destroyed) res.writeHead(200).end("released");
            },
          };
          hanging.add(entry);
          res.on("close", () => hanging.delete(entry));
          return;
        }
        if (mode === "reset") return req.socket.destroy();
        if (mode === "stall") {
          res.writeHead(200);
          return res.write("accepted, still talking");
        }
        if (mode === "redirect") {
          res.writeHead(302, { location: "https://hooks.test/elsewhere" });
          return res.end();
        }
        if (mode === "status") {
          res.writeHead(Number(arg));
          return res.end("x".repeat(5000));
        }
        if (mode === "flaky") {
          const id = headers["x-portolan-ocean-delivery"] ?? "";
          const n = (seen.get(id) ?? 0) + 1;
          seen.set(id, n);
          res.writeHead(n <= Number(arg) ? 500 : 200);
          return res.end("flaky");
        }
        const delay = mode === "slow" ? Number(arg) : 0;
        setTimeout(() => {
          if (res.destroyed) return;
          res.writeHead(200, { "content-type": "text/plain" });
          res.end("ok");
        }, delay);
      });
    },
  );
  function waitUntil<T>(
    probe: () => T | null | undefined | false,
    what: string,
    timeoutMs = 10_000,
  ): Promise<T> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const v = probe();
        if (!v) return false;
        waiters.delete(check);
        clearTimeout(timer);
        resolve(v);
        return true;
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`timed out waiting for ${what}`));
      }, timeoutMs);
      if (!check()) waiters.add(check);
    });
  }
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    caFile: certs.ca,
    url: (path, host = "hooks.test") => `https://${host}:${port}${path}`,
    received,
    waitFor(n, filter = () => true, timeoutMs = 10_000) {
      return waitUntil(
        () => {
          const hits = received.filter(filter);
          return hits.length >= n && hits;
        },
        `${n} requests`,
        timeoutMs,
      ).catch(() => {
        throw new Error(`waited for ${n} requests, got ${received.filter(filter).length}`);
      });
    },
    waitUntil,
    release(prefix) {
      released.push(prefix);
      for (const h of [...hanging]) if (h.path.startsWith(prefix)) h.answer();
    },
    async close() {
      server.closeAllConnections?.();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
