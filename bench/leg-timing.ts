/**
 * Timing helpers shared by the in-process leg benches (road.ts, river.ts): per-plan wall times over
 * the pairs that route, and the baseline both print against, measured in the same run: the sea
 * router's distance-only WASM query over main container port pairs.
 */
import { EngineError } from "../engine/errors.ts";
import { DEFAULT_MASK } from "../engine/sea/policy.ts";
import type { SeaRouter } from "../engine/sea/router.ts";
import { mainPorts } from "../test/distance-sea/fixture.ts";
import { httpBench } from "./http.ts";
import { fmt as fmtLoad } from "./http-driver.ts";

export const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;

export const fmt = (us: number) => (us >= 1000 ? `${(us / 1000).toFixed(2)} ms` : `${us.toFixed(1)} µs`);

export interface Timing {
  /** Sorted microseconds. */
  us: number[];
  routed: number;
  failed: number;
}

/**
 * Per-plan wall times in microseconds over the pairs that route: a warm-up pass finds them (a
 * no_route answer is counted, not timed), then each is timed `reps` times.
 */
export async function time<T>(list: T[], reps: number, run: (p: T) => unknown): Promise<Timing> {
  const ok: T[] = [];
  for (const p of list) {
    try {
      await run(p);
      ok.push(p);
    } catch (err) {
      if (!(err instanceof EngineError && err.code === "no_route")) throw err;
    }
  }
  const us: number[] = [];
  for (let k = 0; k < reps; k++) {
    for (const p of ok) {
      const t0 = Bun.nanoseconds();
      await run(p);
      us.push((Bun.nanoseconds() - t0) / 1000);
    }
  }
  return { us: us.sort((a, b) => a - b), routed: ok.length, failed: list.length - ok.length };
}

/** Main container port pairs, three per port (fixed strides). */
export const PORT_PAIRS: Array<{ from: { lat: number; lng: number }; to: { lat: number; lng: number } }> =
  (() => {
    const ports = mainPorts();
    const out: typeof PORT_PAIRS = [];
    for (let i = 0; i < ports.length; i++) {
      for (const step of [7, 31, 53]) {
        const j = (i * step + 13) % ports.length;
        if (j !== i) out.push({ from: ports[i]!, to: ports[j]! });
      }
    }
    return out;
  })();

/** The baseline: the sea router's distance-only query over PORT_PAIRS. */
export const seaBaseline = (sea: SeaRouter, reps: number) =>
  time(PORT_PAIRS, reps, (p) => sea.routeRaw(p.from, p.to, DEFAULT_MASK, false));

/**
 * One distance route over HTTP against the bare Bun.serve ceiling, measured in the same run, printed.
 * `env`: the server's environment (say, the route cache off).
 */
export async function printHttpRatio(
  name: string,
  path: string,
  quick: boolean,
  env?: Record<string, string>,
): Promise<void> {
  const [http] = await httpBench({
    seconds: quick ? 2 : 5,
    concurrency: 32,
    targets: [{ name, product: "distance", path, env }],
  });
  if (!http) return;
  console.log(http.target.name);
  console.log(`  portolan  ${fmtLoad(http.ours)}`);
  console.log(`  bare Bun  ${fmtLoad(http.bare)}`);
  console.log(`  ratio     ${(http.ours.rps / http.bare.rps).toFixed(2)} of the bare ceiling`);
}
