/**
 * A bench's HTTP clients in a process of their own (`bun bench/http-clients.ts <plan.json>`), so
 * what the bench process holds (bench/tracking.ts: 100,000 records' fixtures and a platform, some
 * 3 GB) does not slow the clients that share the machine's cores with the server. Runs every row
 * of the plan once unmeasured (WARM_PASS_SECONDS each: a server that has run a while has its code
 * compiled, docs/benchmarks.md "bench/tracking.ts"), then drives each row for a warm-up and
 * `seconds`, in two passes (the second in the opposite order, so drift falls on all rows alike),
 * reads the server's CPU around each measured window, and prints one JSON line: each row's
 * requests, seconds and server CPU seconds.
 */
import { readFileSync } from "node:fs";
import { cpuSecondsOf, drive } from "./http-driver.ts";

export interface ClientPlan {
  base: string;
  headers: Record<string, string>;
  serverPid: number;
  seconds: number;
  rows: ClientRow[];
}

/**
 * A row reads `paths[i % paths.length]` at its i-th request, i counted over its warm-ups and both
 * passes; rows naming the same `cursor` share one count (two rows reading one fleet in turn, each
 * record by one of them).
 */
export interface ClientRow {
  name: string;
  paths: string[];
  cursor?: string;
}

export interface ClientResult {
  requests: number;
  seconds: number;
  /** Null where the server's CPU could not be read (no /proc). */
  cpuSeconds: number | null;
}

const CONCURRENCY = 32;
const WARM = { concurrency: 8, seconds: 0.5 };
/**
 * JavaScriptCore compiles a function's optimised tiers after thousands of calls, on other threads: a
 * fresh server's first lookups of records it had not read cost 56-60 us of CPU over their first 2 s
 * after 0.3 s of them, 48-50 us after 2.5 s (two runs each).
 */
const WARM_PASS_SECONDS = 1;

export async function runPlan(plan: ClientPlan): Promise<ClientResult[]> {
  const counts = new Map<string, number>();
  const init = { headers: plan.headers };
  const totals: ClientResult[] = plan.rows.map(() => ({ requests: 0, seconds: 0, cpuSeconds: 0 }));
  const urlOf = (k: number) => {
    const row = plan.rows[k]!;
    const counter = row.cursor ?? `row ${k}`;
    return () => {
      const i = counts.get(counter) ?? 0;
      counts.set(counter, i + 1);
      return `${plan.base}${row.paths[i % row.paths.length]}`;
    };
  };
  const forward = plan.rows.map((_, k) => k);
  for (const k of forward)
    await drive(urlOf(k), init, { concurrency: CONCURRENCY, seconds: WARM_PASS_SECONDS });
  for (const pass of [forward, [...forward].reverse()]) {
    for (const k of pass) {
      const row = plan.rows[k]!;
      const url = urlOf(k);
      await drive(url, init, WARM);
      const cpu0 = cpuSecondsOf(plan.serverPid);
      const r = await drive(url, init, { concurrency: CONCURRENCY, seconds: plan.seconds });
      const cpu1 = cpuSecondsOf(plan.serverPid);
      if (r.non2xx > 0) throw new Error(`${row.name} over HTTP: ${r.non2xx} answers not 2xx`);
      const total = totals[k]!;
      total.requests += r.requests;
      total.seconds += r.requests / r.rps;
      total.cpuSeconds =
        cpu0 === null || cpu1 === null || total.cpuSeconds === null ? null : total.cpuSeconds + cpu1 - cpu0;
    }
  }
  return totals;
}

if (import.meta.main) {
  const plan = JSON.parse(readFileSync(process.argv[2]!, "utf8")) as ClientPlan;
  console.log(JSON.stringify(await runPlan(plan)));
}
