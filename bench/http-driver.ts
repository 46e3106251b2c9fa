/**
 * A closed-loop HTTP load driver: `concurrency` clients each send the next request as soon as the
 * previous answer arrives, for `seconds`. Reports requests/s and latency percentiles. `url` may be a
 * function of the request's sequence number, so a run can rotate through many queries. A request
 * the server drops (the connection closed without an answer) counts among the non-2xx. And what a
 * server process costs meanwhile (cpuSecondsOf).
 */
import { readdirSync, readFileSync } from "node:fs";

export interface LoadResult {
  requests: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
}

export async function drive(
  url: string | ((i: number) => string),
  init: RequestInit,
  opts: { concurrency: number; seconds: number },
): Promise<LoadResult> {
  const latencies: number[] = [];
  let non2xx = 0;
  let sent = 0;
  const next = typeof url === "string" ? () => url : () => url(sent++);
  const end = performance.now() + opts.seconds * 1000;
  const client = async () => {
    while (performance.now() < end) {
      const t0 = performance.now();
      // A connection the server closed without an answer counts as a failure, at the time it took.
      const ok = await fetch(next(), init).then(
        async (res) => {
          await res.arrayBuffer();
          return res.ok;
        },
        () => false,
      );
      latencies.push(performance.now() - t0);
      if (!ok) non2xx++;
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: opts.concurrency }, client));
  const elapsed = (performance.now() - t0) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return {
    requests: latencies.length,
    rps: latencies.length / elapsed,
    p50Ms: pct(0.5),
    p99Ms: pct(0.99),
    non2xx,
  };
}

/** Linux's USER_HZ, the unit of /proc/<pid>/stat's CPU times (100 on every architecture Bun runs on). */
const TICKS_PER_SECOND = 100;

/** A /proc stat file's user + system CPU seconds; null where there is none. */
function statCpuSeconds(file: string): number | null {
  try {
    // The fields after the command name, which is in parentheses and may hold spaces.
    const fields = readFileSync(file, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/**
 * CPU seconds the process has used, all its threads together (user and system), from
 * /proc/<pid>/stat; null where there is no /proc.
 */
export function cpuSecondsOf(pid: number): number | null {
  return statCpuSeconds(`/proc/${pid}/stat`);
}

/**
 * CPU seconds of each of the process's live threads, by thread id, with its kind: "main" (the
 * serving thread), "Worker" (worker_threads) or "other" (the runtime's JIT, GC and I/O helpers);
 * {} without /proc.
 */
export function cpuSecondsByThread(pid: number): Record<string, { kind: string; seconds: number }> {
  const out: Record<string, { kind: string; seconds: number }> = {};
  let tids: string[] = [];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const tid of tids) {
    const seconds = statCpuSeconds(`/proc/${pid}/task/${tid}/stat`);
    if (seconds === null) continue; // a thread gone meanwhile
    const name = readFileSync(`/proc/${pid}/task/${tid}/comm`, "utf8").trim();
    out[tid] = { kind: tid === String(pid) ? "main" : name === "Worker" ? "Worker" : "other", seconds };
  }
  return out;
}

/**
 * CPU seconds by thread kind between two cpuSecondsByThread readings: threads alive at the second
 * (one started meanwhile counts from zero; one ended meanwhile is not counted).
 */
export function threadCpuBetween(
  before: ReturnType<typeof cpuSecondsByThread>,
  after: ReturnType<typeof cpuSecondsByThread>,
): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [tid, { kind, seconds }] of Object.entries(after))
    out[kind] = (out[kind] ?? 0) + seconds - (before[tid]?.seconds ?? 0);
  return out;
}

export const fmt = (r: LoadResult) =>
  `${r.rps.toFixed(0).padStart(8)} req/s  p50 ${r.p50Ms.toFixed(2)} ms  p99 ${r.p99Ms.toFixed(2)} ms  (${r.requests} requests, ${r.non2xx} non-2xx)`;
