/**
 * Platform bench: the keyed no-op GET /v1/account (auth, rate window, envelope) against a bare
 * Bun.serve handler answering the same bytes, measured in the same run.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AccountsRepo } from "../api/accounts/repo.ts";
import { openDatabase } from "../api/db/sqlite.ts";
import { freePort } from "../test/helpers/redis-server.ts";
import { drive, fmt, type LoadResult } from "./http-driver.ts";

const root = join(import.meta.dir, "..");
const bun = join(root, "node_modules/.bin/bun");

export async function startServer(args: string[]): Promise<{ port: number; stop(): void }> {
  const port = await freePort();
  const proc = Bun.spawn([bun, join(root, "bench/servers.ts"), args[0]!, String(port), ...args.slice(1)], {
    stdout: "pipe",
    stderr: "inherit",
  });
  const reader = proc.stdout.getReader();
  await reader.read(); // "ready"
  return { port, stop: () => proc.kill() };
}

export async function httpBench(opts: {
  seconds: number;
  concurrency: number;
}): Promise<{ portolan: LoadResult; bare: LoadResult }> {
  const dir = mkdtempSync(join(tmpdir(), "portolan-bench-"));
  try {
    const dbPath = join(dir, "bench.sqlite");
    const { db, close } = openDatabase(dbPath);
    const repo = new AccountsRepo(db);
    // An arranged ceiling far above the load, so the bench measures the path, not 429s.
    const org = repo.createOrg("bench", { paid: true, rateLimit: 1_000_000_000 });
    repo.setEntitlement(org.id, "ocean", null);
    const { key } = await repo.createKey(org.id, "ocean");
    close();

    const ours = await startServer(["portolan", dbPath]);
    const init = { headers: { authorization: `Bearer ${key}` } };
    const sample = await (await fetch(`http://127.0.0.1:${ours.port}/v1/account`, init)).text();
    const bodyFile = join(dir, "body.json");
    writeFileSync(bodyFile, sample);
    const bare = await startServer(["bare", "", bodyFile]);
    try {
      // Warm both, then measure alternately so drift hits both alike.
      await drive(`http://127.0.0.1:${ours.port}/v1/account`, init, { concurrency: 8, seconds: 1 });
      await drive(`http://127.0.0.1:${bare.port}/v1/account`, init, { concurrency: 8, seconds: 1 });
      const portolan = await drive(`http://127.0.0.1:${ours.port}/v1/account`, init, opts);
      const bareResult = await drive(`http://127.0.0.1:${bare.port}/v1/account`, init, opts);
      return { portolan, bare: bareResult };
    } finally {
      ours.stop();
      bare.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const r = await httpBench({ seconds: 5, concurrency: 32 });
  console.log(`keyed no-op  ${fmt(r.portolan)}`);
  console.log(`bare Bun     ${fmt(r.bare)}`);
  console.log(`ratio        ${(r.portolan.rps / r.bare.rps).toFixed(2)} of the bare ceiling`);
}
