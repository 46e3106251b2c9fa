/**
 * What the start needs from the runtime it runs on, chosen once by the entry point (api/main.ts
 * for Bun, api/runtime/deno-main.ts for Deno): HTTP listeners, the embedded SQLite driver and the
 * sandbox carrier's child process, the webhook dispatcher's HTTPS client. Everything else (the apps, storage over postgres.js, the Redis
 * client, the route workers) is the same code under both.
 */
import type { OpenDb } from "../../storage/database.ts";
import type { FetchApp } from "../app.ts";
import type { PinnedPost } from "../webhooks/pinned-post.ts";

export interface Served {
  port: number | undefined;
  /** Stops accepting; resolves once the requests in flight are answered (force: closes them now). */
  stop(force?: boolean): Promise<void>;
}

/** A child process whose stdin stays open (its end closing tells the child the parent is gone). */
export interface Child {
  pid: number;
  stdout: ReadableStream<Uint8Array>;
  /** The exit code and, when a signal ended it, the signal's name. */
  exited: Promise<{ code: number | null; signal: string | number | null }>;
  kill(): void;
}

export interface Runtime {
  name: "bun" | "deno";
  serve(app: FetchApp, hostname: string, port: number): Served;
  serveAdmin(app: { fetch(request: Request): Promise<Response> }, hostname: string, port: number): Served;
  openSqlite(path: string): OpenDb;
  /** The webhook dispatcher's HTTPS client: to the checked address, verified against the name. */
  pinnedPost: PinnedPost;
  /** Starts the sandbox carrier's process (its entry for this runtime) with `env`. */
  spawnSandbox(env: Record<string, string | undefined>): Child;
}
