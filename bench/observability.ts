/**
 * What the access log and the request metrics cost: the keyed no-op GET /v1/account (auth, rate
 * window, envelope) served with both on (an access line a request on stdout, read by this process
 * as a log collector reads it; the counters, the gauge and the histogram recorded) and with both
 * off (PORTOLAN_LOG_LEVEL=warn, BENCH_REQUEST_METRICS=off in bench/servers.ts), each server in a
 * process of its own, 32 concurrent keep-alive clients. Measured in alternating rounds in the same
 * run, so drift on a shared machine falls on both alike; prints requests/s and the ratio.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AccountsRepo } from "../api/accounts/repo.ts";
import { openDatabase } from "../storage/sqlite.ts";
import { sqliteStorage } from "../storage/storage.ts";
import { startServer } from "./http.ts";
import { drive, fmt, type LoadResult } from "./http-driver.ts";

const ROUNDS = 3;
const SECONDS = 4;
const ON = { PORTOLAN_LOG_LEVEL: "info" };
const OFF = { PORTOLAN_LOG_LEVEL: "warn", BENCH_REQUEST_METRICS: "off" };

/** The requests/s of several rounds as one result: all their requests over all their seconds. */
function pooled(runs: LoadResult[]): LoadResult {
  const requests = runs.reduce((n, r) => n + r.requests, 0);
  const seconds = runs.reduce((n, r) => n + r.requests / r.rps, 0);
  const mid = runs[Math.floor(runs.length / 2)]!;
  const non2xx = runs.reduce((n, r) => n + r.non2xx, 0);
  return { requests, rps: requests / seconds, p50Ms: mid.p50Ms, p99Ms: mid.p99Ms, non2xx };
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), "portolan-bench-observability-"));
  try {
    const database = join(dir, "bench.sqlite");
    const storage = sqliteStorage(openDatabase(database));
    const repo = new AccountsRepo(storage);
    // An arranged ceiling far above the load, so the bench measures the path, not 429s.
    const org = await repo.createOrg("bench", { paid: true, rateLimit: 1_000_000_000 });
    const init = { headers: { authorization: `Bearer ${(await repo.createKey(org.id, "ocean")).key}` } };
    await storage.close();
    const on = await startServer(["portolan", database, "ocean"], ON);
    const off = await startServer(["portolan", database, "ocean"], OFF);
    const url = (port: number) => `http://127.0.0.1:${port}/v1/account`;
    const runs = { on: [] as LoadResult[], off: [] as LoadResult[] };
    try {
      for (const s of [on, off]) await drive(url(s.port), init, { concurrency: 8, seconds: 1 });
      for (let round = 0; round < ROUNDS; round++) {
        // Each round in the other order than the last.
        const order = round % 2 ? (["off", "on"] as const) : (["on", "off"] as const);
        for (const which of order) {
          const server = which === "on" ? on : off;
          runs[which].push(await drive(url(server.port), init, { concurrency: 32, seconds: SECONDS }));
        }
      }
    } finally {
      on.stop();
      off.stop();
    }
    const [withBoth, without] = [pooled(runs.on), pooled(runs.off)];
    console.log("keyed no-op GET /v1/account");
    console.log(`  access log + metrics on   ${fmt(withBoth)}`);
    console.log(`  access log + metrics off  ${fmt(without)}`);
    console.log(`  ratio     ${(withBoth.rps / without.rps).toFixed(2)} of the requests/s without them`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) await main();
