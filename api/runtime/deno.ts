/**
 * The start's runtime pieces under Deno (api/runtime/deno-main.ts): Deno.serve, node:sqlite
 * (./deno-sqlite.ts), node:https for webhooks (./deno-https.ts), Deno.Command for the sandbox
 * process, Deno.listen for its AIS feed.
 */
import { fileURLToPath } from "node:url";
import type { ListenTcp } from "../../ingest/sandbox/ais.ts";
import type { FetchApp } from "../app.ts";
import { nodePinnedPost } from "./deno-https.ts";
import { openDenoDatabase } from "./deno-sqlite.ts";
import type { Runtime, Served } from "./runtime.ts";

interface DenoConn {
  readable: ReadableStream<Uint8Array>;
  writable: WritableStream<Uint8Array>;
  close(): void;
}

declare const Deno: {
  serve(
    opts: { hostname: string; port: number; onListen?: () => void },
    handler: (r: Request, info: { remoteAddr: { hostname: string } }) => Response | Promise<Response>,
  ): { addr: { hostname: string; port: number }; shutdown(): Promise<void> };
  listen(opts: { hostname: string; port: number }): AsyncIterable<DenoConn> & {
    addr: { port: number };
    close(): void;
  };
  execPath(): string;
  Command: new (
    cmd: string,
    opts: {
      args: string[];
      cwd: string;
      env: Record<string, string>;
      stdin: "piped";
      stdout: "piped";
      stderr: "inherit";
    },
  ) => {
    spawn(): {
      pid: number;
      stdout: ReadableStream<Uint8Array>;
      status: Promise<{ code: number; signal: string | null }>;
      kill(): void;
    };
  };
};

const url = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const MIGRATIONS = url("../../storage/migrations");
const SANDBOX_ENTRY = url("./deno-sandbox.ts");
/** Deno finds package.json, and so node_modules, from the working directory. */
const ROOT = url("../..");

type Handler = (request: Request) => Response | Promise<Response>;

/** Deno.serve, quiet (no "Listening on" line: stdout carries the logs, and the sandbox's addresses). */
export function denoServe(o: { hostname: string; port: number; fetch: Handler }) {
  return Deno.serve({ hostname: o.hostname, port: o.port, onListen: () => {} }, o.fetch);
}

function served(server: ReturnType<typeof denoServe>): Served {
  return {
    port: server.addr.port,
    // Deno closes the connections still open only as the process exits, which follows a forced stop.
    stop: async (force) => {
      const shut = server.shutdown();
      if (!force) await shut;
    },
  };
}

/** A product listener; the app reads each client's address (per-IP limits) from the connection. */
function serveApp(app: FetchApp, hostname: string, port: number): Served {
  const clients = new WeakMap<Request, string>();
  app.server = { requestIP: (request) => ({ address: clients.get(request) ?? "unknown" }) };
  const server = Deno.serve({ hostname, port, onListen: () => {} }, (request, info) => {
    clients.set(request, info.remoteAddr.hostname);
    return app.fetch(request);
  });
  return served(server);
}

/** The sandbox's AIS feed: every connection gets the broadcast until it closes. */
export const denoListenTcp: ListenTcp = ({ hostname, port, open, close }) => {
  const listener = Deno.listen({ hostname, port });
  const serveConn = async (conn: DenoConn) => {
    const writer = conn.writable.getWriter();
    const encoder = new TextEncoder();
    const client = { write: (text: string) => writer.write(encoder.encode(text)).catch(() => {}) };
    open(client);
    // Nothing is read from a listener; the stream ending is its close.
    await conn.readable.pipeTo(new WritableStream()).catch(() => {});
    close(client);
  };
  void (async () => {
    for await (const conn of listener) void serveConn(conn);
  })().catch(() => {});
  return { port: listener.addr.port, stop: () => listener.close() };
};

export const denoRuntime: Runtime = {
  name: "deno",
  serve: serveApp,
  serveAdmin: (app, hostname, port) => served(denoServe({ hostname, port, fetch: (r) => app.fetch(r) })),
  openSqlite: (path) => openDenoDatabase(path, MIGRATIONS),
  pinnedPost: nodePinnedPost,
  spawnSandbox(env) {
    const defined = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined)) as Record<
      string,
      string
    >;
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--no-check", SANDBOX_ENTRY],
      cwd: ROOT,
      env: defined,
      stdin: "piped",
      stdout: "piped",
      stderr: "inherit",
    }).spawn();
    return {
      pid: child.pid,
      stdout: child.stdout,
      exited: child.status.then(({ code, signal }) => ({ code, signal })),
      kill: () => child.kill(),
    };
  },
};
