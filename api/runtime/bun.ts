/** The start's runtime pieces under Bun (api/main.ts): Bun.serve, bun:sqlite, fetch, Bun.spawn. */
import { join } from "node:path";
import { openDatabase } from "../../storage/sqlite.ts";
import { fetchPinned } from "../webhooks/pinned-post.ts";
import { serveAdmin, serveBun } from "./bun-serve.ts";
import type { Runtime } from "./runtime.ts";

const SANDBOX_ENTRY = join(import.meta.dir, "../../ingest/sandbox/main.ts");

export const bunRuntime: Runtime = {
  name: "bun",
  serve: serveBun,
  serveAdmin,
  openSqlite: openDatabase,
  pinnedPost: fetchPinned,
  spawnSandbox(env) {
    const proc = Bun.spawn([process.execPath, SANDBOX_ENTRY], {
      env,
      stdin: "pipe",
      stdout: "pipe",
      stderr: "inherit",
    });
    return {
      pid: proc.pid,
      stdout: proc.stdout,
      exited: proc.exited.then((code) => ({ code, signal: proc.signalCode })),
      kill: () => proc.kill(),
    };
  },
};
